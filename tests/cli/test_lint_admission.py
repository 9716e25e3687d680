"""`crdtool lint` of admission configurations: policies, bindings and webhook configurations are
checked as the apiserver validates their create (or, with --old, their update), beside the CRDs."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
POLICY = str(FIXTURES / "admission-policy" / "policy.yaml")  # a policy, its binding and a ConfigMap
BROKEN = str(FIXTURES / "admission-policy" / "broken-policy.yaml")
CRD = str(FIXTURES / "crontab" / "crd.yaml")

GATED = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: gated
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  matchConditions:
  - name: labelled
    expression: "undeclared.value"
  validations:
  - expression: "object.spec.replicas <= 5"
"""
#: ValidateValidatingAdmissionPolicy's answer to GATED's match condition (compile error of the
#: stateless compiler: validation.go validateMatchConditions, cel's CompileCELExpression).
GATED_ERROR = ('spec.matchConditions[0].expression: Invalid value: "undeclared.value": compilation failed: '
               "ERROR: <input>:1:1: undeclared reference to 'undeclared' (in container '')")


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args])


def test_a_good_policy_and_binding_are_accepted() -> None:
    res = run("lint", POLICY, CRD)  # with the CRD of the kind it matches: its expressions type-check against it
    assert res.exit_code == 0, res.output
    assert f"ok {POLICY}: ValidatingAdmissionPolicy replica-limit" in res.output
    assert f"ok {POLICY}: ValidatingAdmissionPolicyBinding replica-limit-default" in res.output
    assert res.output.splitlines()[-1] == ("2 admission configurations would be accepted; "
                                           "1 document not a CustomResourceDefinition")


def test_a_policy_that_does_not_compile_is_refused_with_the_apiservers_message(tmp_path: Path) -> None:
    gated = write_file(tmp_path, "gated.yaml", GATED)
    res = run("lint", gated)
    assert res.exit_code == 1, res.output
    assert f"{gated}:14:5: error: {GATED_ERROR}" in res.output
    assert f'The ValidatingAdmissionPolicy "gated" is invalid: {GATED_ERROR}' in res.output
    assert res.output.splitlines()[-1] == "1 of 1 admission configuration would be rejected"


def test_kubectl_format_lists_every_refusal_of_a_policy() -> None:
    res = run("lint", "--format", "kubectl", BROKEN)
    assert res.exit_code == 1, res.output
    assert res.output.startswith('The ValidatingAdmissionPolicy "broken" is invalid: \n* spec.validations[0]')
    assert ('* spec.validations[1].expression: Invalid value: "request.operation": must evaluate to bool but '
            "got string") in res.output


def test_a_file_with_a_crd_and_policies_counts_each_group(tmp_path: Path) -> None:
    mixed = write_file(tmp_path, "mixed.yaml", Path(BROKEN).read_text(encoding="utf-8") + "---\n"
                       + Path(CRD).read_text(encoding="utf-8") + "---\n" + Path(POLICY).read_text(encoding="utf-8"))
    res = run("lint", mixed)
    assert res.exit_code == 1, res.output
    lines = res.output.splitlines()
    assert lines[-2:] == ["1 CustomResourceDefinition would be accepted",
                          "1 of 3 admission configurations would be rejected; "
                          "1 document not a CustomResourceDefinition"]
    # reported in the file's order: the broken policy (document 0) before the CRD (document 1)
    assert res.output.index('"broken" is invalid') < res.output.index("ok " + mixed + ": CustomResourceDefinition")


