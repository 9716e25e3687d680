"""ApplyConfiguration mutations: structured-merge-diff's merge (sigs.k8s.io/structured-merge-diff/v6
typed/merge_test.go, its "struct grab bag" set triplets) and k8s.io/apiserver
pkg/admission/plugin/policy/mutating/patch/smd_test.go (TestApplyConfiguration, its cases by name),
on a custom resource whose schema has a Deployment's list and map types (volumes, containers, env
and ports keyed by name, selector atomic, replicas an integer)."""

from __future__ import annotations

from typing import Any

import pytest
from smd_cases import Case, assert_applies, smd_test_go_cases

from crdtool.admission.policy import smd
from crdtool.admission.policy.model import Policy
from crdtool.admission.policy.patchers import compile_mutator
from crdtool.schema.structural.structural import new_structural


def _set(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "x-kubernetes-list-type": "set", "items": items}


GRAB_BAG = smd.from_openapi({"myStruct": {"type": "object", "properties": {
    "numeric": {"type": "number"}, "string": {"type": "string"}, "bool": {"type": "boolean"},
    "setStr": _set({"type": "string"}), "setBool": _set({"type": "boolean"}),
    "setNumeric": _set({"type": "number"})}}}, "myStruct")

# (lhs, rhs, out) of merge_test.go's "struct grab bag"
TRIPLETS = [
    ({"numeric": 1}, {"numeric": 3.14159}, {"numeric": 3.14159}),
    ({"string": "aoeu"}, {"bool": True}, {"string": "aoeu", "bool": True}),
    ({"setStr": ["a", "b", "c"]}, {"setStr": ["a", "b"]}, {"setStr": ["a", "b", "c"]}),
    ({"setStr": ["a", "b", "c"]}, {"setStr": []}, {"setStr": ["a", "b", "c"]}),
    ({"setStr": ["a", "b"]}, {"setStr": ["b", "a"]}, {"setStr": ["b", "a"]}),
    ({"setStr": ["a", "b", "c", "g", "f"]}, {"setStr": ["c", "d", "e", "f"]},
     {"setStr": ["a", "b", "c", "g", "d", "e", "f"]}),
    ({"setStr": ["c", "d", "e", "f"]}, {"setStr": ["a", "c", "e"]}, {"setStr": ["a", "c", "d", "e", "f"]}),
    ({"setStr": ["a", "b", "c", "x", "y", "z"]}, {"setStr": ["d", "e", "f", "x", "y", "z"]},
     {"setStr": ["a", "b", "c", "d", "e", "f", "x", "y", "z"]}),
    ({"setStr": ["c", "a", "g", "f"]}, {"setStr": ["c", "f", "a", "g"]}, {"setStr": ["c", "f", "a", "g"]}),
    ({"setStr": ["a", "b", "c", "d"]}, {"setStr": ["d", "e", "f", "a"]},
     {"setStr": ["b", "c", "d", "e", "f", "a"]}),
    ({"setStr": ["c", "d", "e", "f", "g", "h", "i", "j"]}, {"setStr": ["2", "h", "3", "e", "4", "k", "l"]},
     {"setStr": ["c", "d", "f", "g", "2", "h", "i", "j", "3", "e", "4", "k", "l"]}),
    ({"setStr": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]},
     {"setStr": ["1", "b", "2", "h", "3", "e", "4", "k", "l"]},
     {"setStr": ["a", "1", "b", "c", "d", "f", "g", "2", "h", "i", "j", "3", "e", "4", "k", "l"]}),
    ({"setStr": ["a", "b", "b"]}, {"setStr": ["c"]}, {"setStr": ["a", "b", "b", "c"]}),
    ({"setStr": ["a", "b", "b"]}, {"setStr": ["b"]}, {"setStr": ["a", "b"]}),
    ({"setStr": ["a", "b", "c", "d", "e", "c"]}, {"setStr": ["1", "b", "2", "e", "d"]},
     {"setStr": ["a", "1", "b", "c", "2", "e", "c", "d"]}),
    ({"setStr": ["a", "b", "c", "d", "e", "c"]}, {"setStr": ["1", "b", "2", "c", "e", "d"]},
     {"setStr": ["a", "1", "b", "2", "c", "e", "d"]}),
    ({"setStr": ["a", "a", "b", "b"]}, {"setStr": ["b", "c", "d"]}, {"setStr": ["a", "a", "b", "c", "d"]}),
    ({"setBool": [True]}, {"setBool": [False]}, {"setBool": [True, False]}),
    ({"setNumeric": [1, 2, 3.14159]}, {"setNumeric": [1, 2, 3]}, {"setNumeric": [1, 2, 3.14159, 3]}),
    ({"setNumeric": [1, 2, 3.14159, 1, 2]}, {"setNumeric": [1, 2, 3]}, {"setNumeric": [1, 2, 3.14159, 3]}),
    ({"setBool": [True, False, True]}, {"setBool": [True]}, {"setBool": [True, False]}),
]


