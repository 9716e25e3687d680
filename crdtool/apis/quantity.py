"""resource.ParseQuantity (k8s.io/apimachinery pkg/api/resource/quantity.go): which strings are
quantities, and its three errors, word for word.

The scanner is Go's (parseQuantityString), not the documented regular expression: it decides which
error a string gets. `canonical` is the form the apiserver stores and prints (Quantity.String(),
CanonicalizeBytes): `1000m` is `1`, `0.5Gi` is `512Mi`, while `1e3` stays `1e3` (an exponent keeps
the DecimalExponent format) and a string already canonical is kept as written.
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



_DECIMAL_SUFFIX = {exponent: suffix for suffix, exponent in _DECIMAL.items()}
_BINARY_SUFFIX = {exponent // 10: suffix for suffix, exponent in _BINARY.items()}
_NANO = 10**9


def _kept_as_written(num: str, denom: str, binary: bool, exponent: int) -> bool:
    """ParseQuantity's int64 fast path keeps the string itself when it is already canonical."""
    if binary:
        if exponent < 0 or denom or 15 - len(num) - int(exponent * 3 / 10) - 1 < 0:
            return False
        value = int(num)
        return value << exponent <= _INT64_MAX and exponent % 10 == 0 and value & 0x07 != 0
    shifted = num + denom
    scale = exponent - len(denom)
    return (18 - len(shifted) >= 0 and scale >= -9 and scale % 3 == 0 and not shifted.endswith("000")
            and shifted[0] != "0")


def canonical(text: str) -> str:
    """Quantity.String() of ParseQuantity(text), for a text check_quantity accepted."""
    if text == "0":
        return text
    _, num, denom, suffix = _scan(text)
    binary, exponent = _interpret(suffix)  # type: ignore[misc]  # accepted: the suffix is known
    if _kept_as_written(num, denom, binary, exponent):
        return text
    exponent_format = not binary and suffix not in _DECIMAL
    magnitude = abs(quantity_value(text))
    nanos = -(-magnitude * _NANO // 1)  # rounded up to the nano, as ParseQuantity rounds
    if binary:
        nanos = min(nanos, _INT64_MAX * _NANO)
    negative = text.startswith("-")
    if nanos == 0:
        return "0"
    if binary and nanos < 1024 * _NANO or binary and nanos % _NANO:
        binary = False  # between -1024 and 1024, or not whole: DecimalSI
    sign = "-" if negative else ""
    if binary:
        number, power = nanos // _NANO, 0
        while number % 1024 == 0:
            number, power = number // 1024, power + 1
        return f"{sign}{number}{_BINARY_SUFFIX.get(power, '')}"
    number, power = nanos, -9
    while number % 10 == 0:
        number, power = number // 10, power + 1
    while power % 3:
        number, power = number * 10, power - 1
    if exponent_format:
        return f"{sign}{number}" + (f"e{power}" if power else "")
    return f"{sign}{number}{_DECIMAL_SUFFIX.get(power, '')}"


def quantity_value(text: str | int | float) -> Fraction:
    """The exact value of a quantity the decoder accepted (what resource.Quantity's Cmp compares)."""
    if isinstance(text, (int, float)):
        return Fraction(text)
    value, num, denom, suffix = _scan(text)
    magnitude = Fraction(int(num or "0")) + (Fraction(int(denom), 10 ** len(denom)) if denom else 0)
    if value.startswith("-"):
        magnitude = -magnitude
    if suffix in _BINARY:
        return magnitude * Fraction(2) ** _BINARY[suffix]
    if suffix in _DECIMAL:
        return magnitude * Fraction(10) ** _DECIMAL[suffix]
    return magnitude * Fraction(10) ** int(suffix[1:])


def quantity_sign(text: str | int | float) -> int:
    """Quantity.Sign(): -1, 0 or 1."""
    v = quantity_value(text)
    return (v > 0) - (v < 0)



def round_up_to_milli(text: str | int | float) -> str | None:
    """Quantity.RoundUp(-3) as SetDefaults_ResourceList applies it: a quantity finer than a thousandth
    is rounded away from zero to the next thousandth and written again by Quantity.String() in its
    format (`1n` is `1m`, `2500u` is `3m`, `1e-5` is `1e-3`); None when it is whole thousandths."""
    value = quantity_value(text)
    thousandths = value * 1000
    if thousandths.denominator == 1:
        return None
    rounded = -(-abs(thousandths) // 1) * (1 if value > 0 else -1)
    suffix = _scan(text)[3] if isinstance(text, str) else ""
    if suffix in _BINARY and rounded % 1000 == 0:
        whole = abs(rounded) // 1000 * 5**10  # in units of 1/10**10 Ki: 1/1024 is 5**10/10**10
        sign = "-" if rounded < 0 else ""
        return canonical(f"{sign}{whole // 10**10}.{whole % 10**10:010d}Ki")
    if suffix in _DECIMAL or suffix in _BINARY:
        return canonical(f"{rounded}m")
    return canonical(f"{rounded}e-3")
