"""Go's `netip.ParseAddr`, with its error texts.

The apiserver parses IP addresses with it in the CEL `ip()`/`cidr()` functions and in the bracketed
host of a URL (`https://[::1]/`); its errors appear in their messages verbatim
(`ParseAddr("1.2.3"): IPv4 address too short`). Go works on the bytes of the string, so this does
too (strings that are not UTF-8 arrive here with surrogate escapes).
"""

from __future__ import annotations

from crdtool.model.gofmt import go_quote
from crdtool.model.record import FrozenRecord

__all__ = ["Addr", "AddrError", "PrefixError", "parse_addr", "parse_prefix"]

_HEX = {ord(c): int(c, 16) for c in "0123456789abcdefABCDEF"}


class AddrError(ValueError):
    """parseAddrError: `ParseAddr("<in>"): <msg>`, with ` (at "<rest>")` where Go names the spot."""

    def __init__(self, text: bytes, msg: str, at: bytes = b"") -> None:
        quoted = go_quote(_text(text))
        super().__init__(f"ParseAddr({quoted}): {msg}" + (f" (at {go_quote(_text(at))})" if at else ""))


class Addr(FrozenRecord):
    """An address: its 32 or 128 bits, whether it is IPv4, and an IPv6 zone."""

    __slots__ = ("value", "is4", "zone")

    value: int
    is4: bool
    zone: str

    def __init__(self, value: int, is4: bool, zone: str = "") -> None:
        self.value = value
        self.is4 = is4
        self.zone = zone

    @property
    def is4in6(self) -> bool:
        """An IPv4-mapped IPv6 address (::ffff:a.b.c.d)."""
        return not self.is4 and self.value >> 32 == 0xFFFF


def _text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def parse_addr(s: str) -> Addr:
    """netip.ParseAddr: dotted IPv4 (no leading zeros), IPv6 with an optional %zone; AddrError otherwise."""
    raw = s.encode("utf-8", "surrogateescape")
    for b in raw:
        if b == 0x2E:  # '.'
            return Addr(_parse_ipv4_fields(raw, 0, len(raw)), True)
        if b == 0x3A:  # ':'
            return _parse_ipv6(raw)
        if b == 0x25:  # '%'
            raise AddrError(raw, "missing IPv6 address")
    raise AddrError(raw, "unable to parse IP")


def _parse_ipv4_fields(text: bytes, off: int, end: int) -> int:
    s = text[off:end]
    fields: list[int] = []
    val = dig_len = 0
    for i, c in enumerate(s):
        if 0x30 <= c <= 0x39:
            if dig_len == 1 and val == 0:
                raise AddrError(text, "IPv4 field has octet with leading zero")
            val = val * 10 + c - 0x30
            dig_len += 1
            if val > 255:
                raise AddrError(text, "IPv4 field has value >255")
        elif c == 0x2E:
            if i == 0 or i == len(s) - 1 or s[i - 1] == 0x2E:
                raise AddrError(text, "IPv4 field must have at least one digit", s[i:])
            if len(fields) == 3:
                raise AddrError(text, "IPv4 address too long")
            fields.append(val)
            val = dig_len = 0
        else:
            raise AddrError(text, "unexpected character", s[i:])
    if len(fields) < 3:
        raise AddrError(text, "IPv4 address too short")
    fields.append(val)
    return int.from_bytes(bytes(fields), "big")


def _parse_ipv6(text: bytes) -> Addr:
    """net/netip's parseIPv6, step for step (its checks decide which of Go's errors is reported)."""
    s = text
    zone = b""
    pct = s.find(b"%")
    if pct != -1:
        s, zone = s[:pct], s[pct + 1:]
        if not zone:
            raise AddrError(text, "zone must be a non-empty string")
    ip = bytearray(16)
    ellipsis = -1
    if s[:2] == b"::":
        ellipsis = 0
        s = s[2:]
        if not s:
            return Addr(0, False, _text(zone))
    i = 0
    while i < 16:
        off = acc = 0
        while off < len(s) and s[off] in _HEX:
            acc = (acc << 4) + _HEX[s[off]]
            if off > 3:
                raise AddrError(text, "each group must have 4 or less digits", s)
            if acc > 0xFFFF:
                raise AddrError(text, "IPv6 field has value >=2^16", s)
            off += 1
        if off == 0:
            raise AddrError(text, "each colon-separated field must have at least one digit", s)
        if off < len(s) and s[off] == 0x2E:
            if ellipsis < 0 and i != 12:
                raise AddrError(text, "embedded IPv4 address must replace the final 2 fields of the address", s)
            if i + 4 > 16:
                raise AddrError(text, "too many hex fields to fit an embedded IPv4 at the end of the address", s)
            end = len(text) - (len(zone) + 1 if zone else 0)
            ip[i:i + 4] = _parse_ipv4_fields(text, end - len(s), end).to_bytes(4, "big")
            s = b""
            i += 4
            break
        ip[i], ip[i + 1] = acc >> 8, acc & 0xFF
        i += 2
        s = s[off:]
        if not s:
            break
        if s[0] != 0x3A:
            raise AddrError(text, "unexpected character, want colon", s)
        if len(s) == 1:
            raise AddrError(text, "colon must be followed by more characters", s)
        s = s[1:]
        if s[0] == 0x3A:
            if ellipsis >= 0:
                raise AddrError(text, "multiple :: in address", s)
            ellipsis = i
            s = s[1:]
            if not s:
                break
    if s:
        raise AddrError(text, "trailing garbage after address", s)
    if i < 16:
        if ellipsis < 0:
            raise AddrError(text, "address string too short")
        n = 16 - i
        ip[ellipsis + n:16] = ip[ellipsis:i]
        ip[ellipsis:ellipsis + n] = bytes(n)
    elif ellipsis >= 0:
        raise AddrError(text, "the :: must expand to at least one field of zeros")
    return Addr(int.from_bytes(ip, "big"), False, _text(zone))


class PrefixError(ValueError):
    """parsePrefixError: `netip.ParsePrefix("<in>"): <msg>`."""

    def __init__(self, text: str, msg: str) -> None:
        super().__init__(f"netip.ParsePrefix({go_quote(text)}): {msg}")


def parse_prefix(s: str) -> tuple[Addr, int]:
    """netip.ParsePrefix: `address/bits` without a zone, bits in decimal within the address size."""
    slash = s.rfind("/")
    if slash < 0:
        raise PrefixError(s, "no '/'")
    try:
        addr = parse_addr(s[:slash])
    except AddrError as err:
        raise PrefixError(s, str(err)) from None
    if not addr.is4 and addr.zone:
        raise PrefixError(s, "IPv6 zones cannot be present in a prefix")
    bits = s[slash + 1:]
    # strconv.Atoi's digits only: no sign, no leading zero, within int64.
    if not bits or not all("0" <= c <= "9" for c in bits) or (len(bits) > 1 and bits[0] == "0") \
            or int(bits) > 2**63 - 1:
        raise PrefixError(s, "bad bits after slash: " + go_quote(bits))
    if int(bits) > (32 if addr.is4 else 128):
        raise PrefixError(s, "prefix length out of range")
    return addr, int(bits)