@pytest.mark.parametrize(("lhs", "rhs", "out"), TRIPLETS)
def test_merge_triplets(lhs: dict[str, Any], rhs: dict[str, Any], out: dict[str, Any]) -> None:
    merged, errors = smd.merge(GRAB_BAG, GRAB_BAG.root, lhs, rhs)
    assert errors == [] and merged == out


def _map_list(properties: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": list(keys),
            "items": {"type": "object", "required": list(keys), "properties": properties}}


CONTAINER = {"name": {"type": "string"}, "image": {"type": "string"},
             "ports": _map_list({"containerPort": {"type": "integer"}, "protocol": {"type": "string",
                                                                                     "default": "TCP"}},
                                "containerPort", "protocol"),
             "env": _map_list({"name": {"type": "string"}, "value": {"type": "string"}}, "name"),
             "command": {"type": "array", "items": {"type": "string"}},
             "resources": {"type": "object", "properties": {"limits": {
                 "type": "object", "additionalProperties": {"x-kubernetes-int-or-string": True}}}}}
SCHEMA = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "replicas": {"type": "integer"},
    "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
        "matchLabels": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "template": {"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {
            "type": "string"}}}},
        "spec": {"type": "object", "properties": {
            "volumes": _map_list({"name": {"type": "string"}, "hostPath": {"type": "object", "properties": {
                "path": {"type": "string"}}}}, "name"),
            "containers": _map_list(CONTAINER, "name")}}}},
    "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}}}
TYPES = smd.types_for_custom_resource("apps.example.com", "v1", "Deployment", new_structural(SCHEMA))


def _deployment(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "apps.example.com/v1", "kind": "Deployment",
            "metadata": {"name": "d", "namespace": "default"}, "spec": spec}


def _pod(**spec: Any) -> dict[str, Any]:
    return {"template": {"spec": spec}}


