"""cel-go's wording for the compile errors cel-expr-python reports.

Both checkers report the same problems at the same positions, in the same `ERROR: <input>:L:C: ...`
layout with the source line and a caret line, but some texts differ; the apiserver prints cel-go's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["CompileIssue", "format_issues", "go_error_text"]

_STATUS_PREFIX = re.compile(r"^(?!ERROR: )[A-Z_]+: ")
_STATUS_SUFFIX = re.compile(r" \[[A-Z_]+\]$")
_ERROR_HEAD = re.compile(r"^ERROR: <input>:(\d+):(\d+): (.*)$")
_NOT_IN_STRUCT = re.compile(r" not found in struct '[^']*'$")
_OVERLOAD = re.compile(r"^found no matching overload for '([^']*)' applied to '\((.*)\)'$")
_UNDECLARED_QUALIFIED = re.compile(r"^undeclared reference to '([\w.]+\.[\w]+)' \(in container ''\)$")
_SELECT_OPERAND = re.compile(r"^expression of type '(.*)' cannot be the operand of a select operation$")


class CompileIssue:
    """One `ERROR: <input>:line:col: message` entry, with the source excerpt that follows it."""

    __slots__ = ("line", "column", "message")

    def __init__(self, line: int, column: int, message: str) -> None:
        self.line, self.column, self.message = line, column, message


def parse_issues(text: str) -> list[CompileIssue]:
    """The entries of a cel-expr-python compile error (status prefix and suffix removed)."""
    text = _STATUS_SUFFIX.sub("", _STATUS_PREFIX.sub("", text, count=1))
    issues: list[CompileIssue] = []
    for line in text.split("\n"):
        m = _ERROR_HEAD.match(line)
        if m:
            issues.append(CompileIssue(int(m.group(1)), int(m.group(2)), m.group(3)))
    return issues


def go_error_text(text: str, source: str, type_names: Mapping[str, str], column_shift: int = 0) -> str:
    """The cel-go rendering (`issues.String()`) of a cel-expr-python compile error for `source`.

    `column_shift` is the length of a prefix the compiled text had before `source` on its first line.
    """
    issues = parse_issues(text)
    for issue in issues:
        if issue.line == 1 and column_shift:
            issue.column = max(issue.column - column_shift, 1)
    return format_issues([_go_issue(i, source, type_names) for i in issues], source)


def format_issues(issues: list[CompileIssue], source: str) -> str:
    """cel-go's `Errors.ToDisplayString`: each error with its source line and caret, sorted by position."""
    lines = source.split("\n")
    out = []
    for issue in sorted(issues, key=lambda i: (i.line, i.column)):
        entry = f"ERROR: <input>:{issue.line}:{issue.column}: {issue.message}"
        if 1 <= issue.line <= len(lines):
            snippet = lines[issue.line - 1].replace("\t", " ")
            caret = "." * (issue.column - 1) + "^"
            entry += f"\n | {snippet}\n | {caret}"
        out.append(entry)
    return "\n".join(out)


def _go_issue(issue: CompileIssue, source: str, type_names: Mapping[str, str]) -> CompileIssue:
    message = _NOT_IN_STRUCT.sub("", issue.message)
    m = _UNDECLARED_QUALIFIED.match(message)
    if m:
        # cel-go names the first identifier of an unresolvable `a.b.c`, at its own position.
        head, _, rest = m.group(1).partition(".")
        column = issue.column - len(head) - len(rest) + len(rest.rpartition(".")[2])
        return CompileIssue(issue.line, max(column, 1), f"undeclared reference to '{head}' (in container '')")
    if message == "has() argument must be a field selection":
        message = "invalid argument to has() macro"
    m = _SELECT_OPERAND.match(message)
    if m:
        message = f"type '{m.group(1)}' does not support field selection"
    m = _OVERLOAD.match(message)
    if m:
        function, args = m.group(1), _split_types(m.group(2))
        if _is_member_call(source, issue, function) and args:
            message = f"found no matching overload for '{function}' applied to '{args[0]}.({', '.join(args[1:])})'"
        else:
            message = f"found no matching overload for '{function}' applied to '({', '.join(args)})'"
    message = _type_names(message, type_names)
    return CompileIssue(issue.line, issue.column, message)


def _split_types(text: str) -> list[str]:
    """The comma-separated type names of an overload error, nested parentheses kept together."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        parts.append(text[start:].strip())
    return parts


def _is_member_call(source: str, issue: CompileIssue, function: str) -> bool:
    """Whether the call the error points at is `target.function(...)` (the position is its `(`)."""
    if "." in function or function.startswith("_"):
        return False
    lines = source.split("\n")
    if not 1 <= issue.line <= len(lines):
        return False
    # Columns count code points; the position is that of the call's opening parenthesis.
    before = lines[issue.line - 1][:issue.column - 1].rstrip()
    if not before.endswith(function):
        return False
    return before[:-len(function)].rstrip().endswith(".")


_TYPE_WORD = re.compile(r"crdtool\.self\d+\.T\d+|null_type|google\.protobuf\.Value")


def _type_names(message: str, type_names: Mapping[str, str]) -> str:
    """Schema message names as the apiserver names those types; CEL's own names as cel-go prints them."""
    def name(m: re.Match) -> str:
        word = m.group()
        if word == "null_type":
            return "null"
        if word == "google.protobuf.Value":
            return "dyn"
        return type_names.get(word, word)
    return _TYPE_WORD.sub(name, message)
