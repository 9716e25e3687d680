"""A custom resource's metadata as the apiserver decodes it, and its embedded resources.

The apiserver keeps a custom resource as plain JSON, but its `metadata` (and the apiVersion, kind and
metadata of every `x-kubernetes-embedded-resource` inside) must fit the Go types: on a create or update
request (customresource_handler.go's unstructuredSchemaCoercer) the metadata goes through
`json.Unmarshal` into a `metav1.ObjectMeta` and back (`GetObjectMeta`/`SetObjectMeta`), and
`objectmeta.Coerce` does the same for embedded resources. A value that does not fit is a 400 Bad
Request before any validation (`Widget in version "v1" cannot be handled as a Widget: <reason>`); the
round trip silently normalizes what does fit (unknown keys dropped, empty fields omitted, a null label
value becomes "", times re-rendered in UTC).

`decode_object_meta` reproduces that round trip, with encoding/json's error texts: the keys are read in
sorted order (the metadata was marshalled from a Go map), the first type mismatch is reported, and an
error from `metav1.Time`'s own decoder stops the decoding at once. `validate_embedded` is
`objectmeta.Validate`: the checks every embedded resource gets on create and update.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_json, go_json_kind, go_type_name
from crdtool.model.gotime import TimeParseError, parse_rfc3339
from crdtool.model.groupversion import GroupVersionError, from_api_version_and_kind, parse_group_version
from crdtool.model.path import Path, child_of, index_of, key_of
from crdtool.schema.names import is_dns1035_label, validate_path_segment_name
from crdtool.schema.objectmeta import validate_object_meta
from crdtool.schema.structural import Structural, new_structural

__all__ = [
    "MetaDecodeError", "coerce", "coerce_metadata", "decode_object_meta", "embedded_subtrees", "handling_error",
    "validate_embedded",
]


class MetaDecodeError(ValueError):
    """json.Unmarshal into metav1.ObjectMeta failed; the argument is Go's error text."""


def handling_error(kind: str, version: str, reason: str) -> str:
    """The apiserver's whole 400 message for a body it cannot decode (what kubectl prints)."""
    return f'{kind} in version "{version}" cannot be handled as a {kind}: {reason}'


# ---------------------------------------------------------------- the Go types of ObjectMeta

# A field type is a tuple whose first item says how to decode it:
#   ("scalar", go type name, python type)  a string-like type, int64 or bool
#   ("time",)                              metav1.Time (its own UnmarshalJSON)
#   ("map",)                               map[string]string
#   ("list", go type name, element type)   a slice
#   ("struct", go type name, fields)       a struct: {json name: (field type, how it is written back)}
#   ("raw",)                               metav1.FieldsV1: any JSON, kept as it is
# How a field is written back (json tags): KEEP always, OMIT_EMPTY without a zero value, POINTER unless nil.
KEEP, OMIT_EMPTY, POINTER = range(3)
_STRING = ("scalar", "string", str)
_INT64 = ("scalar", "int64", int)
_BOOL = ("scalar", "bool", bool)
_TIME = ("time",)
_UID = ("scalar", "types.UID", str)
_OWNER_REFERENCE = ("struct", "v1.OwnerReference", {
    "apiVersion": (_STRING, KEEP), "kind": (_STRING, KEEP), "name": (_STRING, KEEP), "uid": (_UID, KEEP),
    "controller": (_BOOL, POINTER), "blockOwnerDeletion": (_BOOL, POINTER),
})
_MANAGED_FIELDS_ENTRY = ("struct", "v1.ManagedFieldsEntry", {
    "manager": (_STRING, OMIT_EMPTY), "operation": (("scalar", "v1.ManagedFieldsOperationType", str), OMIT_EMPTY),
    "apiVersion": (_STRING, OMIT_EMPTY), "time": (_TIME, POINTER), "fieldsType": (_STRING, OMIT_EMPTY),
    "fieldsV1": (("raw",), POINTER), "subresource": (_STRING, OMIT_EMPTY),
})
_OBJECT_META = ("struct", "v1.ObjectMeta", {
    "name": (_STRING, OMIT_EMPTY), "generateName": (_STRING, OMIT_EMPTY), "namespace": (_STRING, OMIT_EMPTY),
    "selfLink": (_STRING, OMIT_EMPTY), "uid": (_UID, OMIT_EMPTY), "resourceVersion": (_STRING, OMIT_EMPTY),
    "generation": (_INT64, OMIT_EMPTY),
    "creationTimestamp": (_TIME, POINTER),  # written as null when zero; dropped here (see decode_object_meta)
    "deletionTimestamp": (_TIME, POINTER), "deletionGracePeriodSeconds": (_INT64, POINTER),
    "labels": (("map",), OMIT_EMPTY), "annotations": (("map",), OMIT_EMPTY),
    "ownerReferences": (("list", "[]v1.OwnerReference", _OWNER_REFERENCE), OMIT_EMPTY),
    "finalizers": (("list", "[]string", _STRING), OMIT_EMPTY),
    "managedFields": (("list", "[]v1.ManagedFieldsEntry", _MANAGED_FIELDS_ENTRY), OMIT_EMPTY),
})
_ZERO = {str: "", int: 0, bool: False}
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

