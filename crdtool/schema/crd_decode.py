"""Decoding a CustomResourceDefinition as the apiserver decodes a request body.

The apiserver turns the YAML into JSON (sigs.k8s.io/yaml: map keys come out sorted), reads
`apiVersion` and `kind` into an anonymous struct (encoding/json), then decodes the JSON into
the Go types of apiextensions.k8s.io/v1 with sigs.k8s.io/json: case-sensitive field names,
unknown fields dropped (and listed by strict decoding), `null` meaning the zero value, and
the first type mismatch failing the whole request with encoding/json's text. The types
with their own UnmarshalJSON (JSONSchemaPropsOrBool, JSONSchemaPropsOrArray,
JSONSchemaPropsOrStringArray, JSON, metav1.Time, FieldsV1) decode their content with a
fresh, non-strict decoder: unknown fields under `items`, `additionalProperties`,
`additionalItems` and `dependencies` are dropped silently, and an error there aborts the
decoding at once (a plain type mismatch elsewhere is remembered and decoding goes on).

`decode_crd` gives the typed view as plain data: the document with only the fields the Go
types know, values as written (zero values are kept as written; `null` struct fields are
dropped), and where the custom types allow several forms:
`additionalProperties`/`additionalItems` are `True`, `False` or a schema dict; `items` is
a schema dict, a list of schema dicts, or `None` when a scalar was given (the wrapper then
holds nothing); a `dependencies` value is a schema dict, a list of strings, or `None`
(likewise); `default`/`enum`/`example` are the JSON values as loaded (an `enum` entry
`null` stays `None`); `caBundle` stays the base64 text (or the list of byte values) of
the JSON. The result is a fresh tree of dicts and lists, except the raw JSON values
(`default`, `enum` entries, `example`, `fieldsV1`), which are the input's own: treat
them as read-only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crdtool.model.gofmt import go_float_g, go_json_float, go_quote

__all__ = ["MISSING", "DecodeResult", "decode_crd", "semantic_equal"]

#: sigs.k8s.io/json stops collecting strict errors at this many.
_MAX_STRICT_ERRORS = 100
_BASE64 = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_INTERPRET_TYPE = ('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
                   'Kind string "json:\\"kind,omitempty\\"" }')


@dataclass(slots=True)
class DecodeResult:
    """What the apiserver's decoding made of a CRD document.

    `crd` is the typed view (None when decoding failed). `error` is the decoding error text
    (encoding/json's words); the apiserver answers `CustomResourceDefinition in version "v1"
    cannot be handled as a CustomResourceDefinition: <error>`, except when `unrecognized` is
    set: then it could not even read apiVersion/kind and answers `the object provided is
    unrecognized (must be of type CustomResourceDefinition): <error> (<summary of the body>)`.
    `unknown_fields` are strict decoding's `unknown field "<path>"` texts in the apiserver's
    order (empty when decoding failed: strict errors are not reported then).
    """

    crd: dict | None
    error: str | None = None
    unknown_fields: list[str] = field(default_factory=list)
    unrecognized: bool = False


# ---------------------------------------------------------------- the Go types

(K_STRING, K_BOOL, K_INT, K_FLOAT, K_STRUCT, K_SLICE, K_MAP, K_BYTES, K_JSON, K_TIME,
 K_OR_BOOL, K_OR_ARRAY, K_OR_STRINGS) = range(13)


class _Type:
    """One Go type: its kind, its name as reflect prints it, and what it is made of."""

    __slots__ = ("kind", "go", "name", "elem", "fields", "pointers", "lo", "hi")

    def __init__(self, kind: int, go: str, elem: _Type | None = None, lo: int = 0, hi: int = 0) -> None:
        self.kind = kind
        self.go = go
        self.name = go.rpartition(".")[2]
        self.elem = elem
        self.fields: dict[str, _Type] = {}
        self.pointers: frozenset[str] = frozenset()
        self.lo = lo
        self.hi = hi


def _struct(name: str, pkg: str = "v1") -> _Type:
    return _Type(K_STRUCT, f"{pkg}.{name}")


def _fill(struct: _Type, fields: dict[str, _Type], pointers: str = "") -> _Type:
    """Set a struct's fields (JSON name -> type); `pointers` names the pointer fields (nil is not zero)."""
    struct.fields = fields
    struct.pointers = frozenset(pointers.split())
    return struct


def _slice(elem: _Type, go: str | None = None) -> _Type:
    return _Type(K_SLICE, go or "[]" + elem.go, elem)


def _map(elem: _Type, go: str | None = None) -> _Type:
    return _Type(K_MAP, go or "map[string]" + elem.go, elem)


def _string(go: str = "string") -> _Type:
    return _Type(K_STRING, go)


STRING = _string()
BOOL = _Type(K_BOOL, "bool")
INT64 = _Type(K_INT, "int64", lo=-(2**63), hi=2**63 - 1)
INT32 = _Type(K_INT, "int32", lo=-(2**31), hi=2**31 - 1)
UINT8 = _Type(K_INT, "uint8", lo=0, hi=255)
FLOAT64 = _Type(K_FLOAT, "float64")
STRINGS = _slice(STRING)
BYTES = _Type(K_BYTES, "[]uint8", UINT8)
JSON = _Type(K_JSON, "v1.JSON")
TIME = _Type(K_TIME, "v1.Time")
FIELDS_V1 = _Type(K_JSON, "v1.FieldsV1")  # any JSON, kept as it is

SCHEMA = _struct("JSONSchemaProps")
_SCHEMAS = _slice(SCHEMA)
_SCHEMA_MAP = _map(SCHEMA)
_RULE = _fill(_struct("ValidationRule"), {
    "rule": STRING, "message": STRING, "messageExpression": STRING, "reason": _string("v1.FieldValueErrorReason"),
    "fieldPath": STRING, "optionalOldSelf": BOOL,
}, "reason optionalOldSelf")
_OR_BOOL = _Type(K_OR_BOOL, "v1.JSONSchemaPropsOrBool")
_fill(SCHEMA, {
    "id": STRING, "$schema": _string("v1.JSONSchemaURL"), "$ref": STRING, "description": STRING, "type": STRING,
    "format": STRING, "title": STRING, "default": JSON, "maximum": FLOAT64, "exclusiveMaximum": BOOL,
    "minimum": FLOAT64, "exclusiveMinimum": BOOL, "maxLength": INT64, "minLength": INT64, "pattern": STRING,
    "maxItems": INT64, "minItems": INT64, "uniqueItems": BOOL, "multipleOf": FLOAT64, "enum": _slice(JSON),
    "maxProperties": INT64, "minProperties": INT64, "required": STRINGS,
    "items": _Type(K_OR_ARRAY, "v1.JSONSchemaPropsOrArray"),
    "allOf": _SCHEMAS, "oneOf": _SCHEMAS, "anyOf": _SCHEMAS, "not": SCHEMA, "properties": _SCHEMA_MAP,
    "additionalProperties": _OR_BOOL, "patternProperties": _SCHEMA_MAP,
    "dependencies": _map(_Type(K_OR_STRINGS, "v1.JSONSchemaPropsOrStringArray"), "v1.JSONSchemaDependencies"),
    "additionalItems": _OR_BOOL, "definitions": _map(SCHEMA, "v1.JSONSchemaDefinitions"),
    "externalDocs": _fill(_struct("ExternalDocumentation"), {"description": STRING, "url": STRING}),
    "example": JSON, "nullable": BOOL, "x-kubernetes-preserve-unknown-fields": BOOL,
    "x-kubernetes-embedded-resource": BOOL, "x-kubernetes-int-or-string": BOOL,
    "x-kubernetes-list-map-keys": STRINGS, "x-kubernetes-list-type": STRING, "x-kubernetes-map-type": STRING,
    "x-kubernetes-validations": _slice(_RULE, "v1.ValidationRules"),
}, "$ref default maximum minimum maxLength minLength maxItems minItems multipleOf maxProperties minProperties "
   "items not additionalProperties additionalItems externalDocs example x-kubernetes-preserve-unknown-fields "
   "x-kubernetes-list-type x-kubernetes-map-type")

_NAMES = _fill(_struct("CustomResourceDefinitionNames"), {
    "plural": STRING, "singular": STRING, "shortNames": STRINGS, "kind": STRING, "listKind": STRING,
    "categories": STRINGS,
})
_CLIENT_CONFIG = _fill(_struct("WebhookClientConfig"), {
    "url": STRING, "caBundle": BYTES,
    "service": _fill(_struct("ServiceReference"), {"namespace": STRING, "name": STRING, "path": STRING,
                                                   "port": INT32}, "path port"),
}, "url service")
_VERSION = _fill(_struct("CustomResourceDefinitionVersion"), {
    "name": STRING, "served": BOOL, "storage": BOOL, "deprecated": BOOL, "deprecationWarning": STRING,
    "schema": _fill(_struct("CustomResourceValidation"), {"openAPIV3Schema": SCHEMA}, "openAPIV3Schema"),
    "subresources": _fill(_struct("CustomResourceSubresources"), {
        "status": _fill(_struct("CustomResourceSubresourceStatus"), {}),
        "scale": _fill(_struct("CustomResourceSubresourceScale"), {
            "specReplicasPath": STRING, "statusReplicasPath": STRING, "labelSelectorPath": STRING,
        }, "labelSelectorPath"),
    }, "status scale"),
    "additionalPrinterColumns": _slice(_fill(_struct("CustomResourceColumnDefinition"), {
        "name": STRING, "type": STRING, "format": STRING, "description": STRING, "priority": INT32,
        "jsonPath": STRING,
    })),
    "selectableFields": _slice(_fill(_struct("SelectableField"), {"jsonPath": STRING})),
}, "deprecationWarning schema subresources")
_SPEC = _fill(_struct("CustomResourceDefinitionSpec"), {
    "group": STRING, "names": _NAMES, "scope": _string("v1.ResourceScope"), "versions": _slice(_VERSION),
    "conversion": _fill(_struct("CustomResourceConversion"), {
        "strategy": _string("v1.ConversionStrategyType"),
        "webhook": _fill(_struct("WebhookConversion"), {"clientConfig": _CLIENT_CONFIG,
                                                        "conversionReviewVersions": STRINGS}, "clientConfig"),
    }, "webhook"),
    "preserveUnknownFields": BOOL,
}, "conversion")
_STATUS = _fill(_struct("CustomResourceDefinitionStatus"), {
    "conditions": _slice(_fill(_struct("CustomResourceDefinitionCondition"), {
        "type": _string("v1.CustomResourceDefinitionConditionType"), "status": _string("v1.ConditionStatus"),
        "lastTransitionTime": TIME, "reason": STRING, "message": STRING, "observedGeneration": INT64,
    })),
    "acceptedNames": _NAMES, "storedVersions": STRINGS, "observedGeneration": INT64,
})
_UID = _string("types.UID")
_OBJECT_META = _fill(_struct("ObjectMeta"), {
    "name": STRING, "generateName": STRING, "namespace": STRING, "selfLink": STRING, "uid": _UID,
    "resourceVersion": STRING, "generation": INT64, "creationTimestamp": TIME, "deletionTimestamp": TIME,
    "deletionGracePeriodSeconds": INT64, "labels": _map(STRING), "annotations": _map(STRING),
    "ownerReferences": _slice(_fill(_struct("OwnerReference"), {
        "apiVersion": STRING, "kind": STRING, "name": STRING, "uid": _UID, "controller": BOOL,
        "blockOwnerDeletion": BOOL,
    }, "controller blockOwnerDeletion")),
    "finalizers": STRINGS,
    "managedFields": _slice(_fill(_struct("ManagedFieldsEntry"), {
        "manager": STRING, "operation": _string("v1.ManagedFieldsOperationType"), "apiVersion": STRING,
        "time": TIME, "fieldsType": STRING, "fieldsV1": FIELDS_V1, "subresource": STRING,
    }, "time fieldsV1")),
}, "deletionTimestamp deletionGracePeriodSeconds")
CRD = _fill(_struct("CustomResourceDefinition"), {
    "apiVersion": STRING, "kind": STRING, "metadata": _OBJECT_META, "spec": _SPEC, "status": _STATUS,
})
_STRUCTS = {t.name: t for t in (CRD, _SPEC, _VERSION, _STATUS, SCHEMA)}


# ---------------------------------------------------------------- errors


class _UnmarshalTypeError:
    """encoding/json's UnmarshalTypeError: a JSON value of the wrong kind for a Go type."""

    __slots__ = ("value", "go", "struct", "field")

    def __init__(self, value: str, go: str, struct: str = "", field: str = "") -> None:
        self.value = value
        self.go = go
        self.struct = struct
        self.field = field

    def __str__(self) -> str:
        if self.struct or self.field:
            where = f"Go struct field {self.struct}.{self.field}"
            return f"json: cannot unmarshal {self.value} into {where} of type {self.go}"
        return f"json: cannot unmarshal {self.value} into Go value of type {self.go}"


_Error = _UnmarshalTypeError | str


class _Fatal(Exception):
    """An error returned (not just remembered) by the decoder: it ends the decoding."""

    def __init__(self, error: _Error) -> None:
        self.error = error


class _Unsupported(Exception):
    """A value JSON cannot hold (infinity, NaN): sigs.k8s.io/yaml fails before any decoding."""


_Link = tuple | None  # a path as nested (parent, step) pairs, built only when it is needed


def _join(link: _Link) -> list:
    steps: list = []
    while link is not None:
        link, step = link
        steps.append(step)
    steps.reverse()
    return steps


def _strict_path(link: _Link, key: str) -> str:
    """sigs.k8s.io/json's path of an unknown field: keys joined by dots, list indices in brackets."""
    out: list[str] = []
    for step in _join(link):
        if isinstance(step, int):
            out.append(f"[{step}]")
        else:
            out.append("." + step if out else step)
    out.append("." + key if out else key)
    return "".join(out)


def _kind(v: Any) -> str:
    """The JSON kind encoding/json names in a type error."""
    if isinstance(v, str):
        return "string"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return "array" if isinstance(v, list) else "object"


def _literal(v: int | float) -> str:
    """The JSON text of a number as the apiserver received it."""
    return str(v) if isinstance(v, int) else go_json_float(v)


#: The smallest integer that rounds to +Inf as a float64: halfway between the largest float64
#: (2**1024 - 2**971) and 2**1024 (ties round to even, so up). strconv.ParseFloat says ErrRange there.
_FLOAT64_OVERFLOW = 2**1024 - 2**970


def _fits_float64(v: int) -> bool:
    """Whether Go's float64 holds the integer literal `v` (rounded) without overflowing."""
    return -_FLOAT64_OVERFLOW < v < _FLOAT64_OVERFLOW


def _check_finite(v: Any) -> None:
    """Raise _Unsupported if a float JSON cannot encode is anywhere in `v`."""
    if isinstance(v, float):
        if not math.isfinite(v):
            raise _Unsupported(go_float_g(v))
    elif isinstance(v, dict):
        for x in v.values():
            _check_finite(x)
    elif isinstance(v, list):
        for x in v:
            _check_finite(x)


# ---------------------------------------------------------------- the decoder

_SKIP = object()  # a value that could not be decoded (the error is recorded)


def _zero(t: _Type) -> Any:
    """The value a list element or map value takes for a JSON `null` (None: JSON null, or an empty wrapper)."""
    k = t.kind
    if k == K_STRING:
        return ""
    if k == K_STRUCT:
        return {}
    if k == K_INT:
        return 0
    if k == K_FLOAT:
        return 0.0
    if k == K_BOOL:
        return False
    return None


class _Decoder:
    """One run of sigs.k8s.io/json over a value.

    `ordered` walks object keys sorted (the order of the JSON the apiserver decodes), which
    decides which error is reported first and the order of unknown fields; the first run
    walks in document order (keeping it in the result) and a second, ordered run happens
    only when the first found something to report.
    """

    __slots__ = ("strict", "ordered", "saved", "unknown", "flagged")

    def __init__(self, strict: bool, ordered: bool) -> None:
        self.strict = strict
        self.ordered = ordered
        self.saved: _Error | None = None
        self.unknown: list[str] = []
        self.flagged = False

    def save(self, error: _Error) -> None:
        self.flagged = True
        if self.saved is None:
            self.saved = error

    def mismatch(self, v: Any, t: _Type, go_path: _Link, struct: str, value: str | None = None) -> Any:
        """A value of the wrong JSON kind: remember encoding/json's error, skip the value."""
        _check_finite(v)
        if go_path is None:
            self.save(_UnmarshalTypeError(value or _kind(v), t.go))
        else:
            self.save(_UnmarshalTypeError(value or _kind(v), t.go, struct, ".".join(_join(go_path))))
        return _SKIP

    def struct(self, t: _Type, obj: dict, go_path: _Link, s_path: _Link) -> dict:
        out: dict = {}
        fields = t.fields
        items = sorted(obj.items()) if self.ordered else obj.items()
        for key, val in items:
            ft = fields.get(key)
            if ft is None:
                _check_finite(val)
                self.flagged = True
                if self.strict and len(self.unknown) < _MAX_STRICT_ERRORS:
                    text = "unknown field " + go_quote(_strict_path(s_path, key))
                    if text not in self.unknown:
                        self.unknown.append(text)
                continue
            if val is None:
                continue
            if (ft is STRING and val.__class__ is str) or (ft is BOOL and val.__class__ is bool):
                out[key] = val  # the common case, without building paths
                continue
            r = self.value(ft, val, (go_path, key), t.name, (s_path, key) if self.strict else None)
            if r is not _SKIP:
                out[key] = r
        return out

    def value(self, t: _Type, v: Any, go_path: _Link, struct: str, s_path: _Link) -> Any:
        k = t.kind
        if k == K_STRING:
            return v if isinstance(v, str) else self.mismatch(v, t, go_path, struct)
        if k == K_STRUCT:
            return self.struct(t, v, go_path, s_path) if isinstance(v, dict) else self.mismatch(v, t, go_path, struct)
        if k == K_BOOL:
            return v if isinstance(v, bool) else self.mismatch(v, t, go_path, struct)
        if k == K_MAP:
            return self.map(t, v, go_path, struct, s_path) if isinstance(v, dict) else self.mismatch(
                v, t, go_path, struct)
        if k == K_SLICE:
            return self.slice(t, v, go_path, struct, s_path) if isinstance(v, list) else self.mismatch(
                v, t, go_path, struct)
        if k == K_INT:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return self.mismatch(v, t, go_path, struct)
            if isinstance(v, int) and t.lo <= v <= t.hi:
                return v
            return self.mismatch(v, t, go_path, struct, "number " + _literal(v))
        if k == K_FLOAT:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return self.mismatch(v, t, go_path, struct)
            _check_finite(v)
            if isinstance(v, int) and not _fits_float64(v):  # strconv.ParseFloat: value out of range
                return self.mismatch(v, t, go_path, struct, "number " + _literal(v))
            return v
        if k == K_JSON:
            _check_finite(v)
            return v
        return self.custom(t, v, go_path, struct, s_path)

    def map(self, t: _Type, obj: dict, go_path: _Link, struct: str, s_path: _Link) -> dict:
        out: dict = {}
        elem = t.elem
        items = sorted(obj.items()) if self.ordered else obj.items()
        for key, val in items:
            sub = (s_path, key) if self.strict else None
            r = _SKIP if val is None else self.value(elem, val, go_path, struct, sub)
            out[key] = _zero(elem) if r is _SKIP else r
        return out

    def slice(self, t: _Type, items: list, go_path: _Link, struct: str, s_path: _Link) -> list:
        out: list = []
        elem = t.elem
        for i, val in enumerate(items):
            sub = (s_path, i) if self.strict else None
            r = _SKIP if val is None else self.value(elem, val, go_path, struct, sub)
            out.append(_zero(elem) if r is _SKIP else r)
        return out

    def custom(self, t: _Type, v: Any, go_path: _Link, struct: str, s_path: _Link) -> Any:
        """The types with their own UnmarshalJSON (and []byte, which encoding/json reads as base64)."""
        k = t.kind
        if k == K_BYTES:
            if isinstance(v, str):
                at = _base64_error(v.encode("utf-8", "surrogateescape"))
                if at is not None:
                    self.save(f"illegal base64 data at input byte {at}")
                return v
            if isinstance(v, list):
                return self.slice(t, v, go_path, struct, s_path)
            return self.mismatch(v, t, go_path, struct)
        if k == K_TIME:
            if not isinstance(v, str):
                _check_finite(v)
                raise _Fatal(_in_context(_UnmarshalTypeError(_kind(v), "string"), go_path, struct))
            problem = _rfc3339_error(v)
            if problem is not None:
                raise _Fatal(problem)
            return v
        if k == K_OR_BOOL:
            if isinstance(v, bool):
                return v
            if isinstance(v, dict):
                return self.nested(lambda d: d.struct(SCHEMA, v, None, None), go_path, struct)
            _check_finite(v)
            raise _Fatal("boolean or JSON schema expected")
        # JSONSchemaPropsOrArray and JSONSchemaPropsOrStringArray: an object or an array, else nothing.
        if isinstance(v, dict):
            return self.nested(lambda d: d.struct(SCHEMA, v, None, None), go_path, struct)
        if isinstance(v, list):
            elems = _SCHEMAS if k == K_OR_ARRAY else STRINGS
            return self.nested(lambda d: d.slice(elems, v, None, "", None), go_path, struct)
        _check_finite(v)
        return None

    def nested(self, run: Callable[[_Decoder], Any], go_path: _Link, struct: str) -> Any:
        """A custom UnmarshalJSON calling json.Unmarshal: a fresh, non-strict decoder whose error ends ours."""
        inner = _Decoder(False, self.ordered)
        try:
            result = run(inner)
        except _Fatal as fatal:
            error: _Error | None = fatal.error
        else:
            error = inner.saved
        if error is None:
            return result
        raise _Fatal(_in_context(error, go_path, struct))


def _in_context(error: _Error, go_path: _Link, struct: str) -> _Error:
    """addErrorContext: a type error returned from below gets the outer struct and the outer field path."""
    if not isinstance(error, _UnmarshalTypeError) or go_path is None:
        return error
    outer = ".".join(_join(go_path))
    return _UnmarshalTypeError(error.value, error.go, struct, f"{outer}.{error.field}" if error.field else outer)


# ---------------------------------------------------------------- custom unmarshalers' own checks


def _base64_error(src: bytes) -> int | None:
    """encoding/base64 StdEncoding.Decode: the offset of its CorruptInputError, or None."""
    n = len(src)
    si = 0
    while si < n:
        j = 0
        while j < 4:
            if si == n:
                return si - j
            c = src[si]
            si += 1
            if c in _BASE64:
                j += 1
                continue
            if c in (10, 13):
                continue
            if c != 61 or j < 2:  # not '=', or padding too early
                return si - 1
            if j == 2:  # "==" expected, the first '=' consumed
                while si < n and src[si] in (10, 13):
                    si += 1
                if si == n:
                    return n
                if src[si] != 61:
                    return si - 1
                si += 1
            while si < n and src[si] in (10, 13):
                si += 1
            return si if si < n else None
    return None


_LAYOUT = b"2006-01-02T15:04:05Z07:00"
_CHUNKS = ((b"", b"2006"), (b"-", b"01"), (b"-", b"02"), (b"T", b"15"), (b":", b"04"), (b":", b"05"),
           (b"", b"Z07:00"))
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _time_quote(b: bytes) -> str:
    """The time package's quote: non-ASCII and control bytes as \\x escapes."""
    out = ['"']
    for c in b:
        if c >= 0x80 or c < 0x20:
            out.append(f"\\x{c:02x}")
        else:
            if c in (0x22, 0x5C):
                out.append("\\")
            out.append(chr(c))
    out.append('"')
    return "".join(out)


def _digits(b: bytes, fixed: bool) -> tuple[int, bytes] | None:
    """time.getnum: one or two leading digits (exactly two when fixed)."""
    if not b[:1].isdigit():
        return None
    if not b[1:2].isdigit():
        return None if fixed else (b[0] - 48, b[1:])
    return (b[0] - 48) * 10 + b[1] - 48, b[2:]


def _rfc3339_error(text: str) -> str | None:
    """time.Parse(time.RFC3339, text) as metav1.Time decodes it: the error text, or None."""
    whole = text.encode("utf-8", "surrogateescape")
    value = whole
    year = month = day = 0

    def failed(elem: bytes, layout: bytes) -> str:
        return (f"parsing time {_time_quote(whole)} as {_time_quote(_LAYOUT)}: cannot parse {_time_quote(elem)} "
                f"as {_time_quote(layout)}")

    for prefix, std in _CHUNKS:
        if prefix:
            if value[:1] != prefix:
                return failed(value, prefix)
            value = value[1:]
        hold = value
        out_of_range = ""
        got: tuple[int, bytes] | None
        if std == b"2006":
            got = (int(value[:4]), value[4:]) if len(value) >= 4 and value[:4].isdigit() else None
            if got:
                year = got[0]
        elif std == b"Z07:00":
            if value[:1] == b"Z":
                got = (0, value[1:])
            elif len(value) < 6 or value[3:4] != b":":
                got = None
            else:
                hh = _digits(value[1:3], True)
                mm = _digits(value[4:6], True) if hh else None
                if hh and hh[0] > 24:
                    out_of_range = "time zone offset hour"
                if mm and mm[0] > 60:
                    out_of_range = "time zone offset minute"
                got = (0, value[6:]) if hh and mm and value[:1] in (b"+", b"-") else None
        else:
            got = _digits(value, std != b"15")
            if got:
                n = got[0]
                if std == b"01":
                    month = n
                    out_of_range = "month" if not 1 <= n <= 12 else ""
                elif std == b"02":
                    day = n
                elif std == b"15":
                    out_of_range = "hour" if n >= 24 else ""
                elif std == b"04":
                    out_of_range = "minute" if n >= 60 else ""
                else:
                    out_of_range = "second" if n >= 60 else ""
                    rest = got[1]
                    if not out_of_range and len(rest) >= 2 and rest[:1] in (b".", b",") and rest[1:2].isdigit():
                        i = 2
                        while rest[i:i + 1].isdigit():
                            i += 1
                        got = (n, rest[i:])
        if out_of_range:
            return f"parsing time {_time_quote(whole)}: {out_of_range} out of range"
        if got is None:
            return failed(hold, std)
        value = got[1]
    if value:
        return f"parsing time {_time_quote(whole)}: extra text: {_time_quote(value)}"
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day < 1 or day > _DAYS[month - 1] + (1 if month == 2 and leap else 0):
        return f"parsing time {_time_quote(whole)}: day out of range"
    return None


# ---------------------------------------------------------------- entry points


def _interpret(data: Any) -> str | None:
    """SimpleMetaFactory.Interpret: apiVersion and kind read with encoding/json (case-insensitive keys)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        _check_finite(data)
        return f"couldn't get version/kind; json parse error: json: cannot unmarshal {_kind(data)} into Go value of " \
               f"type {_INTERPRET_TYPE}"
    for key in sorted(data):
        folded = key.casefold()
        if folded in ("apiversion", "kind"):
            v = data[key]
            if v is not None and not isinstance(v, str):
                _check_finite(v)
                name = "apiVersion" if folded == "apiversion" else "kind"
                return f"couldn't get version/kind; json parse error: json: cannot unmarshal {_kind(v)} into Go " \
                       f"struct field .{name} of type string"
    return None


def _run(data: dict, ordered: bool) -> tuple[_Decoder, dict | None, _Error | None]:
    dec = _Decoder(True, ordered)
    try:
        crd = dec.struct(CRD, data, None, None)
    except _Fatal as fatal:
        return dec, None, fatal.error
    return dec, crd, dec.saved


def decode_crd(data: Any) -> DecodeResult:
    """Decode a CRD document (`Document.data`) as the apiserver decodes a v1 CustomResourceDefinition."""
    try:
        problem = _interpret(data)
        if problem is not None:
            return DecodeResult(None, problem, [], True)
        if data is None:
            return DecodeResult({})
        dec, crd, error = _run(data, False)
        if dec.flagged or error is not None:
            dec, _, error = _run(data, True)
        if error is not None:
            return DecodeResult(None, str(error))
    except _Unsupported as bad:
        return DecodeResult(None, f"json: unsupported value: {bad}", [], True)
    return DecodeResult(crd, None, dec.unknown)


# ---------------------------------------------------------------- semantic equality

#: An absent field, for `semantic_equal`.
MISSING = object()


def semantic_equal(struct: str, field_name: str, a: Any, b: Any) -> bool:
    """apiequality.Semantic.DeepEqual of two decoded values of field `field_name` of Go struct `struct`.

    Pass `MISSING` for an absent field. Zero values equal absent
    non-pointer fields, nil equals empty for slices and maps, JSON values compare with their
    Go types (an int64 never equals a float64 or a bool).
    """
    t = _STRUCTS[struct]
    return _equal(t.fields[field_name], a, b, field_name in t.pointers)


def _equal(t: _Type, a: Any, b: Any, pointer: bool) -> bool:
    if a is b:
        return True
    if a is MISSING or b is MISSING:
        return not pointer and _is_zero(t, b if a is MISSING else a)
    k = t.kind
    if k == K_STRUCT:
        fields, pointers = t.fields, t.pointers
        return all(_equal(fields[key], a.get(key, MISSING), b.get(key, MISSING), key in pointers)
                   for key in a.keys() | b.keys())
    if k == K_SLICE:
        return len(a) == len(b) and all(_equal(t.elem, x, y, False) for x, y in zip(a, b, strict=True))
    if k == K_MAP:
        return a.keys() == b.keys() and all(_equal(t.elem, a[key], b[key], False) for key in a)
    if k == K_FLOAT:
        return float(a) == float(b)  # both fit a float64: decoding refused the rest
    if k in (K_OR_BOOL, K_OR_ARRAY, K_OR_STRINGS):
        if isinstance(a, bool) or isinstance(b, bool):
            return a is b
        (sa, la), (sb, lb) = _or_parts(a), _or_parts(b)
        schemas_equal = sa is sb if sa is None or sb is None else _equal(SCHEMA, sa, sb, True)
        return schemas_equal and _equal(_SCHEMAS if k == K_OR_ARRAY else STRINGS, la, lb, False)
    return _json_equal(a, b)


def _or_parts(v: Any) -> tuple[dict | None, list]:
    """A JSONSchemaPropsOr* value as its two Go fields: the schema, the list."""
    if isinstance(v, dict):
        return v, []
    return None, v if isinstance(v, list) else []


def _is_zero(t: _Type, v: Any) -> bool:
    k = t.kind
    if k == K_STRUCT:
        return all(key not in t.pointers and _is_zero(t.fields[key], x) for key, x in v.items())
    if k in (K_SLICE, K_MAP, K_BYTES):
        return len(v) == 0
    if k in (K_STRING, K_TIME):
        return v == ""
    if k in (K_BOOL, K_INT, K_FLOAT):
        return v is False or (not isinstance(v, bool) and v == 0)
    return v is None


def _json_equal(a: Any, b: Any) -> bool:
    """DeepEqual of JSON values decoded with PreserveInts: types must match, not just values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b
