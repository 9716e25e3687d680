"""Diffs: a file's change as `diff -u` and `git diff` show it, and (for `convert`) an object before
and after a change, as YAML with the input's key order."""

from __future__ import annotations

import difflib
import os
import re
from typing import Any

import yaml

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def to_yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=False, allow_unicode=True, width=10_000)


def unified(before: Any, after: Any, label: str) -> list[str]:
    """The diff lines of an object re-serialized (empty when nothing changed)."""
    a, b = to_yaml(before).splitlines(), to_yaml(after).splitlines()
    return list(difflib.unified_diff(a, b, f"{label} (input)", f"{label} (result)", lineterm=""))


def file_diff(path: str, old: str, new: str) -> list[str]:
    """The lines of `diff -u` between two texts of a file (empty when they are the same): the file's
    own line numbers, `--- a/PATH` and `+++ b/PATH` as git names them, and `\\ No newline at end of
    file` after a last line without one. Lines come without their LF; a CRLF line keeps its CR, as
    in `diff -u`'s output (which `patch` and `git apply` then apply to the file as it is)."""
    if old == new:
        return []
    name = (path if os.path.isabs(path) else os.path.normpath(path)).lstrip("/")
    a, b = _LINE.findall(old), _LINE.findall(new)
    out = [f"--- a/{name}", f"+++ b/{name}"]
    for line in list(difflib.unified_diff(a, b, lineterm="", n=3))[2:]:
        if line.startswith("@@"):
            out.append(line)
        elif line.endswith("\n"):
            out.append(line[:-1])
        else:
            out.extend((line, "\\ No newline at end of file"))
    return out


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
