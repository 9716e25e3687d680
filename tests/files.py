"""The input files the tests hand to crdtool's commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_file(folder: Path, name: str, *docs: str | dict[str, Any]) -> str:
    """One writer of the CLI tests' input files (each module had its own): docs joined by `---`, a dict as JSON."""
    path = folder / name
    path.write_text("\n---\n".join(d if isinstance(d, str) else json.dumps(d) for d in docs), encoding="utf-8")
    return str(path)
