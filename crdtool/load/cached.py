"""CRD files read through the persistent cache (crdtool.cache), so that a run against a folder of
CRDs reads only what the kinds of its inputs need.

A YAML file's documents are stored as the reader gives them, keyed by a hash of its text
(unpickling them is some 25 times faster than the C YAML loader). A file is also known by its stamp,
as git's index and mypy's cache know files: its identity (path, device, inode), size, modification
and change times, with its text's hash and each document's head (index, kind, apiVersion, name). A
file whose stamp is unchanged is neither read nor hashed: its documents are StoredDocuments, whose
values are unpickled, and whose text is read, when first asked. A CRD whose kind no input uses is
then registered from its cached verdict alone (engine.crdcache), its file never opened.

A stamp is stored only for a file last changed some seconds before it was taken, and taken before
the text it stands for was read: a later change, even one that keeps the size and sets the
modification time back, sets the change time, which the kernel alone sets. On Windows, where
Python's change time is the creation time, no stamp is stored: files are read and hashed. Positions
are not stored: they come, as for any document, from composing the file's text again, and only
when a finding needs one.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from crdtool.cache import text_digest
from crdtool.errors import InputError
from crdtool.load.document import Document, DuplicateKey, Locator
from crdtool.load.sources import SourceParts, StreamNodes, read_source, read_text

if TYPE_CHECKING:
    from crdtool.cache import Cache

__all__ = ["CachedFiles", "StoredDocument", "cached_reader"]

_NAMESPACE = "documents"
_STAMPS = "file-stamps"

#: How long before its stamp is taken a file must have last changed for the stamp to be stored: a
#: file system's clock ticks coarsely (a few milliseconds; seconds on some), and a change within the
#: same tick as the stamp's taking would leave its times as they were.
SETTLED_NS = 2_000_000_000

#: Whether a file's change time tells every change (POSIX; on Windows it is the creation time).
STAMPS_TELL_CHANGES = os.name != "nt"

#: A document's head: (index in the stream, item of a List, duplicate keys, kind, apiVersion, name).
Head = tuple[int, "int | None", list[DuplicateKey], Any, Any, Any]


class _Stamp(NamedTuple):
    """A file as last read: what its stat said before the reading, its text's hash, its documents' heads."""

    size: int
    mtime_ns: int
    ctime_ns: int
    digest: bytes
    heads: list[Head]


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
        #: Each file's stat, taken before its text is read (here or by a worker): what its stamp records.
        self._stats: dict[str, os.stat_result] = {}

    def read(self, path: str) -> list[Document]:
        """The file's documents: known by its stamp, else from the cache by its text's hash, else
        read (and stored)."""
        if path == "-":
            return read_source(path)
        docs, text = self._known(path)
        if docs is None:
            docs = read_source(path, text)
            if text is not None and not _is_json(text):  # JSON: positions come another way
                self._keep(path, text, docs)
        return docs

    def documents(self, path: str) -> list[Document] | None:
        """The file's documents when the cache holds them for its current text; None: read it
        (stdin, JSON, a file the cache does not hold)."""
        if path == "-" or not self.store.enabled:
            return None
        return self._known(path)[0]

    def learn(self, parts: SourceParts, docs: list[Document]) -> None:
        """A YAML file read elsewhere, stored under its text as read there."""
        if self.store.enabled and parts.display != "<stdin>" and not _is_json(parts.text):
            self._keep(parts.display, parts.text, docs)

    def _known(self, path: str) -> tuple[list[Document] | None, str | None]:
        """The file's documents when the cache holds them (by its stamp, unread; else by its text's
        hash), and its text when it was read (None when known by its stamp)."""
        known = self._by_stamp(path)
        if known is not None:
            return known, None
        text = read_text(path)
        if _is_json(text):
            return None, text
        digest = text_digest(text)
        docs = self._stored(path, text, digest)
        if docs is not None:
            self._stamp(path, digest, docs)
        return docs, text

    def _keep(self, path: str, text: str, docs: list[Document]) -> None:
        """Store the documents of a YAML file just read, under its text, and its stamp."""
        digest = text_digest(text)
        self.store.put(_NAMESPACE, digest, _entries(docs))
        self._stamp(path, digest, docs)

    def _by_stamp(self, path: str) -> list[Document] | None:
        """The file's documents, unread, when its stamp is as stored; None otherwise (its stat is
        kept for the stamp that reading it will store)."""
        try:
            found = os.stat(path)
        except OSError:
            return None  # reading it says why
        if not stat.S_ISREG(found.st_mode):
            return None  # a FIFO named on the command line: read as always
        stamp = self.store.get(_STAMPS, _identity(path, found))
        if not isinstance(stamp, _Stamp) or stamp[:3] != (found.st_size, found.st_mtime_ns, found.st_ctime_ns):
            self._stats[path] = found
            return None
        file = StoredFile(self.store, path, stamp.digest)
        return [StoredDocument(file, position, *head) for position, head in enumerate(stamp.heads)]

    def _stamp(self, path: str, digest: bytes, docs: list[Document]) -> None:
        """Store the file's stamp, from the stat taken before its text was read, if the file had
        settled by then."""
        found = self._stats.pop(path, None)
        if found is None or not STAMPS_TELL_CHANGES:
            return
        if time.time_ns() - max(found.st_mtime_ns, found.st_ctime_ns) < SETTLED_NS:
            return  # changed moments ago: the next run stores it
        heads: list[Head] = [(d.index, d.item, d.duplicate_keys, d.kind, d.api_version, d.name) for d in docs]
        self.store.put(_STAMPS, _identity(path, found),
                       _Stamp(found.st_size, found.st_mtime_ns, found.st_ctime_ns, digest, heads))

    def _stored(self, path: str, text: str, key: bytes) -> list[Document] | None:
        stored = self.store.get(_NAMESPACE, key)
        if stored is None or not _well_formed(stored):
            return None
        nodes = StreamNodes(text)
        locators: dict[int, Any] = {}
        return [Document(path, index, data, text, locators.setdefault(index, nodes.locator(index)), item,
                         list(duplicates), nodes.all)
                for index, item, data, duplicates in stored]


class StoredFile:
    """A YAML file known by its stamp: its documents' values are unpickled, and its text read, when a
    document first needs them."""

    def __init__(self, store: Cache, path: str, digest: bytes) -> None:
        self.store = store
        self.path = path
        self.digest = digest
        self._locators: dict[int, Locator] = {}

    @cached_property
    def text(self) -> str:
        """The file's text, which must still be the one its stamp stands for."""
        text = read_text(self.path)
        if text_digest(text) != self.digest:
            raise InputError(self.path, "the file changed while crdtool was reading it; run crdtool again")
        return text

    @cached_property
    def values(self) -> list[Any]:
        """Each document's value, in order: from the cache, else (an entry removed or damaged since
        the stamp was stored) read from the text again and stored."""
        stored = self.store.get(_NAMESPACE, self.digest)
        if stored is not None and _well_formed(stored):
            return [data for _, _, data, _ in stored]
        docs = read_source(self.path, self.text)
        self.store.put(_NAMESPACE, self.digest, _entries(docs))
        return [d.data for d in docs]

    @cached_property
    def nodes(self) -> StreamNodes:
        return StreamNodes(self.text)

    def locator(self, index: int) -> Locator:
        """The locator of the stream's document `index` (one for all the items of a List)."""
        found = self._locators.get(index)
        if found is None:
            found = self._locators[index] = self.nodes.locator(index)
        return found


