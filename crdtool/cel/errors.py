"""cel-go's wording for the compile and runtime errors cel-expr-python reports.

Both checkers report the same problems at the same positions, in the same `ERROR: <input>:L:C: ...`
layout with the source line and a caret line, but some texts differ; the apiserver prints cel-go's.
At run time the two engines fail on the same values with different texts (`cannot convert string
to int` is cel-go's `type conversion error from 'string' to 'int'`); `go_runtime_error` gives
cel-go's (common/types, interpreter/attributes.go, common/decls).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from crdtool.model.goregexp import re2_error_to_go

if TYPE_CHECKING:
    from cel_expr_python import cel

    from crdtool.cel.sourcemap import SourceMap

__all__ = ["CompileIssue", "cel_go_type_name", "format_issues", "go_error_text", "go_issues", "go_runtime_error",
           "not_evaluable", "source_location", "source_offset", "split_types"]

_STATUS_PREFIX = re.compile(r"^(?!ERROR: )[A-Z_]+: ")
_STATUS_SUFFIX = re.compile(r" \[[A-Z_]+\]$")
_ERROR_HEAD = re.compile(r"^ERROR: <input>:(\d+):(\d+): (.*)$")
_NOT_IN_STRUCT = re.compile(r" not found in struct '[^']*'$")
_OVERLOAD = re.compile(r"^found no matching overload for '([^']*)' applied to '\((.*)\)'$")
_UNDECLARED_QUALIFIED = re.compile(r"^undeclared reference to '([\w.]+\.[\w]+)' \(in container ''\)$")
#: An operand's type after an error below it: cel-go's checker reads such an operand as dyn (checkSelect,
#: checkComprehension) and reports nothing more about it.
_ERROR_OPERAND = "'*error*'"
_SELECT_OPERAND = re.compile(r"^expression of type '(.*)' cannot be the operand of a select operation$")


class CompileIssue:
    """One `ERROR: <input>:line:col: message` entry, with the source excerpt that follows it."""

    __slots__ = ("line", "column", "message")

    def __init__(self, line: int, column: int, message: str) -> None:
        self.line, self.column, self.message = line, column, message


def parse_issues(text: str) -> list[CompileIssue]:
    """The entries of a cel-expr-python compile error (status prefix and suffix removed), without those
    about an operand already in error, which cel-go does not report."""
    text = _STATUS_SUFFIX.sub("", _STATUS_PREFIX.sub("", text, count=1))
    issues: list[CompileIssue] = []
    for line in text.split("\n"):
        m = _ERROR_HEAD.match(line)
        if m:
            issues.append(CompileIssue(int(m.group(1)), int(m.group(2)), m.group(3)))
    return [i for i in issues if _ERROR_OPERAND not in i.message] or issues


def go_error_text(text: str, source: str, type_names: Mapping[str, str], column_shift: int = 0,
                  source_map: SourceMap | None = None) -> str:
    """The cel-go rendering (`issues.String()`) of a cel-expr-python compile error for `source`.

    `column_shift` is the length of a prefix the compiled text had before `source` on its first line;
    `source_map`, where the compiled text came from in `source` when calls were rewritten.
    """
    return format_issues(go_issues(text, source, type_names, column_shift, source_map), source)


def go_issues(text: str, source: str, type_names: Mapping[str, str], column_shift: int = 0,
              source_map: SourceMap | None = None) -> list[CompileIssue]:
    """The entries of a cel-expr-python compile error for `source`, each worded as cel-go words it."""
    issues = parse_issues(text)
    for issue in issues:
        if issue.line == 1 and column_shift:
            issue.column = max(issue.column - column_shift, 1)
    if source_map is not None and source_map.rewritten:
        issues = source_map.in_source(issues, source)
    return [_go_issue(i, source, type_names) for i in issues]


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


def source_location(source: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a code point offset, as cel-go's source locations count them."""
    offset = max(0, min(offset, len(source)))
    line_start = source.rfind("\n", 0, offset) + 1
    return source.count("\n", 0, offset) + 1, offset - line_start + 1


