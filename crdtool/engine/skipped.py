"""What a run did not check, and why: a green run must never hide that it passed documents over.

Every document a command leaves unchecked is recorded with its reason; the closing summary, the JSON
output and the CI formats count them by reason, and a run whose inputs held nothing the command
checks is an error unless the user asks for that (`--allow-empty`).
"""

from __future__ import annotations

from collections import Counter

from crdtool.load.document import Document
from crdtool.model.groupversion import group_of
from crdtool.model.record import FrozenRecord

#: reason -> (JSON key, how the summary names such documents: singular, plural).
REASONS: dict[str, tuple[str, str, str]] = {
    "built-in": ("builtIn", "built-in object not checked", "built-in objects not checked"),
    "skip-kinds": ("skipKinds", "object skipped by skip-kinds", "objects skipped by skip-kinds"),
    "unknown-kind": ("unknownKind", "object of a kind no CRD defines skipped",
                     "objects of kinds no CRD defines skipped"),
    "not-an-object": ("notAnObject", "document not a Kubernetes object", "documents not Kubernetes objects"),
    "not-a-crd": ("notACRD", "document not a CustomResourceDefinition", "documents not CustomResourceDefinitions"),
}


class Skipped(FrozenRecord):
    """One document passed over: where it is, what it is, and why (a key of REASONS)."""

    __slots__ = ("source", "index", "api_version", "kind", "reason", "detail")

    source: str
    index: int
    api_version: object
    kind: object
    reason: str
    detail: str

    def __init__(self, source: str, index: int, api_version: object, kind: object, reason: str, detail: str) -> None:
        self.source = source
        self.index = index
        self.api_version = api_version
        self.kind = kind
        self.reason = reason
        self.detail = detail

    def note(self) -> str:
        """The line `-v` prints for it."""
        if not self.kind:
            return f"{self.source}#{self.index}: skipped {self.detail}"
        return f"{self.source}#{self.index}: skipped {self.api_version}, Kind={self.kind}: {self.detail}"



class SkipKinds(FrozenRecord):
    """The settings' `skip-kinds`: kinds not to check (`Kind` or `Kind.group`), and the settings
    file naming them (said in each skipped document's reason)."""

    __slots__ = ("kinds", "source")

    kinds: tuple[str, ...]
    source: str | None

    def __init__(self, kinds: tuple[str, ...] = (), source: str | None = None) -> None:
        self.kinds = kinds
        self.source = source

    def skips(self, kind: object, api_version: object) -> bool:
        """Whether a document of this kind is not to be checked."""
        if not kind or not isinstance(kind, str):
            return False
        group = group_of(api_version)
        return kind in self.kinds or (bool(group) and f"{kind}.{group}" in self.kinds)

    def skipped(self, doc: Document) -> Skipped | None:
        """The record of `doc` when it is of a kind not to check, else None."""
        if not self.skips(doc.kind, doc.api_version):
            return None
        return Skipped(doc.source, doc.index, doc.api_version, doc.kind, "skip-kinds", f"skip-kinds in {self.source}")

def counts(skipped: list[Skipped]) -> dict[str, int]:
    """The JSON output's counts: reason's JSON key -> number of documents, in REASONS' order."""
    found = Counter(s.reason for s in skipped)
    return {REASONS[reason][0]: found[reason] for reason in REASONS if found[reason]}


def summary(skipped: list[Skipped]) -> str:
    """`2 built-in objects not checked, 1 document not a Kubernetes object` ('' when none)."""
    found = Counter(s.reason for s in skipped)
    return ", ".join(f"{found[r]} {REASONS[r][1] if found[r] == 1 else REASONS[r][2]}" for r in REASONS if found[r])


def nothing_checked(command: str, what: str, inputs: tuple[str, ...] | list[str], skipped: list[Skipped]) -> str:
    """The error of a run whose inputs held nothing `command` checks."""
    named = ", ".join("<stdin>" if p == "-" else p for p in inputs) or "no inputs"
    passed = summary(skipped)
    return (f"crdtool: error: nothing to {command}: no {what} in {named}" + (f" ({passed})" if passed else "")
            + "; pass --allow-empty to accept that")
