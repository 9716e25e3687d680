"""MutatingAdmissionPolicy and its binding validated as the apiserver validates them on create
(kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMutatingAdmissionPolicySpec,
validateMutation, validateApplyConfiguration, validateJSONPatch,
validateMutatingAdmissionPolicyBindingSpec), each case named after the check it exercises."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.apis.admissionregistration.validation import VALIDATORS


def _policy(**spec: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "matchConstraints": {"resourceRules": [{"apiGroups": ["a"], "apiVersions": ["a"], "operations": ["CREATE"],
                                                "resources": ["a"]}]},
        "reinvocationPolicy": "Never",
        "mutations": [{"patchType": "ApplyConfiguration", "applyConfiguration": {
            "expression": "Object{metadata: Object.metadata{labels: {'a': 'b'}}}"}}]}
    base.update(spec)
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy",
            "metadata": {"name": "config"}, "spec": base}


def _messages(kind: str, obj: dict[str, Any]) -> list[str]:
    return [str(e) for e in VALIDATORS[kind].create(obj)]


RULE = {"apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"]}

POLICY_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a valid ApplyConfiguration policy", _policy(), []),
    ("a valid JSONPatch policy", _policy(mutations=[{"patchType": "JSONPatch", "jsonPatch": {
        "expression": '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]'}}]), []),
    ("failurePolicy not supported", _policy(failurePolicy="Other"),
     ['spec.failurePolicy: Unsupported value: "Other": supported values: "Fail", "Ignore"']),
    ("matchConstraints required", _policy(matchConstraints=None), ["spec.matchConstraints: Required value"]),
    ("resourceRules required", _policy(matchConstraints={}),
     ["spec.matchConstraints.resourceRules: Required value"]),
    ("DELETE is not mutable (supportedMutatingOperations)",
     _policy(matchConstraints={"resourceRules": [{**RULE, "operations": ["DELETE"]}]}),
     ['spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", '
      '"CONNECT", "CREATE", "UPDATE"']),
    ("an unknown operation is refused by the rule and by the mutating check",
     _policy(matchConstraints={"resourceRules": [{**RULE, "operations": ["PATCH"]}]}),
     ['spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: '
      '"*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'spec.matchConstraints.resourceRules.operations: Unsupported value: "PATCH": supported values: "*", '
      '"CONNECT", "CREATE", "UPDATE"']),
    ("mutations required", _policy(mutations=[]),
     ["spec.mutations: Required value: mutations must contain at least one item"]),
    ("reinvocationPolicy required (no v1 default)", _policy(reinvocationPolicy=None),
     ["spec.reinvocationPolicy: Required value"]),
    ("reinvocationPolicy not supported", _policy(reinvocationPolicy="Always"),
     ['spec.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']),
    ("patchType required", _policy(mutations=[{"jsonPatch": {"expression": "[]"}}]),
     ["spec.mutations[0].patchType: Required value"]),
    ("patchType not supported", _policy(mutations=[{"patchType": "Merge"}]),
     ['spec.mutations[0].patchType: Unsupported value: "Merge": supported values: "ApplyConfiguration", '
      '"JSONPatch"']),
    ("jsonPatch required for JSONPatch, applyConfiguration forbidden",
     _policy(mutations=[{"patchType": "JSONPatch", "applyConfiguration": {"expression": "Object{}"}}]),
     ["spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch",
      'spec.mutations[0].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when '
      "patchType is JSONPatch"]),
    ("applyConfiguration required for ApplyConfiguration, jsonPatch forbidden",
     _policy(mutations=[{"patchType": "ApplyConfiguration", "jsonPatch": {"expression": "[]"}}]),
     ["spec.mutations[0].applyConfiguration: Required value: must be specified when patchType is "
      "ApplyConfiguration",
      'spec.mutations[0].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is '
      "ApplyConfiguration"]),
    ("an empty expression is required", _policy(mutations=[{"patchType": "JSONPatch", "jsonPatch": {
        "expression": "  "}}]), ["spec.mutations[0].jsonPatch.expression: Required value"]),
    ("an ApplyConfiguration must evaluate to Object",
     _policy(mutations=[{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": " 'x' "}}]),
     ["spec.mutations[0].applyConfiguration.expression: Invalid value: \"'x'\": must evaluate to Object but got "
      "string"]),
    ("a JSONPatch must evaluate to list(JSONPatch)",
     _policy(mutations=[{"patchType": "JSONPatch", "jsonPatch": {"expression": "Object{}"}}]),
     ['spec.mutations[0].jsonPatch.expression: Invalid value: "Object{}": must evaluate to list(JSONPatch) but '
      "got Object"]),
    ("params only with a paramKind",
     _policy(mutations=[{"patchType": "JSONPatch", "jsonPatch": {
         "expression": '[JSONPatch{op: "add", path: "/a", value: params.x}]'}}]),
     ['spec.mutations[0].jsonPatch.expression: Invalid value: "[JSONPatch{op: \\"add\\", path: \\"/a\\", '
      "value: params.x}]\": compilation failed: ERROR: <input>:1:42: undeclared reference to 'params' (in "
      "container '')\n | [JSONPatch{op: \"add\", path: \"/a\", value: params.x}]\n"
      " | .........................................^"]),
    ("variables are declared to the mutations",
     _policy(variables=[{"name": "v", "expression": "'b'"}], mutations=[{"patchType": "ApplyConfiguration",
             "applyConfiguration": {"expression": "Object{metadata: Object.metadata{labels: {'a': variables.v}}}"}}]),
     []),
    ("a variable name must be a CEL identifier", _policy(variables=[{"name": "1x", "expression": "1"}]),
     ['spec.variables[0].name: Invalid value: "1x": name is not a valid CEL identifier']),
    ("matchConditions are checked as the validating policy's",
     _policy(matchConditions=[{"name": "a", "expression": "1"}]),
     ['spec.matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int']),
    ("paramKind is checked as the validating policy's", _policy(paramKind={"apiVersion": "v1"}),
     ["spec.paramKind.kind: Required value"]),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in POLICY_CASES], ids=[c[0] for c in POLICY_CASES])
def test_policy(obj: dict[str, Any], expected: list[str]) -> None:
    obj["spec"] = {k: v for k, v in obj["spec"].items() if v is not None}
    assert _messages("MutatingAdmissionPolicy", obj) == expected


def _binding(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicyBinding",
            "metadata": {"name": "b"}, "spec": {"policyName": "config", **spec}}


BINDING_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a valid binding (no validationActions)", _binding(), []),
    ("policyName required", _binding(policyName=""), ["spec.policyName: Required value"]),
    ("paramRef needs a parameterNotFoundAction", _binding(paramRef={"name": "p"}),
     ["spec.paramRef.parameterNotFoundAction: Required value"]),
    ("DELETE is not mutable in matchResources either",
     _binding(matchResources={"resourceRules": [{**RULE, "operations": ["DELETE"]}]}),
     ['spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", '
      '"CONNECT", "CREATE", "UPDATE"']),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in BINDING_CASES], ids=[c[0] for c in BINDING_CASES])
def test_binding(obj: dict[str, Any], expected: list[str]) -> None:
    assert _messages("MutatingAdmissionPolicyBinding", obj) == expected


def test_an_update_with_unchanged_match_conditions_does_not_check_them_again() -> None:
    """ValidateMutatingAdmissionPolicyUpdate: ignoreMutatingAdmissionPolicyMatchConditions."""
    old = _policy(matchConditions=[{"name": "a", "expression": "1"}])
    new = copy.deepcopy(old)
    new["spec"]["reinvocationPolicy"] = "IfNeeded"
    update = VALIDATORS["MutatingAdmissionPolicy"].update
    assert update is not None and update(new, old) == []
    new["spec"]["matchConditions"][0]["expression"] = "2"
    assert [str(e) for e in update(new, old)] == [
        'spec.matchConditions[0].expression: Invalid value: "2": must evaluate to bool but got int']
