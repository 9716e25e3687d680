"""`crdtool validate` with ValidatingAdmissionPolicy documents: the policy objects refused as the
apiserver refuses them on create (a 422 for the policy), and bound policies run on the custom
resources they match (Deny refuses with kubectl's text, Warn warns, what cannot be decided is a note)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "admission-policy"
BROKEN = str(FIXTURES / "broken-policy.yaml")
POLICY = str(FIXTURES / "policy.yaml")
CRONTAB = str(FIXTURES / "crontab.yaml")
CRD = str(FIXTURES.parent / "crontab" / "crd.yaml")
ACCEPTED = str(FIXTURES.parent / "crontab" / "my-crontab.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_bound_policy_refuses_a_custom_resource_with_kubectls_text() -> None:
    res = run("validate", "--format", "kubectl", "-c", CRD, "--admission", POLICY, CRONTAB, ACCEPTED)
    assert res.exit_code == 1, res.output
    assert sorted(res.output.splitlines()) == [
        f'Error from server (Forbidden): error when creating "{CRONTAB}": crontabs.stable.example.com "busy" is '
        "forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-default' denied request: "
        "replicas must be at most 3",
        "crontab.stable.example.com/my-new-cron-object created (server dry run)"]


@pytest.fixture
def variant(tmp_path: Path):
    def write(*changes: tuple[str, str]) -> str:
        text = Path(POLICY).read_text(encoding="utf-8")
        for old, new in changes:
            assert old in text
            text = text.replace(old, new)
        path = tmp_path / f"policy-{len(list(tmp_path.iterdir()))}.yaml"
        path.write_text(text, encoding="utf-8")
        return str(path)
    return write


def test_a_warn_binding_warns_as_kubectl_prints_it(variant) -> None:
    policy = variant(("validationActions: [Deny]", "validationActions: [Warn]"))
    res = run("validate", "--format", "kubectl", "-c", CRD, "--admission", policy, CRONTAB)
    assert res.exit_code == 0, res.output
    assert "Warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding " \
           "'replica-limit-default': replicas must be at most 3" in res.stderr


def test_params_not_among_the_inputs_are_said_not_passed_silently(variant) -> None:
    elsewhere = ("name: replica-limit\n  namespace: default\ndata", "name: other\n  namespace: default\ndata")
    res = run("validate", "--no-color", "-c", CRD, "--admission", variant(elsewhere), CRONTAB)
    assert res.exit_code == 1, res.output
    assert ("denied request: failed to configure binding: no params found for policy binding with `Deny` "
            "parameterNotFoundAction") in res.output
    allow = variant(elsewhere, ("parameterNotFoundAction: Deny", "parameterNotFoundAction: Allow"))
    res = run("validate", "--no-color", "-c", CRD, "--admission", allow, CRONTAB)
    assert res.exit_code == 0, res.output
    assert "note: not checked: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-default': " \
           "no params among the inputs match its paramRef" in res.output


def test_a_policy_that_does_not_compile_is_refused_with_the_apiservers_text() -> None:
    res = run("validate", "--no-color", BROKEN)
    assert res.exit_code == 1, res.output
    assert (f"{BROKEN}:15:5: error: spec.validations[1].expression: Invalid value: \"request.operation\": "
            "must evaluate to bool but got string") in res.output
    kubectl = run("validate", "--format", "kubectl", BROKEN)
    assert kubectl.output.startswith('The ValidatingAdmissionPolicy "broken" is invalid: \n'
                                     '* spec.validations[0].expression: Invalid value: "object.spec.replicas <= ": '
                                     "compilation failed: ERROR: <input>:1:25: Syntax error: mismatched input")


def test_a_valid_policy_binding_and_params_are_accepted() -> None:
    res = run("validate", "--no-color", POLICY)
    assert res.exit_code == 0, res.output
    assert "3 objects would be accepted" in res.output


def test_audit_annotations_are_in_the_json_output_only(variant) -> None:
    """Policies' auditAnnotations (POLICY/KEY) and Audit failures (validation_failure) reach the audit
    event, which neither the apiserver's answer nor kubectl shows: `--format json` has them."""
    import json

    audit = variant(("validationActions: [Deny]", "validationActions: [Audit]"),
                    ("    reason: Forbidden\n", "    reason: Forbidden\n  auditAnnotations:\n  - key: limit\n"
                                                "    valueExpression: \"'at most ' + string(variables.limit)\"\n"))
    res = run("validate", "--format", "json", "-c", CRD, "--admission", audit, CRONTAB)
    assert res.exit_code == 0, res.output
    annotations = json.loads(res.stdout)["results"][0]["auditAnnotations"]
    assert annotations["replica-limit/limit"] == "at most 3"
    failure = json.loads(annotations["validation.policy.admission.k8s.io/validation_failure"])
    assert failure == [{"message": "replicas must be at most 3", "policy": "replica-limit",
                        "binding": "replica-limit-default", "expressionIndex": 0, "validationActions": ["Audit"]}]
    text = run("validate", "--no-color", "-c", CRD, "--admission", audit, CRONTAB)
    assert "replica-limit/limit" not in text.output
    plain = run("validate", "--format", "json", "-c", CRD, CRONTAB)
    assert "auditAnnotations" not in json.loads(plain.stdout)["results"][0]


def test_admission_is_imported_only_for_inputs_that_configure_it() -> None:
    from imported import imported_by

    plain = imported_by(["validate", "-q", "-c", CRD, ACCEPTED], ("crdtool.admission",))
    assert plain.code == 0 and plain.modules == ["crdtool.admission"]  # the package's check alone
    configured = imported_by(["validate", "-q", "-c", CRD, "--admission", POLICY, ACCEPTED], ("crdtool.admission",))
    assert configured.code == 0 and "crdtool.admission.chain" in configured.modules
