"""Cross-type numeric comparisons, which the apiserver's CEL allows and cel-expr-python's checker does not.

Since 1.28 a rule may order an int against a double or uint (`self.ratio > 0`, `self.count < 2.5`).
cel-expr-python offers no switch for it, so where the checker rejects such a comparison and one side
is a numeric literal, the literal is written in the other side's type (`0` -> `0.0`), which orders
the same. Comparisons of two non-literal operands of different numeric types stay compile errors.
"""

from __future__ import annotations

import re

from crdtool.cel.errors import parse_issues

__all__ = ["widen_literals"]

_ORDERING = re.compile(r"^found no matching overload for '_(<|<=|>|>=)_' applied to '\((int|uint|double), "
                       r"(int|uint|double)\)'$")
_NUMBER_AFTER = re.compile(r"\s*(-?)(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(u|U)?(?![\w.])")
_NUMBER_BEFORE = re.compile(r"(?<![\w.])(-?)(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(u|U)?\s*$")
_PATH_BEFORE = re.compile(r"(?<![\w.)\]])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*$")


def widen_literals(text: str, error: str, column_shift: int = 0) -> str | None:
    """`text` with the literals of the rejected numeric comparisons retyped, or None if there are none."""
    lines = text.split("\n")
    changed = False
    for issue in sorted(parse_issues(error), key=lambda i: (-i.line, -i.column)):
        m = _ORDERING.match(issue.message)
        if m is None or not 1 <= issue.line <= len(lines):
            continue
        op, left, right = m.groups()
        line = lines[issue.line - 1]
        at = issue.column - 1 - (column_shift if issue.line == 1 else 0)
        if line[at:at + len(op)] != op:
            continue
        after = _NUMBER_AFTER.match(line, at + len(op))
        before = _NUMBER_BEFORE.search(line[:at])
        if after is not None and _literal_as(after, left) is not None:
            lines[issue.line - 1] = line[:after.start(1)] + _literal_as(after, left) + line[after.end():]
        elif before is not None and _literal_as(before, right) is not None:
            lines[issue.line - 1] = line[:before.start(1)] + _literal_as(before, right) + line[before.end():]
        elif after is not None and right == "double" and (path := _PATH_BEFORE.search(line[:at])) is not None:
            # `self.count > 1.5`: an int path against a fractional literal compares as doubles.
            lines[issue.line - 1] = (line[:path.start(1)] + f"double({path.group(1)})" + line[path.end(1):])
        else:
            continue
        changed = True
    return "\n".join(lines) if changed else None


def _literal_as(m: re.Match, type_: str) -> str | None:
    sign, digits = m.group(1), m.group(2)
    integral = re.fullmatch(r"\d+", digits) is not None
    if type_ == "double":
        return f"{sign}{digits}{'' if not integral else '.0'}"
    if not integral:
        return None
    if type_ == "int":
        return f"{sign}{digits}"
    return None if sign else f"{digits}u"
