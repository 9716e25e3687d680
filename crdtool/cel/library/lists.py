"""Kubernetes' list library (library/lists.go): isSorted, sum, min, max, and the list forms of
indexOf and lastIndexOf (declared with the strings extension, which shares their names).

cel-expr-python cannot declare type parameters for Python functions, so each function has one
overload per element type, as the Go library's templated overloads expand.
"""

from __future__ import annotations

import datetime
from typing import Any

from cel_expr_python import cel

from crdtool.cel.library.functions import Library

__all__ = ["library"]

_COMPARABLE = {"int": cel.Type.INT, "uint": cel.Type.UINT, "double": cel.Type.DOUBLE, "bool": cel.Type.BOOL,
               "string": cel.Type.STRING, "bytes": cel.Type.BYTES, "duration": cel.Type.DURATION,
               "timestamp": cel.Type.TIMESTAMP}
_SUMMABLE = ("int", "uint", "double", "duration")


def cel_equal(a: Any, b: Any) -> bool:
    """CEL's heterogeneous equality on plain Python values: numbers compare across int/double, a
    bool never equals a number (Python says True == 1), containers compare element-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(cel_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(cel_equal(v, b[k]) for k, v in a.items())
    return type(a) is type(b) and a == b


def index_of(items: list, item: Any) -> int:
    """First index of `item` by CEL equality, or -1."""
    return next((i for i, value in enumerate(items) if cel_equal(value, item)), -1)


def last_index_of(items: list, item: Any) -> int:
    """Last index of `item` by CEL equality, or -1."""
    return next((i for i in range(len(items) - 1, -1, -1) if cel_equal(items[i], item)), -1)


def _is_sorted(items: list) -> bool:
    return all(a <= b for a, b in zip(items, items[1:], strict=False))


def _sum(zero):
    def total(items: list):
        result = zero
        for item in items:
            result = result + item
        if isinstance(result, datetime.timedelta):
            from google.protobuf import duration_pb2

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
