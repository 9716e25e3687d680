"""resource.ParseQuantity (k8s.io/apimachinery pkg/api/resource/quantity.go): which strings are
quantities, and its three errors, word for word.

The scanner is Go's (parseQuantityString), not the documented regular expression: it decides which
error a string gets. Only acceptance and errors are reproduced; the canonical form a stored
quantity is written in is not.
"""

from __future__ import annotations

from fractions import Fraction

SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = f"quantities must match the regular expression '{SPLIT_RE}'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

_DIGITS = frozenset("0123456789")
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_SUFFIXES = frozenset({"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"})
_INT64_MAX = 2**63 - 1


class QuantityError(ValueError):
    """ParseQuantity's error; str() is its text."""


def _scan(text: str) -> tuple[str, str, str, str]:
    """parseQuantityString: (value, numerator, denominator, suffix), or QuantityError(ErrFormatWrong)."""
    pos, end = 0, len(text)
    if pos < end and text[0] in "+-":
        pos += 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return text, "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return text, text[start:], "", ""
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return text, num, denom, ""
    value = text[:pos]
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos >= end:
        return value, num, denom, text[suffix_start:]
    if text[pos] in "+-":
        pos += 1
    while pos < end:
        if text[pos] not in _DIGITS:
            raise QuantityError(ERR_FORMAT_WRONG)  # a non-digit after the exponent's sign
        pos += 1
    return value, num, denom, text[suffix_start:]


_DECIMAL = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}


def _interpret(suffix: str) -> tuple[bool, int] | None:
    """quantitySuffixer.interpret: (binary, exponent), or None for a suffix it does not know. An
    e/E exponent is what strconv.ParseInt reads, truncated to int32 as Go converts it."""
    if suffix in _DECIMAL:
        return False, _DECIMAL[suffix]
    if suffix in _BINARY:
        return True, _BINARY[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[2:] if suffix[1] in "+-" else suffix[1:]
        if not digits or any(c not in _DIGITS for c in digits):
            return None
        parsed = int(suffix[1:])
        if not -(2**63) <= parsed <= _INT64_MAX:
            return None
        return False, (parsed + 2**31) % 2**32 - 2**31
    return None


def check_quantity(text: str) -> None:
    """ParseQuantity(text): QuantityError with its text when `text` is not a quantity."""
    if not text:
        raise QuantityError(ERR_FORMAT_WRONG)
    if text == "0":
        return
    value, num, denom, suffix = _scan(text)
    found = _interpret(suffix)
    if found is None:
        raise QuantityError(ERR_SUFFIX)
    binary, exponent = found
    if binary:
        fast = exponent >= 0 and not denom and 15 - len(num) - int(exponent * 3 / 10) - 1 >= 0
    else:
        fast = 18 - (len(num) + len(denom)) >= 0 and exponent - len(denom) >= -9
    # off the int64 fast path, inf.Dec's SetString reads the number and refuses one without digits
    if not fast and value.lstrip("+-") in ("", "."):
        raise QuantityError(ERR_NUMERIC)



def quantity_value(text: str | int | float) -> Fraction:
    """The exact value of a quantity the decoder accepted (what resource.Quantity's Cmp compares)."""
    if isinstance(text, (int, float)):
        return Fraction(text)
    value, num, denom, suffix = _scan(text)
    magnitude = Fraction(int(num or "0")) + (Fraction(int(denom), 10 ** len(denom)) if denom else 0)
    if value.startswith("-"):
        magnitude = -magnitude
    if suffix in _BINARY:
        return magnitude * 2 ** _BINARY[suffix]
    if suffix in _DECIMAL:
        return magnitude * Fraction(10) ** _DECIMAL[suffix]
    return magnitude * Fraction(10) ** int(suffix[1:])


def quantity_sign(text: str | int | float) -> int:
    """Quantity.Sign(): -1, 0 or 1."""
    v = quantity_value(text)
    return (v > 0) - (v < 0)
