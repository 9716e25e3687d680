"""Pruning of unknown fields, as the apiserver prunes a custom resource while decoding it
(`unstructuredSchemaCoercer.apply` in apiextensions-apiserver's customresource_handler.go,
with the schema/pruning and schema/objectmeta packages).

On every decode of an object of the CRD's kind (a request body, and again a stored object)
the apiserver, unless the CRD preserves unknown fields:
1. reads the root `metadata` into metav1.ObjectMeta with sigs.k8s.io/json's strict decoder:
   fields ObjectMeta does not know are unknown fields (`metadata.foo`, in the sorted key order
   of the JSON it decodes) and vanish when the typed metadata is written back;
2. prunes the object with the version's structural schema (PruneWithOptions, the root treated
   as an embedded resource, so its apiVersion, kind and metadata are left alone): the paths
   come out sorted, keys joined by dots and list indices in brackets (`spec.m.k1.x`,
   `spec.l[0].y`);
3. drops the nulls of non-nullable fields that have no default (`prune_non_nullable_nulls`);
4. coerces embedded resources (objectmeta.CoerceWithOptions): the `metadata` of every
   x-kubernetes-embedded-resource is read into ObjectMeta the same way, its unknown fields
   reported with a field.Path prefix (map keys in brackets: `spec.m[k1].metadata.junk`), sorted.

The unknown fields of steps 1, 2 and 4, in that order, are what the apiserver reports as
`unknown field "<path>"` (fieldValidation=Warn warnings, Strict errors) and what crdtool
reports as pruned. The rest of the metadata's typed round trip (the 400 for a label that is not
a string or `kind: 5` in an embedded resource, and the normalization of known fields) is
crdtool.schema.objectmeta.coerce's; run it after `prune`, which must see the unknown metadata fields
to report them (an error there refuses the request, so the order changes no answer).
"""

from __future__ import annotations

from typing import Any

from crdtool.model.jsonvalue import deep_equal, json_copy
from crdtool.model.record import Record
from crdtool.schema.structural.structural import Structural, as_resource_root

__all__ = ["META_FIELDS", "OBJECT_META_FIELDS", "PruneResult", "prune", "prune_non_nullable_nulls", "prune_object_meta",
           "prune_values", "would_prune"]

#: The fields of an object that an embedded resource (and the root) keeps whatever its schema says.
META_FIELDS = frozenset(("apiVersion", "kind", "metadata"))

_OWNER_REFERENCE_FIELDS = frozenset(("apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"))
_MANAGED_FIELDS_ENTRY_FIELDS = frozenset(
    ("manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"))
#: metav1.ObjectMeta's JSON fields; a value names the fields of the structs of a list-valued field.
OBJECT_META_FIELDS: dict[str, frozenset[str] | None] = {
    "name": None, "generateName": None, "namespace": None, "selfLink": None, "uid": None,
    "resourceVersion": None, "generation": None, "creationTimestamp": None, "deletionTimestamp": None,
    "deletionGracePeriodSeconds": None, "labels": None, "annotations": None,
    "ownerReferences": _OWNER_REFERENCE_FIELDS, "finalizers": None, "managedFields": _MANAGED_FIELDS_ENTRY_FIELDS,
}


class PruneResult(Record):
    """What pruning removed: `pruned` holds the paths in the apiserver's order, `unknown_fields`
    the same as the apiserver's strict-decoding texts (`unknown field "spec.x"`)."""

    __slots__ = ("pruned", "unknown_fields")

    pruned: list[str]
    unknown_fields: list[str]

    def __init__(self, pruned: list[str] | None = None, unknown_fields: list[str] | None = None) -> None:
        self.pruned = [] if pruned is None else pruned
        self.unknown_fields = [] if unknown_fields is None else unknown_fields


