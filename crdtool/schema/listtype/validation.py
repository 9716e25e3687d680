"""The uniqueness of `x-kubernetes-list-type: set` and `map` lists (apiextensions' schema/listtype).

A set may not hold the same item twice; a map list may not hold two items with the same values of
its `x-kubernetes-list-map-keys` (an item without a key counts as the "unspecified" key, which is one
value too), and its items must be objects. Only the second appearance of a value is reported, as
`Duplicate value: <item>` for a set and `Duplicate value: {"key":<value>}` for a map list.

Values are compared the way the apiserver compares decoded JSON: scalars by Go type and value (an
int64 1 is no float64 1.0, and no `true`), objects and lists by their JSON text (where 1 and 1.0 are
the same). Go visits object keys in random order; document order is used here.
"""

from __future__ import annotations

from typing import Any

from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_json
from crdtool.model.path import Path
from crdtool.schema.structural.structural import Structural

__all__ = ["ListTypes"]

_UNSPECIFIED = object()  # the apiserver's unspecifiedKeyValue{}: an item without its map key


class ListTypes:
    """The list-type checks of one structural schema, prepared once (only subtrees with set or map lists
    are visited)."""

    __slots__ = ("_schema", "_marked")

    def __init__(self, schema: Structural | None) -> None:
        self._schema = schema
        self._marked: set[int] = set()
        if schema is not None:
            self._mark(schema)

    def _mark(self, node: Structural) -> bool:
        found = node.x_list_type in ("set", "map")
        for sub in node.properties.values():
            found = self._mark(sub) or found
        if node.items is not None:
            found = self._mark(node.items) or found
        ap = node.additional_properties_schema
        if ap is not None:
            found = self._mark(ap) or found
        if found:
            self._marked.add(id(node))
        return found

    @property
    def empty(self) -> bool:
        """Whether the schema has no set or map list at all."""
        return not self._marked

    def validate(self, obj: Any) -> list[FieldError]:
        """ValidateListSetsAndMaps(nil, schema, obj): the duplicates in the object's set and map lists."""
        errs: list[FieldError] = []
        if self._marked and isinstance(obj, dict):
            self._object(obj, self._schema, None, errs)
        return errs

    def _object(self, obj: dict, schema: Structural, path: Path | None, errs: list[FieldError]) -> None:
        ap = schema.additional_properties_schema
        if ap is not None and id(ap) in self._marked:
            for key, value in obj.items():
                self._value(value, ap, Path((key,), "k") if path is None else path.key(key), errs)
        if schema.properties:
            for key, value in obj.items():
                sub = schema.properties.get(key)
                if sub is not None and id(sub) in self._marked:
                    self._value(value, sub, Path.root(key) if path is None else path.child(key), errs)

    def _value(self, value: Any, schema: Structural, path: Path, errs: list[FieldError]) -> None:
        if isinstance(value, dict):
            self._object(value, schema, path, errs)
        elif isinstance(value, list):
            if schema.x_list_type == "set":
                errs.extend(FieldError.duplicate(path.index(i), value[i]) for i in _non_unique(value))
            elif schema.x_list_type == "map":
                errs.extend(_validate_map_list(value, schema.x_list_map_keys or [], path))
            items = schema.items
            if items is not None and id(items) in self._marked:
                for i, item in enumerate(value):
                    self._value(item, items, path.index(i), errs)


def _identity(value: Any) -> Any:
    """What makes two decoded JSON values the same item of a set."""
    if isinstance(value, (dict, list)):
        return ("json", go_json(value))
    if value is _UNSPECIFIED:
        return value
    return (type(value), value)


def _non_unique(items: list) -> list[int]:
    """validateListSet: the index of each value's second appearance."""
    if len(items) <= 1:
        return []
    seen: dict[Any, int] = {}
    out = []
    for i, item in enumerate(items):
        key = _identity(item)
        times = seen.get(key, 0)
        if times == 1:
            out.append(i)
        seen[key] = times + 1
    return out


def _validate_map_list(items: list, keys: list[str], path: Path) -> list[FieldError]:
    """validateListMap: object items only; no two with the same key values."""
    for i, item in enumerate(items):
        if item is not None and not isinstance(item, dict):
            return [FieldError.invalid(path.index(i), item, "must be an object for an array of list-type map")]
    if len(items) <= 1:
        return []
    if len(keys) == 1:
        name = keys[0]
        values = [_UNSPECIFIED if item is None or name not in item else item[name] for item in items]
        return [FieldError.duplicate(path.index(i), {} if values[i] is _UNSPECIFIED else {name: values[i]})
                for i in _non_unique(values)]
    composite = [{} if item is None else {k: item[k] for k in keys if k in item} for item in items]
    return [FieldError.duplicate(path.index(i), composite[i]) for i in _non_unique(composite)]
