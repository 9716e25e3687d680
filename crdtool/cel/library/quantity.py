"""Kubernetes' quantity library (library/quantity.go) over resource.Quantity's grammar."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["library", "parse_quantity"]

QUANTITY = "kubernetes.Quantity"
_GRAMMAR = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
_PATTERN = re.compile(_GRAMMAR)
_BINARY = {"Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40, "Pi": 2 ** 50, "Ei": 2 ** 60}
_INT64 = (-(1 << 63), (1 << 63) - 1)


@cache
def _decimal_suffixes() -> dict[str, Decimal]:
    """The decimal SI suffixes' factors (decimal is imported here: only a rule that calls quantity() needs
    it, and every run with rules imports the library)."""
    from decimal import Decimal

    return {"n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "": Decimal(1), "k": Decimal(10) ** 3,
            "M": Decimal(10) ** 6, "G": Decimal(10) ** 9, "T": Decimal(10) ** 12, "P": Decimal(10) ** 15,
            "E": Decimal(10) ** 18}


def parse_quantity(text: str) -> Decimal:
    """The value of a quantity string, or ValueError with resource.ParseQuantity's text."""
    from decimal import Decimal, InvalidOperation

    m = _PATTERN.match(text)
    if m is None or not text:
        raise ValueError(f"quantities must match the regular expression '{_GRAMMAR}'")
    number, suffix = m.groups()
    try:
        value = Decimal(number)
    except InvalidOperation:
        raise ValueError("unable to parse quantity's suffix") from None
    if suffix in _BINARY:
        return value * _BINARY[suffix]
    factor = _decimal_suffixes().get(suffix)
    if factor is not None:
        return value * factor
    if suffix[:1] in ("e", "E"):
        try:
            return value * Decimal(10) ** int(suffix[1:])
        except ValueError:
            pass
    raise ValueError("unable to parse quantity's suffix")


def _value(q) -> Decimal:
    return parse_quantity(q.value)


def _make(value: Decimal):
    return make(QUANTITY, _text(value))


def _text(value: Decimal) -> str:
    """One spelling per value, so that equal quantities are equal messages."""
    return format(value.normalize(), "f")


def _operand(x) -> Decimal:
    from decimal import Decimal

    return Decimal(x) if isinstance(x, int) else _value(x)


def _as_integer(q) -> int:
    value = _value(q)
    if value != value.to_integral_value() or not _INT64[0] <= value <= _INT64[1]:
        raise ValueError("cannot convert value to integer")
    return int(value)


def _compare(a, b) -> int:
    x, y = _value(a), _value(b)
    return (x > y) - (x < y)


def _is_quantity(text: str) -> bool:
    try:
        parse_quantity(text)
    except ValueError:
        return False
    return True


def library(lib: Library) -> None:
    q, s, i, b = cel_type(QUANTITY), cel.Type.STRING, cel.Type.INT, cel.Type.BOOL
    lib.function("quantity", "string_to_quantity", q, [s], lambda t: _make(parse_quantity(t)))
    lib.function("isQuantity", "is_quantity_string", b, [s], _is_quantity)
    lib.function("sign", "quantity_sign", i, [q], lambda v: (_value(v) > 0) - (_value(v) < 0))
    lib.member("isInteger", "quantity_is_integer", b, [q],
               lambda v: _value(v) == _value(v).to_integral_value() and _INT64[0] <= _value(v) <= _INT64[1])
    lib.member("asInteger", "quantity_get_int", i, [q], _as_integer)
    lib.member("asApproximateFloat", "quantity_get_float", cel.Type.DOUBLE, [q], lambda v: float(_value(v)))
    lib.member("add", "quantity_add", q, [q, q], lambda a, c: _make(_value(a) + _operand(c)))
    lib.member("add", "quantity_add_int", q, [q, i], lambda a, c: _make(_value(a) + _operand(c)))
    lib.member("sub", "quantity_sub", q, [q, q], lambda a, c: _make(_value(a) - _operand(c)))
    lib.member("sub", "quantity_sub_int", q, [q, i], lambda a, c: _make(_value(a) - _operand(c)))
    lib.member("isLessThan", "quantity_less", b, [q, q], lambda a, c: _compare(a, c) < 0)
    lib.member("isGreaterThan", "quantity_greater", b, [q, q], lambda a, c: _compare(a, c) > 0)
    lib.member("compareTo", "quantity_compare", i, [q, q], _compare)
