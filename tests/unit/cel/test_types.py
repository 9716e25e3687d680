"""Schema -> CEL types, property-name escaping, value shaping, literal validators and cel-go error texts."""

from __future__ import annotations

import pytest
from google.protobuf import duration_pb2, timestamp_pb2

from crdtool.cel.errors import go_error_text
from crdtool.cel.literals import literal_issues, unquote
from crdtool.cel.names import escape, unescape
from crdtool.cel.types import MAX_REQUEST_SIZE_BYTES, DeclTypes, schema_decl_type
from crdtool.cel.values import to_cel
from crdtool.model.gotime import go_duration_nanos
from crdtool.model.memo import IdentityMemo
from crdtool.schema.structural.structural import new_structural


@pytest.mark.parametrize(("name", "escaped"), [
    ("foo", "foo"), ("x-foo", "x__dash__foo"), ("a.b", "a__dot__b"), ("a/b", "a__slash__b"),
    ("a__b", "a__underscores__b"), ("namespace", "__namespace__"), ("in", "__in__"), ("a_b", "a_b"),
    ("1abc", None), ("a b", None), ("", None),
])
def test_escape(name: str, escaped: str | None) -> None:
    assert escape(name) == escaped
    if escaped is not None:
        assert unescape(escaped) == name


def test_object_fields_escaped_and_sized() -> None:
    s = new_structural({"type": "object", "required": ["x-y"], "properties": {
        "x-y": {"type": "string", "maxLength": 10}, "1bad": {"type": "integer"},
        "items": {"type": "array", "items": {"type": "integer"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 5},
        "when": {"type": "string", "format": "date-time"}, "n": {"type": "number"},
        "ios": {"x-kubernetes-int-or-string": True},
    }})
    t = schema_decl_type(s, False)
    assert t.kind == "object"
    assert set(t.fields) == {"x__dash__y", "items", "labels", "when", "n", "ios"}
    assert t.fields["x__dash__y"].type.max_elements == 40  # maxLength in bytes: 4 per code point
    assert t.min_serialized_size == 2 + len("x-y") + 2 + 4  # {} plus the required property
    items = t.fields["items"].type
    assert (items.kind, items.elem_type.kind) == ("list", "int")
    assert items.max_elements == (MAX_REQUEST_SIZE_BYTES - 2) // 2
    assert (t.fields["labels"].type.kind, t.fields["labels"].type.max_elements) == ("map", 5)
    assert t.fields["when"].type.kind == "timestamp"
    assert t.fields["n"].type.kind == "double"
    assert t.fields["ios"].type.kind == "dyn"


def test_resource_root_shows_only_name_and_generate_name_of_metadata() -> None:
    s = new_structural({"type": "object", "properties": {"metadata": {"type": "object"},
                                                          "spec": {"type": "object"}}})
    t = schema_decl_type(s, True)
    assert {"apiVersion", "kind", "metadata", "spec"} <= set(t.fields)
    assert set(t.fields["metadata"].type.fields) == {"name", "generateName"}


def test_values_shaped_by_type() -> None:
    s = new_structural({"type": "object", "properties": {
        "n": {"type": "number"}, "t": {"type": "string", "format": "date-time"},
        "d": {"type": "string", "format": "duration"}, "x-y": {"type": "integer"},
        "b": {"type": "string", "format": "byte"}}})
    value = to_cel({"n": 3, "t": "2020-01-01T00:00:00.5Z", "d": "1m30s", "x-y": 4, "b": "aGk=", "unknown": 1},
                   schema_decl_type(s, False))
    assert value["n"] == 3.0 and isinstance(value["n"], float)
    assert value["t"] == timestamp_pb2.Timestamp(seconds=1577836800, nanos=500_000_000)
    assert value["d"] == duration_pb2.Duration(seconds=90)
    assert value["x__dash__y"] == 4 and "unknown" not in value
    assert value["b"] == b"hi"


@pytest.mark.parametrize(("fmt", "text", "expected"), [
    # UnstructuredToVal (k8s.io/apiserver/pkg/cel/common/values.go): strfmt.ParseDuration for durations,
    # time.Parse("2006-01-02") for dates, strfmt.ParseDateTime (kube-openapi time.go) for date-times
    ("duration", "1 day", duration_pb2.Duration(seconds=86400)),
    ("duration", "2 weeks 3d", duration_pb2.Duration(seconds=17 * 86400)),
    ("duration", "90 minutes", duration_pb2.Duration(seconds=5400)),
    ("duration", "soon", "soon"),
    ("date", "2020-02-29", timestamp_pb2.Timestamp(seconds=1582934400)),
    ("date-time", "2020-01-01T01:00:00+01:00", timestamp_pb2.Timestamp(seconds=1577836800)),
    ("date-time", "2020-01-01T00:00:00", timestamp_pb2.Timestamp(seconds=1577836800)),
    ("date-time", "2020-01-01T00:00:00.123456789123Z", timestamp_pb2.Timestamp(seconds=1577836800, nanos=123456789)),
    ("date-time", "", timestamp_pb2.Timestamp(seconds=-62135596800)),
    ("date-time", "2020-01-01t00:00:00z", "2020-01-01t00:00:00z"),
    ("date-time", "2020-01-01 00:00:00Z", "2020-01-01 00:00:00Z"),
])
def test_string_formats_as_the_apiserver_converts_them(fmt: str, text: str, expected: object) -> None:
    s = new_structural({"type": "object", "properties": {"v": {"type": "string", "format": fmt}}})
    assert to_cel({"v": text}, schema_decl_type(s, False))["v"] == expected


@pytest.mark.parametrize(("text", "nanos"), [
    ("0", 0), ("1h30m", 5_400_000_000_000), ("1.5s", 1_500_000_000), ("-300ms", -300_000_000),
    ("2us", 2000), ("1 hour", None), ("", None), ("5", None),
])
def test_go_duration(text: str, nanos: int | None) -> None:
    assert go_duration_nanos(text) == nanos


def test_literal_validators_at_the_literal() -> None:
    issues = literal_issues("timestamp('nope') < timestamp('2020-01-01T00:00:00Z') && self.matches('[') "
                            "&& duration('1d') > duration('1h') && self == 'duration(\\'x\\')'")
    assert [(i.column, i.message) for i in issues] == [
        (11, "invalid timestamp argument"), (71, "invalid matches argument"), (88, "invalid duration argument")]


@pytest.mark.parametrize(("literal", "valid"), [
    ("2020-01-01T00:00:00Z", True), ("2020-01-01T1:00:00.5+01:00", True), ("9999-12-31T23:59:59.9Z", True),
    ("0000-12-31T23:30:00-01:00", True), ("0001-01-01T00:00:00+00:01", False), ("2020-02-30T00:00:00Z", False),
    ("2020-01-01T00:00:00+24:60", True), ("2020-01-01T00:00:00+25:00", False), ("2020-01-01", False),
])
def test_timestamp_literals_as_cel_go_converts_them(literal: str, valid: bool) -> None:
    assert (literal_issues(f"timestamp('{literal}') == self") == []) is valid


def test_unquote() -> None:
    assert unquote(r"'a\'b'") == "a'b"
    assert unquote(r"r'a\d'") == r"a\d"
    assert unquote('"""x"""') == "x"


def test_go_error_texts() -> None:
    text = ("INVALID_ARGUMENT: ERROR: <input>:1:5: undefined field 'nope' not found in struct 'crdtool.self1.T0'\n"
            " | self.nope\n | ....^ [INVALID_ARGUMENT]")
    assert go_error_text(text, "self.nope", {}) == "ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^"
    member = ("ERROR: <input>:1:16: found no matching overload for 'startsWith' applied to '(int, string)'\n"
              " | self.startsWith('a')\n | ...............^")
    assert "applied to 'int.(string)'" in go_error_text(member, "self.startsWith('a')", {})
    typed = "ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(crdtool.self7.T0, null_type)'"
    assert "'(selfType7, null)'" in go_error_text(typed, "self == null", {"crdtool.self7.T0": "selfType7"})
    qualified = "ERROR: <input>:1:8: undeclared reference to 'oldSelf.foo' (in container '')"
    assert go_error_text(qualified, "oldSelf.foo > 1", {}).startswith(
        "ERROR: <input>:1:1: undeclared reference to 'oldSelf' (in container '')")
    has = "ERROR: <input>:1:5: has() argument must be a field selection"
    assert "invalid argument to has() macro" in go_error_text(has, "has(self)", {})


def test_types_derived_with_a_memo_are_those_derived_afresh() -> None:
    """A node's type is part of the types above it: derived once with a memo, the same as without one."""
    s = new_structural({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-validations": [{"rule": "true"}], "properties": {
            "items": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 5}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}})
    spec = s.properties["spec"]
    memo: DeclTypes = IdentityMemo()
    child = schema_decl_type(spec, False, memo)
    root = schema_decl_type(s, True, memo)
    assert root.fields["spec"].type is child
    assert schema_decl_type(spec, False, memo) is child
    assert root.fingerprint() == schema_decl_type(s, True).fingerprint()
    assert child.fingerprint() == schema_decl_type(spec, False).fingerprint()
    assert schema_decl_type(s, False, memo).fingerprint() == schema_decl_type(s, False).fingerprint()
