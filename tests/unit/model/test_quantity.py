"""Quantity.String() after ParseQuantity: the form the apiserver stores a quantity in. The tables are
apimachinery's pkg/api/resource/quantity_test.go (v0.36.0): TestQuantityParseEmit, and the
`alternate` spellings of TestQuantityString with the canonical string they print."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from crdtool.model.quantity import QuantityError, QuantityTooLarge, go_pow10, parse_quantity, round_up_to_milli


def canonical(text: str) -> str:
    """Quantity.String() of ParseQuantity(text): what the decoder stores."""
    return parse_quantity(text).string()

PARSE_EMIT = [("1Ki", "1Ki"), ("1Mi", "1Mi"), ("1Gi", "1Gi"), ("1024Mi", "1Gi"), ("1000M", "1G"),
              (".001Ki", "1024m"), (".000001Ki", "1024u"), (".000000001Ki", "1024n"), (".000000000001Ki", "2n")]
STRING_ALTERNATES = [("1024Mi", "1Gi"), ("307200Ki", "300Mi"), ("1025024Mi", "1001Gi"), ("1024Gi", "1Ti"),
                     ("5000m", "5"), ("0.5", "500m"), ("1000M", "1G"), ("0.001T", "1G"), ("1000u", "1m"),
                     ("1.08", "1080m"), ("1080000000n", "1080m"), (".001e12", "1e9"), ("0.001e0", "1e-3"),
                     ("1000e-12", "1e-9"), ("00", "0")]
#: TestQuantityString's canonical strings: ParseQuantity keeps them as they are.
STRING_CANONICAL = ["1Gi", "300Mi", "6Ki", "1001Gi", "1Ti", "5", "500m", "1G", "1m", "80m", "1080m", "300M", "1T",
                    "1234567M", "1234567m", "3k", "1025", "0", "1e9", "1e-3", "1e-9", "80e-3", "300e6", "1e12",
                    "1e3", "3e3", "1n", "80n", "1080n", "1u", "80u", "1080u"]


@pytest.mark.parametrize(("text", "expected"), PARSE_EMIT + STRING_ALTERNATES)
def test_a_quantity_is_stored_in_its_canonical_form(text: str, expected: str) -> None:
    assert canonical(text) == expected
    if expected != "0":  # TestQuantityParseEmit: the negative prints with a leading "-"
        assert canonical("-" + text) == "-" + expected


@pytest.mark.parametrize("text", STRING_CANONICAL)
def test_a_canonical_quantity_is_kept(text: str) -> None:
    assert canonical(text) == text


@pytest.mark.parametrize(("text", "expected"), [
    ("1000m", "1"), ("0.5Gi", "512Mi"), ("1.5Ki", "1536"),  # 1536 is no whole number of Ki
    ("+1", "+1"), ("01", "01"),  # the fast path keeps the string itself when its digits are canonical
    ("1e-10", "1e-9"),  # rounded up to the nano
    ("8Ei", "9223372036854775807"),  # BinarySI is capped at the largest int64
    ("1.1e5", "110e3"),  # amount.go: 1.1e5 is "110", 3
])
def test_rounding_caps_and_kept_strings(text: str, expected: str) -> None:
    assert canonical(text) == expected


# ---------------------------------------------------------------- the form Go holds a value in

@pytest.mark.parametrize(("text", "expected"), [
    ("1", 1), ("1e3", 1000), ("1Ki", 1024), ("1Ti", 2**40), ("123456789012345678", 123456789012345678),
    ("0", 0), ("-5k", -5000), ("0e999999999", 0),
    # whole numbers Go holds with a negative scale, or as an inf.Dec: AsInt64 refuses them
    ("1.0", None), ("1000m", None), ("1Pi", None), ("1Ei", None), ("9223372036854775807", None),
    ("0.5", None), ("1e999999999", None), ("1e-999999999", None),
])
def test_as_int64_follows_the_int64_fast_path(text: str, expected: int | None) -> None:
    """AsInt64: an int64Amount (ParseQuantity's fast path: 18 digits, a binary exponent within its
    precision) whose scale is not negative, and whose value fits."""
    assert parse_quantity(text).as_int64() == expected


@pytest.mark.parametrize(("text", "value", "milli"), [
    ("1", 1, 1000), ("1.5", 2, 1500), ("-0.5", -1, -500), ("1n", 1, 1), ("-1n", -1, -1),
    ("0.5Ki", 512, 512000),
    # int64Amount.AsScaledInt64 overflows to 0 (its `ok` ignored by ScaledValue)
    ("1e999999999", 0, 0), ("1e19", 0, 0), ("9e18", 9 * 10**18, 0),
    # an inf.Dec: scaledValue's int64 arithmetic, wrapping
    ("10Ei", 2**63 - 1, ((2**63 - 1) * 1000 + 2**63) % 2**64 - 2**63),
])
def test_scaled_value_is_gos_int64_arithmetic(text: str, value: int, milli: int) -> None:
    """Quantity.Value() and MilliValue(): ceil(value / 10^scale), overflow as Go computes it."""
    quantity = parse_quantity(text)
    assert (quantity.scaled_value(0), quantity.scaled_value(-3)) == (value, milli)


def test_approximate_float_multiplies_by_gos_pow10() -> None:
    assert parse_quantity("1.5").approximate_float() == 1.5
    assert parse_quantity("1Ki").approximate_float() == 1024.0
    assert parse_quantity("1e400").approximate_float() == math.inf
    assert parse_quantity("1e-400").approximate_float() == 1e-9  # rounded up to the nano when parsed
    assert math.isnan(parse_quantity("0.0e999999999").approximate_float())  # 0 × Pow10(>308) = 0 × +Inf
    assert go_pow10(-5) == 1e-5 and go_pow10(309) == math.inf and go_pow10(-324) == 0.0


def test_add_and_sub_keep_gos_form() -> None:
    """Quantity.Add and Sub: int64 arithmetic at the finer scale while it fits, exact otherwise; a
    zero takes the other's format."""
    total = parse_quantity("1").add(parse_quantity("500m"))
    assert (total.amount, total.exponent, total.small, total.string()) == (Decimal("1.5"), -3, True, "1500m")
    back = total.sub(parse_quantity("500m"))
    assert back.cmp(parse_quantity("1")) == 0 and back.as_int64() is None  # 1000m
    assert parse_quantity("1k").sub(parse_quantity("500")).as_int64() == 500
    assert parse_quantity("9e18").add(parse_quantity("9e18")).small  # {9, 18} + {9, 18}: {18, 18}
    big = parse_quantity("900000000000000000").add(parse_quantity("9e18"))  # 9e18 + 9e17 overflows an int64
    assert (big.small, big.amount) == (False, Decimal("9.9e18"))
    assert parse_quantity("0").add(parse_quantity("1Ki")).string() == "1Ki"
    with pytest.raises(QuantityTooLarge):
        parse_quantity("1e999999999").add(parse_quantity("1"))


