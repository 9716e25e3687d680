"""A realistic app folder (tests/data/mixed-app): built-in objects and custom resources together,
`crdtool validate -c crds/ manifests/` answers every object, each as far as its kind's checks go."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.apis.validation import validation_for
from crdtool.cli import cli

APP = Path(__file__).resolve().parents[1] / "data" / "mixed-app"
BUILT_IN_GROUPS = {"v1": "", "apps/v1": "apps", "batch/v1": "batch", "networking.k8s.io/v1": "networking.k8s.io",
                   "rbac.authorization.k8s.io/v1": "rbac.authorization.k8s.io", "autoscaling/v2": "autoscaling",
                   "policy/v1": "policy"}

EXPECTED = """\
ok manifests/alerts.yaml: PrometheusRule shop-alerts
ok manifests/certificate.yaml: Certificate shop-tls
ok manifests/config.yaml: ConfigMap shop-config
ok manifests/cronjob.yaml: CronJob shop-report
ok manifests/deployment.yaml: Deployment shop
ok manifests/ingress.yaml: Ingress shop
ok manifests/rbac.yaml: ServiceAccount shop
ok manifests/rbac.yaml: Role shop
ok manifests/rbac.yaml: RoleBinding shop
ok manifests/scaling.yaml: HorizontalPodAutoscaler shop
ok manifests/scaling.yaml: PodDisruptionBudget shop
ok manifests/service.yaml: Service shop
12 objects would be accepted
"""


def run(monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(APP)
    return CliRunner().invoke(cli, ["validate", *args, "-c", "crds/", "manifests/"])


def test_every_object_is_answered_as_far_as_its_kind_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    res = run(monkeypatch, "--format", "json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["skipped"] == {}
    results = report["results"]
    assert len(results) == 12
    assert all(r["valid"] for r in results)
    for r in results:
        group = BUILT_IN_GROUPS.get(r["apiVersion"])
        full = group is None or validation_for(group, r["kind"]) is not None  # custom resources: their CRD
        assert r["checks"] == ("validation" if full else "decoding,defaulting,metadata"), r["kind"]
    custom = {r["kind"] for r in results if r["apiVersion"] not in BUILT_IN_GROUPS}
    assert custom == {"Certificate", "PrometheusRule"}


def test_the_text_output_says_every_object_was_fully_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    res = run(monkeypatch, "--no-color")
    assert res.exit_code == 0
    assert res.output == EXPECTED


def test_a_typo_in_a_built_in_object_and_in_a_custom_resource_are_both_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    manifests = tmp_path / "manifests"
    manifests.mkdir()
    for path in (APP / "manifests").iterdir():
        (manifests / path.name).write_text(path.read_text())
    deployment = manifests / "deployment.yaml"
    deployment.write_text(deployment.read_text().replace("        ports:", "        prots:"))
    certificate = manifests / "certificate.yaml"
    certificate.write_text(certificate.read_text().replace("algorithm: ECDSA", "algorithm: DSA"))
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["validate", "--no-color", "-c", str(APP / "crds"), "manifests/"])
    assert res.exit_code == 1
    assert ('manifests/deployment.yaml:21:9: error: strict decoding: unknown field '
            '"spec.template.spec.containers[0].prots"') in res.output
    assert ('manifests/certificate.yaml:11:16: error: spec.privateKey.algorithm: Unsupported value: "DSA": '
            'supported values: "RSA", "ECDSA", "Ed25519"') in res.output
    assert "2 of 12 objects would be rejected" in res.output
