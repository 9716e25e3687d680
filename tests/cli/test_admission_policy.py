"""`crdtool validate` of ValidatingAdmissionPolicy documents: refused as the apiserver refuses them
on create (a 422 for the policy object), in the text and kubectl formats."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "admission-policy"
BROKEN = str(FIXTURES / "broken-policy.yaml")
POLICY = str(FIXTURES / "policy.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


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
