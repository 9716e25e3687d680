"""model/gounmarshal: encoding/json's Unmarshal into Go types (sigs.k8s.io/json as the apiserver runs it).

The expected texts are encoding/json's (decode.go: UnmarshalTypeError.Error, literalStore, addErrorContext
as of Go 1.24) and sigs.k8s.io/json's strict errors (kubernetes_patch.go)."""

from __future__ import annotations

import json

import pytest

from crdtool.model.gounmarshal import (
    BOOL,
    BYTES,
    FLOAT64,
    INT32,
    INT64,
    STRING,
    STRINGS,
    UINT8,
    Decoder,
    UnmarshalError,
    any_json,
    custom,
    define,
    map_of,
    marshal,
    slice_of,
    string_type,
    struct,
    unmarshal,
)
from crdtool.model.metav1 import OBJECT_META, TIME

UID = string_type("types.UID")
INNER = define(struct("pkg.Inner"), {"v": INT32, "s": STRING})


def _nested_inner(value, decoder: Decoder):
    return decoder.nested(value, INNER)


def _refuse(value, decoder: Decoder):
    raise UnmarshalError("custom says no")


OUTER = define(struct("pkg.Outer"), {
    "a": STRING, "b": STRING, "inner": INNER, "list": slice_of(INNER), "map": map_of(INNER),
    "wrapped": custom("pkg.Wrapped", _nested_inner), "refused": custom("pkg.Refused", _refuse),
    "ptr": INNER, "n": INT64, "raw": any_json("runtime.RawExtension"),
}, pointers="ptr")


def error_of(value, t, **options) -> str | None:
    err = unmarshal(value, t, **options).error
    return None if err is None else str(err)


# ---------------------------------------------------------------- each type x each JSON kind

S, N, F, B, A, OBJ = "x", 5, 1.5, True, [], {}
# (type, JSON value, what encoding/json calls the value in its error, or None when it decodes)
_KINDS = [
    (STRING, S, None), (STRING, N, "number"), (STRING, F, "number"), (STRING, B, "bool"), (STRING, A, "array"),
    (STRING, OBJ, "object"),
    (UID, S, None), (UID, N, "number"), (UID, B, "bool"),
    (BOOL, S, "string"), (BOOL, N, "number"), (BOOL, B, None), (BOOL, A, "array"), (BOOL, OBJ, "object"),
    (INT32, S, "string"), (INT32, N, None), (INT32, F, "number 1.5"), (INT32, B, "bool"), (INT32, A, "array"),
    (INT32, OBJ, "object"),
    (INT64, S, "string"), (INT64, N, None), (INT64, F, "number 1.5"), (INT64, B, "bool"), (INT64, OBJ, "object"),
    (UINT8, N, None), (UINT8, F, "number 1.5"), (UINT8, S, "string"),
    (FLOAT64, S, "string"), (FLOAT64, N, None), (FLOAT64, F, None), (FLOAT64, B, "bool"), (FLOAT64, A, "array"),
    (FLOAT64, OBJ, "object"),
    (STRINGS, S, "string"), (STRINGS, N, "number"), (STRINGS, B, "bool"), (STRINGS, A, None), (STRINGS, OBJ, "object"),
    (map_of(STRING), S, "string"), (map_of(STRING), A, "array"), (map_of(STRING), OBJ, None),
    (INNER, S, "string"), (INNER, N, "number"), (INNER, B, "bool"), (INNER, A, "array"), (INNER, OBJ, None),
    (BYTES, N, "number"), (BYTES, B, "bool"), (BYTES, OBJ, "object"), (BYTES, A, None), (BYTES, "Zm9v", None),
]


@pytest.mark.parametrize(("t", "value", "what"), _KINDS, ids=lambda x: repr(x))
def test_each_type_and_json_kind(t, value, what):
    expected = None if what is None else f"json: cannot unmarshal {what} into Go value of type {t.go}"
    assert error_of(value, t) == expected


@pytest.mark.parametrize("value", [S, N, F, B, A, OBJ, None, {"a": [1, {"b": None}]}])
def test_any_json_takes_everything_as_it_is(value):
    res = unmarshal(value, any_json("v1.JSON"))
    assert res.error is None and res.value == value


@pytest.mark.parametrize("t", [STRING, BOOL, INT32, FLOAT64, STRINGS, map_of(STRING), INNER, BYTES, TIME])
def test_null_is_never_an_error(t):
    assert error_of(None, t) is None
    assert error_of({"s": None}, INNER) is None


# ---------------------------------------------------------------- numbers: the JSON text decides


