"""Go's json.Unmarshal into Go types, as the apiserver's decoders run it, with encoding/json's errors.

The apiserver decodes every typed body (a CRD, a custom resource's metadata, a webhook's
ConversionReview) with sigs.k8s.io/json, the Kubernetes copy of encoding/json (synced with Go
1.24): struct fields matched case-sensitively by their json names (unknown keys dropped, and
listed by strict decoding), `null` leaving the zero value (nil for pointers, maps and slices),
and errors in encoding/json's words. What decides those words is reproduced here:

- A JSON value of the wrong kind, or a number the Go type cannot hold, is an UnmarshalTypeError
  (`json: cannot unmarshal number 2147483648 into Go struct field
  CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32`).
  The struct named is the innermost struct whose field is being decoded; the path is the json
  names of the struct fields from the root (map keys and list indices are not part of it). At
  the root, outside any struct field, it is `into Go value of type T`.
- The first such error is remembered and decoding goes on (saveError); an error returned by a
  type's own UnmarshalJSON (metav1.Time, JSONSchemaPropsOrBool, ...) ends the decoding at once
  and wins. A type error it returns gets the outer struct and the outer path, its own field path
  appended (addErrorContext).
- A number is decoded from its JSON text: an integer type takes it only when strconv.ParseInt
  (ParseUint) reads the text and the value fits; the error then quotes the text (`number 1.5`).
  The text is what the caller says the decoder read (`number_text`): json.Marshal's writing of
  the value for bodies Go wrote itself.
- Strict decoding (UnmarshalStrict) lists unknown fields as `unknown field "spec.versions[0].x"`
  (keys joined by dots, list indices in brackets), at most 100, and only when decoding
  otherwise succeeded. Repeated keys cannot be seen in decoded data: the loader reports
  them (`duplicate field`).
- A type with its own UnmarshalJSON decodes what it contains with a fresh decoder (a nested
  json.Unmarshal: not strict, so unknown fields below it are dropped silently): `Decoder.nested`.

Object keys are read in the order of the JSON text the apiserver decodes: sorted when Go wrote
it from a map (kubectl's request bodies, re-marshalled metadata), as written otherwise.

`unmarshal` gives the decoded Go value as plain data: a struct is a dict of the fields present
and not null, in the order read, with their values as written; a null list element or map value
is the element type's zero value; integers are ints. `marshal` writes such a value back as
json.Marshal does (field order, omitempty, pointers, sorted map keys). Embedded structs are
described flattened (the decoders here never report a field of one).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeAlias

from crdtool.model.gofmt import go_json, go_json_kind, go_quote
from crdtool.model.record import Record

__all__ = [
    "BOOL", "BYTES", "FLOAT64", "INT32", "INT64", "K_ANY", "K_BOOL", "K_BYTES", "K_CUSTOM", "K_FLOAT", "K_INT",
    "K_MAP", "K_SLICE", "K_STRING", "K_STRUCT", "STRING", "STRINGS", "UINT8", "Decoded", "Decoder", "GoType",
    "UnmarshalError", "UnmarshalTypeError", "any_json", "custom", "define", "map_of", "marshal", "slice_of",
    "string_type", "struct", "unmarshal",
]

#: sigs.k8s.io/json stops collecting strict errors at this many.
_MAX_STRICT_ERRORS = 100
_BASE64 = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_INT_TEXT = re.compile(r"-?[0-9]+\Z")

(K_STRING, K_BOOL, K_INT, K_FLOAT, K_STRUCT, K_SLICE, K_MAP, K_BYTES, K_ANY, K_CUSTOM) = range(10)  # GoType.kind


# ---------------------------------------------------------------- errors


class UnmarshalError(Exception):
    """An error json.Unmarshal returns; str() is Go's text."""


