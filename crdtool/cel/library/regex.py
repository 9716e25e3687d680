"""Kubernetes' regex library: `find` and `findAll` with RE2 semantics (library/regex.go)."""

from __future__ import annotations

import re2
from cel_expr_python import cel

from crdtool.cel.library.functions import Library

__all__ = ["library"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False


def _compile(pattern: str):
    """regexp.Compile, failing with the library's `Illegal regex: <Go's error>` (Go's compiler is
    imported when a rule first compiles a pattern)."""
    from crdtool.model.goregexp import go_regexp_error

    error = go_regexp_error(pattern)
    if error is not None:
        raise ValueError(f"Illegal regex: {error}")
    return re2.compile(pattern, _OPTIONS)


def _find(text: str, pattern: str) -> str:
    m = _compile(pattern).search(text)
    return m.group(0) if m else ""


def _find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    found = [m.group(0) for m in _compile(pattern).finditer(text)]
    return found if limit < 0 else found[:limit]


def library(lib: Library) -> None:
    s, i = cel.Type.STRING, cel.Type.INT
    lib.member("find", "string_find_string", s, [s, s], _find)
    lib.member("findAll", "string_find_all_string", cel.Type.List(s), [s, s], _find_all)
    lib.member("findAll", "string_find_all_string_int", cel.Type.List(s), [s, s, i], _find_all)
