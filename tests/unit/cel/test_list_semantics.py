"""Set and map lists compare and concatenate as the apiserver's unstructured values do."""

from __future__ import annotations

import pytest

from crdtool.cel.evaluate import validate
from crdtool.cel.list_semantics import add, cel_equals, equals
from crdtool.cel.types import schema_decl_type
from crdtool.model.path import Path
from crdtool.schema.structural.structural import new_structural

TAGS = {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}
PORTS = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
         "items": {"type": "object", "required": ["name"], "properties": {
             "name": {"type": "string"}, "port": {"type": "integer"}, "tags": TAGS}}}
PLAIN = {"type": "array", "items": {"type": "string"}}


def _schema(rules: list[dict]):
    return new_structural({"type": "object", "x-kubernetes-validations": rules, "properties": {
        "tags": TAGS, "ports": PORTS, "plain": PLAIN,
        "byName": {"type": "object", "additionalProperties": TAGS}}})


def _failed(rules: list[str], obj: dict, old: dict | None = None) -> list[str]:
    errs, _ = validate(_schema([{"rule": r} for r in rules]), False, obj, old, Path.root("spec"), False)
    return [str(e) for e in errs]


@pytest.mark.parametrize("rule", [
    "self.tags == ['b', 'a']",
    "self.tags != ['a', 'c']",
    "['a', 'b'] == self.plain",  # a plain list on the left compares in order
    "self.tags + ['c', 'a'] == ['a', 'b', 'c']",
    "(self.tags + ['c', 'a'])[2] == 'c' && size(self.tags + ['c', 'a']) == 3",
    "self.ports == [self.ports[1], self.ports[0]]",
    "size(self.ports + self.ports) == 2 && (self.ports + [self.ports[1]])[1].port == 443",
    "[self.ports[1], self.ports[0]] != self.ports.filter(p, true)",  # a comprehension's result is plain
    "self.byName.x == ['2', '1']",
    "self.ports.all(p, p.tags == ['y', 'x'] || !has(p.tags))",
    "self.plain + ['a'] == ['a', 'b', 'a']",  # a plain list concatenates
    "self.tags + [''] != self.tags && size(self.tags + ['', '']) == 3",
])
def test_rules_see_set_and_map_semantics(rule: str) -> None:
    obj = {"tags": ["a", "b"], "plain": ["a", "b"], "byName": {"x": ["1", "2"]},
           "ports": [{"name": "http", "port": 80, "tags": ["x", "y"]}, {"name": "https", "port": 443}]}
    assert _failed([rule], obj) == []


def test_plain_list_on_the_left_is_ordered() -> None:
    assert _failed(["['b', 'a'] == self.tags"], {"tags": ["a", "b"]}) == \
        ["spec: Invalid value: failed rule: ['b', 'a'] == self.tags"]


def test_reordering_a_map_list_keeps_it_equal_to_the_old_one() -> None:
    old = {"ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}], "tags": ["a", "b"]}
    reordered = {"ports": [old["ports"][1], old["ports"][0]], "tags": ["b", "a"]}
    assert _failed(["self == oldSelf", "self.ports == oldSelf.ports"], reordered, old) == []
    changed = {"ports": [{"name": "https", "port": 8443}, old["ports"][0]], "tags": ["b", "a"]}
    assert _failed(["self == oldSelf"], changed, old) == ["spec: Invalid value: failed rule: self == oldSelf"]


def test_optional_old_self_keeps_the_semantics() -> None:
    old = {"tags": ["a", "b"]}
    errs, _ = validate(_schema([{"rule": "!oldSelf.hasValue() || oldSelf.value().tags == self.tags",
                                 "optionalOldSelf": True}]), False, {"tags": ["b", "a"]}, old, Path.root("spec"),
                       False)
    assert errs == []


def test_equality_and_union_helpers() -> None:
    tags = schema_decl_type(new_structural(TAGS), False)
    ports = schema_decl_type(new_structural(PORTS), False)
    assert equals(tags, ["a", "b"], ["b", "a"]) and not equals(tags, ["a", "b"], ["a", "c"])
    assert not equals(tags, ["a"], ["a", "a"])
    assert add(tags, ["a", "b"], ["c", "a", "c"]) == ["a", "b", "c"]
    assert add(ports, [{"name": "a", "port": 1}, {"name": "b"}], [{"name": "b", "port": 2}, {"name": "c"}]) == \
        [{"name": "a", "port": 1}, {"name": "b", "port": 2}, {"name": "c"}]
    assert not equals(ports, [{"name": "a", "port": 1}], [{"name": "b", "port": 1}])
    assert cel_equals(1, 1.0) and not cel_equals(True, 1) and not cel_equals("1", 1)