def prune(obj: dict, schema: Structural | None, *, is_resource_root: bool = True) -> PruneResult:
    """Prune `obj` in place as the apiserver does while decoding it (steps 1-4 of the module text).

    `is_resource_root` says that `obj` is a whole custom resource: its apiVersion, kind and
    metadata are kept and its metadata pruned to ObjectMeta's fields. A None schema prunes
    everything but those (the apiserver's empty schema).
    """
    meta_paths: list[str] = []
    walk_schema = schema
    if is_resource_root:
        meta = obj.get("metadata")
        if isinstance(meta, dict):
            prune_object_meta(meta, "metadata", meta_paths)
        walk_schema = as_resource_root(schema)
    walker = _Pruner()
    walker.prune(obj, walk_schema)
    prune_non_nullable_nulls(obj, schema)
    pruned = meta_paths + sorted(walker.pruned) + sorted(walker.embedded_meta)
    return PruneResult(pruned, [f'unknown field "{p}"' for p in pruned])


def prune_values(value: Any, schema: Structural | None, *, embedded: bool = False) -> None:
    """Prune a value (a dict or a list) with its schema, unknown fields of embedded metadata included,
    without reporting anything: what PruneDefaults does to a default. `embedded` treats the schema
    as an embedded resource (the root's schema)."""
    if embedded and schema is not None:
        schema = as_resource_root(schema)
    if isinstance(value, (dict, list)):
        _Pruner().prune(value, schema)


def would_prune(value: Any, schema: Structural | None) -> bool:
    """Whether pruning would change `value`: what defaulting's validation asks of every default
    (`pruning.Prune` of a deep copy with isResourceRoot = the schema's x-kubernetes-embedded-resource,
    then reflect.DeepEqual with the original). Pruning alone: an embedded resource's metadata is
    left to objectmeta's Coerce, as in Go."""
    if not isinstance(value, (dict, list)):
        return False
    pruned = json_copy(value)
    _Pruner(coerce_meta=False).prune(pruned, schema)
    return not deep_equal(pruned, value)


def prune_object_meta(meta: dict, prefix: str, out: list[str]) -> None:
    """Remove from `meta` what metav1.ObjectMeta does not know, appending each path (`prefix.field`,
    `prefix.ownerReferences[0].field`) to `out` in the order strict decoding reports them."""
    for key in sorted(meta):
        if key not in OBJECT_META_FIELDS:
            out.append(f"{prefix}.{key}")
            del meta[key]
            continue
        struct_fields = OBJECT_META_FIELDS[key]
        items = meta[key]
        if struct_fields is None or not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict):
                for name in sorted(item):
                    if name not in struct_fields:
                        out.append(f"{prefix}.{key}[{i}].{name}")
                        del item[name]


def prune_non_nullable_nulls(x: Any, s: Structural | None) -> None:
    """PruneNonNullableNullsWithoutDefaults: remove in place the nulls that their schema does not allow
    and no default would replace (list items stay; defaulting replaces the others)."""
    if s is None:
        return
    if isinstance(x, dict):
        props = s.properties
        ap = s.additional_properties_schema
        drop: list[str] | None = None
        for k, v in x.items():
            sub = props.get(k, ap) if props else ap
            if sub is None:
                continue
            if v is None:
                if not sub.nullable and sub.default is None:
                    if drop is None:
                        drop = []
                    drop.append(k)
            elif isinstance(v, (dict, list)):
                prune_non_nullable_nulls(v, sub)
        if drop:
            for k in drop:
                del x[k]
    elif isinstance(x, list):
        items = s.items
        if items is not None:
            for v in x:
                if isinstance(v, (dict, list)):
                    prune_non_nullable_nulls(v, items)


# A step of the path being walked: a property or a map key (str) or a list index (int). Map keys are
# told apart from properties only where field.Path renders them (embedded metadata): see _Pruner.
_KEY = 0
_FIELD = 1