Context = tuple[str, tuple[str, ...]] | None  # encoding/json's errorContext: innermost struct, field names




class _Decoder:
    """One json.Unmarshal into a Go type, written back as the apiserver writes it (ToUnstructured).

    Values are decoded into what the Go field would hold, None standing for nil or an untouched zero.
    The first type error is kept and decoding goes on (`saveError`); MetaDecodeError from metav1.Time
    stops it at once, as an error returned by an Unmarshaler does.
    """

    __slots__ = ("saved",)

    def __init__(self) -> None:
        self.saved: str | None = None

    def type_error(self, value: str, go_type: str, context: Context) -> None:
        if self.saved is not None:
            return
        if context is None:
            self.saved = f"json: cannot unmarshal {value} into Go value of type {go_type}"
        else:
            struct, fields = context
            self.saved = (f"json: cannot unmarshal {value} into Go struct field {struct}.{'.'.join(fields)} "
                          f"of type {go_type}")

    def decode(self, value: Any, spec: tuple, context: Context) -> Any:
        kind = spec[0]
        if value is None:  # null leaves the zero value (nil for maps, slices and pointers)
            return self.struct(None, spec, context) if kind == "struct" else None
        if kind == "scalar":
            return self.scalar(value, spec, context)
        if kind == "time":
            return _decode_time(value)
        if kind == "raw":
            return value
        if kind == "map":
            return self.string_map(value, context)
        if kind == "list":
            return self.list(value, spec, context)
        return self.struct(value, spec, context)

    def scalar(self, value: Any, spec: tuple, context: Context) -> Any:
        _, go_type, py_type = spec
        if py_type is int and isinstance(value, (int, float)) and not isinstance(value, bool):
            literal = go_json(value)  # the number as json.Marshal wrote it, read back with ParseInt
            if literal.lstrip("-").isdigit() and _INT64_MIN <= int(literal) <= _INT64_MAX:
                return int(literal)
            self.type_error(f"number {literal}", go_type, context)
            return None
        if type(value) is not py_type:
            self.type_error(go_json_kind(value), go_type, context)
            return None
        return value

    def string_map(self, value: Any, context: Context) -> dict | None:
        if not isinstance(value, dict):
            self.type_error(go_json_kind(value), "map[string]string", context)
            return None
        out = {}
        for key in sorted(value):  # the keys of a marshalled Go map come sorted
            item = value[key]
            if item is not None and not isinstance(item, str):
                self.type_error(go_json_kind(item), "string", context)
                continue
            out[key] = item or ""
        return out

    def list(self, value: Any, spec: tuple, context: Context) -> list | None:
        _, go_type, element = spec
        if not isinstance(value, list):
            self.type_error(go_json_kind(value), go_type, context)
            return None
        out = []
        for item in value:
            decoded = self.decode(item, element, context)
            out.append(_ZERO[element[2]] if decoded is None and element[0] == "scalar" else decoded)
        return out

    def struct(self, value: Any, spec: tuple, context: Context) -> dict | None:
        _, go_type, fields = spec
        if value is not None and not isinstance(value, dict):
            self.type_error(go_json_kind(value), go_type, context)
            return None
        decoded = {}
        if value:
            struct_name = go_type.rpartition(".")[2]
            stack = context[1] if context is not None else ()
            for key in sorted(value):
                field = fields.get(key)
                if field is not None:  # unknown fields are ignored (pruning reports them)
                    decoded[key] = self.decode(value[key], field[0], (struct_name, (*stack, key)))
        out = {}
        for key, (field_spec, written) in fields.items():
            item = decoded.get(key)
            if written == POINTER:
                if item is not None:
                    out[key] = item
            elif written == OMIT_EMPTY:
                if item:
                    out[key] = item
            else:
                out[key] = _ZERO[field_spec[2]] if item is None else item
        return out


