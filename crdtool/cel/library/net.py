"""Kubernetes' IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library ip.go, cidr.go).

Addresses and prefixes parse as Go's netip does (model/netip.py), with its error texts; zones and
IPv4-mapped IPv6 addresses are refused, as the library refuses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.model.gofmt import go_quote
from crdtool.model.netip import AddrError, PrefixError, parse_addr, parse_prefix

if TYPE_CHECKING:
    import ipaddress

__all__ = ["library"]

IP, CIDR = "net.IP", "net.CIDR"


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """parseIPAddr: netip.ParseAddr, then no zone and no IPv4-mapped IPv6 address."""
    try:
        addr = parse_addr(text)
    except AddrError as err:
        raise ValueError(f"IP Address {go_quote(text)} parse error during conversion from string: {err}") from None
    if addr.zone:
        raise ValueError(f"IP address {go_quote(text)} with zone value is not allowed")
    if addr.is4in6:
        raise ValueError(f"IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return _ip_address(text)


def _parse_cidr(text: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    """stringToCIDR over parseCIDR: netip.ParsePrefix (its error wrapped twice), no IPv4-mapped address."""
    try:
        addr, _ = parse_prefix(text)
    except PrefixError as err:
        raise ValueError("network address parse error during conversion from string: network address parse "
                         f"error during conversion from string: {err}") from None
    if addr.is4in6:
        raise ValueError("network address parse error during conversion from string: "
                         f"IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return _ip_interface(text)


def _is(parse, text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def _ip(value) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return _ip_address(value.value)


def _cidr(value) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    return _ip_interface(value.value)


def _ip_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address's value for the library's operations, once netip has accepted its text (imported here:
    only a rule that calls ip() or cidr() needs it, and every run with rules imports the library)."""
    import ipaddress

    return ipaddress.ip_address(text)


def _ip_interface(text: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    """The prefix's value for the library's operations, once netip has accepted its text."""
    import ipaddress

    return ipaddress.ip_interface(text)


def _contains_ip(cidr, ip) -> bool:
    addr = _parse_ip(ip) if isinstance(ip, str) else _ip(ip)
    return addr in _cidr(cidr).network


def _contains_cidr(cidr, other) -> bool:
    inner = (_parse_cidr(other) if isinstance(other, str) else _cidr(other)).network
    outer = _cidr(cidr).network
    return inner.version == outer.version and inner.subnet_of(outer)


def _is_canonical(text: str) -> bool:
    return str(_parse_ip(text)) == text


def library(lib: Library) -> None:
    ip_t, cidr_t, s = cel_type(IP), cel_type(CIDR), cel.Type.STRING
    lib.function("ip", "string_to_ip", ip_t, [s], lambda t: make(IP, str(_parse_ip(t))))
    lib.function("isIP", "is_ip", cel.Type.BOOL, [s], lambda t: _is(_parse_ip, t))
    lib.function("ip.isCanonical", "ip_is_canonical", cel.Type.BOOL, [s], _is_canonical)
    lib.member("family", "ip_family", cel.Type.INT, [ip_t], lambda v: _ip(v).version)
    for name, attr in (("isUnspecified", "is_unspecified"), ("isLoopback", "is_loopback"),
                       ("isLinkLocalMulticast", None), ("isLinkLocalUnicast", None), ("isGlobalUnicast", None)):
        lib.member(name, f"ip_{name}", cel.Type.BOOL, [ip_t], _ip_predicate(name, attr))
    lib.function("cidr", "string_to_cidr", cidr_t, [s], lambda t: make(CIDR, _cidr_text(_parse_cidr(t))))
    lib.function("isCIDR", "is_cidr", cel.Type.BOOL, [s], lambda t: _is(_parse_cidr, t))
    lib.member("containsIP", "cidr_contains_ip_string", cel.Type.BOOL, [cidr_t, s], _contains_ip)
    lib.member("containsIP", "cidr_contains_ip_ip", cel.Type.BOOL, [cidr_t, ip_t], _contains_ip)
    lib.member("containsCIDR", "cidr_contains_cidr_string", cel.Type.BOOL, [cidr_t, s], _contains_cidr)
    lib.member("containsCIDR", "cidr_contains_cidr", cel.Type.BOOL, [cidr_t, cidr_t], _contains_cidr)
    lib.member("ip", "cidr_ip", ip_t, [cidr_t], lambda v: make(IP, str(_cidr(v).ip)))
    lib.member("masked", "cidr_masked", cidr_t, [cidr_t], lambda v: make(CIDR, str(_cidr(v).network)))
    lib.member("prefixLength", "cidr_prefix_length", cel.Type.INT, [cidr_t],
               lambda v: _cidr(v).network.prefixlen)


def _cidr_text(iface) -> str:
    return f"{iface.ip}/{iface.network.prefixlen}"


def _ip_predicate(name: str, attr: str | None):
    def test(v) -> bool:
        addr = _ip(v)
        if attr is not None:
            return getattr(addr, attr)
        if name == "isLinkLocalMulticast":
            net = "224.0.0.0/24" if addr.version == 4 else "ff02::/16"
            return addr in _ip_interface(net).network
        if name == "isLinkLocalUnicast":
            return addr.is_link_local and not addr.is_multicast
        # Go's IsGlobalUnicast: not unspecified, loopback, multicast, link-local or the IPv4 broadcast.
        return not (addr.is_unspecified or addr.is_loopback or addr.is_multicast or addr.is_link_local
                    or (addr.version == 4 and str(addr) == "255.255.255.255"))
    return test
