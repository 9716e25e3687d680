"""cel-go's literal validators, which the apiserver enables: constant arguments checked at compile time.

`timestamp('...')` and `duration('...')` with an unparsable constant, and `matches('...')` with a
pattern RE2 rejects, are compile errors (`invalid timestamp argument`, ...) at the literal's position.
cel-expr-python has no such validators, so the rule's text is scanned for those calls.
"""

from __future__ import annotations

import re

import re2

from crdtool.cel.errors import CompileIssue
from crdtool.model.gotime import go_duration_nanos, parse_rfc3339

__all__ = ["literal_issues", "unquote"]

_STRING = r"""[rR]?(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")"""
_ANY_STRING = re.compile(_STRING)
_CALL = re.compile(r"(?<![\w.])(timestamp|duration)\(\s*(" + _STRING + r")\s*\)|\.\s*(matches)\(\s*(" + _STRING
                   + r")\s*\)")
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?", "a": "\a",
            "b": "\b", "f": "\f", "v": "\v"}


def literal_issues(source: str) -> list[CompileIssue]:
    """The validators' errors for the constant arguments in `source`."""
    issues = []
    masked = _mask_strings(source)
    for m in _CALL.finditer(source):
        if masked[m.start()] == "\0":  # inside a string literal
            continue
        function = m.group(1) or m.group(3)
        literal_group = 2 if m.group(1) else 4
        text = unquote(m.group(literal_group))
        if text is None or _valid(function, text):
            continue
        line, column = _position(source, m.start(literal_group))
        issues.append(CompileIssue(line, column, f"invalid {function} argument"))
    return issues


def _valid(function: str, text: str) -> bool:
    if function == "timestamp":
        return _valid_timestamp(text)
    if function == "duration":
        return go_duration_nanos(text) is not None
    try:
        re2.compile(text, _RE2_OPTIONS)
    except re2.error:
        return False
    return True


def _valid_timestamp(text: str) -> bool:
    """cel-go's string-to-timestamp conversion: time.Parse(time.RFC3339), and a moment within years 1 to 9999."""
    try:
        parse_rfc3339(text).to_datetime()
    except ValueError:  # TimeParseError, or out of range
        return False
    return True


def unquote(literal: str) -> str | None:
    """The value of a CEL string literal (None for escapes this reader does not know)."""
    raw = literal[0] in "rR"
    body = literal[1:] if raw else literal
    quote = 3 if body[:3] in ("'''", '"""') else 1
    body = body[quote:-quote]
    if raw:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1:i + 2]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            return None
    return "".join(out)


def _mask_strings(source: str) -> str:
    """`source` with the inside of every string literal replaced by NUL (to skip calls written in strings)."""
    chars = list(source)
    for m in _ANY_STRING.finditer(source):
        for i in range(m.start() + 1, m.end()):
            chars[i] = "\0"
    return "".join(chars)


def _position(source: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in code points) of `offset`."""
    before = source[:offset]
    line = before.count("\n") + 1
    return line, offset - (before.rfind("\n") + 1) + 1
