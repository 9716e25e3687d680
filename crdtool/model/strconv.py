"""Go's strconv.Atoi, with its error texts."""

from __future__ import annotations

from crdtool.model.gofmt import go_quote

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def atoi(text: str) -> int:
    """strconv.Atoi (64-bit int): an optional sign and ASCII digits; ValueError with Go's text
    (`strconv.Atoi: parsing "x": invalid syntax`, `... value out of range`)."""
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not all("0" <= c <= "9" for c in body):
        raise ValueError(f"strconv.Atoi: parsing {go_quote(text)}: invalid syntax")
    n = int(text)
    if not _INT64_MIN <= n <= _INT64_MAX:
        raise ValueError(f"strconv.Atoi: parsing {go_quote(text)}: value out of range")
    return n
