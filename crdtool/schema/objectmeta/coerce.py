"""A custom resource's metadata as the apiserver decodes it, and its embedded resources.

The apiserver keeps a custom resource as plain JSON, but its `metadata` (and the apiVersion, kind and
metadata of every `x-kubernetes-embedded-resource` inside) must fit the Go types: on a create or update
request (customresource_handler.go's unstructuredSchemaCoercer) the metadata goes through
`json.Unmarshal` into a `metav1.ObjectMeta` and back (`GetObjectMeta`/`SetObjectMeta`), and
`objectmeta.Coerce` does the same for embedded resources. A value that does not fit is a 400 Bad
Request before any validation (`Widget in version "v1" cannot be handled as a Widget: <reason>`); the
round trip silently normalizes what does fit (unknown keys dropped, empty fields omitted, a null label
value becomes "", times re-rendered in UTC).

`decode_object_meta` reproduces that round trip with model/gounmarshal (encoding/json's errors) over
the metav1 types of model/metav1. `validate_embedded` is `objectmeta.Validate`: the checks every
embedded resource gets on create and update.
"""

from __future__ import annotations

import functools
from typing import Any

from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_type_name
from crdtool.model.gounmarshal import marshal, unmarshal
from crdtool.model.groupversion import GroupVersionError, from_api_version_and_kind, parse_group_version
from crdtool.model.metav1 import OBJECT_META
from crdtool.model.path import Path, child_of, index_of, key_of
from crdtool.schema.apimachinery.names import is_dns1035_label, validate_path_segment_name
from crdtool.schema.apimachinery.objectmeta import validate_object_meta
from crdtool.schema.structural.structural import Structural, as_resource_root

__all__ = [
    "MetaDecodeError", "coerce", "coerce_metadata", "decode_object_meta", "embedded_subtrees", "handling_error",
    "validate_embedded",
]


class MetaDecodeError(ValueError):
    """GetObjectMeta failed (json.Unmarshal into metav1.ObjectMeta); the argument is Go's error text."""


def handling_error(kind: str, version: str, reason: str) -> str:
    """The apiserver's whole 400 message for a body it cannot decode (what kubectl prints)."""
    return f'{kind} in version "{version}" cannot be handled as a {kind}: {reason}'


def decode_object_meta(value: Any, drop_malformed: bool = False) -> dict:
    """GetObjectMeta then SetObjectMeta: the metadata as the apiserver keeps it, or MetaDecodeError.

    The metadata is marshalled from the object's map (its keys sorted, its numbers as json.Marshal
    writes them), decoded into metav1.ObjectMeta and written back. With `drop_malformed`
    (GetObjectMetaWithOptions' DropMalformedFields) a value that does not decode as a whole is
    decoded field by field, each field that does not fit dropped on its own (a label map with one
    non-string value goes whole); only a non-object fails then. A zero creationTimestamp (written
    back as null) is left out: the apiserver sets it on create, and removes it from embedded resources.
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
    decoded = unmarshal(value, OBJECT_META, sorted_keys=True)
    if decoded.error is not None:
        raise MetaDecodeError(str(decoded.error))
    meta = marshal(decoded.value, OBJECT_META)
    if meta.get("creationTimestamp") is None:
        del meta["creationTimestamp"]
    return meta


# ---------------------------------------------------------------- coercion (the 400 before validation)

def coerce_metadata(obj: dict, schema: Structural | None, kind: str, version: str,
                    decoded_meta: dict | None = None) -> str | None:
    """The decoding of a request's metadata: the reason of the 400 answer, or None; fixes `obj` in place.
    `decoded_meta`: the root metadata already decoded (kubectl decodes the same before sending).

    The root metadata must decode into ObjectMeta (the error is Go's json text, without a path). The
    embedded resources are checked only in objects of the CRD's kind and version (`kind`, `version`),
    as the apiserver picks the schema by the object's own apiVersion: their apiVersion and kind must be
    strings and their metadata must decode (the error is a field error, e.g.
    `spec.v.kind: Invalid value: 5: must be a string`). Objects are visited in document order (Go's map
    order is random, so which of two bad embedded resources the apiserver names may differ).
    """
    if decoded_meta is not None:
        obj["metadata"] = decoded_meta
    elif "metadata" in obj:
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
        schema = as_resource_root(schema)
    if schema is None:
        return None
    return _coerce(obj, schema, path, embedded_subtrees(schema), drop_invalid)


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
        schema = as_resource_root(schema)
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
