"""Field paths rendered exactly as apimachinery's `field.Path.String()` renders them.

A path is kept as structured segments so that a finding can be traced back to the
node of the source document it is about (for line and column), while `str(path)`
gives the apiserver's text: `spec.versions[0].schema.openAPIV3Schema.properties[spec]`.
"""

from __future__ import annotations

from typing import TypeAlias

Segment = str | int


class Path:
    """A field path, never changed once made.

    `segments` holds the JSON steps (str keys, int indices) of the document; `kinds`
    says how each is rendered: "f" a field (`.name`), "i" an index (`[0]`), "k" a
    map key (`[name]`). Children are cheap to make: paths share nothing mutable, and a
    plain slotted class keeps construction fast (the schema walks make millions).
    """

    __slots__ = ("segments", "kinds")

    def __init__(self, segments: tuple[Segment, ...] = (), kinds: str = "") -> None:
        self.segments = segments
        self.kinds = kinds

    @classmethod
    def root(cls, *names: str) -> Path:
        """A path of plain fields, e.g. `Path.root("spec", "versions")`."""
        return cls(names, "f" * len(names))

    def child(self, name: str, *more: str) -> Path:
        """The field `name` (and further fields) under this path."""
        if not more:
            return Path(self.segments + (name,), self.kinds + "f")
        names = (name, *more)
        return Path(self.segments + names, self.kinds + "f" * len(names))

    def index(self, i: int) -> Path:
        """The list item `i` under this path."""
        return Path(self.segments + (i,), self.kinds + "i")

    def key(self, k: str) -> Path:
        """The map entry `k` under this path (rendered `[k]`)."""
        return Path(self.segments + (k,), self.kinds + "k")

    def __str__(self) -> str:
        out: list[str] = []
        for seg, kind in zip(self.segments, self.kinds, strict=True):
            if kind == "f":
                if out:
                    out.append(".")
                out.append(str(seg))
            else:
                out.append(f"[{seg}]")
        return "".join(out)

    def __repr__(self) -> str:
        return f"Path({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Path) and self.segments == other.segments and self.kinds == other.kinds

    def __hash__(self) -> int:
        return hash((self.segments, self.kinds))

    def __truediv__(self, name: str) -> Path:
        return self.child(name)


def child_of(path: Path | None, name: str) -> Path:
    """The field `name` under `path`, where None is the root (the apiserver's nil *field.Path)."""
    return Path.root(name) if path is None else path.child(name)


def key_of(path: Path | None, key: str) -> Path:
    """The map entry `key` under `path` (None: the root)."""
    return Path((key,), "k") if path is None else path.key(key)


def index_of(path: Path | None, i: int) -> Path:
    """The list item `i` under `path` (None: the root)."""
    return Path((i,), "i") if path is None else path.index(i)


#: A path not made yet: a Path, or (the parent's trail, "f" | "i" | "k", the field, index or map key). A walk
#: over every node of a schema passes trails, cheap to extend, and makes the Path of the few nodes with a finding.
Trail: TypeAlias = "Path | tuple[Trail, str, Segment]"


def trail_path(trail: Trail) -> Path:
    """The Path of a trail."""
    segments: list[Segment] = []
    kinds: list[str] = []
    while isinstance(trail, tuple):
        trail, kind, segment = trail
        segments.append(segment)
        kinds.append(kind)
    if not segments:
        return trail
    return Path(trail.segments + tuple(reversed(segments)), trail.kinds + "".join(reversed(kinds)))
