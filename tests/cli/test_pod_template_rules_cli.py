"""A workload's pod template whose seccomp or AppArmor annotation contradicts its field, or whose
huge pages are not whole pages, is refused as the apiserver refuses it (ValidatePodTemplateSpec)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        container.apparmor.security.beta.kubernetes.io/app: localhost/strict
    spec:
      containers:
      - name: app
        image: nginx
        securityContext:
          appArmorProfile: {type: RuntimeDefault}
"""


def test_a_template_annotation_that_contradicts_its_field_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deploy.yaml"
    path.write_text(DEPLOYMENT)
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'Deployment.apps "web" is invalid: spec.template.spec.containers[0].securityContext.appArmorProfile.type: '
        "Forbidden: apparmor type in annotation and field must match")
    path.write_text(DEPLOYMENT.replace("localhost/strict", "runtime/default"))
    assert CliRunner().invoke(cli, ["validate", str(path)]).exit_code == 0


def test_huge_pages_must_be_whole_pages(tmp_path: Path) -> None:
    path = tmp_path / "deploy.yaml"
    path.write_text(DEPLOYMENT.replace("localhost/strict", "runtime/default")
                    + "        resources:\n          limits: {memory: 1Gi, hugepages-2Mi: 5Mi}\n")
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert res.exit_code == 1, res.output
    # a template's requests are not defaulted from its limits (a Pod's are): one error
    assert json.loads(res.output)["results"][0]["status"] == (
        'Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.limits[hugepages-2Mi]: '
        'Invalid value: "5Mi": 5Mi is not positive integer multiple of hugepages-2Mi')
