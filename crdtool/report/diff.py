"""A unified diff of an object before and after a change, as YAML with the input's key order."""

from __future__ import annotations

import difflib
from typing import Any

import yaml


def to_yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=False, allow_unicode=True, width=10_000)


def unified(before: Any, after: Any, label: str) -> list[str]:
    """The diff lines (empty when nothing changed)."""
    a, b = to_yaml(before).splitlines(), to_yaml(after).splitlines()
    return list(difflib.unified_diff(a, b, f"{label} (input)", f"{label} (result)", lineterm=""))


def print_diff(console, lines: list[str]) -> None:
    """Diff lines colored as `git diff` colors them."""
    from rich.markup import escape

    for line in lines:
        style = ("bold" if line.startswith(("---", "+++")) else "cyan" if line.startswith("@@")
                 else "green" if line.startswith("+") else "red" if line.startswith("-") else "")
        console.print(f"[{style}]{escape(line)}[/]" if style else escape(line), highlight=False, soft_wrap=True)
