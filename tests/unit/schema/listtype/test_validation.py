"""x-kubernetes-list-type set and map uniqueness, with the apiserver's texts."""

from crdtool.schema.listtype.validation import ListTypes
from crdtool.schema.structural.structural import new_structural


def check(list_schema: dict, value) -> list[str]:
    schema = new_structural({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "v": list_schema}}}})
    return [str(e) for e in ListTypes(schema).validate({"spec": {"v": value}})]


SET = {"type": "array", "x-kubernetes-list-type": "set", "items": {"x-kubernetes-int-or-string": True}}
MAP = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
       "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
MAP2 = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "n"],
        "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}


def test_set_reports_the_second_appearance_once():
    assert check(SET, ["Deny", "Audit", "Deny", "Deny", "Audit"]) == [
        'spec.v[2]: Duplicate value: "Deny"', 'spec.v[4]: Duplicate value: "Audit"']


def test_set_compares_go_types():
    assert check(SET, [1, 1.5, True, "1"]) == []
    assert check(SET, [1, 1]) == ["spec.v[1]: Duplicate value: 1"]
    # compound items compare by their JSON text
    assert check({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}},
                 [{"a": "x"}, {"a": "x"}]) == ['spec.v[1]: Duplicate value: {"a":"x"}']


def test_map_keys():
    assert check(MAP, [{"name": "http"}, {"name": "http"}]) == ['spec.v[1]: Duplicate value: {"name":"http"}']
    assert check(MAP, [{}, None]) == ["spec.v[1]: Duplicate value: {}"]
    assert check(MAP2, [{"k": "a", "n": 0, "x": 1}, {"n": 0, "k": "a"}]) == [
        'spec.v[1]: Duplicate value: {"k":"a","n":0}']


def test_map_items_must_be_objects():
    assert check(MAP, [{"name": "a"}, "a-string"]) == [
        'spec.v[1]: Invalid value: "a-string": must be an object for an array of list-type map']


def test_nested_lists_and_maps():
    schema = new_structural({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {
        "type": "array", "items": SET | {"items": {"type": "string"}}}}}})
    got = [str(e) for e in ListTypes(schema).validate({"m": {"k": [["a", "a"]]}})]
    assert got == ['m[k][0][1]: Duplicate value: "a"']
    assert ListTypes(new_structural({"type": "object"})).empty