def _apply(expression: str, obj: dict[str, Any], old: dict[str, Any] | None = None,
           variables: list[dict[str, str]] | None = None) -> dict[str, Any]:
    policy = Policy("p", {"variables": variables or [], "mutations": [
        {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": expression}}]})
    mutator = compile_mutator(policy)
    activation = {"object": obj, "oldObject": old, "request": {}, "namespaceObject": None, "params": None}
    notes: list[str] = []
    decision, matches = mutator.matches(activation, notes)
    assert decision is None and matches
    return mutator.apply(0, obj, activation, notes, TYPES)



CASES: list[Case] = [*smd_test_go_cases(_deployment, _pod),
    # beyond smd_test.go: the same checks on what a CRD's schema gives
    ("an atomic list (no x-kubernetes-list-type) inside an item is refused with its path",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: '
     '[Object.spec.template.spec.containers{name: "a", command: ["x"]}]}}}}', _deployment({}), None,
     "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: "
     ".spec.template.spec.containers[0].command"),
    ("a list under preserve-unknown-fields is atomic, replaced (findAtomics follows declared fields only)",
     "Object{spec: Object.spec{extra: {'l': [1]}}}", _deployment({"extra": {"l": [0, 2]}}), None,
     _deployment({"extra": {"l": [1]}})),
    ("a map inside preserve-unknown-fields merges key by key", "Object{spec: Object.spec{extra: {'b': {'y': 2}}}}",
     _deployment({"extra": {"a": 1, "b": {"x": 1}}}), None, _deployment({"extra": {"a": 1, "b": {"x": 1, "y": 2}}})),
    ("a key field's default identifies the item it merges with",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: '
     '[Object.spec.template.spec.containers{name: "a", ports: [Object.spec.template.spec.containers.ports{'
     'containerPort: 80, protocol: "TCP"}]}]}}}}',
     _deployment(_pod(containers=[{"name": "a", "ports": [{"containerPort": 80}, {"containerPort": 81}]}])), None,
     _deployment(_pod(containers=[{"name": "a", "ports": [{"containerPort": 80, "protocol": "TCP"},
                                                          {"containerPort": 81}]}]))),
    ("a wrong scalar type in the configuration", 'Object{spec: Object.spec{replicas: "two"}}', _deployment({}), None,
     "error applying patch: failed to convert patch object to typed object: .spec.replicas: expected numeric "
     "(int or float), got string"),
    ("a wrong scalar type in the object",
     "Object{metadata: Object.metadata{labels: {'a': 'b'}}}", _deployment({"replicas": "two"}), None,
     "error applying patch: failed to convert original object to typed object: .spec.replicas: expected numeric "
     "(int or float), got string"),
    ("duplicate keys in the configuration",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{volumes: '
     '[Object.spec.template.spec.volumes{name: "y"}, Object.spec.template.spec.volumes{name: "y"}]}}}}',
     _deployment({}), None,
     "error applying patch: failed to convert patch object to typed object: .spec.template.spec.volumes: "
     'duplicate entries for key [name="y"]'),
    ("a map-list item without its key",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{volumes: '
     '[Object.spec.template.spec.volumes{hostPath: Object.spec.template.spec.volumes.hostPath{path: "p"}}]}}}}',
     _deployment({}), None,
     "error applying patch: failed to convert patch object to typed object: .spec.template.spec.volumes: "
     'element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t '
     "have default values for any key fields)"),
    ("labels and ownerReferences of ObjectMeta: labels merge, an OwnerReference is an atomic struct",
     "Object{metadata: Object.metadata{labels: {'b': '2'}, ownerReferences: [Object.metadata.ownerReferences{"
     "uid: 'u', name: 'n', kind: 'K', apiVersion: 'v1'}]}}", _deployment({}), None,
     "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: "
     ".metadata.ownerReferences[0]"),
]


@pytest.mark.parametrize(("expression", "obj", "old", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_apply_configuration(expression: str, obj: dict[str, Any], old: dict[str, Any] | None,
                             expected: dict[str, Any] | str) -> None:
    assert_applies(_apply, expression, obj, old, expected)


def test_labels_merge_into_object_meta() -> None:
    obj = _deployment({})
    obj["metadata"]["labels"] = {"a": "1"}
    out = _apply("Object{metadata: Object.metadata{labels: {'b': '2'}, finalizers: ['x']}}", obj)
    assert out["metadata"] == {"name": "d", "namespace": "default", "labels": {"a": "1", "b": "2"},
                               "finalizers": ["x"]}


def test_apply_configuration_with_variable() -> None:
    """plugin_test.go TestCompilation: "apply configuration with variable"."""
    out = _apply("Object{spec: Object.spec{replicas: variables.desired + 1}}", _deployment({"replicas": 1}),
                 variables=[{"name": "desired", "expression": "10"}])
    assert out["spec"] == {"replicas": 11}


def test_the_go_texts_of_values() -> None:
    """validateScalar's %T, %#v and %v of smd's unstructured values; value.ToString of list keys."""
    types = smd.from_openapi({"r": {"type": "object", "properties": {
        "s": {"type": "string"}, "b": {"type": "boolean"}, "m": {"type": "object", "properties": {}},
        "l": {"type": "array", "items": {"type": "string"}},
        "n": _set({"type": "number"})}}}, "r")
    assert smd.validate(types, types.root, {"s": 1, "b": "x", "m": 2, "l": {"a": 1}, "n": [1.5, 1.5]}, False) == [
        (".b", "expected boolean, got &{x}"), (".l", "expected list, got &{map[a:1]}"),
        (".m", "expected map, got &{2}"), (".n", "duplicate entries for key [=1.5]"),
        (".s", "expected string, got &value.valueUnstructured{Value:1}")]
