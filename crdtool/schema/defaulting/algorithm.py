"""Defaulting of custom resources, as apiextensions-apiserver's schema/defaulting package does it.

`apply_defaults` is structuraldefaulting.Default, which the apiserver runs on every decode of
an object (its unstructuredDefaulter), after pruning: a property that is absent, or null while
not nullable, takes a deep copy of its default; null values of a non-nullable
additionalProperties or items schema take that schema's default (or stay null when it has
none). The walk then descends into every value, the defaults just set included, so defaults
inside a default are applied too.

The defaults applied are those of the schema the apiserver serves with: when it builds a
version's structural schema it prunes every default (PruneDefaults), as if the default were
a value of an object at its place: unknown fields go, and so do unknown fields in the
metadata of embedded resources (which the CRD's own validation lets through).
`apply_defaults` uses `prune_defaults(schema)` for that, computed once per schema.
"""

from __future__ import annotations

from typing import Any

from crdtool.model.jsonvalue import json_copy
from crdtool.model.memo import IdentityMemo
from crdtool.model.record import replace
from crdtool.schema.pruning.algorithm import META_FIELDS, prune_object_meta, prune_values
from crdtool.schema.structural.structural import Structural

__all__ = ["apply_defaults", "prune_defaults"]


def apply_defaults(obj: Any, schema: Structural | None) -> list[str]:
    """Default `obj` in place; return the paths where a default was set, in document order.

    The paths are rendered like the pruned paths (`spec.replicas`, `spec.ports[0].protocol`,
    `spec.env.FOO.value`), in the order of the defaulted object (a field added by a default comes
    after the fields that were given); a default applied inside another default is listed too.
    """
    defaulted: list[str] = []
    if schema is not None and isinstance(obj, (dict, list)):
        served, plan = _serving_schema(schema)
        if id(served) in plan:
            _default(obj, served, "", defaulted, plan)
    return defaulted


#: The nodes of a schema under which a default can be set (by id), each with its properties that have
#: a default. A large schema has defaults in few places: the walk of an object skips the rest, and
#: looks at those properties only, not at every property of every node it passes.
Plan = dict[int, tuple[tuple[str, Structural], ...]]

#: Schema -> (its pruned-defaults form, that form's plan).
_SERVING: IdentityMemo[tuple[Structural, Plan]] = IdentityMemo(limit=512)


def _serving_schema(schema: Structural) -> tuple[Structural, Plan]:
    known = _SERVING.get(schema)
    if known is not None:
        return known
    served = prune_defaults(schema)
    plan = _plan(served)
    if served is not schema:
        _SERVING.put(served, (served, plan))
    return _SERVING.put(schema, (served, plan))


def _plan(schema: Structural) -> Plan:
    """The Plan of a (served) schema."""
    plan: Plan = {}

    def holds_default(s: Structural) -> bool:
        """Whether a default can be set under `s` (noting `s` in the plan if so)."""
        below = False
        for sub in (s.items, s.additional_properties_schema):
            if sub is not None and (holds_default(sub) or sub.default is not None):
                below = True
        own = []
        for name, prop in s.properties.items():
            if holds_default(prop) or prop.default is not None:
                below = True
            if prop.default is not None:
                own.append((name, prop))
        if below:
            plan[id(s)] = tuple(own)
        return below

    holds_default(schema)
    return plan


def prune_defaults(schema: Structural) -> Structural:
    """PruneDefaults: the schema with every default pruned as the apiserver prunes it before serving.

    The input is not changed: nodes whose default changes, and their ancestors, are copies; the
    rest is shared (and the schema itself is returned when nothing changes). Under the
    apiVersion, kind or metadata of an embedded resource (or of the root) nothing is pruned by
    the schema; there a whole `metadata` default is pruned to ObjectMeta's fields, and an
    apiVersion or kind default that is not a string is dropped, as the apiserver's metadata
    coercion drops it.
    """
    return _prune_defaults(schema, True, None)


def _prune_defaults(s: Structural, embedded: bool, meta_step: str | None) -> Structural:
    """`embedded`: s keeps its meta fields (an embedded resource, or the root); `meta_step`: s is the
    apiVersion/kind/metadata of such a node (`"+"` below one of those)."""
    changes: dict[str, Any] = {}
    default = s.default
    if default is not None:
        pruned = default
        if meta_step is None:
            if isinstance(default, (dict, list)):
                pruned = json_copy(default)
                prune_values(pruned, s, embedded=embedded)
        elif meta_step in ("apiVersion", "kind"):
            if not isinstance(default, str):
                pruned = None
        elif meta_step == "metadata" and isinstance(default, dict):
            pruned = json_copy(default)
            prune_object_meta(pruned, "metadata", [])
        if pruned != default:
            changes["default"] = pruned
    below = None if meta_step is None else "+"
    if s.items is not None:
        items = _prune_defaults(s.items, s.items.x_embedded_resource, below)
        if items is not s.items:
            changes["items"] = items
    ap = s.additional_properties_schema
    if ap is not None:
        new_ap = _prune_defaults(ap, ap.x_embedded_resource, below)
        if new_ap is not ap:
            changes["additional_properties"] = new_ap
    if s.properties:
        new_props: dict[str, Structural] | None = None
        for name, prop in s.properties.items():
            step = name if embedded and name in META_FIELDS else below
            new_prop = _prune_defaults(prop, prop.x_embedded_resource, step)
            if new_prop is not prop:
                if new_props is None:
                    new_props = dict(s.properties)
                new_props[name] = new_prop
        if new_props is not None:
            changes["properties"] = new_props
    return replace(s, **changes) if changes else s


def _child(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _default(x: dict | list, s: Structural, prefix: str, out: list[str], plan: Plan) -> None:
    """Default x (a dict or a list) with s, a node of `plan` (a default can be set under it); `prefix` is
    the path of x."""
    if isinstance(x, list):
        items = s.items
        if items is None:
            return
        fill = items.default is not None and not items.nullable
        descend = id(items) in plan
        for i, v in enumerate(x):
            if v is None and fill:
                x[i] = v = json_copy(items.default)
                out.append(f"{prefix}[{i}]")
            if descend and isinstance(v, (dict, list)):
                _default(v, items, f"{prefix}[{i}]", out, plan)
        return
    props = s.properties
    set_here: set[str] | None = None
    for name, prop in plan[id(s)]:
        if name not in x or (x[name] is None and not prop.nullable):
            x[name] = json_copy(prop.default)
            if set_here is None:
                set_here = set()
            set_here.add(name)
    ap = s.additional_properties_schema
    for k, v in x.items():
        sub = props.get(k)
        if sub is None:
            if ap is None:
                continue
            sub = ap
            if v is None and not ap.nullable and ap.default is not None:
                x[k] = v = json_copy(ap.default)
                out.append(_child(prefix, k))
        elif set_here is not None and k in set_here:
            out.append(_child(prefix, k))
        if isinstance(v, (dict, list)) and id(sub) in plan:
            _default(v, sub, _child(prefix, k), out, plan)