class UnmarshalTypeError(UnmarshalError):
    """encoding/json's UnmarshalTypeError: a JSON value (`value`: its kind, or `number <text>`) that
    does not fit the Go type `go`; `struct` and `field` are the error context (empty at the root)."""

    def __init__(self, value: str, go: str, struct: str = "", field: str = "") -> None:
        super().__init__(value, go, struct, field)
        self.value = value
        self.go = go
        self.struct = struct
        self.field = field

    def __str__(self) -> str:
        where = f"Go struct field {self.struct}.{self.field}" if self.struct or self.field else "Go value"
        return f"json: cannot unmarshal {self.value} into {where} of type {self.go}"


# ---------------------------------------------------------------- the Go types


class GoType:
    """One Go type: its kind, its name as reflect's String() prints it (`go`) and Name() gives it
    (`name`, the struct name in error contexts), and what it is made of."""

    __slots__ = ("kind", "go", "name", "elem", "fields", "pointers", "omitempty", "folded", "lo", "hi",
                 "decode", "encode")

    def __init__(self, kind: int, go: str, elem: GoType | None = None, lo: int = 0, hi: int = 0) -> None:
        self.kind = kind
        self.go = go
        self.name = go.rpartition(".")[2] if kind == K_STRUCT and not go.startswith("struct {") else ""
        self.elem = elem
        self.fields: dict[str, GoType] = {}
        self.pointers: frozenset[str] = frozenset()
        self.omitempty: frozenset[str] = frozenset()
        self.folded: dict[str, str] = {}
        self.lo = lo
        self.hi = hi
        self.decode: Callable[[Any, Decoder], Any] | None = None
        self.encode: Callable[[Any], Any] | None = None

    def __repr__(self) -> str:
        return f"GoType({self.go})"


def string_type(go: str = "string") -> GoType:
    """A string kind (a named one, e.g. `types.UID`, prints its own name in errors)."""
    return GoType(K_STRING, go)


def struct(go: str) -> GoType:
    """A struct type named `go` (`v1.ObjectMeta`); its fields are set with `define` (types can be recursive)."""
    return GoType(K_STRUCT, go)


def define(t: GoType, fields: dict[str, GoType], pointers: str = "", omitempty: str = "") -> GoType:
    """Set a struct's fields (json name -> type). `pointers` names the pointer fields (null and absent
    are nil, not the zero value); `omitempty` the fields json.Marshal leaves out when empty."""
    t.fields = fields
    t.pointers = frozenset(pointers.split())
    t.omitempty = frozenset(omitempty.split())
    t.folded = {name.casefold(): name for name in fields}
    return t


def slice_of(elem: GoType, go: str | None = None) -> GoType:
    return GoType(K_SLICE, go or "[]" + elem.go, elem)


def map_of(elem: GoType, go: str | None = None) -> GoType:
    """A map with string keys."""
    return GoType(K_MAP, go or "map[string]" + elem.go, elem)


def any_json(go: str) -> GoType:
    """A type that takes any JSON value and keeps it (interface{}, v1.JSON, runtime.RawExtension, v1.FieldsV1)."""
    return GoType(K_ANY, go)


def custom(go: str, decode: Callable[[Any, Decoder], Any], encode: Callable[[Any], Any] | None = None) -> GoType:
    """A type with its own UnmarshalJSON: `decode(value, decoder)` gives the decoded value or raises
    UnmarshalError (which ends the decoding); `encode` is its MarshalJSON (None: the value as decoded)."""
    t = GoType(K_CUSTOM, go)
    t.decode = decode
    t.encode = encode
    return t


STRING = string_type()
BOOL = GoType(K_BOOL, "bool")
INT64 = GoType(K_INT, "int64", lo=-(2**63), hi=2**63 - 1)
INT32 = GoType(K_INT, "int32", lo=-(2**31), hi=2**31 - 1)
UINT8 = GoType(K_INT, "uint8", lo=0, hi=255)
FLOAT64 = GoType(K_FLOAT, "float64")
STRINGS = slice_of(STRING)
#: []byte: base64 text in JSON (a list of byte values is read too).
BYTES = GoType(K_BYTES, "[]uint8", UINT8)


