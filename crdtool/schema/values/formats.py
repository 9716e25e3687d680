"""The string formats the apiserver checks in custom resources: kube-openapi's `strfmt.Default` registry.

A schema's `format` is looked up with strfmt's name normalization (dashes removed, case kept: `date-time`
is `datetime`); a format the registry does not know is not checked at all. Each checker below gives the
same verdict as the Go function the registry holds (asaskevich/govalidator as vendored by Kubernetes,
Go's net, net/url, net/mail and time parsers), re-implemented because Python's own parsers disagree on
edge cases (leading zeros, zones, percent escapes, year 0, ...). Regular expressions use RE2 like Go.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

import re2

from crdtool.model.gotime import go_duration_nanos

Checker = Callable[[str], bool]


def normalize_format(name: str) -> str:
    """strfmt.DefaultNameNormalizer: the registry key of a format name."""
    return name.replace("-", "")


def format_checker(name: str) -> Checker | None:
    """The registry's validator for a schema format, or None when the apiserver ignores the format."""
    return _REGISTRY.get(normalize_format(name))


# ---------------------------------------------------------------- patterns (govalidator and strfmt)
_RGB_PART = r"\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*"
#: By name; compiled on first use (`_pattern`): a run meets few formats, and compiling them all took
#: a few milliseconds of every run's start.
_PATTERNS = {
    "uuid": r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$",
    "uuid3": r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$",
    "uuid4": r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
    "uuid5": r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
    "isbn10": r"^(?:[0-9]{9}X|[0-9]{10})$",
    "isbn13": r"^(?:[0-9]{13})$",
    "spaces and minus": r"[\s-]+",
    "not number": r"[^0-9]+",
    "creditcard": r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|"
                  r"3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$",
    "ssn": r"^\d{3}[- ]?\d{2}[- ]?\d{4}$",
    "hexcolor": r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
    "rgbcolor": r"^rgb\(" + _RGB_PART + "," + _RGB_PART + "," + _RGB_PART + r"\)$",
    "byte": r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$",
    "date-time tail": r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$",
    "scala duration": r"((\d+)\s*([A-Za-zµ]+))",
    "k8sshortname": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    "k8slongname": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
}


@cache
def _pattern(name: str) -> Any:
    """The named pattern, compiled with RE2 (as Go's regexp reads it)."""
    return re2.compile(_PATTERNS[name])


_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")


def _utf8_len(s: str) -> int:
    return len(s.encode("utf-8", "surrogateescape"))


# ---------------------------------------------------------------- net
def _parse_ip(s: str) -> bool:
    """net.ParseIP, which is netip.ParseAddr refusing a zone: dotted IPv4 without leading zeros, or IPv6."""
    from crdtool.model.netip import AddrError, parse_addr  # imported when an address is first checked

    try:
        return parse_addr(s).zone == ""
    except AddrError:
        return False


def is_ipv4(s: str) -> bool:
    """govalidator.IsIPv4: parses as an IP and contains a dot (so ::ffff:1.2.3.4 counts)."""
    return "." in s and _parse_ip(s)


def is_ipv6(s: str) -> bool:
    """govalidator.IsIPv6: parses as an IP and contains a colon."""
    return ":" in s and _parse_ip(s)


def is_cidr(s: str) -> bool:
    """net.ParseCIDR: an address without zone, a slash, and a decimal prefix length within the address size."""
    addr, sep, mask = s.partition("/")
    if not sep or not _parse_ip(addr) or not mask or not set(mask) <= _DIGITS:
        return False
    bits = 32 if ":" not in addr else 128
    return int(mask) <= bits


def is_mac(s: str) -> bool:
    """net.ParseMAC: 6, 8 or 20 octets as xx:xx.., xx-xx.. or xxxx.xxxx.. groups."""
    b = s.encode("utf-8", "surrogateescape")
    if len(b) < 14:
        return False

    def hex_pair(chunk: bytes) -> bool:
        return len(chunk) == 2 and all(chr(c) in _HEX for c in chunk)

    if b[2:3] in (b":", b"-"):
        sep = b[2:3]
        if (len(b) + 1) % 3 != 0 or (len(b) + 1) // 3 not in (6, 8, 20):
            return False
        groups = b.split(sep)
        return len(groups) == (len(b) + 1) // 3 and all(hex_pair(g) for g in groups)
    if b[4:5] == b".":
        if (len(b) + 1) % 5 != 0 or 2 * (len(b) + 1) // 5 not in (6, 8, 20):
            return False
        groups = b.split(b".")
        return all(len(g) == 4 and hex_pair(g[:2]) and hex_pair(g[2:]) for g in groups)
    return False