class _Pruner:
    """One walk doing PruneWithOptions and the embedded-metadata part of CoerceWithOptions.

    The paths are kept as a stack of steps and only rendered for what is pruned.
    """

    __slots__ = ("steps", "pruned", "embedded_meta", "coerce_meta")

    def __init__(self, coerce_meta: bool = True) -> None:
        self.steps: list[tuple[int, str | int]] = []
        self.pruned: list[str] = []
        self.embedded_meta: list[str] = []
        #: Whether embedded metadata is pruned to ObjectMeta's fields too (objectmeta's Coerce), or
        #: left alone (pruning.Prune by itself).
        self.coerce_meta = coerce_meta

    # -- rendering
    def _prune_path(self, last: str | None = None) -> str:
        out: list[str] = []
        for _, step in self.steps:
            if isinstance(step, int):
                out.append(f"[{step}]")
            else:
                if out:
                    out.append(".")
                out.append(step)
        if last is not None:
            if out:
                out.append(".")
            out.append(last)
        return "".join(out)

    def _field_path(self) -> str:
        out: list[str] = []
        for kind, step in self.steps:
            if isinstance(step, int) or kind == _KEY:
                out.append(f"[{step}]")
            else:
                if out:
                    out.append(".")
                out.append(step)
        return "".join(out)

    # -- the walk
    def prune(self, x: Any, s: Structural | None) -> None:
        """Go's prune, for a dict or a list (nothing happens to a scalar)."""
        if s is not None and s.x_preserve_unknown_fields:
            self._skip_prune(x, s)
            return
        steps = self.steps
        if isinstance(x, list):
            items = s.items if s is not None else None
            for i, v in enumerate(x):
                if isinstance(v, (dict, list)):
                    steps.append((_FIELD, i))
                    self.prune(v, items)
                    steps.pop()
            return
        if s is None:
            for k in x:
                self.pruned.append(self._prune_path(k))
            x.clear()
            return
        embedded = s.x_embedded_resource
        if embedded:
            self._coerce_embedded_meta(x)
        props = s.properties
        ap = s.additional_properties
        ap_schema = s.additional_properties_schema
        for k in list(x):
            if embedded and k in META_FIELDS:
                continue
            prop = props.get(k)
            if prop is not None:
                v = x[k]
                if isinstance(v, (dict, list)):
                    steps.append((_FIELD, k))
                    self.prune(v, prop)
                    steps.pop()
            elif ap is not None:
                v = x[k]
                if isinstance(v, (dict, list)):
                    steps.append((_KEY, k))
                    self.prune(v, ap_schema)
                    steps.pop()
            else:
                if k not in META_FIELDS or steps:
                    self.pruned.append(self._prune_path(k))
                del x[k]

    def _skip_prune(self, x: Any, s: Structural) -> None:
        """Under x-kubernetes-preserve-unknown-fields: unknown fields stay, specified ones are pruned inside."""
        steps = self.steps
        if isinstance(x, dict):
            embedded = s.x_embedded_resource
            if embedded:
                self._coerce_embedded_meta(x)
            props = s.properties
            ap = s.additional_properties
            for k, v in x.items():
                if embedded and k in META_FIELDS:
                    continue
                prop = props.get(k)
                if prop is not None:
                    kind, sub = _FIELD, prop
                elif ap is not None:
                    kind, sub = _KEY, s.additional_properties_schema
                else:
                    continue
                if isinstance(v, (dict, list)):
                    steps.append((kind, k))
                    self.prune(v, sub)
                    steps.pop()
        elif isinstance(x, list):
            items = s.items
            if items is None:
                return
            for i, v in enumerate(x):
                if isinstance(v, (dict, list)):
                    steps.append((_FIELD, i))
                    self._skip_prune(v, items)
                    steps.pop()

    def _coerce_embedded_meta(self, x: dict) -> None:
        meta = x.get("metadata")
        if self.coerce_meta and isinstance(meta, dict):
            base = self._field_path()
            prune_object_meta(meta, f"{base}.metadata" if base else "metadata", self.embedded_meta)