def zero(t: GoType) -> Any:
    """The decoded zero value of `t` (a null list element or map value): None for nil."""
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


# ---------------------------------------------------------------- decoding

_SKIP = object()  # a value that could not be decoded (the error is saved)
#: A path as nested (parent, step) pairs, joined only when an error needs it.
_Link: TypeAlias = "tuple[_Link, str | int] | None"


def _join(link: _Link) -> list[str | int]:
    steps: list[str | int] = []
    while link is not None:
        link, step = link
        steps.append(step)
    steps.reverse()
    return steps


def _strict_path(link: _Link, key: str) -> str:
    """sigs.k8s.io/json's path of a strict error: keys joined by dots, list indices in brackets."""
    out: list[str] = []
    for step in _join(link):
        if isinstance(step, int):
            out.append(f"[{step}]")
        else:
            out.append("." + step if out else step)
    out.append("." + key if out else key)
    return "".join(out)


def _in_context(error: UnmarshalError, go_path: _Link, struct_name: str) -> UnmarshalError:
    """addErrorContext: a type error gets the current struct, and the current field path before its own."""
    if not isinstance(error, UnmarshalTypeError) or go_path is None:
        return error
    outer = ".".join(map(str, _join(go_path)))
    return UnmarshalTypeError(error.value, error.go, struct_name, f"{outer}.{error.field}" if error.field else outer)


class _Fatal(Exception):
    """An error returned (not saved) by the decoder: it ends the decoding."""

    def __init__(self, error: UnmarshalError) -> None:
        self.error = error


