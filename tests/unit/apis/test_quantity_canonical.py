"""Quantity.String() after ParseQuantity: the form the apiserver stores a quantity in. The tables are
apimachinery's pkg/api/resource/quantity_test.go (v0.36.0): TestQuantityParseEmit, and the
`alternate` spellings of TestQuantityString with the canonical string they print."""

from __future__ import annotations

import pytest

from crdtool.apis.quantity import canonical

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
