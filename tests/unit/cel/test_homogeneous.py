"""cel-go's homogeneous aggregate literal validator over checked expressions."""

from __future__ import annotations

import pytest
from cel_expr_python import cel

from crdtool.cel import checked_ast, library
from crdtool.cel.homogeneous import aggregate_literal_issues, format_type


def _issues(source: str) -> list[tuple[int, int, str]]:
    env = cel.NewEnv(variables={"s": cel.Type.STRING, "l": cel.Type.List(cel.Type.INT)}, config=library.config(),
                     functions=library.functions())
    ast = checked_ast.decode(env.compile(source).serialize())
    return sorted((i.line, i.column, i.message) for i in aggregate_literal_issues(ast, source, {}))


@pytest.mark.parametrize(("source", "issues"), [
    ("[1, 2, 3]", []),
    ("[1, 'a', 2.0]", [(1, 5, "expected type 'int' but found 'string'")]),  # the first mismatch only
    ("[s, 'x', l.map(x, string(x))[0]]", []),
    ("[[], [1], l]", []),  # an empty list takes the type it is joined with
    ("[1, dyn(2)]", [(1, 8, "expected type 'int' but found 'dyn'")]),
    ("[1, 2u]", [(1, 5, "expected type 'int' but found 'uint'")]),
    ("[null, 1]", [(1, 8, "expected type 'null' but found 'int'")]),
    ("[int, string]", [(1, 7, "expected type 'type(int)' but found 'type(string)'")]),
    ("[[1], ['x']]", [(1, 7, "expected type 'list(int)' but found 'list(string)'")]),
    ("[?optional.of(1), 2]", []),  # an optional element counts as what it holds
    ("{'a': 1, 2: 'b', 'c': 3}", [(1, 10, "expected type 'string' but found 'int'"),
                                  (1, 13, "expected type 'int' but found 'string'")]),
    ("{'a': [1]}.size() == 1 && {1: {'x': 1}, 2: {'y': 's'}}.size() == 2",
     [(1, 44, "expected type 'map(string, int)' but found 'map(string, string)'")]),
    ("'%s %s'.format([[1, 'a'], {1: 'a', 'b': 2}])", []),  # exempt inside format()
    ("[1,\n 'a']", [(2, 2, "expected type 'int' but found 'string'")]),
])
def test_literals_of_one_type(source: str, issues: list) -> None:
    assert _issues(source) == issues


def test_types_read_as_cel_go_formats_them() -> None:
    names = {"crdtool.self1.T0": "spec"}
    assert format_type(("map", ("string",), ("list", ("message", "crdtool.self1.T0"))), names) == \
        "map(string, list(spec))"
    assert format_type(("abstract", "optional_type", ("int",)), names) == "optional_type(int)"
    assert format_type(("timestamp",), names) == "timestamp"
