"""Ratcheting: an update keeps a field's errors only when the field changed.

The apiserver validates an update like a create, but each value whose old value correlates
(apiserver's `common.CorrelatedObject`, as driven by apiextensions' ratcheting validator) is checked by
a child that drops its errors when the value is unchanged (`CachedDeepEqual`, the errors become
warnings). A property correlates with the old object's same key; a list item only in an
x-kubernetes-list-type=map list, with the old item of the same x-kubernetes-list-map-keys values (other
lists are compared as a whole); anyOf/oneOf/allOf/not branches correlate nothing. A map is unchanged
when every key has a schema (property or additionalProperties) and an unchanged old value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crdtool.model.gofmt import go_float_f, go_quote
from crdtool.model.jsonvalue import deep_equal

if TYPE_CHECKING:
    from crdtool.schema.values.nodes import Loc, Node


def ratchet(node: Node, value: Any, loc: Loc, errs: list, old: Any) -> int:
    """Validate a correlated child; drop its errors when it is unchanged (they become warnings)."""
    tmp: list = []
    count = node.validate(value, loc, tmp, old)
    if tmp and not unchanged(node, value, old):
        errs.extend(tmp)
    return count


class Correlation:
    """correlateOldValueForChildAtNewIndex: only x-kubernetes-list-type=map lists correlate their items."""

    __slots__ = ("node", "old", "keyed", "pending")

    def __init__(self, node: Node, old: list) -> None:
        self.node, self.old = node, old
        self.keyed: dict = {}
        self.pending = 0

    def __call__(self, element: Any) -> Any:
        """The old item of a new map-list element, or None (not a map list, or no such old item)."""
        if self.node.list_type != "map":
            return None
        return self._by_key(element)

    def _by_key(self, element: Any) -> Any:
        """MapList.Get: the first old item with the element's x-kubernetes-list-map-keys values."""
        node = self.node
        if not node.is_array or not node.map_keys or not self.old:
            return None
        key = _map_list_key(element, node.map_keys)
        if key is None:
            return None
        if key in self.keyed:
            return self.keyed[key]
        while self.pending < len(self.old):
            item = self.old[self.pending]
            self.pending += 1
            item_key = _map_list_key(item, node.map_keys)
            if item_key is None:
                continue
            self.keyed.setdefault(item_key, item)
            if item_key == key:
                return item
        return None


def _map_list_key(element: Any, keys: list[str]) -> Any:
    """The composite key of a map-list element, or None when a key is missing or not a scalar."""
    if type(element) is not dict:
        return None
    parts = []
    for k in keys:
        if k not in element:
            return None
        x = element[k]
        t = type(x)
        if t not in (bool, int, float, str):
            return None
        if len(keys) == 1:
            return (t, x)
        if t is bool:
            parts.append("true" if x else "false")
        elif t is float:
            parts.append(go_float_f(x, 6))
        elif t is int:
            parts.append(str(x))
        else:
            parts.append(go_quote(x))
    return "\x00" + "\x00".join(parts)


def unchanged(node: Node, new: Any, old: Any) -> bool:
    """CorrelatedObject.CachedDeepEqual: reflect.DeepEqual, judged child by child where children correlate."""
    if new is None or old is None:
        return new is None and old is None
    tn, to = type(new), type(old)
    if (tn is list) != (to is list) or (tn is dict) != (to is dict):
        return False
    if tn is list:
        if len(new) != len(old):
            return False
        items = node.item_node()
        if items is None or node.list_type != "map":  # the list is one unit
            return deep_equal(new, old)
        correlate = Correlation(node, old)
        for item in new:
            old_item = correlate(item)
            if old_item is None or not unchanged(items, item, old_item):
                return False
        return True
    if tn is dict:
        if len(new) != len(old):
            return False
        for key, value in new.items():
            if key not in old:
                return False
            child = node.property_node(key) if key in node.properties else node.additional_node()
            if child is None or not unchanged(child, value, old[key]):
                return False
        return True
    return deep_equal(new, old)
