"""Diffs: a file's change as `diff -u` and `git diff` show it, and (for `convert`) an object before
and after a change, as YAML with the input's key order."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from typing import Any, Literal

import yaml

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def to_yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=False, allow_unicode=True, width=10_000)


def unified(before: Any, after: Any, label: str) -> list[str]:
    """The diff lines of an object re-serialized (empty when nothing changed)."""
    a, b = to_yaml(before).splitlines(), to_yaml(after).splitlines()
    return list(difflib.unified_diff(a, b, f"{label} (input)", f"{label} (result)", lineterm=""))


def file_diff(path: str, old: str, new: str, changes: Sequence[tuple[int, int, int, int]] | None = None) -> list[str]:
    """The lines of `diff -u` between two texts of a file (empty when they are the same): the file's
    own line numbers, `--- a/PATH` and `+++ b/PATH` as git names them, and `\\ No newline at end of
    file` after a last line without one. Lines come without their LF; a CRLF line keeps its CR, as
    in `diff -u`'s output (which `patch` and `git apply` then apply to the file as it is).

    `changes`, when the caller knows them, are the stretches (old start, old end, new start, new end)
    outside which the texts are the same: only their lines are compared (difflib over a whole large
    file is quadratic), and each changed stretch is aligned as difflib aligns it."""
    if old == new:
        return []
    name = (path if os.path.isabs(path) else os.path.normpath(path)).lstrip("/")
    a, b = _LINE.findall(old), _LINE.findall(new)
    matcher = (difflib.SequenceMatcher(None, a, b) if changes is None
               else _Aligned(_opcodes(a, b, _line_stretches(old, new, changes))))
    out = [f"--- a/{name}", f"+++ b/{name}"]
    for group in matcher.get_grouped_opcodes(3):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                _add_lines(out, " ", a[i1:i2])
                continue
            if tag in ("replace", "delete"):
                _add_lines(out, "-", a[i1:i2])
            if tag in ("replace", "insert"):
                _add_lines(out, "+", b[j1:j2])
    return out


def _add_lines(out: list[str], mark: str, lines: list[str]) -> None:
    for line in lines:
        if line.endswith("\n"):
            out.append(mark + line[:-1])
        else:
            out.extend((mark + line, "\\ No newline at end of file"))


def _range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (`3`, `3,4`, or `2,0` for an empty one after line 2)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]


class _Aligned(difflib.SequenceMatcher[str]):
    """difflib's hunk grouping over opcodes already known. The matcher's own state is not made
    (`get_grouped_opcodes` reads only `get_opcodes`): indexing every line of a large file would
    cost more than the diff."""

    def __init__(self, opcodes: list[Opcode]) -> None:  # no super().__init__(): see above
        self._known = opcodes

    def get_opcodes(self) -> list[Opcode]:
        return list(self._known)


def _line_stretches(old: str, new: str, changes: Sequence[tuple[int, int, int, int]]
                    ) -> list[tuple[int, int, int, int]]:
    """The changed stretches as whole lines, (first old line, end, first new line, end), merged where
    they touch. A stretch begins at its line's start (the texts before it are the same up to the
    stretch before) and ends where both texts begin a line after it (or end)."""
    out: list[tuple[int, int, int, int]] = []
    old_lines, new_lines = _LineCounter(old), _LineCounter(new)
    last_end = -1
    for start, end, new_start, new_end in changes:
        head = old.rfind("\n", 0, start) + 1
        if not (_line_boundary(old, end) and _line_boundary(new, new_end)):
            stop = old.find("\n", end)
            tail = (len(old) if stop < 0 else stop + 1) - end
            end, new_end = end + tail, new_end + tail
        if out and head <= last_end:
            first, _, new_first, _ = out.pop()
        else:
            first, new_first = old_lines.before(head), new_lines.before(new_start - (start - head))
        out.append((first, old_lines.before(end), new_first, new_lines.before(new_end)))
        last_end = end
    return out


def _line_boundary(text: str, index: int) -> bool:
    return index in (0, len(text)) or text[index - 1] == "\n"


class _LineCounter:
    """Lines before an offset of a text (a last line without a line break counts at the text's end),
    counted from the offset asked before: offsets asked in order cost one pass over the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.lines = 0

    def before(self, index: int) -> int:
        self.lines += self.text.count("\n", self.at, index)
        self.at = index
        partial = index == len(self.text) and index > 0 and self.text[-1] != "\n"
        return self.lines + partial


def _opcodes(a: list[str], b: list[str], stretches: list[tuple[int, int, int, int]]) -> list[Opcode]:
    """difflib's opcodes for the whole texts: equal outside the stretches, difflib's own within each."""
    ops: list[Opcode] = []

    def add(tag: Literal["replace", "delete", "insert", "equal"], i1: int, i2: int, j1: int, j2: int) -> None:
        if i1 == i2 and j1 == j2:
            return
        if tag == "equal" and ops and ops[-1][0] == "equal":
            i1, j1 = ops.pop()[1::2]
        ops.append((tag, i1, i2, j1, j2))

    i = j = 0
    for a1, a2, b1, b2 in stretches:
        add("equal", i, a1, j, b1)
        if a1 == a2 or b1 == b2:  # lines only added (or only removed): what difflib answers, without it
            add("insert" if a1 == a2 else "delete", a1, a2, b1, b2)
        else:
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a[a1:a2], b[b1:b2]).get_opcodes():
                add(tag, a1 + i1, a1 + i2, b1 + j1, b1 + j2)
        i, j = a2, b2
    add("equal", i, len(a), j, len(b))
    return ops


def print_diff(console, lines: list[str]) -> None:
    """Diff lines colored as `git diff` colors them; without color, exactly as they are."""
    from rich.markup import escape

    if console.color_system is None:
        console.file.write("".join(line + "\n" for line in lines))
        return
    for i, line in enumerate(lines):
        style = ("bold" if i < 2 and line.startswith(("---", "+++")) else "cyan" if line.startswith("@@")
                 else "green" if line.startswith("+") else "red" if line.startswith("-") else "")
        console.print(f"[{style}]{escape(line)}[/]" if style else escape(line), highlight=False, soft_wrap=True,
                      emoji=False)
