"""CRD files read through the persistent cache (crdtool.cache): a file's documents as the reader
gives them, keyed by a hash of its text, so that a run against a folder of CRDs need not parse the
YAML of CRDs whose kinds its inputs do not use (unpickling the values is some 25 times faster than
the C YAML loader). Positions are not stored: they come, as for any document, from composing the
file's text again, and only when a finding needs one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crdtool.cache import text_digest
from crdtool.load.document import Document, DuplicateKey
from crdtool.load.sources import SourceParts, StreamNodes, read_source, read_text

if TYPE_CHECKING:
    from crdtool.cache import Cache

__all__ = ["CachedFiles", "cached_reader"]

_NAMESPACE = "documents"


def cached_reader(store: Cache) -> Callable[[str], list[Document]]:
    """A `read_source` (path -> documents) that reads a YAML file's documents from `store` when it
    holds them for the file's exact text (JSON files and stdin are read as always)."""
    if not store.enabled:
        return read_source
    return CachedFiles(store).read


class CachedFiles:
    """The documents of YAML files in `store`: read here (`read`), or known without reading and
    learned from a file read by a worker process (`--jobs`: load.sources.KnownFiles)."""

    def __init__(self, store: Cache) -> None:
        self.store = store

    def read(self, path: str) -> list[Document]:
        """The file's documents: from the cache, else read and stored."""
        if path == "-":
            return read_source(path)
        text = read_text(path)
        if _is_json(text):  # JSON: positions come another way
            return read_source(path, text)
        key = text_digest(text)
        docs = self._stored(path, text, key)
        if docs is None:
            docs = read_source(path, text)
            self.store.put(_NAMESPACE, key, _entries(docs))
        return docs

    def documents(self, path: str) -> list[Document] | None:
        """The file's documents when the cache holds them for its current text; None: read it
        (stdin, JSON, a file the cache does not hold)."""
        if path == "-" or not self.store.enabled:
            return None
        text = read_text(path)
        return None if _is_json(text) else self._stored(path, text, text_digest(text))

    def learn(self, parts: SourceParts, docs: list[Document]) -> None:
        """A YAML file read elsewhere, stored under its text as read there."""
        if self.store.enabled and parts.display != "<stdin>" and not _is_json(parts.text):
            self.store.put(_NAMESPACE, text_digest(parts.text), _entries(docs))

    def _stored(self, path: str, text: str, key: bytes) -> list[Document] | None:
        stored = self.store.get(_NAMESPACE, key)
        if stored is None or not _well_formed(stored):
            return None
        nodes = StreamNodes(text)
        locators: dict[int, Any] = {}
        return [Document(path, index, data, text, locators.setdefault(index, nodes.locator(index)), item,
                         list(duplicates), nodes.all)
                for index, item, data, duplicates in stored]


def _is_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def _entries(docs: list[Document]) -> list[tuple[int, int | None, Any, list[DuplicateKey]]]:
    return [(d.index, d.item, d.data, d.duplicate_keys) for d in docs]


def _well_formed(stored: Any) -> bool:
    return isinstance(stored, list) and all(isinstance(entry, tuple) and len(entry) == 4 for entry in stored)
