"""MutatingAdmissionPolicy: the JSONPatch mutations of k8s.io/apiserver
pkg/admission/plugin/policy/mutating/patch/json_patch_test.go (TestJSONPatch, its cases by name) on
the JSON of the same objects, and the plugin's dispatch (dispatcher.go, policy_dispatcher.go:
failurePolicy, matchConditions, params, reinvocation, the refusal text)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from crdtool.admission.chain import Attributes, Chain, DecodeError, Inputs, Resource, Status
from crdtool.admission.policy.model import Policy
from crdtool.admission.policy.mutating import build_mutating
from crdtool.admission.policy.patchers import MutationError, Unsupported, compile_mutator
from crdtool.load.document import Document

DEPLOYMENTS = Resource("apps", "v1", "Deployment", "deployments")
CRONTABS = Resource("stable.example.com", "v1", "CronTab", "crontabs")


def _deployment(spec: dict[str, Any] | None = None, labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "d", "namespace": "default"}
    if labels is not None:
        meta["labels"] = labels
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec or {}}


def _containers(*names: str, **extra: Any) -> dict[str, Any]:
    return {"template": {"spec": {"containers": [{"name": n, **extra.get(n, {})} for n in names]}}}


def _patch(expression: str, obj: dict[str, Any]) -> dict[str, Any]:
    policy = Policy("p", {"failurePolicy": "Fail", "mutations": [
        {"patchType": "JSONPatch", "jsonPatch": {"expression": expression}}]})
    mutator = compile_mutator(policy)
    activation = {"object": obj, "oldObject": None, "request": {}, "namespaceObject": None, "params": None}
    variables, decision, matches = mutator.matches(activation)
    assert decision is None and matches
    return mutator.apply(0, obj, activation, variables)


# (json_patch_test.go's name, expression, object, expected object or the error's text)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any] | str]] = [
    ("jsonPatch with false test operation",
     '[JSONPatch{op: "test", path: "/spec/replicas", value: 100}, '
     'JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
     _deployment({"replicas": 1}), _deployment({"replicas": 1})),
    ("jsonPatch with true test operation",
     '[JSONPatch{op: "test", path: "/spec/replicas", value: 1}, '
     'JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
     _deployment({"replicas": 1}), _deployment({"replicas": 3})),
    ("jsonPatch remove to unset field", '[JSONPatch{op: "remove", path: "/spec/replicas"}]',
     _deployment({"replicas": 1}), _deployment({})),
    ("jsonPatch remove map entry by key", '[JSONPatch{op: "remove", path: "/metadata/labels/y"}]',
     _deployment(labels={"x": "1", "y": "1"}), _deployment(labels={"x": "1"})),
    ("jsonPatch remove element in list",
     '[JSONPatch{op: "remove", path: "/spec/template/spec/containers/1"}]',
     _deployment(_containers("a", "b", "c")), _deployment(_containers("a", "c"))),
    ("jsonPatch copy map entry by key",
     '[JSONPatch{op: "copy", from: "/metadata/labels/x", path: "/metadata/labels/y"}]',
     _deployment(labels={"x": "1"}), _deployment(labels={"x": "1", "y": "1"})),
    ("jsonPatch copy first element to end of list",
     '[JSONPatch{op: "copy", from: "/spec/template/spec/containers/0", path: "/spec/template/spec/containers/-"}]',
     _deployment(_containers("a", "b")), _deployment(_containers("a", "b", "a"))),
    ("jsonPatch move map entry by key",
     '[JSONPatch{op: "move", from: "/metadata/labels/x", path: "/metadata/labels/y"}]',
     _deployment(labels={"x": "1"}), _deployment(labels={"y": "1"})),
    ("jsonPatch move first element to end of list",
     '[JSONPatch{op: "move", from: "/spec/template/spec/containers/0", path: "/spec/template/spec/containers/-"}]',
     _deployment(_containers("a", "b")), _deployment(_containers("b", "a"))),
    ("jsonPatch add map entry by key and value", '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "2"}]',
     _deployment(labels={"y": "1"}), _deployment(labels={"y": "1", "x": "2"})),
    ("jsonPatch add map value to field", '[JSONPatch{op: "add", path: "/metadata/labels", value: {"y": "2"}}]',
     _deployment(), _deployment(labels={"y": "2"})),
    ("jsonPatch add map to existing map", '[JSONPatch{op: "add", path: "/metadata/labels", value: {"y": "2"}}]',
     _deployment(labels={"x": "1"}), _deployment(labels={"y": "2"})),
    ("jsonPatch add to start of list",
     '[JSONPatch{op: "add", path: "/spec/template/spec/containers/0", value: {"name": "x"}}]',
     _deployment(_containers("a")), _deployment(_containers("x", "a"))),
    ("jsonPatch add to end of list",
     '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]',
     _deployment(_containers("a")), _deployment(_containers("a", "x"))),
    ("jsonPatch replace key in map", '[JSONPatch{op: "replace", path: "/metadata/labels/x", value: "2"}]',
     _deployment(labels={"y": "1", "x": "1"}), _deployment(labels={"y": "1", "x": "2"})),
    ("jsonPatch replace map value of unset field",
     '[JSONPatch{op: "replace", path: "/metadata/labels", value: {"y": "2"}}]',
     _deployment(), _deployment(labels={"y": "2"})),
    ("jsonPatch replace first element in list",
     '[JSONPatch{op: "replace", path: "/spec/template/spec/containers/0", value: {"name": "x"}}]',
     _deployment(_containers("a")), _deployment(_containers("x"))),
    ("jsonPatch add map entry by key and value (an Object value)",
     '[JSONPatch{op: "add", path: "/spec", value: Object.spec{selector: Object.spec.selector{}, replicas: 10}}]',
     _deployment(), _deployment({"selector": {}, "replicas": 10})),
    ("JSONPatch patch type has field access",
     '[JSONPatch{op: "add", path: "/metadata/labels", value: {"op": JSONPatch{op: "opValue"}.op, '
     '"path": JSONPatch{path: "pathValue"}.path, "from": JSONPatch{from: "fromValue"}.from, '
     '"value": string(JSONPatch{value: "valueValue"}.value)}}]',
     _deployment(labels={}), _deployment(labels={"op": "opValue", "path": "pathValue", "from": "fromValue",
                                                  "value": "valueValue"})),
    ("JSONPatch patch type has field testing",
     '[JSONPatch{op: "add", path: "/metadata/labels", value: {"op": string(has(JSONPatch{op: "opValue"}.op)), '
     '"value": string(has(JSONPatch{value: "valueValue"}.value)), "op-unset": string(has(JSONPatch{}.op)), '
     '"value-unset": string(has(JSONPatch{}.value))}}]',
     _deployment(labels={}), _deployment(labels={"op": "true", "value": "true", "op-unset": "false",
                                                  "value-unset": "false"})),
    ("JSONPatch patch type equality",
     '[JSONPatch{op: "add", path: "/metadata/labels", value: {"empty": string(JSONPatch{} == JSONPatch{}), '
     '"same-all": string(JSONPatch{op: "add", path: "path", from: "from", value: 1} == '
     'JSONPatch{op: "add", path: "path", from: "from", value: 1}), '
     '"different-op": string(JSONPatch{op: "add"} == JSONPatch{op: "remove"}), '
     '"different-value": string(JSONPatch{op: "add", value: "1"} == JSONPatch{op: "add", value: 1})}}]',
     _deployment(labels={}), _deployment(labels={"empty": "true", "same-all": "true", "different-op": "false",
                                                  "different-value": "false"})),
    ("JSONPatch key escaping",
     '[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, '
     'JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("k8s.io/x~y"), value: "true"}]',
     _deployment(labels={}), _deployment(labels={"k8s.io/x~y": "true"})),
    ("jsonPatch with CEL initializer",
     '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{'
     'name: "x", ports: [Object.spec.template.spec.containers.ports{containerPort: 8080}]}}]',
     _deployment(_containers("a")),
     _deployment(_containers("a", "x", x={"ports": [{"containerPort": 8080}]}))),
    ("jsonPatch invalid CEL initializer type",
     '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{'
     'name: "x", ports: [Object.spec.template.spec.containers.portsZ{containerPort: 8080}]}}]',
     _deployment(_containers("a")),
     'type mismatch: unexpected type name "Object.spec.template.spec.containers.portsZ", expected '
     '"Object.spec.template.spec.containers.ports", which matches field name path from root Object type'),
    ("jsonPatch replace end of list with - not allowed",
     '[JSONPatch{op: "replace", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]',
     _deployment(_containers("a")),
     "JSON Patch: replace operation does not apply: doc is missing key: /spec/template/spec/containers/-: "
     "missing value"),
]


@pytest.mark.parametrize(("expression", "obj", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_json_patch(expression: str, obj: dict[str, Any], expected: dict[str, Any] | str) -> None:
    if isinstance(expected, str):
        with pytest.raises(MutationError) as err:
            _patch(expression, obj)
        assert str(err.value) == expected
    else:
        before = repr(obj)
        assert _patch(expression, obj) == expected
        assert repr(obj) == before  # Patcher.Patch: the request's object is not modified in place


def test_a_double_value_comes_back_as_go_json_gives_it() -> None:
    """structpb.Value numbers marshaled by encoding/json, then decoded into an unstructured object."""
    out = _patch('[JSONPatch{op: "add", path: "/spec/a", value: 1}, JSONPatch{op: "add", path: "/spec/b", '
                 'value: 2.0}, JSONPatch{op: "add", path: "/spec/c", value: [2.5, 1e21]}]', _deployment())
    assert out["spec"] == {"a": 1, "b": 2, "c": [2.5, 1e21]}
    assert [type(out["spec"][k]) for k in "ab"] == [int, int]


@pytest.mark.parametrize(("expression", "error"), [
    # compile.go's return type check, with the patch types' names
    ("object.spec", "must evaluate to list(JSONPatch) but got dyn"),
    ('Object{spec: Object.spec{}}', "must evaluate to list(JSONPatch) but got Object"),
    # an error inside an Object literal is reported where it is written
    ('[JSONPatch{op: "add", path: "/spec", value: Object.spec{replicas: nope}}]',
     "compilation failed: ERROR: <input>:1:67: undeclared reference to 'nope' (in container '')\n"
     ' | [JSONPatch{op: "add", path: "/spec", value: Object.spec{replicas: nope}}]\n'
     " | ..................................................................^"),
    # cel-go's checker types JSONPatch's string fields
    ("[JSONPatch{op: 1}]", "compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but "
                           "provided type is 'int'\n | [JSONPatch{op: 1}]\n | .............^"),
])
def test_compile_errors(expression: str, error: str) -> None:
    with pytest.raises(MutationError) as err:
        _patch(expression, _deployment())
    assert str(err.value) == error


def test_an_apply_configuration_without_the_kinds_types_is_said_not_applied() -> None:
    policy = Policy("p", {"mutations": [{"patchType": "ApplyConfiguration", "applyConfiguration": {
        "expression": "Object{spec: Object.spec{replicas: 2}}"}}]})
    mutator = compile_mutator(policy)
    assert mutator.mutations[0].compiled is not None and not mutator.mutations[0].compiled.error
    with pytest.raises(Unsupported, match="ApplyConfiguration, and crdtool has no types to merge it by"):
        mutator.apply(0, _deployment(), {}, {})


# ---- the plugin on one request


def _policy(name: str, expression: str, **spec: Any) -> dict[str, Any]:
    rule = {"apiGroups": ["stable.example.com"], "apiVersions": ["v1"], "operations": ["CREATE"],
            "resources": ["crontabs"]}
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy",
            "metadata": {"name": name}, "spec": {"matchConstraints": {"resourceRules": [rule]}, "mutations": [
                {"patchType": "JSONPatch", "jsonPatch": {"expression": expression}}], **spec}}


def _binding(name: str, policy: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicyBinding",
            "metadata": {"name": name}, "spec": {"policyName": policy, **spec}}


def _crontab() -> dict[str, Any]:
    return {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": "c", "namespace": "default"}, "spec": {"image": "x"}}


def _run(*documents: dict[str, Any], resource: Resource = CRONTABS, defaults: dict[str, Any] | None = None,
         decode: Any = None, obj: dict[str, Any] | None = None, schemaless: bool = False
         ) -> tuple[Attributes, Any]:
    inputs = Inputs(documents=[Document("in.yaml", i, d) for i, d in enumerate(documents)])
    chain = Chain(mutating=list(build_mutating(inputs)), inputs=inputs)

    def default(obj: dict[str, Any]) -> None:
        obj.setdefault("spec", {}).update({k: v for k, v in (defaults or {}).items() if k not in obj["spec"]})
    attributes = Attributes(operation="CREATE", object=obj or _crontab(), old_object=None, resource=resource,
                            name="c", namespace="default", default=default,
                            schema=None if schemaless or resource is not CRONTABS else {})
    if decode is not None:
        attributes.decode = decode
    return attributes, chain.admit(attributes)


ADD_A = '[JSONPatch{op: "add", path: "/spec/a", value: "1"}]'


def test_a_mutation_is_applied_and_defaulted_again() -> None:
    attributes, verdict = _run(_policy("p", ADD_A), _binding("b", "p"), defaults={"d": "x"})
    assert verdict.status is None and verdict.changed and verdict.notes == []
    assert attributes.object["spec"] == {"image": "x", "a": "1", "d": "x"}


def test_an_unbound_policy_or_a_false_match_condition_does_nothing() -> None:
    attributes, verdict = _run(_policy("p", ADD_A))
    assert attributes.object == _crontab() and not verdict.changed
    condition = [{"name": "never", "expression": "false"}]
    attributes, verdict = _run(_policy("p", ADD_A, matchConditions=condition), _binding("b", "p"))
    assert attributes.object == _crontab() and not verdict.changed


BAD = '[JSONPatch{op: "replace", path: "/spec/missing/x", value: 1}]'


def test_a_failing_mutation_refuses_under_fail_with_the_dispatchers_text() -> None:
    _, verdict = _run(_policy("p", BAD), _binding("b", "p"))
    assert verdict.status is not None
    assert (verdict.status.message, verdict.status.reason, verdict.status.code) == (
        "policy 'p' with binding 'b' denied request: JSON Patch: replace operation does not apply: doc is "
        "missing path: /spec/missing/x: missing value", "Invalid", 403)


def test_a_failing_mutation_is_ignored_under_ignore_and_the_next_policy_runs() -> None:
    attributes, verdict = _run(_policy("p", BAD, failurePolicy="Ignore"), _binding("b", "p"),
                               _policy("q", ADD_A), _binding("c", "q"))
    assert verdict.status is None and attributes.object["spec"]["a"] == "1"


def test_a_match_condition_error_is_a_policy_error() -> None:
    condition = [{"name": "boom", "expression": "object.spec.nope == 1"}]
    _, verdict = _run(_policy("p", ADD_A, matchConditions=condition), _binding("b", "p"))
    assert verdict.status is not None
    assert verdict.status.message == ("policy 'p' with binding 'b' denied request: expression 'object.spec.nope == 1' "
                                      "resulted in error: no such key: nope")


def test_missing_params_under_deny_are_a_binding_configuration_error() -> None:
    policy = _policy("p", ADD_A, paramKind={"apiVersion": "v1", "kind": "ConfigMap"})
    binding = _binding("b", "p", paramRef={"name": "absent", "namespace": "default",
                                           "parameterNotFoundAction": "Deny"})
    _, verdict = _run(policy, binding)
    assert verdict.status is not None
    assert verdict.status.message == ("policy 'p' with binding 'b' denied request: failed to configure binding: "
                                      "no params found for policy binding with `Deny` parameterNotFoundAction")
    assert verdict.status.reason == "Forbidden"


def test_params_are_read_by_the_mutation() -> None:
    policy = _policy("p", '[JSONPatch{op: "add", path: "/spec/a", value: params.data.a}]',
                     paramKind={"apiVersion": "v1", "kind": "ConfigMap"})
    binding = _binding("b", "p", paramRef={"name": "cm", "namespace": "default", "parameterNotFoundAction": "Deny"})
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "default"},
          "data": {"a": "from-params"}}
    attributes, verdict = _run(policy, binding, cm)
    assert verdict.status is None and attributes.object["spec"]["a"] == "from-params"


def test_an_if_needed_policy_runs_again_after_a_later_policy_changed_the_object() -> None:
    """reinvocationPolicy IfNeeded: p runs once more after q's change, and sees it."""
    counting = ('[JSONPatch{op: "add", path: "/spec/seen", value: has(object.spec.b) ? "b" : "none"}]')
    attributes, verdict = _run(_policy("p", counting, reinvocationPolicy="IfNeeded"), _binding("b1", "p"),
                               _policy("q", '[JSONPatch{op: "add", path: "/spec/b", value: "1"}]'),
                               _binding("b2", "q"))
    assert verdict.status is None and attributes.object["spec"]["seen"] == "b"
    attributes, verdict = _run(_policy("p", counting), _binding("b1", "p"),
                               _policy("q", '[JSONPatch{op: "add", path: "/spec/b", value: "1"}]'),
                               _binding("b2", "q"))
    assert attributes.object["spec"]["seen"] == "none"  # Never: not run again


