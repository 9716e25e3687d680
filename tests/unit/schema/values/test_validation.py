"""OpenAPI value validation: kube-openapi's checks, order, MatchCount, messages and field-error types.

The expected strings are the real apiserver's (../shared/conformance/validate*.jsonl and lint.jsonl).
"""

from __future__ import annotations

import collections
import json

import pytest
from conformance_cases import document_for, load_cases, requires_shared

from crdtool.model.path import Path
from crdtool.schema.values.validation import compile_schema


def spec_schema(**props: dict) -> dict:
    return {"type": "object", "properties": {"spec": {"type": "object", "properties": props}}}


def errors(schema: dict, obj: dict, path: Path | None = None) -> list[str]:
    return [str(e) for e in compile_schema(schema).validate(obj, path)]


@pytest.mark.parametrize(
    ("prop", "value", "expected"),
    [
        ({"type": "integer", "maximum": 10}, 15,
         ["spec.v: Invalid value: 15: spec.v in body should be less than or equal to 10"]),
        ({"type": "integer"}, "string",
         ['spec.v: Invalid value: "string": spec.v in body must be of type integer: "string"']),
        ({"type": "string", "enum": ["a", "b"]}, "c", ['spec.v: Unsupported value: "c": supported values: "a", "b"']),
        ({"type": "string", "maxLength": 3}, "abcd", ["spec.v: Too long: may not be more than 3 bytes"]),
        ({"type": "string", "maxLength": 1}, "😀😀", ["spec.v: Too long: may not be more than 1 byte"]),
        ({"type": "string", "minLength": 2}, "日",
         ['spec.v: Invalid value: "日": spec.v in body should be at least 2 chars long']),
        ({"type": "string", "pattern": r"^\p{Greek}+$"}, "abc",
         [r"""spec.v: Invalid value: "abc": spec.v in body should match '^\p{Greek}+$'"""]),
        ({"type": "string", "pattern": "b"}, "ac",
         ["""spec.v: Invalid value: "ac": spec.v in body should match 'b'"""]),
        ({"type": "array", "maxItems": 1, "items": {"type": "string"}}, ["a", "b"],
         ["spec.v: Too many: 2: must have at most 1 item"]),
        ({"type": "array", "minItems": 2, "items": {"type": "string"}}, ["a"],
         ["spec.v: Invalid value: 1: spec.v in body should have at least 2 items"]),
        ({"type": "object", "minProperties": 1}, {},
         ["spec.v: Invalid value: 0: spec.v in body should have at least 1 properties"]),
        ({"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}}, {"a": "x", "b": "y"},
         ["spec.v: Too many: 2: must have at most 1 item"]),
        ({"type": "integer", "minimum": 5, "exclusiveMinimum": True}, 5,
         ["spec.v: Invalid value: 5: spec.v in body should be greater than 5"]),
        ({"type": "number", "maximum": 5.5, "exclusiveMaximum": True}, 5.5,
         ["spec.v: Invalid value: 5.5: spec.v in body should be less than 5.5"]),
        ({"type": "integer", "multipleOf": 3}, 10,
         ["spec.v: Invalid value: 10: spec.v in body should be a multiple of 3"]),
        ({"type": "object", "properties": {"a": {"type": "integer"}}, "x-kubernetes-embedded-resource": True},
         {"a": 1}, []),
        ({"type": "array", "items": {"type": "string"}}, ["a", None],
         ['spec.v[1]: Invalid value: "null": spec.v[1] in body must be of type string: "null"']),
        ({"type": "string", "nullable": True}, None, []),
        ({"type": "object", "enum": [{"a": 1}]}, {"a": 2},
         ['spec.v: Unsupported value: {"a":2}: supported values: "{\\"a\\":1}"']),
        ({"type": "string", "format": "date-time"}, "2024-01-02 03:04:05",
         ['spec.v: Invalid value: "2024-01-02 03:04:05": '
          'spec.v in body must be of type date-time: "2024-01-02 03:04:05"']),
        ({"type": "string", "format": "byte"}, "not base64!",
         ['spec.v: Invalid value: "not base64!": spec.v in body must be of type byte: "not base64!"']),
        ({"type": "string", "format": "no-such-format"}, "anything", []),
    ],
)
def test_keyword_messages(prop: dict, value: object, expected: list[str]) -> None:
    assert errors(spec_schema(v=prop), {"spec": {"v": value}}) == expected


def test_required_and_document_order() -> None:
    schema = spec_schema(replicas={"type": "integer", "maximum": 10}, a={"type": "integer"},
                         mode={"type": "string", "enum": ["a", "b"]})
    schema["properties"]["spec"]["required"] = ["x"]
    assert errors(schema, {"spec": {"replicas": 15, "a": "string", "mode": "x"}}) == [
        "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        'spec.a: Invalid value: "string": spec.a in body must be of type integer: "string"',
        'spec.mode: Unsupported value: "x": supported values: "a", "b"',
        "spec.x: Required value",
    ]


def test_numeric_formats_and_range_checks() -> None:
    int32 = spec_schema(v={"type": "integer", "format": "int32"})
    assert errors(int32, {"spec": {"v": 1099511627776}}) == [
        '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.v']
    assert errors(spec_schema(v={"type": "integer", "format": "int64"}), {"spec": {"v": 1.5}}) == [
        'spec.v: Invalid value: "float64": spec.v in body must be of type int64: "float64"',
        '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in spec.v']
    # -9223372036854775809 decodes to the float64 -2**63, printed as -9223372036854776000: out of int64
    port = spec_schema(v={"type": "integer", "minimum": 0, "maximum": 4294967295})
    assert errors(port, {"spec": {"v": -9223372036854775809}}) == [
        'spec.v: Invalid value: "number": spec.v in body must be of type integer: "number"',
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.v',
        "spec.v: Invalid value: -9.223372036854776e+18: spec.v in body should be greater than or equal to 0"]
    assert errors(port, {"spec": {"v": 1e20}})[-1] == \
        "spec.v: Invalid value: 1e+20: spec.v in body should be less than or equal to 4.294967295e+09"
    assert errors(port, {"spec": {"v": 4294967296}}) == [
        "spec.v: Invalid value: 4294967296: spec.v in body should be less than or equal to 4294967295"]
    assert errors(spec_schema(v={"type": "integer"}), {"spec": {"v": 2.0}}) == []


def test_int_or_string() -> None:
    plain = {"type": "object", "properties": {"foo": {"x-kubernetes-int-or-string": True}}}
    assert errors(plain, {"foo": 1.5}) == [
        'foo: Invalid value: "number": foo in body must be of type integer,string: "number"']
    with_any_of = {"type": "object", "properties": {"foo": {
        "x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}}}
    assert errors(with_any_of, {"foo": 1.5}) == [
        'foo: Invalid value: "number": foo in body must be of type integer,string: "number"',
        '<nil>: Invalid value: "": "foo" must validate at least one schema (anyOf)',
        'foo: Invalid value: "number": foo in body must be of type integer: "number"',
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in foo']
    assert errors(with_any_of, {"foo": "50%"}) == []


def test_junctors() -> None:
    one_of = spec_schema(v={"type": "integer", "oneOf": [{"minimum": 1}, {"maximum": 10}]})
    assert errors(one_of, {"spec": {"v": 5}}) == [
        '<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives']
    all_of = spec_schema(v={"type": "integer", "allOf": [{"maximum": 3}, {"maximum": 3}]})
    assert errors(all_of, {"spec": {"v": 5}}) == [  # the same message twice is reported once
        "spec.v: Invalid value: 5: spec.v in body should be less than or equal to 3",
        '<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf). None validated']
    not_ = spec_schema(v={"type": "string", "not": {"enum": ["x"]}})
    assert errors(not_, {"spec": {"v": "x"}}) == [
        '<nil>: Invalid value: "": "spec.v" must not validate the schema (not)']


def test_default_values_use_the_callers_path() -> None:
    node = Path.root("spec", "validation", "openAPIV3Schema").child("properties").key("spec")
    default_path = node.child("properties").key("a").child("default")
    assert errors({"type": "integer"}, "string", default_path) == [
        'spec.validation.openAPIV3Schema.properties[spec].properties[a].default: Invalid value: "string":  '
        'in body must be of type integer: "string"']
    obj = {"type": "object", "required": ["b"], "properties": {"b": {"type": "string"}, "c": {"type": "integer"}}}
    assert errors(obj, {"c": 1.5}, default_path) == [
        'spec.validation.openAPIV3Schema.properties[spec].properties[a].default.c: Invalid value: "number": '
        'c in body must be of type integer: "number"',
        'spec.validation.openAPIV3Schema.properties[spec].properties[a].default: Invalid value: "": '
        "Checked value must be of type integer (default format) in c",
        "spec.validation.openAPIV3Schema.properties[spec].properties[a].default.b: Required value"]


def test_field_paths_stay_structured() -> None:
    schema = spec_schema(v={"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}})
    (err,) = compile_schema(schema).validate({"spec": {"v": [{"k.x": 1}]}})
    assert str(err) == ('spec.v[0].k.x: Invalid value: "integer": '
                        'spec.v[0].k.x in body must be of type string: "integer"')
    assert err.path == Path.root("spec", "v").index(0).child("k.x")


def test_ratcheting_drops_errors_of_unchanged_fields() -> None:
    schema = spec_schema(n={"type": "integer", "minimum": 5}, m={"type": "integer", "minimum": 5},
                         atomic={"type": "array", "x-kubernetes-list-type": "atomic",
                                 "items": {"type": "integer", "minimum": 5}},
                         keyed={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                                "items": {"type": "object", "properties": {"k": {"type": "string"},
                                                                           "v": {"type": "integer", "minimum": 5}}}})
    v = compile_schema(schema)
    old = {"spec": {"n": 1, "m": 1, "atomic": [1], "keyed": [{"k": "a", "v": 1}, {"k": "b", "v": 1}]}}
    new = {"spec": {"n": 1, "m": 2, "atomic": [1], "keyed": [{"k": "b", "v": 1}, {"k": "a", "v": 2}]}}
    assert [str(e) for e in v.validate_update(new, old)] == [
        "spec.m: Invalid value: 2: spec.m in body should be greater than or equal to 5",
        "spec.keyed[1].v: Invalid value: 2: spec.keyed[1].v in body should be greater than or equal to 5"]
    assert len(v.validate(new)) == 5


# ---------------------------------------------------------------- the apiserver's own answers
_MARKERS = (" in body ", "Checked value", "must validate", "boundary value", "MultipleOf value", "must not validate")


def _schema_errors(case: dict, schema: dict) -> list[str]:
    """Expected errors that come from the OpenAPI validator (not metadata, CEL, list types or embedded meta)."""
    out = []
    for e in case["expected"].get("errors") or []:
        if e["field"].startswith("metadata") or e["type"] == "FieldValueDuplicate":
            continue
        if e["type"] == "FieldValueRequired":
            if e["detail"] == "" and not e["field"].endswith((".apiVersion", ".kind")):
                out.append(e["error"])
        elif e["type"] in ("FieldValueNotSupported", "FieldValueTooLong", "FieldValueTooMany") or \
                any(m in (e["detail"] or "") for m in _MARKERS):
            out.append(e["error"])
    return out


def _version_schema(crd: dict, version: str) -> dict | None:
    spec = crd.get("spec") or {}
    for v in spec.get("versions") or []:
        if v.get("name") == version and (v.get("schema") or {}).get("openAPIV3Schema") is not None:
            return v["schema"]["openAPIV3Schema"]
    return (spec.get("validation") or {}).get("openAPIV3Schema")


def _sample() -> list:
    return [pytest.param(c, id=c["id"]) for c in load_cases("validate")
            if c["origin"] in ("seed", "synthetic") and c["expected"].get("object") is not None]


@requires_shared
@pytest.mark.parametrize("case", _sample())
def test_conformance_schema_errors(case: dict) -> None:
    crd = document_for(case["crd"], case, "crd").data
    obj = json.loads(json.dumps(case["expected"]["object"]),  # pruned and defaulted, as the validator sees it
                     parse_int=lambda t: int(t) if -(2**63) <= int(t) < 2**63 else float(t))
    version = case.get("version") or obj["apiVersion"].rpartition("/")[2]
    schema = _version_schema(crd, version)
    got = [str(e) for e in compile_schema(schema).validate(obj)] if schema else []
    got = [g for g in got if not g.startswith("metadata")]
    assert collections.Counter(got) == collections.Counter(_schema_errors(case, schema))
