"""The real documents that are mutated: the fixtures, and the CRDs and objects of ../shared/corpus.

Documents are found by what they are (a CRD, or an object of a kind some CRD defines), and an
object is paired with the CRD of its group and kind: the one in its own folder if there is one
(the fixtures define CronTab several times), else the first by path.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostile import load_documents

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
SHARED_CORPUS = REPO.parent / "shared" / "corpus"
EXTENSIONS = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Place:
    """One document: its file and its position among the file's mappings."""

    path: str
    index: int


@dataclass
class Inventory:
    """The CRDs and the objects of some folders, and which CRD each object belongs to."""

    crds: list[Place] = field(default_factory=list)
    objects: list[Place] = field(default_factory=list)
    crd_files: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    kind_of: dict[Place, tuple[str, str]] = field(default_factory=dict)
    objects_of: dict[str, list[Place]] = field(default_factory=dict)

    def crd_for(self, place: Place) -> str:
        """The CRD file an object is validated against."""
        files = self.crd_files[self.kind_of[place]]
        same_folder = [f for f in files if Path(f).parent == Path(place.path).parent]
        return (same_folder or files)[0]


def _files(roots: Iterable[Path]) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*") if p.suffix in EXTENSIONS and p.is_file())


def _crd_key(doc: dict) -> tuple[str, str] | None:
    if doc.get("kind") != "CustomResourceDefinition" or not str(doc.get("apiVersion", "")).startswith(
            "apiextensions.k8s.io/"):
        return None
    spec = doc.get("spec") or {}
    names = spec.get("names") or {}
    return str(spec.get("group")), str(names.get("kind"))


def _object_key(doc: dict) -> tuple[str, str] | None:
    api_version, kind = doc.get("apiVersion"), doc.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str) or "/" not in api_version:
        return None
    return api_version.rpartition("/")[0], kind


def scan(roots: Iterable[Path]) -> Inventory:
    """Every CRD and every object of a CRD-defined kind under the roots (unreadable files are passed over)."""
    inventory = Inventory()
    candidates: list[tuple[Place, tuple[str, str]]] = []
    for path in _files(roots):
        try:
            docs = load_documents(str(path))
        except Exception:  # a file the harness cannot read is simply not used
            continue
        for index, doc in enumerate(docs):
            place = Place(str(path), index)
            key = _crd_key(doc)
            if key is not None:
                inventory.crds.append(place)
                inventory.crd_files.setdefault(key, []).append(str(path))
                continue
            key = _object_key(doc)
            if key is not None:
                candidates.append((place, key))
    for place, key in candidates:
        if key in inventory.crd_files:
            inventory.objects.append(place)
            inventory.kind_of[place] = key
            inventory.objects_of.setdefault(inventory.crd_for(place), []).append(place)
    return inventory


@functools.lru_cache(maxsize=128)
def _texts(path: str) -> tuple[str, ...]:
    """A file's mappings as JSON text: kept for the next mutation of the same file at little memory."""
    return tuple(json.dumps(doc, default=str) for doc in load_documents(path))


def document(place: Place) -> Any:
    """A fresh copy of one document, JSON values only (YAML dates and such are strings here)."""
    return json.loads(_texts(place.path)[place.index])
