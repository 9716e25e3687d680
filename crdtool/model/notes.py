"""crdtool's own notes: what it could not check, as distinct from the apiserver's findings."""

from __future__ import annotations

from crdtool.model.path import Path
from crdtool.model.record import FrozenRecord


class Note(FrozenRecord):
    """Something crdtool could not check, at a field of the document."""

    __slots__ = ("path", "message")

    path: Path
    message: str

    def __init__(self, path: Path, message: str) -> None:
        self.path = path
        self.message = message
