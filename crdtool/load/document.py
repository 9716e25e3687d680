"""A loaded document: its JSON-like value, and the source positions of its nodes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.model.path import Path


class InputError(Exception):
    """Input crdtool cannot read (exit code 2), with the place it is about."""

    def __init__(self, source: str, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: error: {self.message}"


@dataclass(slots=True)
class Document:
    """One object from an input.

    `data` is the object as the apiserver would decode it. `locate` maps a field path
    to the 1-based (line, column) of its node, or of the nearest ancestor that exists.
    `duplicate_keys` holds (line, key) pairs, lines counted from the document's start,
    as the apiserver's strict YAML decoding reports them.
    """

    source: str
    index: int
    data: Any
    text: str = ""
    locator: Any = None
    item: int | None = None
    duplicate_keys: list[tuple[int, str]] = field(default_factory=list)

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

    def locate(self, path: Path | tuple = ()) -> tuple[int, int] | None:
        """1-based (line, column) of the node at `path` (segments), or its nearest existing ancestor."""
        if self.locator is None:
            return None
        segments = path.segments if isinstance(path, Path) else tuple(path)
        if self.item is not None:
            segments = ("items", self.item, *segments)
        return self.locator(segments)

    def strict_duplicate_error(self) -> str | None:
        """go-yaml's strict-decoding text for the duplicate keys, or None."""
        if not self.duplicate_keys:
            return None
        lines = "\n".join(f'  line {line}: key "{key}" already set in map' for line, key in self.duplicate_keys)
        return "yaml: unmarshal errors:\n" + lines
