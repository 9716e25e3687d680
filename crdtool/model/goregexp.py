"""Whether Go's `regexp.Compile` accepts a pattern, and its error text when it does not.

The apiserver compiles every `pattern` of a CRD schema with Go's regexp (RE2 syntax). We
compile with google-re2, whose parser is the C++ original of Go's, and translate its error
texts into Go's (`error parsing regexp: missing closing ): `a(``). Two things Go rejects
and RE2 accepts are checked separately: the `\\C` escape and non-ASCII capture names.
"""

from __future__ import annotations

import functools

import re2  # type: ignore[import-untyped]  # google-re2 ships no types

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False

# RE2's error code texts (longest first where one is a prefix of another) and Go's ErrorCode texts.
_CODES = (
    ("invalid character class range", "invalid character class range"),
    ("invalid character class", "invalid character class"),
    ("invalid escape sequence", "invalid escape sequence"),
    ("missing ]", "missing closing ]"),
    ("missing )", "missing closing )"),
    ("unexpected )", "unexpected )"),
    ("trailing \\", "trailing backslash at end of expression"),
    ("no argument for repetition operator", "missing argument to repetition operator"),
    ("invalid repetition size", "invalid repeat count"),
    ("bad repetition operator", "invalid nested repetition operator"),
    ("invalid perl operator", "invalid or unsupported Perl syntax"),
    ("invalid UTF-8", "invalid UTF-8"),
    ("invalid named capture group", "invalid named capture"),
    ("unexpected error", "regexp/syntax: internal error"),
)
# RE2 limits the compiled program's memory far below Go's size limit; Go accepts such patterns.
_RE2_ONLY_FAILURES = ("pattern too large",)
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


@functools.lru_cache(maxsize=8192)
def go_regexp_error(pattern: str) -> str | None:
    """The text of Go's `regexp.Compile(pattern)` error, or None if Go compiles it."""
    try:
        re2.compile(pattern, options=_OPTIONS)
    except re2.error as err:
        return re2_error_to_go(err.args[0] if err.args else b"")
    return _go_only_error(pattern)


def re2_error_to_go(raw: bytes | str) -> str | None:
    """Go's regexp.Compile error text for an RE2 error text (None: an RE2-only failure Go does not have)."""
    msg = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    if msg.startswith(_RE2_ONLY_FAILURES):
        return None
    for re2_text, go_text in _CODES:
        if msg == re2_text:
            return f"error parsing regexp: {go_text}: ``"
        if msg.startswith(re2_text + ": "):
            return f"error parsing regexp: {go_text}: `{msg[len(re2_text) + 2:]}`"
    return f"error parsing regexp: {msg}"


def _go_only_error(p: str) -> str | None:
    """Go's errors for a pattern RE2 accepts: `\\C`, and capture names outside [A-Za-z0-9_]."""
    i, n, in_class = 0, len(p), False
    while i < n:
        c = p[i]
        if c == "\\" and i + 1 < n:
            nxt = p[i + 1]
            if nxt == "C":
                return "error parsing regexp: invalid escape sequence: `\\C`"
            if nxt == "Q" and not in_class:
                end = p.find("\\E", i + 2)
                i = n if end < 0 else end + 2
                continue
            i += 2
            continue
        if in_class:
            if c == "[" and p.startswith("[:", i):
                end = p.find(":]", i + 2)
                i = n if end < 0 else end + 2
                continue
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            i += 1
            if i < n and p[i] == "^":
                i += 1
            if i < n and p[i] == "]":
                i += 1
            continue
        elif c == "(" and (p.startswith("(?P<", i) or p.startswith("(?<", i)):
            start = i + (4 if p[i + 2] == "P" else 3)
            end = p.find(">", start)
            if end >= 0 and not all(ch in _ASCII_WORD for ch in p[start:end]):
                return f"error parsing regexp: invalid named capture: `{p[i:end + 1]}`"
        i += 1
    return None