def _built_in(policy: dict[str, Any]) -> dict[str, Any]:
    policy["spec"]["matchConstraints"]["resourceRules"][0].update(apiGroups=["apps"], resources=["deployments"])
    return policy


def test_a_built_in_objects_patch_is_read_back_by_the_kinds_strict_decoder() -> None:
    seen: list[tuple[Any, bool]] = []

    def decode(value: Any, strict: bool = False) -> dict[str, Any]:
        seen.append((json.loads(json.dumps(value)), strict))
        return {**value, "decoded": True}
    attributes, verdict = _run(_built_in(_policy("p", ADD_A)), _binding("b", "p"), resource=DEPLOYMENTS,
                               defaults={"d": "x"}, decode=decode)
    assert verdict.status is None and verdict.changed and verdict.notes == []
    assert seen == [({**_crontab(), "spec": {"image": "x", "a": "1"}}, True)]
    assert attributes.object == {**_crontab(), "spec": {"image": "x", "a": "1", "d": "x"}, "decoded": True}


def test_a_patch_the_decoder_refuses_is_the_500_whatever_the_failure_policy() -> None:
    def decode(value: Any, strict: bool = False) -> dict[str, Any]:
        raise DecodeError('strict decoding error: unknown field "spec.a"')
    for failure_policy in ("Fail", "Ignore"):
        policy = _built_in(_policy("p", ADD_A, failurePolicy=failure_policy))
        attributes, verdict = _run(policy, _binding("b", "p"), resource=DEPLOYMENTS, decode=decode)
        assert verdict.status == Status('Internal error occurred: strict decoding error: unknown field "spec.a"',
                                        "InternalError", 500)
        assert attributes.object == _crontab()


