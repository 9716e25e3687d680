"""The kinds' own validation through `crdtool validate` (text, json, kubectl formats and --old):
networking, rbac, autoscaling, policy, scheduling and storage objects."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

APP = Path(__file__).resolve().parents[1] / "data" / "builtin-app" / "app.yaml"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_valid_app_is_accepted_with_every_object_fully_validated() -> None:
    res = run("validate", "--format", "json", str(APP))
    assert res.exit_code == 0, res.output
    results = json.loads(res.output)["results"]
    assert len(results) == 8
    assert {r["checks"] for r in results} == {"validation"}


def test_an_invalid_ingress_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    text = APP.read_text().replace("pathType: Prefix", "pathType: Regex")
    path = tmp_path / "app.yaml"
    path.write_text(text)
    res = run("validate", "--no-color", str(path))
    assert res.exit_code == 1
    assert (f"{path}:16:9: error: spec.rules[0].http.paths[0].pathType: Unsupported value: \"Regex\": supported "
            'values: "Exact", "ImplementationSpecific", "Prefix"') in res.output
    kubectl = run("validate", "--format", "kubectl", str(path))
    assert ('The Ingress "web" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": '
            'supported values: "Exact", "ImplementationSpecific", "Prefix"') in kubectl.output


def test_a_changed_role_ref_is_refused_on_update(tmp_path: Path) -> None:
    binding = ("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: web\n"
               "  namespace: shop\nroleRef: {kind: Role, name: %s}\nsubjects:\n- kind: ServiceAccount\n  name: web\n")
    live, new = tmp_path / "live.yaml", tmp_path / "new.yaml"
    live.write_text(binding % "web")
    new.write_text(binding % "admin")
    res = run("validate", "--format", "json", "--old", str(live), str(new))
    assert res.exit_code == 1, res.output
    status = json.loads(res.output)["results"][0]["status"]
    assert status == ('RoleBinding.rbac.authorization.k8s.io "web" is invalid: roleRef: Invalid value: '
                      '{"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"admin"}: cannot change roleRef')
    assert run("validate", "--old", str(live), str(live)).exit_code == 0


def test_storage_class_parameters_are_immutable(tmp_path: Path) -> None:
    sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: s\nprovisioner: a.io/b\n"
    live, new = tmp_path / "live.yaml", tmp_path / "new.yaml"
    live.write_text(sc + "parameters: {type: gp3}\n")
    new.write_text(sc + "parameters: {type: io2}\n")
    res = run("validate", "--no-color", "--old", str(live), str(new))
    assert res.exit_code == 1
    assert "parameters: Forbidden: updates to parameters are forbidden." in res.output


def test_default_shows_the_groups_defaults() -> None:
    """`crdtool default` sets the groups' defaults (each object in a List)."""
    res = run("default", "-o", "json", str(APP))
    assert res.exit_code == 0, res.output
    items = {item["kind"]: item for item in json.loads(res.output)["items"]}
    assert items["RoleBinding"]["roleRef"]["apiGroup"] == "rbac.authorization.k8s.io"
    assert items["NetworkPolicy"]["spec"]["policyTypes"] == ["Ingress"]
    assert items["NetworkPolicy"]["spec"]["ingress"][0]["ports"][0]["protocol"] == "TCP"
    assert items["StorageClass"]["reclaimPolicy"] == "Delete"
    assert items["PriorityClass"]["preemptionPolicy"] == "PreemptLowerPriority"
