"""Scalar typing as kubectl and the apiserver read YAML.

sigs.k8s.io/yaml decodes YAML with go-yaml v2 (YAML 1.1 resolution), marshals the
result to JSON and the apiserver decodes that JSON. The net effect, which these
functions reproduce: `yes/no/on/off/y/n` are booleans, timestamps stay strings, `0777`
is octal, `1_000` is 1000, there are no base-60 numbers, and a number whose JSON text
is integral (`1.0`, `1e3`) arrives as an integer while integers beyond int64 arrive
as floats.
"""

from __future__ import annotations

import math
import re
from typing import Any

_BOOLS = {
    "y": True, "Y": True, "yes": True, "Yes": True, "YES": True, "true": True, "True": True, "TRUE": True,
    "on": True, "On": True, "ON": True,
    "n": False, "N": False, "no": False, "No": False, "NO": False, "false": False, "False": False,
    "FALSE": False, "off": False, "Off": False, "OFF": False,
}
_NULLS = {"", "~", "null", "Null", "NULL"}
_SPECIAL_FLOATS = {
    ".inf": math.inf, ".Inf": math.inf, ".INF": math.inf, "+.inf": math.inf, "+.Inf": math.inf, "+.INF": math.inf,
    "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf, ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan,
}
_YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_GO_INT = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\Z")
_NUMBER_START = frozenset("+-.0123456789")
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
UINT64_MAX = 2**64 - 1
MERGE = object()  # the `<<` merge key


_MAX_DIGITS = {2: 64, 8: 22, 10: 20, 16: 16}  # more significant digits than these cannot fit 64 bits


def json_number(value: int | float) -> int | float:
    """The number the apiserver decodes from Go's JSON text for this value (a finite float or a 64-bit int)."""
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e21 and INT64_MIN <= value <= INT64_MAX:
            return int(value)
        return value
    if INT64_MIN <= value <= INT64_MAX:
        return value
    return float(value)


def go_float(text: str) -> float | None:
    """strconv.ParseFloat(text, 64) of a well-formed decimal number; None where Go reports ErrRange.

    Python's float() rounds as Go does and gives infinity where Go's result is out of range;
    it reads any number of digits (int() refuses more than 4,300).
    """
    value = float(text)
    return value if math.isfinite(value) else None


def _parse_int(sign: int, digits: str, base: int) -> int | None:
    """strconv.ParseInt/ParseUint's 64-bit range, without converting digits that cannot fit."""
    significant = digits.lstrip("0")
    if not digits or len(significant) > _MAX_DIGITS[base]:
        return None
    n = sign * int(significant or "0", base)
    return n if INT64_MIN <= n <= UINT64_MAX else None


def _parse_go_int(text: str) -> int | None:
    """strconv.ParseInt/ParseUint(text, 0, 64) after go-yaml removed underscores."""
    if not _GO_INT.match(text):
        return None
    sign = -1 if text[0] == "-" else 1
    body = text.lstrip("+-")
    if len(body) > 1 and body[0] == "0" and body[1] in "xXoObB":
        return _parse_int(sign, body[2:], {"x": 16, "o": 8, "b": 2}[body[1].lower()])
    if len(body) > 1 and body[0] == "0":
        return _parse_int(sign, body, 8)
    return _parse_int(sign, body, 10)


def resolve_plain(text: str) -> Any:
    """The value of an untagged plain scalar, as go-yaml v2 resolves it, made JSON-like."""
    if text in _NULLS:
        return None
    b = _BOOLS.get(text)
    if b is not None:
        return b
    if text == "<<":
        return MERGE
    if text[0] not in _NUMBER_START:
        return text
    special = _SPECIAL_FLOATS.get(text)
    if special is not None:
        return special
    plain = text.replace("_", "")
    if plain:
        n = _parse_go_int(plain)
        if n is not None:
            return json_number(n)
        if _YAML_FLOAT.match(plain):
            f = go_float(plain)  # out of float64's range: go-yaml leaves the scalar a string
            return text if f is None else json_number(f)
        if plain.startswith(("0b", "-0b")) and all(c in "01" for c in plain.lstrip("-")[2:]):
            n = _parse_int(-1 if plain[0] == "-" else 1, plain.lstrip("-")[2:], 2)
            if n is not None:
                return json_number(n)
    return text


def resolve_tagged(tag: str, text: str) -> Any:
    """A scalar with an explicit standard tag (`!!int 3`, `!!str yes`)."""
    short = tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else tag
    if short in ("str", "binary", "timestamp"):
        return text
    if short == "null":
        return None
    value = resolve_plain(text)
    if short == "bool" and isinstance(value, bool):
        return value
    if short == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if short == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return text


def key_string(key: Any) -> str | None:
    """sigs.k8s.io/yaml's conversion of a non-string map key to the JSON key (None: not allowed)."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        if math.isnan(key):
            return ".nan"
        if math.isinf(key):
            return ".inf" if key > 0 else "-.inf"
        from crdtool.model.gofmt import go_float_g

        return go_float_g(key)
    return None