def _applying(policy: dict[str, Any], expression: str) -> dict[str, Any]:
    policy["spec"]["mutations"] = [{"patchType": "ApplyConfiguration",
                                    "applyConfiguration": {"expression": expression}}]
    return policy


def test_a_built_in_objects_apply_configuration_is_merged_by_its_types_read_back_and_defaulted() -> None:
    """dispatchOne: the merged Unstructured converted to the Go type, then defaulted."""
    seen: list[tuple[Any, bool]] = []

    def decode(value: Any, strict: bool = False) -> dict[str, Any]:
        seen.append((json.loads(json.dumps(value)), strict))
        return {**value, "decoded": True}
    policy = _applying(_built_in(_policy("p", ADD_A)), "Object{spec: Object.spec{replicas: 2}}")
    attributes, verdict = _run(policy, _binding("b", "p"), resource=DEPLOYMENTS, obj=_deployment({"paused": True}),
                               defaults={"d": "x"}, decode=decode)
    assert verdict.status is None and verdict.changed and verdict.notes == []
    assert seen == [(_deployment({"paused": True, "replicas": 2}), False)]
    assert attributes.object == {**_deployment({"paused": True, "replicas": 2, "d": "x"}), "decoded": True}


def test_a_field_a_built_in_type_lacks_is_the_policys_error() -> None:
    policy = _applying(_built_in(_policy("p", ADD_A)), "Object{spec: Object.spec{a: '1'}}")
    attributes, verdict = _run(policy, _binding("b", "p"), resource=DEPLOYMENTS, obj=_deployment())
    assert verdict.status is not None and verdict.status.reason == "Invalid"
    assert verdict.status.message == ("policy 'p' with binding 'b' denied request: error applying patch: failed to "
                                      "convert patch object to typed object: .spec.a: field not declared in schema")
    assert attributes.object == _deployment()


