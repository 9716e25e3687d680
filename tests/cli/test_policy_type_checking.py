"""A ValidatingAdmissionPolicy's type checking (status.typeChecking, written by the status controller
after the apiserver stores the policy) in `lint` and `validate`: warnings at the expression, never a
refusal, in every format; a note where crdtool cannot resolve a kind the policy matches."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
POLICY = str(FIXTURES / "admission-policy" / "policy.yaml")  # matches crontabs, params a ConfigMap
CRD = str(FIXTURES / "crontab" / "crd.yaml")
CRONTAB = str(FIXTURES / "crontab" / "my-crontab.yaml")

TYPO = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: typo
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments", "statefulsets"]
  validations:
  - expression: "object.spec.replica <= 5"
    messageExpression: "'replicas: ' + string(object.spec.replicas)"
"""
#: What the controller writes: one warning for the expression, one result per kind (sorted), joined.
TYPO_WARNING = (
    "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n"
    " | object.spec.replica <= 5\n | ...........^\n"
    "\n"
    "apps/v1, Kind=StatefulSet: ERROR: <input>:1:12: undefined field 'replica'\n"
    " | object.spec.replica <= 5\n | ...........^\n")

CRONTAB_TYPO = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: crontab-typo
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["stable.example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["crontabs"]
  validations:
  - expression: "object.spec.cronSpec.size() > 0 && object.spec.replicas == 'three'"
"""


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args])


def test_lint_shows_the_type_checking_warning_at_the_expression_and_accepts_the_policy(tmp_path: Path) -> None:
    path = write_file(tmp_path, "typo.yaml", TYPO)
    res = run("lint", path)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == (f"{path}:13:5: warning[TypeChecking]: spec.validations[0].expression: "
                        "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'")
    assert "\n".join(lines[1:7]) == TYPO_WARNING.rstrip("\n").split("\n", 1)[1]
    assert lines[7:9] == ['   13 |   - expression: "object.spec.replica <= 5"', "            ^"]
    assert lines[-1] == "1 admission configuration would be accepted"


def test_json_holds_the_status_as_the_controller_writes_it(tmp_path: Path) -> None:
    path = write_file(tmp_path, "typo.yaml", TYPO)
    res = run("lint", "--format", "json", path)
    assert res.exit_code == 0, res.output
    result = json.loads(res.output)["results"][0]
    assert result["valid"] is True and result["warnings"] == []
    assert result["typeChecking"] == {"expressionWarnings": [
        {"fieldRef": "spec.validations[0].expression", "warning": TYPO_WARNING, "line": 13, "column": 5}]}


def test_a_policy_without_warnings_has_an_empty_status_and_an_ok_line(tmp_path: Path) -> None:
    path = write_file(tmp_path, "good.yaml", TYPO.replace("spec.replica <=", "spec.replicas <="))
    res = run("lint", path)
    assert res.output.splitlines()[0] == f"ok {path}: ValidatingAdmissionPolicy typo", res.output
    result = json.loads(run("lint", "--format", "json", path).output)["results"][0]
    assert result["typeChecking"] == {"expressionWarnings": []}


def test_other_admission_configurations_have_no_type_checking() -> None:
    results = json.loads(run("lint", "--format", "json", POLICY, CRD).output)["results"]
    assert [("typeChecking" in r, r["kind"]) for r in results] == [
        (True, "ValidatingAdmissionPolicy"), (False, "ValidatingAdmissionPolicyBinding"),
        (False, "CustomResourceDefinition")]


def test_a_crd_among_the_inputs_types_the_object(tmp_path: Path) -> None:
    path = write_file(tmp_path, "crontab-policy.yaml", CRONTAB_TYPO)
    res = run("lint", "--format", "json", path, CRD)
    warnings = json.loads(res.output)["results"][0]["typeChecking"]["expressionWarnings"]
    assert [w["warning"].split("\n")[0] for w in warnings] == [
        "stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:57: found no matching overload for '_==_' "
        "applied to '(int, string)'"]


def test_a_kind_crdtool_cannot_resolve_is_a_note_not_a_pass(tmp_path: Path) -> None:
    path = write_file(tmp_path, "crontab-policy.yaml", CRONTAB_TYPO)
    res = run("lint", path)
    assert res.exit_code == 0
    assert res.output.splitlines()[0] == (
        f"{path}:8:7: note: spec.matchConstraints.resourceRules[0]: not type-checked against crontabs "
        "(stable.example.com/v1): neither a built-in resource nor one of a CRD among the inputs")


def test_a_refused_policy_is_not_type_checked(tmp_path: Path) -> None:
    # no policy is stored, so no controller checks it
    path = write_file(tmp_path, "refused.yaml", TYPO.replace("resourceRules:", "resourceRules: []\n    x:"))
    result = json.loads(run("lint", "--format", "json", path).output)["results"][0]
    assert result["valid"] is False and "typeChecking" not in result


def test_sarif_reports_a_warning_rule(tmp_path: Path) -> None:
    path = write_file(tmp_path, "typo.yaml", TYPO)
    run_ = json.loads(run("lint", "--format", "sarif", path).output)["runs"][0]
    assert [(r["ruleId"], r["level"]) for r in run_["results"]] == [("TypeChecking", "warning")]
    assert run_["tool"]["driver"]["rules"][0]["defaultConfiguration"] == {"level": "warning"}


def test_validate_shows_a_policy_among_the_inputs_like_lint(tmp_path: Path) -> None:
    path = write_file(tmp_path, "crontab-policy.yaml", CRONTAB_TYPO)
    res = run("validate", "--format", "json", "-c", CRD, path, CRONTAB)
    assert res.exit_code == 0, res.output
    policy = json.loads(res.output)["results"][0]
    assert [w["fieldRef"] for w in policy["typeChecking"]["expressionWarnings"]] == ["spec.validations[0].expression"]
    text = run("validate", "-c", CRD, path, CRONTAB).output
    assert f"{path}:13:5: warning[TypeChecking]: spec.validations[0].expression: stable.example.com/v1" in text


def test_validate_notes_the_warnings_of_a_policy_named_with_admission(tmp_path: Path) -> None:
    path = write_file(tmp_path, "typo.yaml", TYPO)
    res = run("validate", "--admission", path, "-c", CRD, CRONTAB)
    assert res.exit_code == 0, res.output
    assert res.output.startswith(
        f'note: {path}: ValidatingAdmissionPolicy "typo": status.typeChecking: spec.validations[0].expression: '
        "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n")
    notes = json.loads(run("validate", "--format", "json", "--admission", path, "-c", CRD, CRONTAB).output)["notes"]
    assert notes == [f'{path}: ValidatingAdmissionPolicy "typo": status.typeChecking: '
                     f"spec.validations[0].expression: {TYPO_WARNING.rstrip()}"]