# ---------------------------------------------------------------- net/mail ParseAddress
_ATEXT_SPECIALS = frozenset("()<>[]:;@\\,\"")


def _is_atext(c: str) -> bool:
    return (ord(c) >= 0x80 or "!" <= c <= "~") and c not in _ATEXT_SPECIALS


def _dot_atom(s: str) -> bool:
    return bool(s) and all(part and all(_is_atext(c) for c in part) for part in s.split("."))


def _quoted(s: str) -> bool:
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        return False
    body, i = s[1:-1], 0
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        if body[i] == '"':
            return False
        i += 1
    return i == len(body)


def _addr_spec(s: str) -> bool:
    local, at, domain = s.rpartition("@")
    if not at or not (_dot_atom(local) or _quoted(local)):
        return False
    return _dot_atom(domain) or (domain.startswith("[") and domain.endswith("]") and len(domain) > 2)


def is_email(s: str) -> bool:
    """mail.ParseAddress yields an address: `local@domain` or `Display Name <local@domain>`."""
    s = s.strip(" \t")
    if _addr_spec(s):
        return True
    if s.endswith(">") and "<" in s:
        name, _, addr = s[:-1].rpartition("<")
        words = name.split()
        return _addr_spec(addr.strip(" \t")) and all(_dot_atom(w) or _quoted(w) for w in words)
    return False


# ---------------------------------------------------------------- time
def _days_in(month: int, year: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def is_date(s: str) -> bool:
    """time.Parse("2006-01-02", s): a four-character year, two-digit month and day, a real calendar day."""
    if len(s) != 10 or s[4] != "-" or s[7] != "-":
        return False
    year, month, day = s[0:4], s[5:7], s[8:10]
    sign = year[0] in "+-"
    if not set(year[1:] if sign else year) <= _DIGITS or not set(month + day) <= _DIGITS:
        return False
    y, m, d = int(year), int(month), int(day)
    return 1 <= m <= 12 and 1 <= d <= _days_in(m, y)


def is_date_time(s: str) -> bool:
    """strfmt.IsDateTime: a date, a `t`, and hh:mm:ss[.frac](z|±hh:mm), compared as the Go code does."""
    if len(s) < 4:
        return False
    parts = s.lower().split("t")
    if len(parts) < 2 or not is_date(parts[0]):
        return False
    m = _pattern("date-time tail").search(parts[1])
    return m is not None and m.group(1) <= "23" and m.group(2) <= "59" and m.group(3) <= "59"


_SCALA_UNITS = (("ns", "nano"), ("us", "µs", "micro"), ("ms", "milli"), ("s", "sec"), ("m", "min"),
                ("h", "hr", "hour"), ("d", "day"), ("w", "wk", "week"))
_SCALA_NANOS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9,
                "d": 86400 * 10**9, "w": 7 * 86400 * 10**9}


def _int64(n: int) -> int:
    """n wrapped to Go's int64, as time.Duration arithmetic wraps."""
    return (n + (1 << 63)) % (1 << 64) - (1 << 63)


def parse_duration(s: str) -> int | None:
    """strfmt.ParseDuration in nanoseconds, or None: Go's time.ParseDuration, else the Scala-like
    `<n> <unit>` pieces found anywhere in the text, summed (each unit variant that matches adds once more,
    with int64 wrap-around, as the Go loop does)."""
    nanos = go_duration_nanos(s)
    if nanos is not None:
        return nanos
    total, ok = 0, False
    for _, digits, unit_text in _pattern("scala duration").findall(s):
        factor = int(digits)
        if factor > (1 << 63) - 1:  # strconv.Atoi fails: the whole parse fails
            return None
        unit = unit_text.strip().lower()
        for variants in _SCALA_UNITS:
            last = len(variants) - 1
            for i, variant in enumerate(variants):
                if (i == last and unit.startswith(variant)) or unit == variant:
                    ok = True
                    total = _int64(total + _int64(factor * _SCALA_NANOS[variants[0]]))
    return total if ok else None


def is_duration(s: str) -> bool:
    """strfmt.IsDuration."""
    return parse_duration(s) is not None


