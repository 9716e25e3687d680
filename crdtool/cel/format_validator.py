"""cel-go's string.format validator (ext/formatting.go's stringFormatValidator, strings versions 1 to 3),
which the strings library the apiserver's base environment registers adds to every compilation.

For each `'<literal>'.format([<list literal>])` the format string is read as at run time, each clause
checked against the static type of its list element (`dyn` always passes; `%s` looks into list and map
literals), and more elements than clauses are refused. A failing clause is reported at the element
that fails it (or at the call's `(`), so the rule does not compile: the apiserver refuses the CRD or
the admission policy. A format string that is not a literal, or arguments that are not a list
literal, are only checked at run time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from crdtool.cel.checked_ast import CheckedAst, Node
from crdtool.cel.errors import CompileIssue, source_location
from crdtool.cel.library.formatting import FormatError, interpolate

__all__ = ["string_format_issues"]

#: The overload the validator's matcher asks the call to have resolved to, when it resolved to any.
_OVERLOAD = "string_format"
#: The kinds each clause takes (cel-go compares kinds only, not type parameters).
_KINDS = {"d": ("int", "uint"), "f": ("double", "string"), "e": ("double", "string"), "b": ("int", "uint", "bool"),
          "x": ("int", "uint", "string", "bytes"), "X": ("int", "uint", "string", "bytes"), "o": ("int", "uint")}
_STRING_KINDS = frozenset({"list", "map", "int", "uint", "double", "bool", "string", "timestamp", "bytes",
                           "duration", "type", "null"})
_CLAUSE_ERRORS = {
    "d": "decimal clause can only be used on integers", "f": "fixed-point clause can only be used on doubles",
    "e": "scientific clause can only be used on doubles", "b": "only integers and bools can be formatted as binary",
    "x": "only integers, byte buffers, and strings can be formatted as hex",
    "X": "only integers, byte buffers, and strings can be formatted as hex",
    "o": "octal clause can only be used on integers",
    "s": "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
         "and timestamps",
}
#: cel-go's runtime type names (Type.TypeName()) of the checked types that have their own.
_TYPE_NAMES = {"timestamp": "google.protobuf.Timestamp", "duration": "google.protobuf.Duration",
               "null": "null_type", "any": "google.protobuf.Any", "error": "*error*"}


def string_format_issues(ast: CheckedAst, source: str, type_names: Mapping[str, str],
                         column_shift: int = 0) -> list[CompileIssue]:
    """The validator's errors for the format calls of a checked expression of `source` (`column_shift`:
    the length of a prefix the compiled text had before `source` on its first line)."""
    issues = []
    for call in _format_calls(ast):
        assert call.target is not None
        elements = call.args[0].args
        checker = _Checker(ast, elements, type_names)
        try:
            interpolate(str(call.target.const), checker, checker)
        except FormatError as err:
            node_id = call.id if err.expr_id < 0 else err.expr_id
            issues.append(_issue(ast, node_id, str(err), source, column_shift))
            continue
        if len(elements) > checker.requested:
            issues.append(_issue(ast, call.id, "too many arguments supplied to string.format (expected "
                                               f"{checker.requested}, got {len(elements)})", source, column_shift))
    return issues


def _format_calls(ast: CheckedAst) -> Iterator[Node]:
    """matchConstantFormatStringWithListLiteralArgs: member calls `format` (resolved to string_format if
    resolved at all) on a string literal, with one argument, a list literal."""
    stack = [ast.root]
    while stack:
        n = stack.pop()
        if (n.kind == "call" and n.name == "format" and n.target is not None and n.target.kind == "const"
                and isinstance(n.target.const, str) and len(n.args) == 1 and n.args[0].kind == "list"):
            overloads = ast.overloads.get(n.id)
            if not overloads or _OVERLOAD in overloads:
                yield n
        children = [n.target, *n.args, *n.keys, n.iter_range, n.accu_init, n.loop_condition, n.loop_step, n.result]
        stack.extend(c for c in children if c is not None)


class _Checker:
    """cel-go's stringFormatChecker: the arguments are the list literal's elements, each clause checks
    its element's static type."""

    def __init__(self, ast: CheckedAst, elements: list[Node], type_names: Mapping[str, str]) -> None:
        self._ast, self._elements, self._type_names = ast, elements, type_names
        self.requested = 0
        self._current = 0

    def arg(self, index: int) -> Any:
        self.requested += 1
        self._current = index
        return None

    def size(self) -> int:
        return len(self._elements)

    def apply(self, verb: str, precision: int | None, value: Any) -> str:
        element = self._elements[self._current]
        bad = self._string_mismatch(element) if verb == "s" else (
            None if self._one_of(element, _KINDS[verb]) else element)
        if bad is not None:
            given = _type_name(self._ast.types.get(bad.id, ("dyn",)), self._type_names)
            raise FormatError(f"{_CLAUSE_ERRORS[verb]}, was given {given}", bad.id)
        return ""

    def _one_of(self, node: Node, kinds: tuple[str, ...] | frozenset[str]) -> bool:
        """verifyTypeOneOf: dyn, or a type of one of `kinds`."""
        t = self._ast.types.get(node.id, ("dyn",))
        return t[0] == "dyn" or _kind(t) in kinds

    def _string_mismatch(self, node: Node) -> Node | None:
        """verifyString: the first node (the element, or a member of its list or map literal) `%s` cannot
        print, or None."""
        if not self._one_of(node, _STRING_KINDS):
            return node
        if node.kind == "list":
            members = node.args
        elif node.kind == "map":
            members = [m for pair in zip(node.keys, node.args, strict=True) for m in pair]
        else:
            return None
        for member in members:
            bad = self._string_mismatch(member)
            if bad is not None:
                return bad
        return None


def _kind(t: tuple) -> str:
    """cel-go's Kind of a checked type; a wrapper type has its wrapped type's kind."""
    return t[1] if t[0] == "wrapper" else t[0]


def _type_name(t: tuple, type_names: Mapping[str, str]) -> str:
    """cel-go's Type.TypeName(): no type parameters; object types by the apiserver's names."""
    kind = t[0]
    if kind == "message":
        return type_names.get(t[1], t[1])
    if kind in ("abstract", "type_param", "wrapper"):
        return t[1]
    return _TYPE_NAMES.get(kind, kind)


def _issue(ast: CheckedAst, node_id: int, message: str, source: str, column_shift: int) -> CompileIssue:
    line, column = source_location(source, ast.positions.get(node_id, 0) - column_shift)
    return CompileIssue(line, column, message)