def source_offset(source: str, line: int, column: int) -> int:
    """The code point offset of a 1-based line and column (`source_location`'s inverse), within `source`."""
    start = 0
    for _ in range(line - 1):
        start = source.find("\n", start) + 1
        if start == 0:
            return len(source)
    return max(0, min(start + column - 1, len(source)))


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
        function, args = m.group(1), split_types(m.group(2))
        if _is_member_call(source, issue, function) and args:
            message = f"found no matching overload for '{function}' applied to '{args[0]}.({', '.join(args[1:])})'"
        else:
            message = f"found no matching overload for '{function}' applied to '({', '.join(args)})'"
    message = _type_names(message, type_names)
    return CompileIssue(issue.line, issue.column, message)


def split_types(text: str, brackets: str = "()") -> list[str]:
    """Comma-separated type names, those nested in `brackets` kept together: an overload error's
    `(int, list(string))`, or with "<>" the parameters of a cel-expr-python type name (`map<string, int>`)."""
    opening, closing = brackets
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == opening:
            depth += 1
        elif ch == closing:
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


# ---------------------------------------------------------------- type names
_SIMPLE_NAMES = {"INT": "int", "UINT": "uint", "DOUBLE": "double", "BOOL": "bool", "STRING": "string",
                 "BYTES": "bytes", "NULL": "null_type", "DYN": "dyn", "DURATION": "google.protobuf.Duration",
                 "TIMESTAMP": "google.protobuf.Timestamp"}


def cel_go_type_name(t: cel.Type, type_names: Mapping[str, str] | None = None) -> str:
    """cel-go's `Type.String()` of a checked type."""
    return _type_text(t.name(), type_names or {})


def _type_text(name: str, type_names: Mapping[str, str]) -> str:
    if name in _SIMPLE_NAMES:
        return _SIMPLE_NAMES[name]
    head, sep, rest = name.partition("<")
    if sep and rest.endswith(">"):
        params = [_type_text(p, type_names) for p in split_types(rest[:-1], "<>")]
        base = {"LIST": "list", "MAP": "map", "TYPE": "type"}.get(head, head)
        return f"{base}({', '.join(params)})"
    return type_names.get(name, name)



# ---------------------------------------------------------------- runtime errors
_RUNTIME_STATUS = re.compile(r"^[A-Z_]+: ")
# cel-expr-python's type names in overload errors, as cel-go's Type.TypeName() prints them.
_GO_TYPE_NAMES = {"int64": "int", "uint64": "uint", "null_type": "null_type"}
# The operand traits of cel-go's values (common/types/*.go), and the functions dispatched on one of them:
# such a function calls the first operand's method when it has the trait (which answers a type mismatch
# with `no such overload`), else fails with `no such overload: <function>`; a value that receives calls
# (string, duration, timestamp) answers `no such overload` itself.
_TRAITS = {
    "int": {"add", "compare", "divide", "modulo", "multiply", "negate", "subtract"},
    "uint": {"add", "compare", "divide", "modulo", "multiply", "subtract"},
    "double": {"add", "compare", "divide", "multiply", "negate", "subtract"},
    "string": {"add", "compare", "match", "receive", "size"},
    "bytes": {"add", "compare", "size"},
    "bool": {"compare", "negate"},
    "list": {"add", "contain", "index", "size"},
    "map": {"contain", "index", "size"},
    "google.protobuf.Duration": {"add", "compare", "negate", "receive", "subtract"},
    "google.protobuf.Timestamp": {"add", "compare", "receive", "subtract"},
}
_TRAIT_FUNCTIONS = {"_+_": "add", "_-_": "subtract", "_*_": "multiply", "_/_": "divide", "_%_": "modulo",
                    "-_": "negate", "_<_": "compare", "_<=_": "compare", "_>_": "compare", "_>=_": "compare",
                    "size": "size", "matches": "match"}
# Functions bound once for all their overloads whose mismatch is a plain `no such overload`.
_PLAIN_NO_SUCH_OVERLOAD = {"@in", "!_", "_&&_", "_||_", "_?_:_", "_==_", "_!=_"}
_OVERLOAD_CALL = re.compile(r"^No matching overloads? found ?: ?(?:\((?P<target>[^()]*)\)\.)?"
                            r"(?P<fn>[^()\s]+)(?:\((?P<args>.*)\))?$")
_CONVERSIONS = {"int": "int", "uint": "uint", "double": "double"}


