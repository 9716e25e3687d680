"""Go semantics the OpenAPI value validator depends on: number conversions, reflect equality, regexp errors.

kube-openapi compares and converts decoded JSON (int64, float64, string, bool, slices, maps) with Go's
rules; these helpers give the same answers for the Python values crdtool decodes (int, float, str, bool,
list, dict), keeping int and float apart the way the apiserver keeps int64 and float64 apart.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any

import re2

from crdtool.model.gofmt import go_json
from crdtool.model.jsonvalue import deep_equal

if TYPE_CHECKING:
    from decimal import Decimal

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
_MAX_JSON_FLOAT = float((1 << 53) - 1)

RE2_OPTIONS = re2.Options()
RE2_OPTIONS.log_errors = False  # a bad pattern becomes a field error, not a line on stderr

# RE2's parse error texts and the regexp/syntax codes Go prints for the same mistakes
_GO_REGEXP_CODES = {
    "invalid perl operator": "invalid or unsupported Perl syntax",
    "missing )": "missing closing )",
    "missing ]": "missing closing ]",
    "unexpected )": "unexpected )",
    "bad repetition operator": "invalid nested repetition operator",
    "invalid repetition size": "invalid repeat count",
    "invalid named capture group": "invalid named capture",
    "trailing \\": "trailing backslash at end of expression",
}


def go_regexp_error(err: re2.error) -> str:
    """regexp.Compile's error text (error parsing regexp: <code>: `<expr>`) for an RE2 parse error."""
    raw = err.args[0] if err.args else ""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    code, _, expr = text.partition(": ")
    return f"error parsing regexp: {_GO_REGEXP_CODES.get(code, code)}: `{expr}`"


def go_int64(f: float) -> int:
    """int64(f) on amd64: truncation toward zero; the minimum int64 for NaN and out-of-range values."""
    if math.isnan(f) or not INT64_MIN <= f < 2.0**63:
        return INT64_MIN
    return int(f)


def is_json_integer(f: float) -> bool:
    """swag's IsFloat64AJSONInteger: a safe integer (|f| < 2**53), up to a relative error of 1e-9."""
    if math.isnan(f) or math.isinf(f) or not -_MAX_JSON_FLOAT <= f <= _MAX_JSON_FLOAT:
        return False
    rounded = float(math.trunc(f))
    if abs(f - rounded) >= 0.5:  # math.Round: half away from zero
        rounded += math.copysign(1.0, f)
    if f == rounded:
        return True
    if rounded == 0:
        return False
    return abs(f - rounded) < 1e-9 * abs(rounded)


def _fits_float32(f: float) -> bool:
    try:
        struct.pack("f", f)
    except OverflowError:
        return False
    return True


def _go_decimal(value: int | float) -> Decimal:
    """The number as IsValueValidAgainstRange prints it: FormatInt, or FormatFloat(f, 'f', -1, 64) - the
    shortest round-trip digits padded with zeros, so -2**63 as a float64 reads -9223372036854776000."""
    from decimal import Decimal  # here: only a float against an integer or float32 format needs it

    return Decimal(value) if type(value) is int else Decimal(repr(value))


def range_ok(value: int | float, type_name: str, fmt: str) -> bool:
    """IsValueValidAgainstRange: the value (or a bound) parses back as the schema's type and format."""
    if type_name == "integer":
        if fmt == "int32":
            lo, hi = -(1 << 31), (1 << 31) - 1
        elif fmt == "uint32":
            lo, hi = 0, (1 << 32) - 1
        elif fmt == "uint64":
            lo, hi = 0, (1 << 64) - 1
        else:
            lo, hi = INT64_MIN, INT64_MAX
        if type(value) is int:
            return lo <= value <= hi
        if not math.isfinite(value):
            return False
        d = _go_decimal(value)
        return d == d.to_integral_value() and lo <= int(d) <= hi
    if fmt in ("float", "float32"):
        return _fits_float32(float(_go_decimal(value)))
    return True


def range_error(prefix: str, type_name: str, fmt: str) -> str:
    """The message of a failed range check; `%s` stands for the value's path."""
    if fmt:
        return f"{prefix} value must be of type {type_name} with format {fmt} in %s"
    return f"{prefix} value must be of type {type_name} (default format) in %s"


def _go_rune_string(n: int) -> str:
    """string(rune(n)) of Go: the character, or U+FFFD for an invalid code point."""
    if 0 <= n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF:
        return chr(n)
    return "\ufffd"


def enum_matches(value: Any, allowed: Any) -> bool:
    """basicCommonValidator: the value, converted to the enum entry's Go type where reflect allows it
    (int64 and float64 both ways, int64 to string as a rune), DeepEquals the entry. null never matches."""
    tv, ta = type(value), type(allowed)
    if allowed is None:
        return False
    if tv is ta:
        return deep_equal(value, allowed)
    if tv is int and ta is float:
        return float(value) == allowed
    if tv is float and ta is int:
        return go_int64(value) == allowed
    if tv is int and ta is str:
        return _go_rune_string(value) == allowed
    return False


def enum_text(allowed: Any) -> str:
    """How the apiserver lists a supported value: a string as it is, anything else as JSON."""
    return allowed if type(allowed) is str else go_json(allowed)
