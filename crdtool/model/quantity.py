"""resource.Quantity (k8s.io/apimachinery pkg/api/resource): ParseQuantity with its three errors word
for word, the form it holds a value in, and the methods validation and CEL's quantity library call.

The scanner is Go's (parseQuantityString), not the documented regular expression: it decides which
error a string gets. ParseQuantity holds a value one of two ways, and some answers depend on which:
an int64 and a power of ten (`int64Amount`, the fast path: at most 18 digits and no finer than a
nano), or an `inf.Dec` (anything else, rounded up to the nano, BinarySI capped at the largest int64).
`AsInt64` only succeeds on the first with a power of ten of at least zero, so `1000m` and `1.0`,
whole numbers, are not integers to CEL's `isInteger()`. A Quantity here keeps that form: its
`amount` is a Decimal whose exponent is Go's scale, and `small` says which of the two it is.

Decimal keeps `1e999999999` as one digit and an exponent, so comparing it costs nothing, where
writing it out would take the machine's memory. Arithmetic is exact up to `MAX_DIGITS` digits; a sum
that needs more (`1e999999999` plus `1`) raises QuantityTooLarge (the apiserver itself writes such a
sum out in full and does not finish). Go keeps scales in an int32 whose arithmetic wraps for
exponents near ±2^31; here they are unbounded.

`Quantity.string()` is the form the apiserver stores and prints (Quantity.String(),
CanonicalizeBytes): `1000m` is `1`, `0.5Gi` is `512Mi`, while `1e3` stays `1e3` (an exponent keeps
the DecimalExponent format) and a string already canonical is kept as written.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from crdtool.errors import CrdtoolError
from crdtool.model.record import FrozenRecord

if TYPE_CHECKING:
    from decimal import Context, Decimal

__all__ = ["BINARY_SI", "DECIMAL_EXPONENT", "DECIMAL_SI", "ERR_FORMAT_WRONG", "ERR_NUMERIC", "ERR_SUFFIX",
           "MAX_DIGITS", "Quantity", "QuantityError", "QuantityTooLarge", "as_quantity", "fits_int64", "go_pow10",
           "parse_quantity", "quantity_sign", "quantity_value", "round_up_to_milli"]

SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = f"quantities must match the regular expression '{SPLIT_RE}'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT = "DecimalSI", "BinarySI", "DecimalExponent"

#: The most digits exact arithmetic may produce: far beyond any quantity a 3 MB request can carry.
MAX_DIGITS = 10_000_000

_DIGITS = frozenset("0123456789")
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def fits_int64(value: int | Decimal) -> bool:
    """Whether a value lies within Go's int64."""
    return _INT64_MIN <= value <= _INT64_MAX
