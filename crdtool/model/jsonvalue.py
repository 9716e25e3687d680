"""The apimachinery primitives on decoded JSON values (dict, list, str, int, float, bool, None):
runtime.DeepCopyJSONValue and reflect.DeepEqual, which keeps int64 and float64 apart as Go
decodes them (1 and 1.0 are different values; Python's `==` would call them equal).
"""

from __future__ import annotations

import marshal
from typing import Any

__all__ = ["deep_equal", "holds_null", "json_copy", "same_reading"]


def json_copy(value: Any) -> Any:
    """runtime.DeepCopyJSONValue: a fresh copy of a JSON value, so objects never share a default."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def holds_null(value: Any) -> bool:
    """Whether a decoded JSON value holds a null anywhere (a walk without recursion)."""
    stack = [value]
    while stack:
        x = stack.pop()
        if x is None:
            return True
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def deep_equal(a: Any, b: Any, nan_equal: bool = False) -> bool:
    """reflect.DeepEqual of decoded JSON: an int64 never equals a float64 (nor a bool). `nan_equal`:
    a NaN equals a NaN too (two readings of the same text: `same_reading`)."""
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        return len(a) == len(b) and all(k in b and deep_equal(v, b[k], nan_equal) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(deep_equal(x, y, nan_equal) for x, y in zip(a, b, strict=True))
    return bool(a == b) or (nan_equal and ta is float and a != a and b != b)


def same_reading(a: Any, b: Any) -> bool:
    """Whether two readings of YAML give the same value: deep_equal, but a NaN (`.nan`) is the same as
    a NaN, as the same text reads the same (Go's DeepEqual never calls NaN equal to anything).

    Equal bytes of marshal's format 2 (no shared references) answer at C's speed: it writes each
    type apart (True, 1 and 1.0 differ) and keeps dict order, so it can only fail to see sameness
    (keys in another order, -0.0), which the walk then decides."""
    try:
        if marshal.dumps(a, 2) == marshal.dumps(b, 2):
            return True
    except ValueError:  # nested beyond marshal's limit
        pass
    return deep_equal(a, b, nan_equal=True)