@pytest.mark.parametrize(("t", "value", "error_value"), [
    (INT32, 2**31 - 1, None), (INT32, -(2**31), None),
    (INT32, 2**31, "number 2147483648"), (INT32, -(2**31) - 1, "number -2147483649"),
    (INT64, 2**63 - 1, None), (INT64, 2**63, "number 9223372036854775808"),
    (INT64, -(2**63) - 1, "number -9223372036854775809"),
    (UINT8, 255, None), (UINT8, 256, "number 256"), (UINT8, -1, "number -1"),
    (UINT8, -0.0, "number -0"),  # ParseUint refuses a sign
    (INT64, -0.0, None),  # ParseInt reads "-0"
    (INT64, 5.0, None),  # json.Marshal writes 5
    (INT64, 1e21, "number 1e+21"), (INT64, 1e20, "number 100000000000000000000"),
    (INT64, 0.000001, "number 0.000001"), (INT64, 1e-7, "number 1e-7"),
    (FLOAT64, 10**400, "number 1" + "0" * 400),  # strconv.ParseFloat: value out of range
    (FLOAT64, 2**63, None),
])
def test_number_text_and_overflow(t, value, error_value):
    expected = None if error_value is None else f"json: cannot unmarshal {error_value} into Go value of type {t.go}"
    assert error_of(value, t) == expected


def test_integers_decode_to_ints():
    assert unmarshal({"n": 5.0}, OUTER).value == {"n": 5}


def test_number_text_from_the_caller():
    # a body the decoder reads as written: 500.0 has a fraction, which ParseInt refuses
    assert error_of(500.0, INT32, number_text=json.dumps) == (
        "json: cannot unmarshal number 500.0 into Go value of type int32")
    assert error_of(500.0, INT32) is None


# ---------------------------------------------------------------- the error context


@pytest.mark.parametrize(("value", "text"), [
    ({"a": 5}, "number into Go struct field Outer.a of type string"),
    ({"inner": "x"}, "string into Go struct field Outer.inner of type pkg.Inner"),
    ({"inner": {"v": "x"}}, "string into Go struct field Inner.inner.v of type int32"),
    ({"inner": {"v": 2**31}}, "number 2147483648 into Go struct field Inner.inner.v of type int32"),
    ({"list": {}}, "object into Go struct field Outer.list of type []pkg.Inner"),
    ({"list": [{"s": "ok"}, {"v": True}]}, "bool into Go struct field Inner.list.v of type int32"),  # no index
    ({"list": [7]}, "number into Go struct field Outer.list of type pkg.Inner"),
    ({"map": {"k": {"s": []}}}, "array into Go struct field Inner.map.s of type string"),  # no key
    ({"map": {"k": 1}}, "number into Go struct field Outer.map of type pkg.Inner"),
    ({"ptr": {"v": "1"}}, "string into Go struct field Inner.ptr.v of type int32"),
    # an UnmarshalJSON's own json.Unmarshal: the outer struct, the outer path, then the inner field
    ({"wrapped": {"v": "1"}}, "string into Go struct field Outer.wrapped.v of type int32"),
    ({"wrapped": 5}, "number into Go struct field Outer.wrapped of type pkg.Inner"),
    ([], "array into Go value of type pkg.Outer"),
])
def test_error_context_names_innermost_struct_and_field_path(value, text):
    assert error_of(value, OUTER) == "json: cannot unmarshal " + text


def test_anonymous_struct_has_no_name():
    t = define(struct('struct { Kind string "json:\\"kind,omitempty\\"" }'), {"kind": STRING})
    assert error_of({"kind": 5}, t) == "json: cannot unmarshal number into Go struct field .kind of type string"
    assert error_of(5, t) == ('json: cannot unmarshal number into Go value of type '
                              'struct { Kind string "json:\\"kind,omitempty\\"" }')


def test_metav1_time_errors_get_the_field_context():
    assert error_of({"creationTimestamp": 5}, OBJECT_META) == (
        "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string")
    assert error_of({"managedFields": [{"time": True}]}, OBJECT_META) == (
        "json: cannot unmarshal bool into Go struct field ManagedFieldsEntry.managedFields.time of type string")
    assert error_of({"creationTimestamp": "2020-13-01T00:00:00Z"}, OBJECT_META) == (
        'parsing time "2020-13-01T00:00:00Z": month out of range')


# ---------------------------------------------------------------- which error wins