# ---------------------------------------------------------------- govalidator
def _isbn10(s: str) -> bool:
    s = _pattern("spaces and minus").sub("", s)
    if not _pattern("isbn10").search(s):
        return False
    total = sum((i + 1) * int(s[i]) for i in range(9)) + (100 if s[9] == "X" else 10 * int(s[9]))
    return total % 11 == 0


def _isbn13(s: str) -> bool:
    s = _pattern("spaces and minus").sub("", s)
    if not _pattern("isbn13").search(s):
        return False
    total = sum((1, 3)[i % 2] * int(s[i]) for i in range(12))
    return int(s[12]) - (10 - total % 10) % 10 == 0


def _credit_card(s: str) -> bool:
    s = _pattern("not number").sub("", s)
    if not _pattern("creditcard").search(s):
        return False
    total, double = 0, False
    for ch in reversed(s):
        n = int(ch) * (2 if double else 1)
        total += n % 10 + 1 if n >= 10 else n
        double = not double
    return total % 10 == 0


def _host_char(c: str) -> bool:
    """[a-zA-Z0-9\\p{S}\\p{L}] of strfmt's HostnamePattern."""
    if c.isascii():
        return c.isalnum()
    return unicodedata.category(c)[0] in "LS"


def _hostname_pattern(s: str) -> bool:
    """strfmt.HostnamePattern, matched by hand: RE2's DFA runs out of memory on its Unicode classes.

    Either one label `A(-?A{0,62})?`, or labels `A([A-]{0,61}A)?` each followed by a dot and then a last
    label `A(-?A){1,62}` (A a letter, digit or symbol).
    """
    if not s or not _host_char(s[0]):
        return False
    tail = s[1:]
    body = tail[1:] if tail[:1] == "-" else tail
    if len(body) <= 62 and all(_host_char(c) for c in body):
        return True
    *labels, last = s.split(".")
    if not labels:
        return False
    for label in labels:
        if not label or len(label) > 63 or not _host_char(label[0]) or not _host_char(label[-1]):
            return False
        if not all(c == "-" or _host_char(c) for c in label[1:-1]):
            return False
    if len(last) < 2 or not _host_char(last[0]) or last.endswith("-") or "--" in last:
        return False
    rest = last[1:]
    letters = len(rest) - rest.count("-")
    return 1 <= letters <= 62 and all(c == "-" or _host_char(c) for c in rest)


def _hostname(s: str) -> bool:
    """strfmt.IsHostname: the pattern, at most 255 bytes, no label over 63 bytes."""
    if not _hostname_pattern(s) or _utf8_len(s) > 255:
        return False
    return all(_utf8_len(label) <= 63 for label in s.split("."))


def _bson_object_id(s: str) -> bool:
    return len(s) == 24 and set(s) <= _HEX


def _ssn(s: str) -> bool:
    return _utf8_len(s) == 11 and _pattern("ssn").search(s) is not None


def _request_uri(s: str) -> bool:
    from crdtool.model.gourl import is_request_uri  # imported when a URI is first checked

    return is_request_uri(s)


def _regex(name: str) -> Checker:
    return lambda s: _pattern(name).search(s) is not None


_REGISTRY: dict[str, Checker] = {
    "uri": _request_uri,
    "email": is_email,
    "hostname": _hostname,
    "ipv4": is_ipv4,
    "ipv6": is_ipv6,
    "cidr": is_cidr,
    "mac": is_mac,
    "uuid": _regex("uuid"),
    "uuid3": _regex("uuid3"),
    "uuid4": _regex("uuid4"),
    "uuid5": _regex("uuid5"),
    "isbn": lambda s: _isbn10(s) or _isbn13(s),
    "isbn10": _isbn10,
    "isbn13": _isbn13,
    "creditcard": _credit_card,
    "ssn": _ssn,
    "hexcolor": _regex("hexcolor"),
    "rgbcolor": _regex("rgbcolor"),
    "byte": _regex("byte"),
    "password": lambda s: True,
    "date": is_date,
    "datetime": is_date_time,
    "duration": is_duration,
    "bsonobjectid": _bson_object_id,
    "k8sshortname": lambda s: _utf8_len(s) <= 63 and _pattern("k8sshortname").search(s) is not None,
    "k8slongname": lambda s: _utf8_len(s) <= 253 and _pattern("k8slongname").search(s) is not None,
}
