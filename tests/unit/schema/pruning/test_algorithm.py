"""Pruning of custom resources (crdtool.schema.pruning.algorithm) against the apiserver's answers: the synthetic
conformance cases inline, then every case of prune.jsonl and the unknown fields of validate.jsonl."""

from __future__ import annotations

from conformance_cases import case_input, load_cases, requires_shared

from crdtool.model.jsonvalue import json_copy
from crdtool.schema.pruning.algorithm import prune, prune_non_nullable_nulls, would_prune
from crdtool.schema.structural.structural import new_structural


def obj(**props) -> dict:
    return {"type": "object", "properties": props}


def widget(**fields) -> dict:
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w1"}, **fields}


def test_unknown_fields_at_several_depths_sorted():
    # prune/synthetic/strict/unknown-at-depth
    schema = new_structural(obj(spec=obj(v=obj(a=obj(b={"type": "array", "items": obj(c={"type": "string"})})))))
    o = widget(spec={"v": {"a": {"b": [{"c": "x", "d": 1}], "e": 2}, "f": 3}, "g": 4}, h=5)
    result = prune(o, schema)
    assert result.pruned == ["h", "spec.g", "spec.v.a.b[0].d", "spec.v.a.e", "spec.v.f"]
    assert result.unknown_fields[:2] == ['unknown field "h"', 'unknown field "spec.g"']
    assert o == widget(spec={"v": {"a": {"b": [{"c": "x"}]}}})


def test_preserve_unknown_fields_keeps_unknown_and_prunes_specified():
    # prune/seed/pruning/json-partial
    schema = new_structural(obj(json={"x-kubernetes-preserve-unknown-fields": True, "type": "object",
                                      "properties": {"spec": obj(foo={"type": "string"}, bar={"type": "string"})}}))
    o = widget(json={"spec": {"foo": "abc", "bar": "def", "something": "x"}, "status": {"something": "x"}})
    assert prune(o, schema).pruned == ["json.spec.something"]
    assert o["json"] == {"spec": {"foo": "abc", "bar": "def"}, "status": {"something": "x"}}


def test_additional_properties_values_pruned_with_dotted_keys():
    # validate/synthetic/strict/unknown-in-additionalProperties, prune-default/defaults-in-additionalProperties
    schema = new_structural(obj(spec=obj(m={"type": "object",
                                            "additionalProperties": obj(x={"type": "string", "default": "y"})})))
    o = widget(spec={"m": {"k1": {}, "k2": {"x": "z", "junk": 1}}})
    assert prune(o, schema).unknown_fields == ['unknown field "spec.m.k2.junk"']
    assert o["spec"] == {"m": {"k1": {}, "k2": {"x": "z"}}}


def test_would_prune_is_pruning_of_a_copy_without_touching_embedded_metadata():
    # defaulting's validation: pruning.Prune of a copy compared with the original; ObjectMeta is objectmeta's
    schema = new_structural(obj(spec=obj(a={"type": "string"}),
                                kept={"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                                res={"type": "object", "x-kubernetes-embedded-resource": True,
                                     "properties": {"x": {"type": "string"}}}))
    clean = {"spec": {"a": "x"}, "kept": {"anything": [1]}, "res": {"kind": 5, "metadata": {"junk": 1}, "x": "y"}}
    assert not would_prune(clean, schema)
    assert clean["res"]["metadata"] == {"junk": 1}  # the value itself is never changed
    assert would_prune({"spec": {"a": "x", "b": 1}}, schema)
    assert would_prune({"res": {"z": 1}}, schema)
    assert would_prune([{"a": 1}], None) and not would_prune([], None) and not would_prune("x", None)