def test_json_output_carries_a_policys_result(tmp_path: Path) -> None:
    gated = write_file(tmp_path, "gated.yaml", GATED)
    res = run("lint", "--format", "json", CRD, gated)
    assert res.exit_code == 1, res.output
    results = json.loads(res.output)["results"]
    assert [(r["kind"], r["valid"]) for r in results] == [("CustomResourceDefinition", True),
                                                          ("ValidatingAdmissionPolicy", False)]
    policy = results[1]
    assert policy["apiVersion"] == "admissionregistration.k8s.io/v1" and policy["name"] == "gated"
    assert [(e["type"], e["field"], e["line"]) for e in policy["errors"]] == [
        ("FieldValueInvalid", "spec.matchConditions[0].expression", 14)]
    assert policy["status"].startswith(f'ValidatingAdmissionPolicy.admissionregistration.k8s.io "gated" is invalid: '
                                       f"{GATED_ERROR}")


def test_old_lints_a_policy_as_an_update(tmp_path: Path) -> None:
    """ValidateValidatingAdmissionPolicyUpdate does not compile unchanged matchConditions again: a stored
    policy whose condition no longer compiles can still be updated; a create of it is refused."""
    gated = write_file(tmp_path, "gated.yaml", GATED)
    changed = write_file(tmp_path, "changed.yaml", GATED.replace("<= 5", "<= 6"))
    assert run("lint", changed).exit_code == 1
    res = run("lint", "--format", "kubectl", changed, "--old", gated)
    assert res.exit_code == 0, res.output
    assert res.output == "validatingadmissionpolicy.admissionregistration.k8s.io/gated replaced (server dry run)\n"


def test_old_of_another_name_is_a_rename_the_apiserver_refuses(tmp_path: Path) -> None:
    old = write_file(tmp_path, "old.yaml", GATED.replace('"undeclared.value"', '"true"'))
    new = write_file(tmp_path, "new.yaml", GATED.replace('"undeclared.value"', '"true"').replace("gated", "renamed"))
    res = run("lint", new, "--old", old)
    assert res.exit_code == 1, res.output
    assert 'metadata.name: Invalid value: "renamed": field is immutable' in res.output


def test_an_unserved_version_of_a_policy_gets_kubectls_no_match(tmp_path: Path) -> None:
    beta = write_file(tmp_path, "beta.yaml", GATED.replace("admissionregistration.k8s.io/v1",
                                                           "admissionregistration.k8s.io/v1beta1"))
    res = run("lint", beta)
    assert res.exit_code == 1, res.output
    assert ('no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"'
            in res.output)


def test_nothing_to_lint_names_both_kinds(tmp_path: Path) -> None:
    configmap = write_file(tmp_path, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    res = run("lint", configmap)
    assert res.exit_code == 2
    assert "nothing to lint: no CustomResourceDefinition or admission configuration in" in res.output


def test_against_and_costs_stay_with_crds(tmp_path: Path) -> None:
    gated = write_file(tmp_path, "gated.yaml", GATED)
    against = run("lint", "--against", CRD, CRD, gated)
    assert against.exit_code == 0, against.output
    assert "ValidatingAdmissionPolicy" not in against.output
    assert "1 document not a CustomResourceDefinition" in against.output
    costs = run("lint", "--costs", CRD, gated)
    assert costs.exit_code == 1, costs.output
    assert "1 of 1 admission configuration would be rejected" in costs.output
    listing = costs.output.split("1 of 1 admission configuration would be rejected")[1]
    assert "crontabs.stable.example.com" in listing and "gated" not in listing


def test_an_expensive_policy_expression_is_no_reason_to_refuse_a_create(tmp_path: Path) -> None:
    """CompileCELExpression (apiserver admission/plugin/cel/compile.go) compiles, checks the result type
    and builds the program; it estimates no cost, so the apiserver creates a policy whose expression
    could exceed every budget (the per-call limit applies when it runs). A CRD rule of that cost is
    refused on create."""
    nested = "object.spec.items.all(a, object.spec.items.all(b, object.spec.items.all(c, a == b && b == c)))"
    policy = write_file(tmp_path, "costly.yaml", GATED.replace('"undeclared.value"', '"true"')
                        .replace('"object.spec.replicas <= 5"', json.dumps(nested)))
    res = run("lint", policy)
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "1 admission configuration would be accepted"
