"""A YAML stream's documents as stretches of its text, cut at its `---` lines: `--write` reads back
only the documents it changed (load.edit), each run of them from its own stretch of the new text,
rather than the whole file (a large file where a few documents lose a field took 1.6 s).

A line `---` (followed by a blank or the line's end) always opens a document, whatever came before
it; with no directive (`%`), no document end (`...`) and no line break that `^` does not see, the
documents between two such lines read alone as they read in the stream: anchors, tags and errors are
a document's own. Where any of that is uncertain there are no stretches, and the whole text is read.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence, Set
from typing import Any

from yaml.nodes import Node

from crdtool.load.yamlreader import YAMLInputError, compose_documents, construct

__all__ = ["Stretches", "runs"]

#: A `---` line (after the line break before it; the text's first line is looked at alone).
_MARKER = re.compile(r"\n---(?=[ \t\r\n]|\Z)")
#: What the cut cannot see: a directive or a document end (a document without `---` may follow it) ...
_DIRECTIVE_OR_END = re.compile(r"\n(?:%|\.\.\.(?=[ \t\r\n]|\Z))")
#: ... and line breaks other than LF and CRLF, after which a `---` would open a document unseen.
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029", "\ufeff")
_LONE_CR = re.compile(r"\r(?!\n)")


def _cuts(text: str) -> list[int] | None:
    """0, where each `---` line starts, and the text's end; None where a cut may not be a document's edge.
    (Patterns anchored on the line break: scanning 10 MB for `^` in multi-line mode takes ten times longer.)"""
    head = "\n" + text[:4]
    if (_DIRECTIVE_OR_END.match(head) or _DIRECTIVE_OR_END.search(text) or any(c in text for c in _OTHER_BREAKS)
            or ("\r" in text and _LONE_CR.search(text))):
        return None
    cuts = [0, 0] if _MARKER.match(head) else [0]
    cuts.extend(m.start() + 1 for m in _MARKER.finditer(text))
    cuts.append(len(text))
    return cuts


class Stretches:
    """Where each document of a text lies: document i is [cuts[i + first], cuts[i + first + 1])
    (`first` is 1 when only comments and blank lines come before the first `---`)."""

    def __init__(self, cuts: list[int], first: int) -> None:
        self.cuts = cuts
        self.first = first

    @classmethod
    def of(cls, text: str, nodes: Sequence[Node | None]) -> Stretches | None:
        """The documents' stretches, checked against their nodes (each lies within its own); None when
        they cannot be told apart by the `---` lines."""
        cuts = _cuts(text)
        if cuts is None:
            return None
        first = len(cuts) - 1 - len(nodes)
        if first not in (0, 1):
            return None
        for i, node in enumerate(nodes):
            low, high = cuts[i + first], cuts[i + first + 1]
            if node is None or not (low <= node.start_mark.index <= high and node.end_mark.index <= high):
                return None
        return cls(cuts, first)

    def read_back(self, new: str, changes: Sequence[tuple[int, int, int, int]],
                  wanted: set[int], known: Set[int]) -> dict[int, Any] | None:
        """The values, in the new text, of the documents `wanted` and of every document a change
        touched but those `known` (to read as asked), each run of neighbouring documents read from
        its own stretch; None when the new text's `---` lines are not where the changes (old start,
        old end, new start, new end, in order) moved the old ones, or when a stretch does not read
        as its documents: the whole text must be read."""
        documents = set(wanted)
        for _, end, _, _ in changes:
            stretch = max(bisect_left(self.cuts, end) - 1, 0)  # a line put before a `---` is the document above's
            if stretch < self.first:
                return None
            if stretch - self.first not in known:
                documents.add(stretch - self.first)
        if not documents:
            return {}
        new_cuts = self._moved(changes, len(new))
        if new_cuts is None or _cuts(new) != new_cuts:
            return None
        spans = list(runs(sorted(documents)))
        if sum(new_cuts[last + self.first + 1] - new_cuts[first + self.first] for first, last in spans) > len(new) // 2:
            return None  # most of the text: read it whole, in one go
        values: dict[int, Any] = {}
        for first, last in spans:
            low, high = new_cuts[first + self.first], new_cuts[last + self.first + 1]
            text = new[low:high]
            merge_keys = "<<" in text  # else no mapping is searched for a merge key, as in the first reading
            try:
                nodes = compose_documents(text)
            except YAMLInputError:
                return None
            if len(nodes) != last - first + 1:
                return None
            for i, node in enumerate(nodes, first):
                if node is None:
                    return None
                values[i] = construct(node, [], merge_keys=merge_keys)
        return values

    def _moved(self, changes: Sequence[tuple[int, int, int, int]], new_length: int) -> list[int] | None:
        """The cuts where the changes move them; None when a change reaches into a `---` line."""
        moved = [0]
        shift = 0
        pending = iter(changes)
        change = next(pending, None)
        for cut in self.cuts[1:-1]:
            while change is not None and change[1] <= cut:
                shift += (change[3] - change[2]) - (change[1] - change[0])
                change = next(pending, None)
            if change is not None and change[0] <= cut < change[1]:
                return None
            moved.append(cut + shift)
        moved.append(new_length)
        return moved


def runs(indexes: list[int]) -> Iterator[tuple[int, int]]:
    """Sorted indexes grouped into runs of consecutive ones, as (first, last)."""
    first = prev = None
    for i in indexes:
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if first is not None:
            yield first, prev  # type: ignore[misc]
        first = prev = i
    if first is not None:
        yield first, prev  # type: ignore[misc]
