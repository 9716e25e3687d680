"""cel-go's string.format validator (stringFormatValidator) over checked expressions: the compile-time
cases of cel-go v0.26.1's ext/formatting_test.go, and what its matcher leaves to run time."""

from __future__ import annotations

import pytest
from cel_expr_python import cel

from crdtool.cel import checked_ast, environment, library
from crdtool.cel.format_validator import string_format_issues
from crdtool.cel.library.opaque import cel_type

_VARIABLES = {"s": cel.Type.STRING, "i": cel.Type.INT, "u": cel.Type.UINT, "d": cel.Type.DOUBLE, "b": cel.Type.BOOL,
              "y": cel.Type.BYTES, "l": cel.Type.List(cel.Type.INT), "m": cel.Type.Map(cel.Type.STRING, cel.Type.INT),
              "t": cel.Type.TIMESTAMP, "du": cel.Type.DURATION, "x": cel.Type.DYN, "ip": cel_type("net.IP")}
_STRING_CLAUSE = ("error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, "
                  "maps, lists, types, durations, and timestamps, was given ")


def _issues(source: str) -> list[tuple[int, int, str]]:
    env = cel.NewEnv(variables=_VARIABLES, config=library.config(), functions=library.functions(),
                     descriptor_pool=environment.library_pool())
    ast = checked_ast.decode(env.compile(source).serialize())
    return sorted((i.line, i.column, i.message) for i in string_format_issues(ast, source, {}))


@pytest.mark.parametrize(("source", "issues"), [
    # every clause with the types it takes; dyn passes any clause
    ("'%s %s %s %s %s %s %s %s %s %s %s %s'.format([s, i, u, d, b, y, l, m, t, du, null, type(s)])", []),
    ("'%d %d %d %f %f %e %e %b %b %b %x %X %x %X %o %o'.format([i, u, x, d, s, d, s, i, u, b, i, u, s, y, i, u])", []),
    ("'%d %f %e %b %x %o %s'.format([x, x, x, x, x, x, x])", []),
    ("'%%d %s'.format([s])", []),
    # formatting_test.go's compile-time cases
    ("'%s %s'.format(['abc'])", [(1, 15, "index 1 out of range")]),
    ("'%s %s'.format(['abc', 'def', 'ghi'])", [(1, 15, "too many arguments supplied to string.format (expected 2, "
                                                        "got 3)")]),
    ("'filler %'.format([])", [(1, 18, "unexpected end of string")]),
    ("'%j'.format([123])", [(1, 12, 'could not parse formatting clause: unrecognized formatting clause "j"')]),
    ("'object is %s'.format([ip])", [(1, 24, _STRING_CLAUSE + "net.IP")]),
    ("'list is %s'.format([[1, 2, ip]])", [(1, 29, _STRING_CLAUSE + "net.IP")]),
    ("'int is %d'.format([5.2])",
     [(1, 21, "error during formatting: decimal clause can only be used on integers, was given double")]),
    ("'double is %f'.format([true])",
     [(1, 24, "error during formatting: fixed-point clause can only be used on doubles, was given bool")]),
    ("'double is %.34'.format([5.0])", [(1, 24, "could not parse formatting clause: error while parsing precision: "
                                                "could not find end of precision specifier")]),
    ("'double is %e'.format([true])",
     [(1, 24, "error during formatting: scientific clause can only be used on doubles, was given bool")]),
    ("'string is %b'.format(['a string'])",
     [(1, 24, "error during formatting: only integers and bools can be formatted as binary, was given string")]),
    ("'%x is a double'.format([2.5])", [(1, 26, "error during formatting: only integers, byte buffers, and strings "
                                                "can be formatted as hex, was given double")]),
    ("'%X is a double'.format([2.5])", [(1, 26, "error during formatting: only integers, byte buffers, and strings "
                                                "can be formatted as hex, was given double")]),
    ("'an octal: %o'.format([3.14])",
     [(1, 24, "error during formatting: octal clause can only be used on integers, was given double")]),
    # the element's type by cel-go's TypeName: no type parameters
    ("'%d'.format([l])", [(1, 14, "error during formatting: decimal clause can only be used on integers, was given "
                                  "list")]),
    ("'%d'.format([m])", [(1, 14, "error during formatting: decimal clause can only be used on integers, was given "
                                  "map")]),
    ("'%d'.format([t])", [(1, 14, "error during formatting: decimal clause can only be used on integers, was given "
                                  "google.protobuf.Timestamp")]),
    ("'%f'.format([null])", [(1, 14, "error during formatting: fixed-point clause can only be used on doubles, was "
                                     "given null_type")]),
    ("'%f'.format([type(1)])", [(1, 18, "error during formatting: fixed-point clause can only be used on doubles, "
                                        "was given type")]),
    # %s looks into list and map literals, keys too; the first element that fails is named
    ("'%s'.format([{ip: 1}])", [(1, 15, _STRING_CLAUSE + "net.IP")]),
    ("'%s'.format([[[1], {'a': [ip]}]])", [(1, 27, _STRING_CLAUSE + "net.IP")]),
    ("'%s'.format([[i, s, d, [t, du]]])", []),
    # the first failing clause is the call's only error; each call is checked
    ("'%d %d'.format([d, d])", [(1, 17, "error during formatting: decimal clause can only be used on integers, was "
                                        "given double")]),
    ("'%d'.format([d]) + '%o'.format([s])", [
        (1, 14, "error during formatting: decimal clause can only be used on integers, was given double"),
        (1, 33, "error during formatting: octal clause can only be used on integers, was given string")]),
    ("'%s'.format(['%d'.format([d])])", [(1, 27, "error during formatting: decimal clause can only be used on "
                                                 "integers, was given double")]),
    ("'%d'.format([\n  d])", [(2, 3, "error during formatting: decimal clause can only be used on integers, was "
                                     "given double")]),
    # not a string literal, or not a list literal: left to run time
    ("s.format([d, d])", []),
    ("('%' + 'd').format([d])", []),
    ("'%d'.format([d].map(v, v))", []),
    ("'%d'.format(dyn([d]))", []),
])
def test_format_calls(source: str, issues: list) -> None:
    assert _issues(source) == issues
