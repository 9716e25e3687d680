"""crdtool's own notes: what it could not check, as distinct from the apiserver's findings."""

from __future__ import annotations

from dataclasses import dataclass

from crdtool.model.path import Path


@dataclass(frozen=True, slots=True)
class Note:
    """Something crdtool could not check, at a field of the document."""

    path: Path
    message: str