def test_a_merged_built_in_object_its_go_type_refuses_is_a_note() -> None:
    def decode(value: Any, strict: bool = False) -> dict[str, Any]:
        raise DecodeError("json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas "
                          "of type int32")
    policy = _applying(_built_in(_policy("p", ADD_A)), "Object{spec: Object.spec{replicas: 1.5}}")
    attributes, verdict = _run(policy, _binding("b", "p"), resource=DEPLOYMENTS, obj=_deployment(), decode=decode)
    assert verdict.status is None and not verdict.changed and attributes.object == _deployment()
    assert verdict.notes == ["not checked: MutatingAdmissionPolicy 'p' with binding 'b': the object its "
                             "ApplyConfiguration merged does not convert back to its Go type (the JSON decoder "
                             "says: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec."
                             "replicas of type int32), whose error crdtool does not reproduce"]


def test_a_value_a_types_own_unmarshaler_refuses_is_the_schemes_wrapped_error() -> None:
    """unstructuredToTyped: `unable to convert unstructured object to <gvk>: ` and the method's error."""
    def decode(value: Any, strict: bool = False) -> dict[str, Any]:
        raise DecodeError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
    policy = _applying(_built_in(_policy("p", ADD_A)), "Object{spec: Object.spec{replicas: 2}}")
    attributes, verdict = _run(policy, _binding("b", "p"), resource=DEPLOYMENTS, obj=_deployment(), decode=decode)
    assert verdict.status is not None and verdict.status.reason == "Invalid" and attributes.object == _deployment()
    assert verdict.status.message == (
        "policy 'p' with binding 'b' denied request: unable to convert unstructured object to apps/v1, "
        "Kind=Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")


def test_an_apply_configuration_of_a_custom_resource_without_a_schema_is_noted_not_applied() -> None:
    policy = _applying(_policy("p", ADD_A), "Object{spec: Object.spec{a: '1'}}")
    attributes, verdict = _run(policy, _binding("b", "p"), schemaless=True)
    assert attributes.object == _crontab() and not verdict.changed
    assert verdict.notes == ["not checked: MutatingAdmissionPolicy 'p' with binding 'b': its mutation 0 is an "
                             "ApplyConfiguration, which crdtool merges by a built-in kind's types or a custom "
                             "resource's structural schema, and it has neither for this kind"]