_DECIMAL = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIX = {exponent: suffix for suffix, exponent in _DECIMAL.items()}
_BINARY_SUFFIX = {exponent // 10: suffix for suffix, exponent in _BINARY.items()}
_NANO = -9


class QuantityError(ValueError):
    """ParseQuantity's error; str() is its text."""


class QuantityTooLarge(CrdtoolError, ValueError):
    """Exact arithmetic on quantities whose result would need more than MAX_DIGITS digits: input crdtool
    will not process (exit code 2), not a crdtool bug; a CEL function's error where a rule adds them."""


@cache
def _contexts() -> tuple[Context, Context]:
    """(exact, rounding): Decimal contexts wide enough for any exponent; the exact one raises on any
    rounding, the other rounds away from zero as ParseQuantity and RoundUp do. (decimal is imported
    here: a run that meets no quantity does not need it.)"""
    import decimal

    exact = decimal.Context(prec=MAX_DIGITS, rounding=decimal.ROUND_UP, Emax=decimal.MAX_EMAX,
                            Emin=decimal.MIN_EMIN, traps=[decimal.InvalidOperation, decimal.DivisionByZero,
                                                          decimal.Overflow, decimal.Inexact])
    rounding = exact.copy()
    rounding.traps[decimal.Inexact] = False
    return exact, rounding


def _decimal(value: int | str, exponent: int = 0) -> Decimal:
    """value × 10^exponent, exactly."""
    from decimal import Decimal

    number = Decimal(value)
    return number.scaleb(exponent, _contexts()[0]) if exponent else number


class Quantity(FrozenRecord):
    """A parsed (or computed) resource.Quantity: `amount` exactly, its Decimal exponent being Go's scale;
    `small` when Go holds it as an int64Amount; its Format; `kept`, the string ParseQuantity kept
    because it was already canonical (None otherwise)."""

    __slots__ = ("amount", "small", "format", "kept")

    amount: Decimal
    small: bool
    format: str
    kept: str | None

    def __init__(self, amount: Decimal, small: bool, format: str, kept: str | None = None) -> None:
        self.amount = amount
        self.small = small
        self.format = format
        self.kept = kept

    @property
    def exponent(self) -> int:
        return int(self.amount.as_tuple().exponent)

    def coefficient(self) -> int:
        """The unscaled integer (Go's int64Amount.value, or inf.Dec's unscaled big.Int)."""
        return int(self.amount.scaleb(-self.exponent, _contexts()[0]))

    def normalized(self) -> str:
        """The value alone in Decimal's notation, trailing zeros dropped (`1.5E+3`): one text per value,
        whatever the form."""
        return "0" if self.amount.is_zero() else str(self.amount.normalize(_contexts()[0]))

    def is_whole(self) -> bool:
        """Whether the value is a whole number, whatever its form."""
        return self.exponent >= 0 or self.amount == self.amount.to_integral_value(context=_contexts()[1])

    def sign(self) -> int:
        """Quantity.Sign()."""
        return 0 if self.amount.is_zero() else -1 if self.amount.is_signed() else 1

    def cmp(self, other: Quantity) -> int:
        """Quantity.Cmp(): -1, 0 or 1, by value."""
        return (self.amount > other.amount) - (self.amount < other.amount)

    def as_int64(self) -> int | None:
        """Quantity.AsInt64(): the value when Go holds it as an int64Amount whose scale is not negative
        and the value fits an int64; None otherwise (an inf.Dec never converts)."""
        if not self.small or self.exponent < 0:
            return None
        return _positive_scale(self.coefficient(), self.exponent)

    def scaled_value(self, scale: int) -> int:
        """Quantity.ScaledValue(scale): ceil(value / 10^scale) as Go's int64 arithmetic computes it,
        overflow included (`Value()` is scale 0, `MilliValue()` scale -3)."""
        exponent = self.exponent
        if self.small:  # int64Amount.AsScaledInt64, its `ok` ignored
            if exponent < scale:
                return _round_up_divide(self.coefficient(), scale - exponent)
            return _positive_scale(self.coefficient(), exponent - scale) or 0
        return _dec_scaled_value(self.amount, scale)

    def approximate_float(self) -> float:
        """Quantity.AsApproximateFloat64(): the unscaled value as a float64, times math.Pow10(scale)."""
        base = float(self.amount.scaleb(-self.exponent, _contexts()[0]))
        return base if self.exponent == 0 else base * go_pow10(self.exponent)

    def add(self, other: Quantity) -> Quantity:
        """Quantity.Add: on the int64 path while it does not overflow, else exact; a zero takes the
        other's format."""
        fmt = other.format if self.amount.is_zero() else self.format
        if self.small and other.small:
            summed = _small_add(self._pair(), other._pair())
            if summed is not None:
                return Quantity(_decimal(*summed), True, fmt)
        return Quantity(_exact_add(self.amount, other.amount), False, fmt)

    def sub(self, other: Quantity) -> Quantity:
        """Quantity.Sub: int64Amount.Sub adds the negated value (Go's negation of the smallest int64 wraps)."""
        fmt = other.format if self.amount.is_zero() else self.format
        if self.small and other.small:
            value, scale = other._pair()
            negated = -value if value != _INT64_MIN else value
            summed = _small_add(self._pair(), (negated, scale))
            if summed is not None:
                return Quantity(_decimal(*summed), True, fmt)
        return Quantity(_exact_add(self.amount, other.amount.copy_negate()), False, fmt)

    def round_up(self, scale: int) -> Quantity:
        """Quantity.RoundUp(scale): at least that scale, rounded away from zero; an int64Amount already
        that coarse is kept as it is, its string too."""
        if self.exponent >= scale:  # already that coarse: the value is unchanged
            return self if self.small else Quantity(self.amount, False, self.format)
        rounded = self.amount.quantize(_decimal(1, scale), context=_contexts()[1])
        return Quantity(rounded, self.small, self.format)

    def string(self) -> str:
        """Quantity.String(): the string kept, or CanonicalizeBytes."""
        if self.kept is not None:
            return self.kept
        if self.amount.is_zero():
            return "0"
        fmt = self.format
        if fmt == BINARY_SI and (self.amount.copy_abs() < 1024 or not self.is_whole()):
            fmt = DECIMAL_SI  # between -1024 and 1024, or not whole: no binary suffix
        sign = "-" if self.amount.is_signed() else ""
        if fmt == BINARY_SI:
            whole, power = int(self.amount.copy_abs()), 0
            while whole % 1024 == 0:
                whole, power = whole // 1024, power + 1
            return f"{sign}{whole}{_BINARY_SUFFIX.get(power, '')}"
        _, digits, exponent = self.amount.as_tuple()
        text = "".join(map(str, digits))
        number = text.rstrip("0")
        power = int(exponent) + len(text) - len(number)
        if power % 3:
            number += "0" * (power % 3)
            power -= power % 3
        if fmt == DECIMAL_EXPONENT:
            return f"{sign}{number}" + (f"e{power}" if power else "")
        return f"{sign}{number}{_DECIMAL_SUFFIX.get(power, '')}"

    def _pair(self) -> tuple[int, int]:
        return self.coefficient(), self.exponent


def _scan(text: str) -> tuple[str, str, str, str]:
    """parseQuantityString: (value, numerator, denominator, suffix), or QuantityError(ErrFormatWrong)."""
    pos, end = 0, len(text)
    if pos < end and text[0] in "+-":
        pos += 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return "0", "0", "", ""
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


def _interpret(suffix: str) -> tuple[str, int] | None:
    """quantitySuffixer.interpret: (format, exponent), or None for a suffix it does not know. An
    e/E exponent is what strconv.ParseInt reads, truncated to int32 as Go converts it."""
    if suffix in _DECIMAL:
        return DECIMAL_SI, _DECIMAL[suffix]
    if suffix in _BINARY:
        return BINARY_SI, _BINARY[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[2:] if suffix[1] in "+-" else suffix[1:]
        if not digits or any(c not in _DIGITS for c in digits):
            return None
        significant = digits.lstrip("0") or "0"
        if len(significant) > 19:
            return None  # out of int64's range (and of int()'s digit limit)
        parsed = -int(significant) if suffix[1] == "-" else int(significant)
        if not fits_int64(parsed):
            return None
        return DECIMAL_EXPONENT, (parsed + 2**31) % 2**32 - 2**31
    return None


def parse_quantity(text: str) -> Quantity:
    """resource.ParseQuantity(text), or QuantityError with its text."""
    if not text:
        raise QuantityError(ERR_FORMAT_WRONG)
    if text == "0":
        return Quantity(_decimal(0), True, DECIMAL_SI, text)
    value, num, denom, suffix = _scan(text)
    found = _interpret(suffix)
    if found is None:
        raise QuantityError(ERR_SUFFIX)
    fmt, exponent = found
    negative = text.startswith("-")
    if fmt == BINARY_SI:
        fast = exponent >= 0 and not denom and 15 - len(num) - int(exponent * 3 / 10) - 1 >= 0
        scale, mantissa = 0, 1 << exponent
    else:
        fast = 18 - (len(num) + len(denom)) >= 0
        scale, mantissa = exponent - len(denom), 1
    if fast and scale >= _NANO:
        shifted = num + denom
        unscaled = int(shifted)
        result = unscaled * mantissa
        if result <= _INT64_MAX:  # int64Multiply did not overflow
            if fmt == BINARY_SI:
                kept = unscaled & 0x07 != 0  # binary exponents are all multiples of 10
            else:
                kept = scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
            return Quantity(_decimal(-result if negative else result, scale), True, fmt, text if kept else None)
    return _parse_dec(value, fmt, exponent)


def _parse_dec(value: str, fmt: str, exponent: int) -> Quantity:
    """ParseQuantity off the int64 path: inf.Dec's SetString of the number, the suffix applied, rounded
    up (away from zero) to the nano, BinarySI capped at the largest int64 and, below one, DecimalSI."""
    from decimal import Decimal

    if value.lstrip("+-") in ("", "."):
        raise QuantityError(ERR_NUMERIC)  # inf.Dec's SetString reads no number without digits
    exact, rounding = _contexts()
    amount = Decimal(value)
    amount = exact.multiply(amount, 1 << exponent) if fmt == BINARY_SI else amount.scaleb(exponent, exact)
    if amount.is_zero():
        return Quantity(amount.copy_abs(), False, fmt)
    if amount.adjusted() + 10 <= MAX_DIGITS:  # inf.Dec's Round leaves the scale at the nano's
        amount = amount.quantize(Decimal("1e-9"), context=rounding)
    # else: the nano's scale would take more than MAX_DIGITS digits; the value is whole, its scale left
    if fmt == BINARY_SI and amount.copy_abs() > _INT64_MAX:
        amount = Decimal(_INT64_MIN + 1 if amount.is_signed() else _INT64_MAX)
    if fmt == BINARY_SI and amount.copy_abs() < 1:
        fmt = DECIMAL_SI
    return Quantity(amount, False, fmt)


def as_quantity(value: str | int | float) -> Quantity:
    """The Quantity of a decoded value: a string, or a JSON number as its text."""
    return parse_quantity(value if isinstance(value, str) else repr(value))


def quantity_value(value: str | int | float) -> Decimal:
    """The exact value of a quantity the decoder accepted (what resource.Quantity's Cmp compares)."""
    return as_quantity(value).amount


def quantity_sign(value: str | int | float) -> int:
    """Quantity.Sign(): -1, 0 or 1."""
    return as_quantity(value).sign()


def round_up_to_milli(value: str | int | float) -> str | None:
    """Quantity.RoundUp(-3) as SetDefaults_ResourceList applies it: a quantity finer than a thousandth
    is rounded away from zero to the next thousandth and written again by Quantity.String() in its
    format (`1n` is `1m`, `2500u` is `3m`, `1e-5` is `1e-3`); None when it is whole thousandths."""
    quantity = as_quantity(value)
    rounded = quantity.round_up(-3)
    if rounded.amount == quantity.amount:
        return None
    return rounded.string()


def go_pow10(n: int) -> float:
    """Go's math.Pow10: products and quotients of its tables' powers, so not always the float nearest
    10^n; +Inf above 1e308, 0 below 1e-323."""
    if 0 <= n <= 308:
        return _POW10_POS32[n // 32] * _POW10[n % 32]
    if -323 <= n <= 0:
        return _POW10_NEG32[-n // 32] / _POW10[-n % 32]
    return math.inf if n > 0 else 0.0


_POW10 = tuple(float(f"1e{i}") for i in range(32))
_POW10_POS32 = tuple(float(f"1e{32 * i}") for i in range(10))
_POW10_NEG32 = tuple(float(f"1e-{32 * i}") for i in range(11))


def _positive_scale(value: int, scale: int) -> int | None:
    """positiveScaleInt64: value × 10^scale, None when it overflows an int64."""
    if value == 0:
        return 0
    if scale > 19:
        return None
    result = value * 10**scale
    return result if fits_int64(result) else None


def _round_up_divide(value: int, scale: int) -> int:
    """negativeScaleInt64: value / 10^scale, a remainder rounding it away from zero."""
    if scale > 20:
        return (value > 0) - (value < 0)
    divisor: int = 10**scale
    quotient, remainder = divmod(abs(value), divisor)
    quotient += 1 if remainder else 0
    return -quotient if value < 0 else quotient


def _small_add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """int64Amount.Add: the sum at the finer scale, None where Go's int64 arithmetic overflows."""
    (a_value, a_scale), (b_value, b_scale) = a, b
    if b_value == 0:
        return a
    if a_value == 0:
        return b
    if a_scale > b_scale:
        a_value, a_scale = _positive_scale(a_value, a_scale - b_scale), b_scale  # type: ignore[assignment]
    elif b_scale > a_scale:
        b_value = _positive_scale(b_value, b_scale - a_scale)  # type: ignore[assignment]
    if a_value is None or b_value is None:
        return None
    total = a_value + b_value
    return (total, a_scale) if fits_int64(total) else None


def _exact_add(a: Decimal, b: Decimal) -> Decimal:
    """inf.Dec's Add: exact, at the finer scale; QuantityTooLarge past MAX_DIGITS digits."""
    from decimal import Inexact, InvalidOperation

    try:
        return _contexts()[0].add(a, b)
    except (Inexact, InvalidOperation):
        raise QuantityTooLarge(f"quantities {a} and {b} are not added: their sum has more than {MAX_DIGITS:,} digits "
                               "(the apiserver writes it out in full and does not finish)") from None


def _int64(value: Decimal) -> int:
    """big.Int.Int64() of a whole Decimal: the low 64 bits of the magnitude as an int64, negated for a
    negative value (a remainder, so that a million-digit number is never converted whole)."""
    low = int(_contexts()[0].remainder(value.copy_abs(), 1 << 64))
    low = low - (1 << 64) if low > _INT64_MAX else low
    return _wrap(-low) if value.is_signed() else low


def _wrap(value: int) -> int:
    """Go's int64 arithmetic wraps around."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def _float_to_int64(value: float) -> int:
    """int64(f) on amd64: the smallest int64 for a float out of range."""
    return int(value) if math.isfinite(value) and _INT64_MIN <= value < 2.0**63 else _INT64_MIN


def _dec_scaled_value(amount: Decimal, scale: int) -> int:
    """scale_int.go's scaledValue for an inf.Dec: its unscaled big.Int at the power of ten `scale`,
    `dif` decimal places dropped (negative: added)."""
    from decimal import ROUND_FLOOR

    exact = _contexts()[0]
    exponent = int(amount.as_tuple().exponent)
    unscaled = amount.scaleb(-exponent, exact)
    dif = scale - exponent
    if dif == 0:
        return _int64(unscaled)
    if dif < 0:
        return _wrap(_int64(unscaled) * _float_to_int64(go_pow10(-dif)))
    if unscaled < _INT64_MAX and dif < 19:
        divide: int = 10**dif
        low = _int64(unscaled)
        truncated = abs(low) // divide * (1 if low >= 0 else -1)  # Go's division truncates
        return truncated + 1 if low - truncated * divide else truncated
    if unscaled.adjusted() < dif:  # below 10^dif: big.Int's DivMod gives 0 (or -1) and a remainder
        return 1 if unscaled > 0 else 0
    shifted = amount.scaleb(-scale, exact)
    quotient = shifted.to_integral_value(ROUND_FLOOR, exact)  # big.Int's DivMod: Euclidean
    return _wrap(_int64(quotient) + 1) if quotient != shifted else _int64(quotient)
