"""Kubernetes' semver library (library/semver.go, version 1): strict semantic versions, or normalized."""

from __future__ import annotations

import re
from functools import cache

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make

__all__ = ["library"]

SEMVER = "kubernetes.Semver"


@cache
def _strict() -> re.Pattern[str]:
    """A strict semantic version (compiled when a rule first parses one: every run with rules registers
    this library, few call it)."""
    return re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
                      r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
                      r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$")


def _normalize(text: str) -> str:
    """Version 1's normalization: an optional `v`, missing minor/patch as 0, leading zeros dropped."""
    text = text[1:] if text.startswith("v") else text
    core = re.match(r"^[0-9.]*", text).group(0)
    tail = text[len(core):]
    parts = core.split(".") if core else []
    if not 1 <= len(parts) <= 3 or any(not p.isdigit() for p in parts):
        return text
    parts = [str(int(p)) for p in parts] + ["0"] * (3 - len(parts))
    return ".".join(parts) + tail


def _parse(text: str, normalize: bool = False) -> tuple:
    if normalize:
        text = _normalize(text)
    m = _strict().match(text)
    if m is None:
        raise ValueError("No Major.Minor.Patch elements found" if "." not in text else
                         f"Invalid character(s) found in version {text!r}")
    major, minor, patch, pre, _build = m.groups()
    return int(major), int(minor), int(patch), pre


def _key(v: tuple) -> tuple:
    major, minor, patch, pre = v
    if pre is None:
        return (major, minor, patch, 1, ())
    ids = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return (major, minor, patch, 0, ids)


def _compare(a, b) -> int:
    x, y = _key(_parse(a.value)), _key(_parse(b.value))
    return (x > y) - (x < y)


def _is(text: str, normalize: bool = False) -> bool:
    try:
        _parse(text, normalize)
    except ValueError:
        return False
    return True


def _semver(text: str, normalize: bool = False):
    _parse(text, normalize)
    return make(SEMVER, _normalize(text) if normalize else text)


def library(lib: Library) -> None:
    v, s, b, i = cel_type(SEMVER), cel.Type.STRING, cel.Type.BOOL, cel.Type.INT
    lib.function("semver", "string_to_semver", v, [s], _semver)
    lib.function("semver", "string_bool_to_semver", v, [s, b], _semver)
    lib.function("isSemver", "is_semver_string", b, [s], _is)
    lib.function("isSemver", "is_semver_string_bool", b, [s, b], _is)
    lib.member("major", "semver_major", i, [v], lambda x: _parse(x.value)[0])
    lib.member("minor", "semver_minor", i, [v], lambda x: _parse(x.value)[1])
    lib.member("patch", "semver_patch", i, [v], lambda x: _parse(x.value)[2])
    lib.member("compareTo", "semver_compare_to", i, [v, v], _compare)
    lib.member("isGreaterThan", "semver_is_greater_than", b, [v, v], lambda x, y: _compare(x, y) > 0)
    lib.member("isLessThan", "semver_is_less_than", b, [v, v], lambda x, y: _compare(x, y) < 0)