def decode_object_meta(value: Any, drop_malformed: bool = False) -> dict:
    """GetObjectMeta then SetObjectMeta: the metadata as the apiserver keeps it, or MetaDecodeError.

    With `drop_malformed` (GetObjectMetaWithOptions' DropMalformedFields) a value that does not decode
    as a whole is decoded field by field, each field that does not fit dropped on its own (a label map
    with one non-string value goes whole); only a non-object fails then. A zero creationTimestamp is left
    out (the apiserver sets it on create, and removes it from embedded resources).
    """
    try:
        return _decode_whole(value)
    except MetaDecodeError:
        if not drop_malformed:
            raise
    if not isinstance(value, dict):
        raise MetaDecodeError(f"invalid metadata: expected object, got {go_type_name(value)}")
    kept = {}
    for key, item in value.items():
        try:
            _decode_whole({key: item})
        except MetaDecodeError:
            continue
        kept[key] = item
    return _decode_whole(kept)


def _decode_whole(value: Any) -> dict:
    decoder = _Decoder()
    meta = decoder.decode(value, _OBJECT_META, None)
    if decoder.saved is not None:
        raise MetaDecodeError(decoder.saved)
    return meta


# ---------------------------------------------------------------- metav1.Time

def _decode_time(value: Any) -> str:
    """metav1.Time.UnmarshalJSON: time.Parse(time.RFC3339, ...) and back as MarshalJSON writes it (UTC)."""
    if not isinstance(value, str):
        raise MetaDecodeError(f"json: cannot unmarshal {go_json_kind(value)} into Go value of type string")
    try:
        return parse_rfc3339(value).utc_rfc3339()
    except TimeParseError as err:
        raise MetaDecodeError(str(err)) from None


# ---------------------------------------------------------------- coercion (the 400 before validation)

def coerce_metadata(obj: dict, schema: Structural | None, kind: str, version: str) -> str | None:
    """The decoding of a request's metadata: the reason of the 400 answer, or None; fixes `obj` in place.

    The root metadata must decode into ObjectMeta (the error is Go's json text, without a path). The
    embedded resources are checked only in objects of the CRD's kind and version (`kind`, `version`),
    as the apiserver picks the schema by the object's own apiVersion: their apiVersion and kind must be
    strings and their metadata must decode (the error is a field error, e.g.
    `spec.v.kind: Invalid value: 5: must be a string`). Objects are visited in document order (Go's map
    order is random, so which of two bad embedded resources the apiserver names may differ).
    """
    if "metadata" in obj:
        try:
            obj["metadata"] = decode_object_meta(obj["metadata"])
        except MetaDecodeError as err:
            return str(err)
    object_version = obj.get("apiVersion")
    if (schema is None or obj.get("kind") != kind or not isinstance(object_version, str)
            or from_api_version_and_kind(object_version, kind).version != version):
        return None
    err = coerce(None, obj, schema)
    return None if err is None else str(err)


@functools.lru_cache(maxsize=1024)
def embedded_subtrees(schema: Structural) -> frozenset[int]:
    """The ids of the schema nodes with an x-kubernetes-embedded-resource at or below them (computed once
    per schema: the walks below visit only these nodes)."""
    marked: set[int] = set()

    def walk(node: Structural) -> bool:
        found = node.x_embedded_resource
        for sub in node.properties.values():
            found = walk(sub) or found
        if node.items is not None:
            found = walk(node.items) or found
        ap = node.additional_properties_schema
        if ap is not None:
            found = walk(ap) or found
        if found:
            marked.add(id(node))
        return found

    walk(schema)
    return frozenset(marked)



def coerce(path: Path | None, obj: Any, schema: Structural | None, is_resource_root: bool = False,
           drop_invalid: bool = False) -> FieldError | None:
    """objectmeta.Coerce: every embedded resource's apiVersion and kind must be strings and its metadata
    must decode into ObjectMeta (it is written back as SetObjectMeta writes it, without a zero
    creationTimestamp); the first problem is returned. With `drop_invalid` (DropInvalidFields, the
    storage decoder's) nothing is refused: a non-string apiVersion or kind is removed and the metadata
    keeps the fields that decode. `is_resource_root` treats `obj` itself as a resource. Changes `obj`."""
    if is_resource_root:
        schema = _as_resource_root(schema)
    if schema is None:
        return None
    return _coerce(obj, schema, path, embedded_subtrees(schema), drop_invalid)