class StoredDocument(Document):
    """A document of a StoredFile. Its head (index, item, duplicate keys, kind, apiVersion, name) is
    known; `data`, `text`, `locator` and `stream_nodes` are filled from the file when first asked."""

    __slots__ = ("__file", "__position", "__head")

    def __init__(self, file: StoredFile, position: int, index: int, item: int | None,
                 duplicate_keys: list[DuplicateKey], kind: Any, api_version: Any, name: Any) -> None:
        # Document's own fields that are known; the others stay unset until asked (`__getattr__`).
        self.source = file.path
        self.index = index
        self.item = item
        self.duplicate_keys = list(duplicate_keys)
        self.__file = file
        self.__position = position
        self.__head: tuple[Any, Any, Any] | None = (kind, api_version, name)

    def __getattr__(self, name: str) -> Any:
        """A field not filled yet, filled from the file (called only for attributes not set)."""
        if name == "data":
            self.data = self.__file.values[self.__position]
            self.__head = None  # the value answers from now on
        elif name == "text":
            self.text = self.__file.text
        elif name == "locator":
            self.locator = self.__file.locator(self.index)
        elif name == "stream_nodes":
            self.stream_nodes = self.__file.nodes.all
        else:
            raise AttributeError(name)
        return object.__getattribute__(self, name)

    @classmethod
    def _remade(cls, **fields: Any) -> Document:
        """A changed copy (model.record.replace) is a Document: all its fields are given."""
        return Document(**fields)

    def content_digest(self) -> bytes | None:
        return self.__file.digest

    @property
    def kind(self) -> Any:
        head = self.__head
        return super().kind if head is None else head[0]

    @property
    def api_version(self) -> Any:
        head = self.__head
        return super().api_version if head is None else head[1]

    @property
    def name(self) -> Any:
        head = self.__head
        return super().name if head is None else head[2]


def _identity(path: str, found: os.stat_result) -> bytes:
    """A file's key among the stamps: its real path, device and inode."""
    return os.fsencode(os.path.realpath(path)) + f"\0{found.st_dev}:{found.st_ino}".encode()


def _is_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def _entries(docs: list[Document]) -> list[tuple[int, int | None, Any, list[DuplicateKey]]]:
    return [(d.index, d.item, d.data, d.duplicate_keys) for d in docs]


def _well_formed(stored: Any) -> bool:
    return isinstance(stored, list) and all(isinstance(entry, tuple) and len(entry) == 4 for entry in stored)