def _no_such_overload(m: re.Match) -> str:
    """cel-go's error for a call no overload of which accepts the arguments' run-time types."""
    fn = m.group("fn")
    args = [a.strip() for a in split_types(m.group("args") or "")]
    if m.group("target") is not None:
        args.insert(0, m.group("target").strip())
    args = [_GO_TYPE_NAMES.get(a, a) for a in args]
    if fn in _PLAIN_NO_SUCH_OVERLOAD or not args:
        return "no such overload"
    trait = _TRAIT_FUNCTIONS.get(fn)
    if trait is not None:
        traits = _TRAITS.get(args[0], set())
        return "no such overload" if trait in traits or "receive" in traits else f"no such overload: {fn}"
    return f"no such overload: {fn}({', '.join(args)})"


def _re2_error(m: re.Match) -> str:
    return re2_error_to_go(f"{m.group(1)}: {m.group(2)}") or f"error parsing regexp: {m.group(1)}"


_RUNTIME_TEXTS: tuple[tuple[re.Pattern, Callable[[re.Match], str]], ...] = (
    (re.compile(r'^Key not found in map ?: ?"?(.*?)"?$', re.S), lambda m: f"no such key: {m.group(1)}"),
    (re.compile(r"^No such key: (.*)$", re.S), lambda m: f"no such key: {m.group(1)}"),
    (re.compile(r"^Index error: index=(-?\d+) size=\d+$"), lambda m: f"index out of bounds: {m.group(1)}"),
    (re.compile(r"^Index error: expected integer type, got (\S+)$"),
     lambda m: f"unsupported index type '{_GO_TYPE_NAMES.get(m.group(1), m.group(1))}' in list"),
    (_OVERLOAD_CALL, _no_such_overload),
    (re.compile(r"^divide by zero$"), lambda m: "division by zero"),
    (re.compile(r"^cannot convert string to (int|uint|double)$"),
     lambda m: f"type conversion error from 'string' to '{_CONVERSIONS[m.group(1)]}'"),
    (re.compile(r"^(?:String to Duration conversion failed|Duration \".*\" (?:above maximum|below minimum) "
                r"allowed duration .*)$", re.S),
     lambda m: "type conversion error from 'string' to 'google.protobuf.Duration'"),
    (re.compile(r"^String to Timestamp conversion failed$"),
     lambda m: "type conversion error from 'string' to 'google.protobuf.Timestamp'"),
    (re.compile(r"^(?:double out of int64 range|uint64 out of int64 range)$"), lambda m: "integer overflow"),
    (re.compile(r"^(?:double out of uint64 range|int64 out of uint64 range)$"),
     lambda m: "unsigned integer overflow"),
    (re.compile(r"^malformed UTF-8 bytes$"), lambda m: "invalid UTF-8 in bytes, cannot convert to string"),
    (re.compile(r"^(?:sort|flatten)\(\): (.*)$", re.S), lambda m: m.group(1)),
    (re.compile(r"^invalid regular expression: (.*?): (.*)$", re.S), _re2_error),
)


#: The engine's error for a function its checker knows but its runtime does not implement (cel-go implements
#: every function it declares, so the apiserver never answers this), and what in an expression calls it.
_NOT_IMPLEMENTED = re.compile(r"No overload found in reference resolve step for (\S+)")
_CALLED_BY = {"cel.@mapInsert": "transformMap() or transformMapEntry()"}


def not_evaluable(text: str) -> str | None:
    """Why an expression could not be evaluated, when the engine's error `text` is its own limit rather
    than the expression's outcome ("calls ..., which crdtool's CEL engine cannot evaluate"); None otherwise."""
    missing = _NOT_IMPLEMENTED.search(text)
    if missing is None:
        return None
    function = missing.group(1)
    return (f"calls {_CALLED_BY.get(function, function)}, which crdtool's CEL engine cannot evaluate "
            f"({function} is not implemented at run time)")


def go_runtime_error(text: str) -> str:
    """cel-go's text for a cel-expr-python evaluation error (texts both engines share pass unchanged)."""
    text = _RUNTIME_STATUS.sub("", text, count=1)
    for pattern, render in _RUNTIME_TEXTS:
        m = pattern.match(text)
        if m:
            return render(m)
    return text