def _as_resource_root(schema: Structural | None) -> Structural:
    """The schema with x-kubernetes-embedded-resource set, as Coerce and Validate treat a resource root."""
    if schema is None:
        return new_structural({"x-kubernetes-embedded-resource": True})
    return schema if schema.x_embedded_resource else replace(schema, x_embedded_resource=True)


def _coerce(value: Any, schema: Structural | None, path: Path | None, embedded: frozenset[int],
            drop_invalid: bool) -> FieldError | None:
    if schema is None or id(schema) not in embedded:
        return None
    if isinstance(value, dict):
        for key, item in list(value.items()):
            if schema.x_embedded_resource:
                if key in ("apiVersion", "kind") and not isinstance(item, str):
                    if drop_invalid:
                        del value[key]
                    else:
                        return FieldError.invalid(child_of(path, key), item, "must be a string")
                if key == "metadata":
                    try:
                        value["metadata"] = decode_object_meta(item, drop_malformed=drop_invalid)
                    except MetaDecodeError as err:
                        if not drop_invalid:
                            return FieldError.invalid(child_of(path, "metadata"), item, str(err))
            sub = schema.properties.get(key)
            if sub is not None:
                err = _coerce(item, sub, child_of(path, key), embedded, drop_invalid)
            else:
                err = _coerce(item, schema.additional_properties_schema, key_of(path, key), embedded, drop_invalid)
            if err is not None:
                return err
    elif isinstance(value, list):
        for i, item in enumerate(value):
            err = _coerce(item, schema.items, index_of(path, i), embedded, drop_invalid)
            if err is not None:
                return err
    return None


# ---------------------------------------------------------------- validation of embedded resources

def validate_embedded(obj: Any, schema: Structural | None, path: Path | None = None,
                      is_resource_root: bool = False) -> list[FieldError]:
    """objectmeta.Validate: the TypeMeta and ObjectMeta of embedded resources (and of `obj` itself
    when `is_resource_root`)."""
    if is_resource_root:
        schema = _as_resource_root(schema)
    if schema is None:
        return []
    embedded = embedded_subtrees(schema)
    if not embedded:
        return []
    errs: list[FieldError] = []
    _validate(obj, schema, path, embedded, errs)
    return errs



def _validate(value: Any, schema: Structural | None, path: Path | None, embedded: frozenset[int],
              errs: list[FieldError]) -> None:
    if schema is None or id(schema) not in embedded:
        return
    if isinstance(value, dict):
        if schema.x_embedded_resource:
            errs.extend(_validate_embedded_resource(value, path))
        for key, item in value.items():
            sub = schema.properties.get(key)
            if sub is not None:
                _validate(item, sub, child_of(path, key), embedded, errs)
            else:
                _validate(item, schema.additional_properties_schema, key_of(path, key), embedded, errs)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _validate(item, schema.items, index_of(path, i), embedded, errs)


def _validate_embedded_resource(value: dict, path: Path | None) -> list[FieldError]:
    """validateEmbeddedResource: apiVersion and kind required and well-formed, metadata valid."""
    errs: list[FieldError] = []
    if "apiVersion" not in value:
        errs.append(FieldError.required(child_of(path, "apiVersion")))
    if "kind" not in value:
        errs.append(FieldError.required(child_of(path, "kind")))
    for key, item in value.items():
        if key == "apiVersion":
            at = child_of(path, key)
            if not isinstance(item, str):
                errs.append(FieldError.invalid(at, item, "must be a string"))
            elif not item:
                errs.append(FieldError.invalid(at, item, "must not be empty"))
            else:
                try:
                    parse_group_version(item)
                except GroupVersionError as err:
                    errs.append(FieldError.invalid(at, item, str(err)))
        elif key == "kind":
            at = child_of(path, key)
            if not isinstance(item, str):
                errs.append(FieldError.invalid(at, item, "must be a string"))
            elif not item:
                errs.append(FieldError.invalid(at, item, "must not be empty"))
            elif messages := is_dns1035_label(item.lower()):
                errs.append(FieldError.invalid(at, item, "may have mixed case, but should otherwise match: "
                                               + ",".join(messages)))
        elif key == "metadata":
            at = child_of(path, "metadata")
            try:
                meta = decode_object_meta(item)
            except MetaDecodeError as err:
                errs.append(FieldError.invalid(at, item, str(err)))
                continue
            if not meta.get("name"):
                meta["name"] = "fakename"  # the apiserver sets one "to avoid an error"
            errs.extend(validate_object_meta(meta, bool(meta.get("namespace")), validate_path_segment_name, at))
    return errs
