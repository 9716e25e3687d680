"""What the apiserver refuses when a ValidatingAdmissionPolicy or its binding is created (kubernetes
pkg/apis/admissionregistration/validation/validation.go), error by error."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.admission.policy.validation import validate_binding, validate_policy

RULE = {"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]}


def policy(**spec: Any) -> dict[str, Any]:
    spec.setdefault("matchConstraints", {"resourceRules": [RULE]})
    spec.setdefault("validations", [{"expression": "true"}])
    return {"metadata": {"name": "p"}, "spec": spec}


def binding(**spec: Any) -> dict[str, Any]:
    spec.setdefault("policyName", "p")
    spec.setdefault("validationActions", ["Deny"])
    return {"metadata": {"name": "b"}, "spec": spec}


POLICY_CASES = [
    ("valid", policy(), []),
    ("failure-policy", policy(failurePolicy="Never"),
     ['spec.failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"']),
    ("match-constraints-required", {"metadata": {"name": "p"}, "spec": {"validations": [{"expression": "true"}]}},
     ["spec.matchConstraints: Required value"]),
    ("resource-rules-required", policy(matchConstraints={}),
     ["spec.matchConstraints.resourceRules: Required value"]),
    ("nothing-to-validate", policy(validations=[]),
     ["spec.validations: Required value: validations or auditAnnotations must contain at least one item",
      "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"]),
    ("compile-error", policy(validations=[{"expression": "object.spec.replicas <= "}]),
     ['spec.validations[0].expression: Invalid value: "object.spec.replicas <= ": compilation failed: ERROR: '
      "<input>:1:25: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', "
      "'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec.replicas <= \n"
      " | ........................^"]),
    ("not-a-bool", policy(validations=[{"expression": "'yes'"}]),
     ['spec.validations[0].expression: Invalid value: "\'yes\'": must evaluate to bool but got string']),
    ("params-undeclared", policy(validations=[{"expression": "params.x == 1"}]),
     ['spec.validations[0].expression: Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: '
      "undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^"]),
    ("params-declared", policy(paramKind={"apiVersion": "v1", "kind": "ConfigMap"},
                               validations=[{"expression": "params.x == 1"}]), []),
    ("request-field", policy(validations=[{"expression": "request.nope == 1"}]),
     ['spec.validations[0].expression: Invalid value: "request.nope == 1": compilation failed: ERROR: '
      "<input>:1:8: undefined field 'nope'\n | request.nope == 1\n | .......^"]),
    ("message-expression-no-authorizer", policy(validations=[
        {"expression": "true", "messageExpression": "string(authorizer)"}]),
     ['spec.validations[0].messageExpression: Invalid value: "string(authorizer)": compilation failed: ERROR: '
      "<input>:1:8: undeclared reference to 'authorizer' (in container '')\n | string(authorizer)\n | .......^"]),
    ("authorizer-in-validation", policy(validations=[
        {"expression": "authorizer.path('/healthz').check('get').allowed()"}]), []),
    ("message-expression-not-string", policy(validations=[{"expression": "true", "messageExpression": "1"}]),
     ['spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int']),
    ("message-line-break", policy(validations=[{"expression": "true", "message": "a\nb"}]),
     ['spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks']),
    ("reason", policy(validations=[{"expression": "true", "reason": "Conflict"}]),
     ['spec.validations[0].reason: Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", '
      '"RequestEntityTooLarge"']),
    ("variable-name", policy(variables=[{"name": "in", "expression": "1"}]),
     ['spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier']),
    ("variable-typed", policy(variables=[{"name": "n", "expression": "'a'"}],
                              validations=[{"expression": "variables.n > 1"}]),
     ['spec.validations[0].expression: Invalid value: "variables.n > 1": compilation failed: ERROR: <input>:1:13: '
      "found no matching overload for '_>_' applied to '(string, int)'\n | variables.n > 1\n | ............^"]),
    ("match-condition-name", policy(matchConditions=[{"name": "a b", "expression": "true"}]),
     ['spec.matchConditions[0].name: Invalid value: "a b": name part must consist of alphanumeric characters, '
      "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
      "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]),
    ("operations-wildcard", policy(matchConstraints={"resourceRules": [{**RULE, "operations": ["*", "CREATE"]}]}),
     ['spec.matchConstraints.resourceRules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, '
      "must not specify other operations"]),
    ("resources-overlap", policy(matchConstraints={"resourceRules": [
        {**RULE, "resources": ["deployments/*", "deployments/status"]}]}),
     ['spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "deployments/status": if '
      "'deployments/*' is present, must not specify deployments/status"]),
    ("selector-operator", policy(matchConstraints={"resourceRules": [RULE], "namespaceSelector": {
        "matchExpressions": [{"key": "a", "operator": "In"}]}}),
     ["spec.matchConstraints.namespaceSelector.matchExpressions[0].values: Required value: must be specified when "
      "`operator` is 'In' or 'NotIn'"]),
    ("audit-annotation-type", policy(auditAnnotations=[{"key": "k", "valueExpression": "1"}]),
     ['spec.auditAnnotations[0].valueExpression: Invalid value: "1": must evaluate to one of [string null_type] '
      "but got int"]),
    ("audit-annotation-duplicate", policy(auditAnnotations=[{"key": "k", "valueExpression": "'a'"},
                                                           {"key": "k", "valueExpression": "null"}]),
     ['spec.auditAnnotations[1].key: Duplicate value: "k"']),
]

BINDING_CASES = [
    ("valid", binding(), []),
    ("policy-name", binding(policyName=""), ["spec.policyName: Required value"]),
    ("actions-required", binding(validationActions=[]),
     ["spec.validationActions: Required value: at least one validation action is required"]),
    ("actions-deny-warn", binding(validationActions=["Deny", "Warn"]),
     ['spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating '
      "the same validation failure information in the API response and headers serves no purpose)"]),
    ("actions-unknown-duplicate", binding(validationActions=["Audit", "Audit", "Log"]),
     ['spec.validationActions[1]: Duplicate value: "Audit"',
      'spec.validationActions[2]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"']),
    ("param-ref-empty", binding(paramRef={"parameterNotFoundAction": "Deny"}),
     ["spec.paramRef: Required value: one of name or selector must be specified"]),
    ("param-ref-action", binding(paramRef={"name": "x"}),
     ["spec.paramRef.parameterNotFoundAction: Required value"]),
    ("match-resources-path", binding(matchResources={"matchPolicy": "Sometimes"}),
     ['spec.matchResources.matchPolicy: Unsupported value: "Sometimes": supported values: "Equivalent", "Exact"']),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in POLICY_CASES], ids=[c[0] for c in POLICY_CASES])
def test_policy_create_validation(obj: dict[str, Any], expected: list[str]) -> None:
    assert [str(e) for e in validate_policy(obj)] == expected


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in BINDING_CASES], ids=[c[0] for c in BINDING_CASES])
def test_binding_create_validation(obj: dict[str, Any], expected: list[str]) -> None:
    assert [str(e) for e in validate_binding(obj)] == expected


def test_an_update_with_unchanged_match_conditions_does_not_check_them_again() -> None:
    from crdtool.apis.validation import validation_for

    kind = validation_for("admissionregistration.k8s.io", "ValidatingAdmissionPolicy")
    assert kind is not None and kind.update is not None
    stored = policy(matchConditions=[{"name": "c", "expression": "1"}])
    expected = ['spec.matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int']
    assert [str(e) for e in kind.create(stored)] == expected
    assert kind.update(stored, stored) == []
    changed = policy(matchConditions=[{"name": "c", "expression": "1"}, {"name": "d", "expression": "true"}])
    assert [str(e) for e in kind.update(changed, stored)] == expected