def test_first_type_error_wins_in_key_order():
    value = {"b": 1, "a": 2}
    assert error_of(value, OUTER) == "json: cannot unmarshal number into Go struct field Outer.b of type string"
    assert error_of(value, OUTER, sorted_keys=True) == (
        "json: cannot unmarshal number into Go struct field Outer.a of type string")


def test_decoding_goes_on_after_a_type_error_but_an_unmarshaler_error_ends_it():
    # the type error of `a` is remembered; the error `refused` returns is returned at once and wins
    assert error_of({"a": 1, "refused": {}}, OUTER) == "custom says no"
    # an error saved inside an UnmarshalJSON's own decoding is returned by it, and wins too
    assert error_of({"a": 1, "wrapped": {"s": 2, "v": "x"}}, OUTER) == (
        "json: cannot unmarshal number into Go struct field Outer.wrapped.s of type string")


def test_base64_error_is_saved_without_context():
    t = define(struct("pkg.Config"), {"caBundle": BYTES, "a": STRING})
    assert error_of({"caBundle": "bm90!", "a": 1}, t) == "illegal base64 data at input byte 4"
    assert error_of({"caBundle": "Zm9v\nYmFy"}, t) is None
    assert error_of({"caBundle": [1, 256]}, t) == (
        "json: cannot unmarshal number 256 into Go struct field Config.caBundle of type uint8")


# ---------------------------------------------------------------- strict decoding


def test_strict_unknown_fields_paths():
    value = {"x": 1, "inner": {"y": 1}, "list": [{}, {"z": 1}], "map": {"k": {"w": 1}}, "raw": {"free": 1},
             "wrapped": {"dropped": 1}, "A": "x"}
    res = unmarshal(value, OUTER, strict=True)
    assert res.error is None
    assert res.strict_errors == ['unknown field "x"', 'unknown field "inner.y"', 'unknown field "list[1].z"',
                                 'unknown field "map.k.w"', 'unknown field "A"']
    assert unmarshal(value, OUTER).strict_errors == []


def test_strict_errors_are_capped_and_dropped_on_failure():
    many = {"list": [{"x": 1}] * 3 + [{f"u{i}": 1} for i in range(150)]}
    res = unmarshal(many, OUTER, strict=True)
    assert res.strict_errors[:2] == ['unknown field "list[0].x"', 'unknown field "list[1].x"']
    assert len(res.strict_errors) == 100
    failed = unmarshal({"x": 1, "a": 1}, OUTER, strict=True)
    assert failed.strict_errors == [] and failed.error is not None and failed.value is None


def test_case_sensitive_unless_folding():
    assert unmarshal({"A": "x"}, OUTER).value == {}
    # the standard library matches any case; the last of two spellings wins
    assert unmarshal({"A": "x", "a": "y"}, OUTER, fold_case=True).value == {"a": "y"}
    assert error_of({"A": 5}, OUTER, fold_case=True) == (
        "json: cannot unmarshal number into Go struct field Outer.a of type string")


# ---------------------------------------------------------------- the decoded value and json.Marshal


def test_decoded_value_keeps_known_fields_and_zeroes_null_elements():
    res = unmarshal({"a": "x", "b": None, "zz": 1, "list": [None, {"v": 2}], "map": {"k": None},
                     "raw": {"k": [1]}}, OUTER)
    assert res.value == {"a": "x", "list": [{}, {"v": 2}], "map": {"k": {}}, "raw": {"k": [1]}}
    assert unmarshal([None, "a"], STRINGS).value == ["", "a"]


def test_marshal_writes_back_as_go_does():
    meta = unmarshal({"name": "a", "uid": "", "generation": 0, "deletionGracePeriodSeconds": 0,
                      "labels": {"b": "2", "a": None}, "annotations": {},
                      "ownerReferences": [{"name": "o", "controller": False}],
                      "creationTimestamp": "2020-01-01T01:02:03.5+01:00"}, OBJECT_META).value
    out = marshal(meta, OBJECT_META)
    assert out == {"name": "a", "creationTimestamp": "2020-01-01T00:02:03Z", "deletionGracePeriodSeconds": 0,
                   "labels": {"a": "", "b": "2"},
                   "ownerReferences": [{"apiVersion": "", "kind": "", "name": "o", "uid": "", "controller": False}]}
    assert list(out) == ["name", "creationTimestamp", "deletionGracePeriodSeconds", "labels", "ownerReferences"]
    assert list(out["labels"]) == ["a", "b"]
    # a zero metav1.Time is a struct: omitempty keeps it, its MarshalJSON writes null
    assert marshal({}, OBJECT_META) == {"creationTimestamp": None}