@pytest.mark.parametrize(("text", "rounded"), [("9.01", None), ("1n", "1m"), ("2500u", "3m"), ("-1n", "-1m"),
                                               ("1e-5", "1e-3"), (".0000001Ki", "1m"), ("1e999999999", None)])
def test_round_up_to_milli(text: str, rounded: str | None) -> None:
    """Quantity.RoundUp(-3), as SetDefaults_ResourceList applies it (TestQuantityRoundUp's direction)."""
    assert round_up_to_milli(text) == rounded


HOSTILE = ["1e999999999", "-1e999999999", "1e-999999999", "1" + "0" * 30 + "e999999999", "9" * 50_000,
           "9" * 50_000 + "e-999999999", "1" + "0" * 25 + "Ei", "0.000000000000000000001e-2147483648"]


@pytest.mark.parametrize("text", HOSTILE)
def test_extreme_exponents_and_lengths_cost_nothing(text: str) -> None:
    """A quantity's exponent is never written out: parsing, comparing, printing and the int64
    conversions of `1e999999999` are immediate (the apiserver itself writes some of these out)."""
    quantity = parse_quantity(text)
    assert quantity.cmp(quantity) == 0 and quantity.cmp(parse_quantity("0")) == quantity.sign()
    assert quantity.string()
    quantity.scaled_value(0), quantity.scaled_value(-3), quantity.as_int64(), quantity.approximate_float()
    assert quantity.round_up(-3).sign() == quantity.sign()


def test_strange_but_valid_spellings() -> None:
    """The scanner reads a number without digits as 0 (`Mi`), and `1.` and `.5` as numbers (`1.`,
    its digits canonical, kept as written)."""
    assert canonical("Mi") == "0" and canonical("1.") == "1." and canonical(".5") == "500m"
    with pytest.raises(QuantityError, match="quantities must match"):
        parse_quantity("1.2.3")
    with pytest.raises(QuantityError, match="suffix"):
        parse_quantity("1e99999999999999999999999")  # beyond int64: strconv.ParseInt fails
