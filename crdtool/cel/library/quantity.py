"""Kubernetes' quantity library (k8s.io/apiserver pkg/cel/library/quantity.go) over model.quantity.

A quantity travels through the CEL runtime as a message holding one string, and the runtime compares
two messages field by field where Go compares quantities by value (`quantity('50k').sub(20000) ==
quantity('30k')`). So the string is the value, normalized (`3E+4`), not Go's form of it: equal
quantities are equal messages. The one part of the form an answer depends on is kept as a trailing
`~`: a whole number within an int64 that Go holds in a form AsInt64 refuses (`1000m`, `1.0`, `1Ei`),
so that `isInteger()` and `asInteger()` answer as Go does, also for sums. Two equal values, one with
the mark and one without, are then unequal to `==` (`quantity('1') == quantity('1000m')`, true in
Go); `compareTo` says 0 for them, as Go does. `asApproximateFloat()` multiplies the normalized
digits by Go's Pow10 where Go takes its own form's: the two can differ in the last bit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make

if TYPE_CHECKING:
    from crdtool.model.quantity import Quantity

__all__ = ["library"]

QUANTITY = "kubernetes.Quantity"
#: Marks a whole int64-sized value that AsInt64 refuses.
_NOT_INT64 = "~"


def _message(quantity: Quantity):
    """The opaque message of a quantity: its normalized value, marked when Go's form refuses AsInt64."""
    from crdtool.model.quantity import fits_int64

    whole_int64 = fits_int64(quantity.amount) and quantity.is_whole()
    mark = _NOT_INT64 if whole_int64 and quantity.as_int64() is None else ""
    return make(QUANTITY, quantity.normalized() + mark)


def _quantity(message) -> Quantity:
    """The Quantity a message stands for: an int64Amount unless marked or too long for one."""
    from decimal import Decimal

    from crdtool.model.quantity import DECIMAL_SI, Quantity, fits_int64

    text: str = message.value
    amount = Decimal(text.removesuffix(_NOT_INT64))
    small = not text.endswith(_NOT_INT64) and len(amount.as_tuple().digits) <= 19  # (int() of more is slow)
    quantity = Quantity(amount, small, DECIMAL_SI)
    if small and not fits_int64(quantity.coefficient()):
        return Quantity(amount, False, DECIMAL_SI)
    return quantity


def _of_int(value: int) -> Quantity:
    """resource.NewQuantity(value, DecimalSI): an int64Amount at scale 0."""
    from decimal import Decimal

    from crdtool.model.quantity import DECIMAL_SI, Quantity

    return Quantity(Decimal(value), True, DECIMAL_SI)


def _parse(text: str) -> Quantity:
    """ParseQuantity (model.quantity is imported here: every run with rules registers this library,
    few call it)."""
    from crdtool.model.quantity import parse_quantity

    return parse_quantity(text)


def _is_quantity(text: str) -> bool:
    try:
        _parse(text)
    except ValueError:
        return False
    return True


def _as_integer(message) -> int:
    value = _quantity(message).as_int64()
    if value is None:
        raise ValueError("cannot convert value to integer")
    return value


def _compare(a, b) -> int:
    return _quantity(a).cmp(_quantity(b))


def library(lib: Library) -> None:
    q, s, i, b = cel_type(QUANTITY), cel.Type.STRING, cel.Type.INT, cel.Type.BOOL
    lib.function("quantity", "string_to_quantity", q, [s], lambda t: _message(_parse(t)))
    lib.function("isQuantity", "is_quantity_string", b, [s], _is_quantity)
    lib.function("sign", "quantity_sign", i, [q], lambda v: _quantity(v).sign())
    lib.member("isInteger", "quantity_is_integer", b, [q], lambda v: _quantity(v).as_int64() is not None)
    lib.member("asInteger", "quantity_get_int", i, [q], _as_integer)
    lib.member("asApproximateFloat", "quantity_get_float", cel.Type.DOUBLE, [q],
               lambda v: _quantity(v).approximate_float())
    lib.member("add", "quantity_add", q, [q, q], lambda a, c: _message(_quantity(a).add(_quantity(c))))
    lib.member("add", "quantity_add_int", q, [q, i], lambda a, c: _message(_quantity(a).add(_of_int(c))))
    lib.member("sub", "quantity_sub", q, [q, q], lambda a, c: _message(_quantity(a).sub(_quantity(c))))
    lib.member("sub", "quantity_sub_int", q, [q, i], lambda a, c: _message(_quantity(a).sub(_of_int(c))))
    lib.member("isLessThan", "quantity_less", b, [q, q], lambda a, c: _compare(a, c) < 0)
    lib.member("isGreaterThan", "quantity_greater", b, [q, q], lambda a, c: _compare(a, c) > 0)
    lib.member("compareTo", "quantity_compare", i, [q, q], _compare)