def test_root_keeps_type_meta_and_prunes_metadata_to_object_meta_first():
    # prune/synthetic/prune-default/metadata-pruning: ['metadata.bogus', 'other', 'status']
    schema = new_structural(obj(spec={"type": "object"}))
    o = {"apiVersion": "example.com/v1", "kind": "Widget", "other": 1, "status": {},
         "metadata": {"name": "w1", "bogus": True, "Labels": {},
                      "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "n", "uid": "u", "x": 1}]}}
    result = prune(o, schema)
    assert result.pruned == ["metadata.Labels", "metadata.bogus", "metadata.ownerReferences[0].x", "other", "status"]
    assert o == {"apiVersion": "example.com/v1", "kind": "Widget",
                 "metadata": {"name": "w1", "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "n",
                                                                 "uid": "u"}]}}


def test_embedded_resource_metadata_pruned_after_the_schema_paths():
    # validate/synthetic/embedded/metadata-unknown-field: spec.v.metadata.junk
    embedded = {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}
    schema = new_structural(obj(spec=obj(v=embedded, m={"type": "object", "additionalProperties": embedded}),
                                z={"type": "string"}))
    o = widget(spec={"v": {"apiVersion": "v1", "kind": "K", "metadata": {"name": "n", "junk": 1}, "free": 1},
                     "m": {"k1": {"metadata": {"junk": 2}}}, "y": 1})
    result = prune(o, schema)
    # field.Path renders the map key in brackets for the metadata found by the coercion
    assert result.pruned == ["spec.y", "spec.m[k1].metadata.junk", "spec.v.metadata.junk"]
    assert o["spec"] == {"v": {"apiVersion": "v1", "kind": "K", "metadata": {"name": "n"}, "free": 1},
                         "m": {"k1": {"metadata": {}}}}


def test_not_a_resource_root_drops_type_meta_silently():
    schema = new_structural(obj(spec={"type": "object"}))
    o = {"apiVersion": "v1", "kind": "K", "metadata": {"x": 1}, "spec": {}, "other": 1}
    assert prune(o, schema, is_resource_root=False).pruned == ["other"]
    assert o == {"spec": {}}


def test_nulls_of_non_nullable_fields_without_default_removed():
    # prune/seed/defaulting/nullable
    schema = new_structural(obj(spec=obj(foo={"type": "string", "nullable": False, "default": "default"},
                                         bar={"type": "string", "nullable": True}, baz={"type": "string"},
                                         l={"type": "array", "items": {"type": "string"}})))
    o = widget(spec={"foo": None, "bar": None, "baz": None, "l": [None]})
    assert prune(o, schema).pruned == []
    assert o["spec"] == {"foo": None, "bar": None, "l": [None]}
    again = {"spec": {"baz": None}}
    prune_non_nullable_nulls(again, schema)
    assert again == {"spec": {}}


def test_no_schema_prunes_all_but_type_meta():
    o = widget(spec={"a": 1})
    assert prune(o, None).pruned == ["spec"]
    assert o == widget()


# ------------------------------------------------------------------ the conformance cases


def _without_metadata(o: dict) -> dict:
    """The object without its metadata: the typed round trip of known metadata fields is resource_meta's."""
    return {k: v for k, v in o.items() if k != "metadata"}


@requires_shared
def test_prune_cases():
    failures = []
    for case in load_cases("prune"):
        data, schema = case_input(case)
        o = json_copy(data)
        result = prune(o, schema)
        expected = case["expected"]
        if sorted(result.pruned) != sorted(expected["pruned"]) or \
                _without_metadata(o) != _without_metadata(expected["object"]):
            failures.append(case["id"])
    assert failures == []


@requires_shared
def test_validate_cases_unknown_fields():
    failures = []
    for case in load_cases("validate"):
        expected = case["expected"]
        if "coerceError" in expected or "decodeError" in expected:
            continue
        data, schema = case_input(case)
        result = prune(json_copy(data), schema)
        warnings = [w for w in expected["fieldValidationWarnings"] if w.startswith("unknown field")]
        if sorted(result.pruned) != sorted(expected["pruned"]) or sorted(result.unknown_fields) != sorted(warnings):
            failures.append(case["id"])
    assert failures == []
