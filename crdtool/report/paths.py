"""File paths as CI annotations need them: relative to the repository's top.

GitHub attaches an annotation (and a code-scanning alert) only to a path relative to the repository
root; a user may well name inputs by absolute paths (`$PWD/crds`, a tool's temp checkout). The root
is `GITHUB_WORKSPACE` on GitHub's runners, else the working directory.
"""

from __future__ import annotations

import os


def repository_root() -> str:
    """Where CI paths are relative to: $GITHUB_WORKSPACE when set, else the working directory."""
    return os.path.realpath(os.environ.get("GITHUB_WORKSPACE") or os.getcwd())


def relative_to_root(source: str) -> str:
    """`source` relative to the repository root, with `/` separators when it lies inside it; as given
    otherwise (stdin, or a file outside the repository)."""
    if source == "<stdin>":
        return source
    root = repository_root()
    full = os.path.realpath(source)
    if full != root and not full.startswith(root.rstrip(os.sep) + os.sep):
        return source
    return os.path.relpath(full, root).replace(os.sep, "/")
