"""cel-go's homogeneous aggregate literal validator, which the apiserver's base environment enables.

cel-go's checker types a list literal of mixed element types (`[1, 'a']`) as `list(dyn)`, as CEL C++
does; the apiserver then refuses it with the validator's `expected type 'int' but found 'string'` at
the first element whose type differs from the first element's. Map literals are held to the type of
their first entry's key and value, each entry's key and value reported separately. Literals anywhere
inside a `format()` call are exempt (the strings library's format validator asks for that). Types
are compared as cel-go's IsEquivalentType does: `dyn` is not equivalent to `int`, and type parameters
are equivalent whatever their names.
"""

from __future__ import annotations

from collections.abc import Mapping

from crdtool.cel.checked_ast import CheckedAst, Node
from crdtool.cel.errors import CompileIssue, source_location

__all__ = ["aggregate_literal_issues", "format_type"]

_EXEMPT_FUNCTIONS = frozenset({"format"})


def aggregate_literal_issues(ast: CheckedAst, source: str, type_names: Mapping[str, str],
                             column_shift: int = 0) -> list[CompileIssue]:
    """The validator's errors for the list and map literals of a checked expression of `source`.

    `column_shift` is the length of a prefix the compiled text had before `source` on its first line.
    """
    issues: list[CompileIssue] = []
    for node in _literals(ast.root, exempt=False):
        if node.kind == "list":
            first = None
            for i, element in enumerate(node.args):
                t = _element_type(ast, element, i in node.optional)
                if first is None:
                    first = t
                elif not _equivalent(first, t):
                    issues.append(_mismatch(ast, element, first, t, source, type_names, column_shift))
                    break
        else:
            first_key = first_value = None
            for i, (key, value) in enumerate(zip(node.keys, node.args, strict=False)):
                kt, vt = _type(ast, key), _element_type(ast, value, i in node.optional)
                if first_key is None and first_value is None:
                    first_key, first_value = kt, vt
                    continue
                if not _equivalent(first_key, kt):
                    issues.append(_mismatch(ast, key, first_key, kt, source, type_names, column_shift))
                if not _equivalent(first_value, vt):
                    issues.append(_mismatch(ast, value, first_value, vt, source, type_names, column_shift))
    return issues


def _literals(node: Node | None, exempt: bool):
    """The list and map literals under `node` (outside any exempt call), in no particular order."""
    stack = [(node, exempt)]
    while stack:
        n, inside = stack.pop()
        if n is None:
            continue
        if n.kind in ("list", "map") and not inside:
            yield n
        inside = inside or (n.kind == "call" and n.name in _EXEMPT_FUNCTIONS)
        children = [n.target, *n.args, *n.keys, n.iter_range, n.accu_init, n.loop_condition, n.loop_step, n.result]
        stack.extend((c, inside) for c in children if c is not None)


def _type(ast: CheckedAst, node: Node) -> tuple:
    return ast.types.get(node.id, ("dyn",))


def _element_type(ast: CheckedAst, node: Node, optional: bool) -> tuple:
    """An element's type; an optional element (`?x`) counts as the type it wraps."""
    t = _type(ast, node)
    if optional and t[0] == "abstract" and t[1] == "optional_type" and len(t) > 2:
        return t[2]
    return t


def _equivalent(a: tuple, b: tuple) -> bool:
    """cel-go's IsEquivalentType: same kind, name and parameters; type parameters' names do not count."""
    if a[0] == "type_param" or b[0] == "type_param":
        return a[0] == b[0]
    if len(a) != len(b):
        return False
    return all(_equivalent(x, y) if isinstance(x, tuple) else x == y for x, y in zip(a, b, strict=True))


def format_type(t: tuple, type_names: Mapping[str, str]) -> str:
    """cel-go's FormatCELType for a checked type."""
    kind = t[0]
    if kind == "list":
        return f"list({format_type(t[1], type_names)})"
    if kind == "map":
        return f"map({format_type(t[1], type_names)}, {format_type(t[2], type_names)})"
    if kind == "message":
        return type_names.get(t[1], t[1])
    if kind == "abstract":
        params = ", ".join(format_type(p, type_names) for p in t[2:])
        return f"{t[1]}({params})" if params else t[1]
    if kind == "type" and len(t) > 1:
        return f"type({format_type(t[1], type_names)})"
    if kind == "wrapper":
        return f"wrapper({t[1]})"
    if kind == "type_param":
        return t[1]
    if kind == "error":
        return "!error!"
    return kind  # bool, int, uint, double, string, bytes, null, dyn, any, type, timestamp, duration


def _mismatch(ast: CheckedAst, node: Node, expected: tuple, actual: tuple, source: str,
              type_names: Mapping[str, str], column_shift: int) -> CompileIssue:
    line, column = source_location(source, ast.positions.get(node.id, 0) - column_shift)
    return CompileIssue(line, column, f"expected type '{format_type(expected, type_names)}' but found "
                                      f"'{format_type(actual, type_names)}'")

