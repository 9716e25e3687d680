"""A Pod's, or a workload's pod template's, kubelet and scheduler annotations are checked as the
apiserver checks them (ValidatePodSpecificAnnotations and, on a Pod's update,
ValidatePodSpecificAnnotationUpdates), in its words."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations:
    container.apparmor.security.beta.kubernetes.io/web: foo
    container.apparmor.security.beta.kubernetes.io/nope: runtime/default
spec:
  containers: [{name: web, image: nginx}]
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        scheduler.alpha.kubernetes.io/tolerations: '[{"key": "a", "tolerationSeconds": "30"}]'
        controller.kubernetes.io/pod-deletion-cost: "+5"
        seccomp.security.alpha.kubernetes.io/pod: localhost/../escape.json
        container.apparmor.security.beta.kubernetes.io/sidecar: runtime/default
    spec:
      containers: [{name: web, image: nginx}]
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_bad_apparmor_annotations_are_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", POD)
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert (f'{path}:6:5: error: metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: Invalid '
            'value: "foo": invalid AppArmor profile name: "foo"') in res.output
    assert (f'{path}:7:5: error: metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid '
            'value: "nope": container not found') in res.output
    kubectl = run("validate", "--format", "kubectl", path)
    assert kubectl.output.startswith(
        'The Pod "web" is invalid: \n'
        '* metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: Invalid value: "foo": invalid '
        'AppArmor profile name: "foo"\n'
        '* metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": '
        "container not found\n")
    fixed = write_file(tmp_path, "obj.yaml", POD.replace(": foo", ": localhost/web").replace("/nope", "/web2")
                       .replace("{name: web, image: nginx}", "{name: web, image: nginx}, {name: web2, image: nginx}"))
    assert run("validate", fixed).exit_code == 0


def test_a_deployments_template_annotations_get_the_same_checks(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", DEPLOYMENT)
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'Deployment.apps "web" is invalid: ['
        'spec.template.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": json: cannot '
        "unmarshal string into Go struct field Toleration.tolerationSeconds of type int64, "
        'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+5": must be a '
        "32bit integer, "
        'spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "../escape.json": must '
        "not contain '..', "
        'spec.template.annotations[container.apparmor.security.beta.kubernetes.io/sidecar]: Invalid value: '
        '"sidecar": container not found]')


def test_decoded_tolerations_are_validated(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", DEPLOYMENT.replace('"30"', "30"))
    status = json.loads(run("validate", "--format", "json", path).output)["results"][0]["status"]
    assert status.startswith(
        'Deployment.apps "web" is invalid: [spec.template.annotations.scheduler.alpha.kubernetes.io/tolerations[0]'
        ".effect: Invalid value: \"\": effect must be 'NoExecute' when `tolerationSeconds` is set, ")


def test_a_hostile_tolerations_annotation_is_answered(tmp_path: Path) -> None:
    def pod(tolerations: str) -> str:
        return write_file(tmp_path, "obj.yaml",
                          POD.replace("    container.apparmor.security.beta.kubernetes.io/web: foo\n", "")
                          .replace("container.apparmor.security.beta.kubernetes.io/nope: runtime/default",
                                   f"scheduler.alpha.kubernetes.io/tolerations: '{tolerations}'"))

    res = run("validate", "--format", "kubectl", pod("[" * 5000 + "]" * 5000))
    assert res.exit_code == 1, res.output
    assert res.output.startswith(
        'The Pod "web" is invalid: metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": '
        "json: cannot unmarshal array into Go value of type core.Toleration")
    res = run("validate", "--format", "kubectl", pod("[" * 10001 + "]" * 10001))
    assert res.exit_code == 1, res.output
    assert res.output.startswith(
        'The Pod "web" is invalid: metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": '
        "exceeded max depth")


POD_UPDATE = """\
apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations:
    controller.kubernetes.io/pod-deletion-cost: "{cost}"
{more}spec:
  containers: [{{name: web, image: nginx}}]
"""


def test_pod_updates_may_not_touch_apparmor_or_mirror_annotations(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", POD_UPDATE.format(cost="7", more="    kubernetes.io/config.mirror: m\n")
                      .replace("spec:\n", "spec:\n  nodeName: n1\n"))
    new = write_file(tmp_path, "new.yaml", POD_UPDATE.format(
        cost="7", more="    container.apparmor.security.beta.kubernetes.io/web: runtime/default\n")
                     .replace("spec:\n", "spec:\n  nodeName: n1\n"))
    res = run("validate", "--format", "kubectl", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert res.output.startswith(
        'The Pod "web" is invalid: \n'
        "* metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod "
        "annotation\n"
        "* metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: Forbidden: may not add AppArmor "
        "annotations\n")


def test_an_update_keeps_a_deletion_cost_that_was_already_invalid(tmp_path: Path) -> None:
    new = write_file(tmp_path, "new.yaml", POD_UPDATE.format(cost="008", more=""))
    assert run("validate", "--old", write_file(tmp_path, "live.yaml", POD_UPDATE.format(cost="007", more="")),
               new).exit_code == 0
    res = run("validate", "--format", "kubectl", "--old",
              write_file(tmp_path, "valid.yaml", POD_UPDATE.format(cost="7", more="")), new)
    assert res.exit_code == 1, res.output
    assert res.output.startswith('The Pod "web" is invalid: metadata.annotations[controller.kubernetes.io/'
                                 'pod-deletion-cost]: Invalid value: "008": must be a 32bit integer')
