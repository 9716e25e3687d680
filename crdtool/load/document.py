"""A loaded document: its JSON-like value, and the source positions of its nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from crdtool.model.path import Path, Segment
from crdtool.model.record import Record

if TYPE_CHECKING:
    from yaml.nodes import Node

#: From a field path (JSON steps) to the 1-based (line, column) of its node, or of its nearest ancestor.
Locator = Callable[[tuple[Segment, ...]], tuple[int, int] | None]


class DuplicateKey(NamedTuple):
    """A mapping key given again. `line` is go-yaml's: the line of the value that would be set,
    counted from the document's start (its strict decoding names that); `position` is the
    repeated key's own 1-based (line, column) in the file, where a finding points. In a JSON
    document, `json_path` is the field path sigs.k8s.io/json's strict decoding names."""

    line: int
    key: str
    position: tuple[int, int]
    json_path: str | None = None


class Document(Record):
    """One object from an input.

    `data` is the object as the apiserver would decode it. `locate` maps a field path
    to the 1-based (line, column) of its node, or of the nearest ancestor that exists.
    `duplicate_keys` holds the keys given again, in go-yaml's order.
    """

    __slots__ = ("source", "index", "data", "text", "locator", "item", "duplicate_keys", "stream_nodes")

    source: str
    index: int
    data: Any
    text: str
    locator: Locator | None
    item: int | None
    duplicate_keys: list[DuplicateKey]
    #: The root nodes of every document of the text's stream (load.sources.StreamNodes), for the edits
    #: --write makes; None for JSON and for documents made by crdtool (the edit composes the text itself).
    stream_nodes: Callable[[], list[Node | None]] | None

    def __init__(self, source: str, index: int, data: Any, text: str = "", locator: Locator | None = None,
                 item: int | None = None, duplicate_keys: list[DuplicateKey] | None = None,
                 stream_nodes: Callable[[], list[Node | None]] | None = None) -> None:
        self.source = source
        self.index = index
        self.data = data
        self.text = text
        self.locator = locator
        self.item = item
        self.duplicate_keys = [] if duplicate_keys is None else duplicate_keys
        self.stream_nodes = stream_nodes

    @property
    def kind(self) -> str | None:
        return self.data.get("kind") if isinstance(self.data, dict) else None

    @property
    def api_version(self) -> str | None:
        return self.data.get("apiVersion") if isinstance(self.data, dict) else None

    @property
    def name(self) -> str | None:
        meta = self.data.get("metadata") if isinstance(self.data, dict) else None
        return meta.get("name") if isinstance(meta, dict) else None

    def content_digest(self) -> bytes | None:
        """The digest of the text the document was read from, which the persistent cache keys its
        entries by (crdtool.cache.text_digest); None for a document made in memory, which has none."""
        if not self.text:
            return None
        from crdtool.cache import text_digest

        return text_digest(self.text)

    def locate(self, path: Path | tuple[Segment, ...] = ()) -> tuple[int, int] | None:
        """1-based (line, column) of the node at `path` (segments), or its nearest existing ancestor."""
        if self.locator is None:
            return None
        segments = path.segments if isinstance(path, Path) else tuple(path)
        if self.item is not None:
            segments = ("items", self.item, *segments)
        return self.locator(segments)

    def strict_duplicate_errors(self) -> list[str]:
        """The apiserver's strict-decoding errors for the duplicate keys, as it reads the document's
        format: go-yaml's one error for YAML; for JSON, sigs.k8s.io/json's one per field path
        (each path once, at most 100, as it keeps them)."""
        if not self.duplicate_keys:
            return []
        if self.duplicate_keys[0].json_path is not None:
            return list(dict.fromkeys(f'duplicate field "{d.json_path}"' for d in self.duplicate_keys))[:100]
        lines = "\n".join(f'  line {d.line}: key "{d.key}" already set in map' for d in self.duplicate_keys)
        return ["yaml: unmarshal errors:\n" + lines]

    def strict_position(self, message: str) -> tuple[int, int] | None:
        """Where a strict-decoding finding about this document's duplicate keys points: the
        repeated key (the first of them for go-yaml's one error); None for any other message."""
        if message not in self.strict_duplicate_errors():
            return None
        for d in self.duplicate_keys:
            if d.json_path is None or message == f'duplicate field "{d.json_path}"':
                return d.position
        return None
