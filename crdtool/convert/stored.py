"""What the apiserver's storage codec does to a custom resource around a conversion
(customresource_handler.go: crdConversionRESTOptionsGetter, schemaCoercingDecoder,
unstructuredDefaulter, schemaCoercingConverter, unstructuredSchemaCoercer).

Reading a stored object: `decode_stored` is the storage decoder: metadata read into ObjectMeta with
malformed fields dropped (an old object is not refused for them), the object pruned with the schema
of the version it is stored in (nulls of non-nullable fields without default dropped, embedded
resources coerced, their malformed metadata dropped), a missing generation repaired to 1, then
defaulted with that same schema. `coerce_to` is what the converter wrapper does after converting:
prune with the target version's schema and coerce the metadata again (now without dropping: what
does not fit is an error). The target version's defaults are not applied on this path.
`read_stored` is the whole read of a stored object in a requested version (an update's old object).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from crdtool.convert.review import ConversionError, gv_text
from crdtool.model.jsonvalue import json_copy
from crdtool.schema.defaulting import algorithm as defaulting
from crdtool.schema.objectmeta import coerce as objectmeta
from crdtool.schema.pruning import algorithm as pruning
from crdtool.schema.structural.structural import Structural

__all__ = ["Decoded", "coerce_to", "decode_stored", "object_meta_dropping", "read_stored"]


@dataclass
class Decoded:
    """An object as read, with what pruning removed and defaulting added on the way."""

    obj: dict
    pruned: list[str] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)


class _Converter(Protocol):
    def convert(self, objects: list[dict], desired: tuple[str, str]) -> list[dict | ConversionError]: ...


def object_meta_dropping(meta: Any) -> dict:
    """GetObjectMetaWithOptions(DropMalformedFields) then SetObjectMeta, its error a ConversionError."""
    try:
        return objectmeta.decode_object_meta(meta, drop_malformed=True)
    except objectmeta.MetaDecodeError as err:
        raise ConversionError(str(err)) from None


def decode_stored(data: dict, schema: Structural | None) -> Decoded:
    """The storage decoder and defaulter on an object stored in the version whose schema is `schema`."""
    obj = json_copy(data)
    meta = None
    if "metadata" in obj:  # read on its own (ObjectMeta), kept in its place
        meta, obj["metadata"] = object_meta_dropping(obj["metadata"]), {}
    pruned = pruning.prune(obj, schema).pruned
    objectmeta.coerce(None, obj, schema, drop_invalid=True)
    if meta is not None:
        if not meta.get("generation"):
            meta["generation"] = 1  # "fixup missing generation in very old CRs"
        obj["metadata"] = objectmeta.decode_object_meta(meta)
    return Decoded(obj, pruned, defaulting.apply_defaults(obj, schema))


def coerce_to(obj: dict, schema: Structural | None, kind: str, version: str) -> list[str]:
    """The converter wrapper's coercion with the target version's schema, in place: the pruned paths,
    or ConversionError when the metadata (or an embedded resource's) does not fit."""
    if "metadata" in obj:
        try:
            objectmeta.decode_object_meta(obj["metadata"])
        except objectmeta.MetaDecodeError as err:
            raise ConversionError(str(err)) from None
    pruned = pruning.prune(obj, schema).pruned
    problem = objectmeta.coerce_metadata(obj, schema, kind, version)
    if problem is not None:
        raise ConversionError(problem)
    return pruned


def read_stored(data: dict, stored: Structural | None, target: Structural | None, kind: str,
                desired: tuple[str, str], converter: _Converter) -> Decoded:
    """The object stored as `data` (in its own apiVersion, whose schema is `stored`) as a request to the
    version `desired` (group, version) reads it, as the storage codec does: `decode_stored`, then, if
    it is in another version, the CRD's `converter`, then `coerce_to` with the `target` schema.
    ConversionError when any step fails."""
    decoded = decode_stored(data, stored)
    obj = decoded.obj
    if obj.get("apiVersion") != gv_text(*desired):
        result = converter.convert([obj], desired)[0]
        if isinstance(result, ConversionError):
            raise result
        obj = result
    decoded.pruned += coerce_to(obj, target, kind, desired[1])
    decoded.obj = obj
    return decoded