class Decoder:
    """One run of the decoder over a value; custom types' `decode` get it to call `nested`."""

    __slots__ = ("strict", "sorted_keys", "fold_case", "number_text", "saved", "strict_errors")

    def __init__(self, strict: bool, sorted_keys: bool, fold_case: bool, number_text: Callable[[Any], str]) -> None:
        self.strict = strict
        self.sorted_keys = sorted_keys
        self.fold_case = fold_case
        self.number_text = number_text
        self.saved: UnmarshalError | None = None
        self.strict_errors: list[str] = []

    def nested(self, value: Any, t: GoType) -> Any:
        """json.Unmarshal(value, &t) inside an UnmarshalJSON: a fresh, non-strict, case-sensitive
        decoder; its error (the first saved one, or the one that ended it) is raised."""
        if value is None:
            return zero(t)
        inner = Decoder(False, self.sorted_keys, False, self.number_text)
        try:
            result = inner.value(t, value, None, "", None)
        except _Fatal as fatal:
            raise fatal.error from None
        if inner.saved is not None:
            raise inner.saved
        return zero(t) if result is _SKIP else result

    def save(self, error: UnmarshalError) -> None:
        if self.saved is None:
            self.saved = error

    def mismatch(self, v: Any, t: GoType, go_path: _Link, struct_name: str, value: str | None = None) -> Any:
        """A value that does not fit: save encoding/json's error (with its context), skip the value."""
        if self.saved is None:
            what = value or go_json_kind(v)
            if go_path is None:
                self.saved = UnmarshalTypeError(what, t.go)
            else:
                self.saved = UnmarshalTypeError(what, t.go, struct_name, ".".join(map(str, _join(go_path))))
        return _SKIP

    def unknown(self, s_path: _Link, key: str) -> None:
        if len(self.strict_errors) < _MAX_STRICT_ERRORS:  # (Go also drops repeats: no path repeats in a tree)
            self.strict_errors.append("unknown field " + go_quote(_strict_path(s_path, key)))

    def value(self, t: GoType, v: Any, go_path: _Link, struct_name: str, s_path: _Link) -> Any:
        """Decode `v` into `t`; `go_path`/`struct_name` are the error context, `s_path` the strict path."""
        k = t.kind
        if k == K_STRING:
            return v if isinstance(v, str) else self.mismatch(v, t, go_path, struct_name)
        if k == K_STRUCT:
            if isinstance(v, dict):
                return self.struct(t, v, go_path, s_path)
            return self.mismatch(v, t, go_path, struct_name)
        if k == K_BOOL:
            return v if isinstance(v, bool) else self.mismatch(v, t, go_path, struct_name)
        if k == K_SLICE:
            if isinstance(v, list):
                return self.slice(t, v, go_path, struct_name, s_path)
            return self.mismatch(v, t, go_path, struct_name)
        if k == K_MAP:
            if isinstance(v, dict):
                return self.map(t, v, go_path, struct_name, s_path)
            return self.mismatch(v, t, go_path, struct_name)
        if k == K_INT:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return self.mismatch(v, t, go_path, struct_name)
            text = self.number_text(v)
            if _INT_TEXT.match(text) and not (t.lo == 0 and text[0] == "-"):
                n = int(text)
                if t.lo <= n <= t.hi:
                    return n
            return self.mismatch(v, t, go_path, struct_name, "number " + text)
        if k == K_FLOAT:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return self.mismatch(v, t, go_path, struct_name)
            if isinstance(v, int):
                try:
                    float(v)
                except OverflowError:  # strconv.ParseFloat: value out of range
                    return self.mismatch(v, t, go_path, struct_name, "number " + self.number_text(v))
            return v
        if k == K_ANY:
            return v
        if k == K_BYTES:
            return self.bytes(t, v, go_path, struct_name, s_path)
        assert t.decode is not None  # every other kind returned above
        try:
            return t.decode(v, self)
        except UnmarshalError as err:
            raise _Fatal(_in_context(err, go_path, struct_name)) from None

    def struct(self, t: GoType, obj: dict[str, Any], go_path: _Link, s_path: _Link) -> dict[str, Any]:
        out: dict[str, Any] = {}
        fields = t.fields
        strict = self.strict
        for key, val in sorted(obj.items()) if self.sorted_keys else obj.items():
            name = key
            ft = fields.get(key)
            if ft is None and self.fold_case:
                name = t.folded.get(key.casefold(), key)
                ft = fields.get(name)
            if ft is None:
                if strict:
                    self.unknown(s_path, key)
                continue
            if val is None:
                continue
            if (ft is STRING and val.__class__ is str) or (ft is BOOL and val.__class__ is bool):
                out[name] = val  # the common case, without building paths
                continue
            if ft.kind == K_STRUCT and val.__class__ is dict:  # (a nested schema: value's first case, directly)
                out[name] = self.struct(ft, val, (go_path, name), (s_path, name) if strict else None)
                continue
            r = self.value(ft, val, (go_path, name), t.name, (s_path, name) if strict else None)
            if r is not _SKIP:
                out[name] = r
        return out

    def map(self, t: GoType, obj: dict[str, Any], go_path: _Link, struct_name: str, s_path: _Link) -> dict[str, Any]:
        out: dict[str, Any] = {}
        elem = t.elem
        assert elem is not None  # map_of sets it
        strict = self.strict
        direct = elem.kind == K_STRUCT  # (properties: value's first case, directly)
        for key, val in sorted(obj.items()) if self.sorted_keys else obj.items():
            if direct and val.__class__ is dict:
                out[key] = self.struct(elem, val, go_path, (s_path, key) if strict else None)
                continue
            r = _SKIP if val is None else self.value(elem, val, go_path, struct_name, (s_path, key) if strict else None)
            out[key] = zero(elem) if r is _SKIP else r
        return out

    def slice(self, t: GoType, items: list[Any], go_path: _Link, struct_name: str, s_path: _Link) -> list[Any]:
        out: list[Any] = []
        elem = t.elem
        assert elem is not None  # slice_of sets it
        strict = self.strict
        for i, val in enumerate(items):
            r = _SKIP if val is None else self.value(elem, val, go_path, struct_name, (s_path, i) if strict else None)
            out.append(zero(elem) if r is _SKIP else r)
        return out

    def bytes(self, t: GoType, v: Any, go_path: _Link, struct_name: str, s_path: _Link) -> Any:
        """[]byte: a string is base64 (kept as written; a bad one saves base64's CorruptInputError)."""
        if isinstance(v, str):
            at = _base64_error(v.encode("utf-8", "surrogateescape"))
            if at is not None:
                self.save(UnmarshalError(f"illegal base64 data at input byte {at}"))
            return v
        if isinstance(v, list):
            return self.slice(t, v, go_path, struct_name, s_path)
        return self.mismatch(v, t, go_path, struct_name)


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


