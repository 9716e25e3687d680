"""The apimachinery primitives on decoded JSON values (dict, list, str, int, float, bool, None):
runtime.DeepCopyJSONValue and reflect.DeepEqual, which keeps int64 and float64 apart as Go
decodes them (1 and 1.0 are different values; Python's `==` would call them equal).
"""

from __future__ import annotations

from typing import Any

__all__ = ["deep_equal", "json_copy"]


def json_copy(value: Any) -> Any:
    """runtime.DeepCopyJSONValue: a fresh copy of a JSON value, so objects never share a default."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def deep_equal(a: Any, b: Any) -> bool:
    """reflect.DeepEqual of decoded JSON: an int64 never equals a float64 (nor a bool)."""
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        return len(a) == len(b) and all(k in b and deep_equal(v, b[k]) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
