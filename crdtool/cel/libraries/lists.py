"""Kubernetes' list library (library/lists.go): isSorted, sum, min, max.

cel-expr-python cannot declare type parameters for Python functions, so each function has one
overload per element type, as the Go library's templated overloads expand. `indexOf` and
`lastIndexOf` on lists are not offered: the strings extension owns those names here.
"""

from __future__ import annotations

import datetime

from cel_expr_python import cel
from google.protobuf import duration_pb2

from crdtool.cel.libraries.functions import Library

__all__ = ["library"]

_COMPARABLE = {"int": cel.Type.INT, "uint": cel.Type.UINT, "double": cel.Type.DOUBLE, "bool": cel.Type.BOOL,
               "string": cel.Type.STRING, "bytes": cel.Type.BYTES, "duration": cel.Type.DURATION,
               "timestamp": cel.Type.TIMESTAMP}
_SUMMABLE = ("int", "uint", "double", "duration")


def _is_sorted(items: list) -> bool:
    return all(a <= b for a, b in zip(items, items[1:], strict=False))


def _sum(zero):
    def total(items: list):
        result = zero
        for item in items:
            result = result + item
        if isinstance(result, datetime.timedelta):
            duration = duration_pb2.Duration()
            duration.FromTimedelta(result)
            return duration
        return result
    return total


def _extreme(name: str, pick):
    def extreme(items: list):
        if not items:
            raise ValueError(f"{name} called on empty list")
        return pick(items)
    return extreme


def library(lib: Library) -> None:
    zeros = {"int": 0, "uint": 0, "double": 0.0, "duration": datetime.timedelta(0)}
    for name, t in _COMPARABLE.items():
        lt = cel.Type.List(t)
        lib.member("isSorted", f"list_{name}_is_sorted_bool", cel.Type.BOOL, [lt], _is_sorted)
        lib.member("min", f"list_{name}_min_{name}", t, [lt], _extreme("min", min))
        lib.member("max", f"list_{name}_max_{name}", t, [lt], _extreme("max", max))
        if name in _SUMMABLE:
            lib.member("sum", f"list_{name}_sum_{name}", t, [lt], _sum(zeros[name]))