class Decoded(Record):
    """What json.Unmarshal made of a value: the decoded value (None when decoding failed), the error
    it returns (None on success), and strict decoding's errors (empty when decoding failed)."""

    __slots__ = ("value", "error", "strict_errors")

    value: Any
    error: UnmarshalError | None
    strict_errors: list[str]

    def __init__(self, value: Any, error: UnmarshalError | None = None, strict_errors: list[str] | None = None) -> None:
        self.value = value
        self.error = error
        self.strict_errors = [] if strict_errors is None else strict_errors


def unmarshal(value: Any, t: GoType, *, strict: bool = False, sorted_keys: bool = False, fold_case: bool = False,
              number_text: Callable[[Any], str] = go_json) -> Decoded:
    """json.Unmarshal of the JSON value `value` into `t`.

    `strict` collects unknown fields (UnmarshalStrict); `sorted_keys` reads object keys sorted (the
    JSON text was written from a Go map); `fold_case` matches struct fields case-insensitively as the
    standard library does (sigs.k8s.io/json's decoders are case-sensitive); `number_text` gives a
    number's JSON text (default: as json.Marshal writes it).
    """
    dec = Decoder(strict, sorted_keys, fold_case, number_text)
    try:
        result = zero(t) if value is None else dec.value(t, value, None, "", None)
    except _Fatal as fatal:
        return Decoded(None, fatal.error)
    if dec.saved is not None:
        return Decoded(None, dec.saved)
    return Decoded(zero(t) if result is _SKIP else result, None, dec.strict_errors)


# ---------------------------------------------------------------- encoding back


def _empty(t: GoType, v: Any) -> bool:
    """encoding/json's isEmptyValue (structs, and the types standing for structs, are never empty)."""
    if v is None:
        return True
    return t.kind in (K_STRING, K_BOOL, K_INT, K_FLOAT, K_SLICE, K_MAP, K_BYTES) and not v


def marshal(v: Any, t: GoType) -> Any:
    """json.Marshal of a decoded value of `t`, as JSON data (nil, and the zero value of a custom
    type, are None)."""
    k = t.kind
    if k == K_STRUCT:
        out: dict[str, Any] = {}
        for key, ft in t.fields.items():
            x = v.get(key) if v else None
            if key in t.pointers:
                if x is not None:
                    out[key] = marshal(x, ft)
            elif x is None:
                if key not in t.omitempty or ft.kind in (K_STRUCT, K_CUSTOM, K_ANY):
                    out[key] = marshal(zero(ft), ft)
            elif key not in t.omitempty or not _empty(ft, x):
                out[key] = marshal(x, ft)
        return out
    if v is None:
        return None
    if k == K_SLICE:
        assert t.elem is not None  # slice_of sets it
        return [marshal(x, t.elem) for x in v]
    if k == K_MAP:
        assert t.elem is not None  # map_of sets it
        return {key: marshal(v[key], t.elem) for key in sorted(v)}
    if k == K_CUSTOM and t.encode is not None:
        return t.encode(v)
    return v
