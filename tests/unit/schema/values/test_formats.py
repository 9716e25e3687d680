"""kube-openapi's strfmt registry as the apiserver applies it to custom resources."""

from __future__ import annotations

import pytest

from crdtool.schema.values.formats import format_checker


@pytest.mark.parametrize(
    ("fmt", "value", "valid"),
    [
        # the verdicts recorded from the apiserver (validate.jsonl, synthetic/schema/format-*)
        ("date-time", "2024-01-02T03:04:05Z", True),
        ("date-time", "2024-01-02 03:04:05", False),
        ("date-time", "2024-01-02T03:04:05.123+02:00", True),
        ("date-time", "2024-01-02T25:00:00Z", False),
        ("datetime", "x", False),
        ("date", "2024-13-02", False),
        ("duration", "1 hour", True),
        ("byte", "not base64!", False),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", True),
        ("uuid", "123", False),
        ("email", "a@example.com", True),
        ("ipv4", "10.0.0.1", True),
        ("ipv4", "1.1.1", False),
        ("ipv4", "1200:0000:::AB00:1234:0000:2552:7777:1313", False),
        ("ipv6", "1.2.3.4", False),
        ("cidr", "10.0.0.0/8", True),
        ("cidr", "10.0.0.0/40", False),
        ("hostname", "example.com", True),
        ("hostname", "-bad-", False),
        ("mac", "01:23:45:67:89:ab", True),
        ("password", "x", True),
        ("isbn", "978-3-16-148410-0", True),
        ("isbn", "123", False),
        ("creditcard", "4111111111111111", True),
        ("ssn", "1", False),
        ("hexcolor", "fff", True),
        ("rgbcolor", "rgb(1,2,3)", True),
        ("rgbcolor", "red", False),
        ("bsonobjectid", "507f1f77bcf86cd799439011", True),
        ("bsonobjectid", "x", False),
        ("k8s-short-name", "abc", True),
        # Go's parsers, edge by edge
        ("date", "2024-02-29", True),
        ("date", "2023-02-29", False),
        ("date", "2024-1-02", False),
        ("date-time", "2024-01-02t03:04:05z", True),
        ("ipv4", "01.2.3.4", False),  # netip rejects leading zeros
        ("ipv4", "::ffff:1.2.3.4", True),  # govalidator only asks for a dot
        ("ipv6", "fe80::1%eth0", False),  # net.ParseIP takes no zone
        ("cidr", "::/0", True),
        ("cidr", "1.2.3.4/", False),
        ("mac", "0123.4567.89ab", True),
        ("mac", "01:23:45:67:89", False),
        ("mac", "01:23-45:67:89:ab", False),
        ("byte", "aGVsbG8=", True),
        ("byte", "", False),
        ("duration", "1h30m", True),
        ("duration", "-1.5h", True),
        ("duration", "forever", False),
        ("duration", "", False),
        ("duration", "5 days later", True),  # the Scala-style fallback finds `5 days` anywhere
        ("uri", "https://example.com/a?b#c", True),
        ("uri", "/absolute/path", True),
        ("uri", "relative/path", False),
        ("uri", "mailto:someone", True),
        ("uri", "http://a b/", False),
        ("uri", "http://host:port/", False),
        ("uri", "http://[::1]:80/x", True),
        ("uri", "http://x/%zz", False),
        ("email", "Someone <a@example.com>", True),
        ("email", "not an address", False),
        ("hostname", "a-", True),  # the strfmt pattern allows a trailing dash in a single label
        ("hostname", "a.b", False),  # ... but wants two characters in the last of several labels
        ("hostname", "é.com", True),
        ("hostname", "a" * 64, False),
        ("ssn", "123-45-6789", True),
        ("isbn10", "0321751043", True),
        ("isbn13", "978-0321751041", True),
        ("uuid4", "123e4567-e89b-42d3-a456-426614174000", True),
        ("uuid4", "123e4567-e89b-12d3-a456-426614174000", False),
        ("k8s-long-name", "a.b-c", True),
        ("k8s-long-name", "A.b", False),
    ],
)
def test_format_verdicts(fmt: str, value: str, valid: bool) -> None:
    checker = format_checker(fmt)
    assert checker is not None
    assert checker(value) is valid


@pytest.mark.parametrize("fmt", ["int32", "int64", "double", "float", "ip", "arn", "Date-Time", "quantity"])
def test_unknown_formats_are_not_checked(fmt: str) -> None:
    assert format_checker(fmt) is None


def test_dashes_are_ignored_in_names() -> None:
    assert format_checker("date-time") is format_checker("datetime")
    assert format_checker("u-u-i-d") is format_checker("uuid")
