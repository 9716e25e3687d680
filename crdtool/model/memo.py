"""Values remembered by the identity of the object they were made from.

Schema nodes and compiled programs are neither hashable by value nor cheap to compare, and the same
object is asked about again and again: every object of a kind walks the same schema nodes. An entry keeps
its object alive, so that no other object can take the object's id while the entry lasts.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, TypeVar

__all__ = ["IdentityMemo"]

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """Values by an object's identity and an optional further part of the key (`is_resource_root`, say).
    With `limit`, the memo starts afresh once it holds that many entries (a long run meets many schemas)."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int | None = None) -> None:
        self._entries: dict[tuple[int, Hashable], tuple[object, V]] = {}
        self._limit = limit

    def get(self, obj: object, part: Hashable = None, default: Any = None) -> V | Any:
        """The value remembered for `obj` (and `part`), else `default`."""
        entry = self._entries.get((id(obj), part))
        return entry[1] if entry is not None and entry[0] is obj else default

    def put(self, obj: object, value: V, part: Hashable = None) -> V:
        """Remember `value` for `obj` (and `part`); returns it."""
        if self._limit is not None and len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[(id(obj), part)] = (obj, value)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
