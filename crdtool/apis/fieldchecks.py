"""Checks that several groups' validation shares, from kubernetes pkg/apis/core/validation and
pkg/apis/apps/validation (1.36), with their texts: non-negative numbers, int-or-percent values,
qualified names, and the IP and CIDR parsing of legacy fields (k8s.io/utils/net's sloppy parsers).
"""

from __future__ import annotations

from typing import Any

import re2  # type: ignore[import-untyped]  # google-re2 ships no types

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.netip import AddrError, parse_addr
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_qualified_name, is_valid_percent

IS_NEGATIVE_ERROR = "must be greater than or equal to 0"


def validate_nonnegative(value: int, path: Path) -> list[FieldError]:
    """ValidateNonnegativeField."""
    return [FieldError.invalid(path, value, IS_NEGATIVE_ERROR)] if value < 0 else []


def validate_qualified_name(value: str, path: Path) -> list[FieldError]:
    """core ValidateQualifiedName."""
    return [FieldError.invalid(path, value, m) for m in is_qualified_name(value)]


def validate_positive_int_or_percent(value: Any, path: Path) -> list[FieldError]:
    """apps ValidatePositiveIntOrPercent: a string must be a percent, an integer non-negative. The bad
    value is the IntOrString, which ErrorBody renders as JSON (a TypedString)."""
    if isinstance(value, str):
        return [FieldError.invalid(path, TypedString(value), m) for m in is_valid_percent(value)]
    return validate_nonnegative(int(value), path)


def is_not_more_than_100_percent(value: Any, path: Path) -> list[FieldError]:
    """apps IsNotMoreThan100Percent: a valid percent string above 100%."""
    if not isinstance(value, str) or is_valid_percent(value) or int(value[:-1]) <= 100:
        return []
    return [FieldError.invalid(path, TypedString(value), "must not be greater than 100%")]


_SLOPPY_IPV4 = re2.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)")


def parse_ip_sloppy(text: str) -> tuple[int, bool] | None:
    """netutils.ParseIPSloppy: Go's net.ParseIP that also takes IPv4 octets with leading zeros; the
    address as (bits, is IPv4 written as such), None when it is no IP (a zone is none either)."""
    m = _SLOPPY_IPV4.fullmatch(text)
    if m is not None:
        octets = [int(g) for g in m.groups()]
        if any(o > 255 for o in octets):
            return None
        return (octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3], True
    if ":" not in text:
        return None
    try:
        addr = parse_addr(text)
    except AddrError:
        return None
    if addr.zone:
        return None
    return addr.value, False


def parse_cidr_sloppy(text: str) -> tuple[int, int, bool] | None:
    """netutils.ParseCIDRSloppy: `ip/bits` with a sloppy IP and a decimal prefix length (leading zeros
    allowed) within the address size; (network bits masked, prefix length, IPv4), None when invalid."""
    ip, sep, bits = text.partition("/")
    if not sep or not bits or not bits.isascii() or not bits.isdigit():
        return None
    parsed = parse_ip_sloppy(ip)
    if parsed is None:
        return None
    value, is4 = parsed
    size = 32 if is4 else 128
    ones = int(bits)
    if ones > size:
        return None
    mask = ((1 << ones) - 1) << (size - ones)
    return value & mask, ones, is4


CIDR_INVALID = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"


def validate_cidr_for_legacy_field(value: str, path: Path) -> list[FieldError]:
    """core IsValidCIDRForLegacyField with the StrictIPCIDRValidation feature off (its default in
    1.36): the value must parse with ParseCIDRSloppy."""
    return [] if parse_cidr_sloppy(value) is not None else [FieldError.invalid(path, value, CIDR_INVALID)]


IP_INVALID = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"


def validate_ip_for_legacy_field(value: str, path: Path) -> list[FieldError]:
    """IsValidIPForLegacyField with the StrictIPCIDRValidation feature off (its default in 1.36):
    the value must parse with ParseIPSloppy (Service clusterIPs and externalIPs, Endpoints IPs)."""
    return [] if parse_ip_sloppy(value) is not None else [FieldError.invalid(path, value, IP_INVALID)]


def validate_non_special_ip(value: str, path: Path) -> list[FieldError]:
    """ValidateNonSpecialIP (Endpoints addresses and Service externalIPs): not unspecified, loopback,
    link-local unicast or link-local multicast, as Go's net.IP predicates see the address (an
    IPv4-mapped IPv6 address counts as its IPv4 address)."""
    parsed = parse_ip_sloppy(value)
    if parsed is None:
        return [FieldError.invalid(path, value, "must be a valid IP address")]
    bits, is4 = parsed
    if not is4 and bits >> 32 == 0xFFFF:
        bits, is4 = bits & 0xFFFFFFFF, True
    errs: list[FieldError] = []
    if bits == 0:
        errs.append(FieldError.invalid(path, value, f"may not be unspecified ({value})"))
    if (is4 and bits >> 24 == 127) or (not is4 and bits == 1):
        errs.append(FieldError.invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
    if (is4 and bits >> 16 == 0xA9FE) or (not is4 and bits >> 118 == 0xFE80 >> 6):
        errs.append(FieldError.invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
    if (is4 and bits >> 8 == 0xE00000) or (not is4 and bits >> 120 == 0xFF and (bits >> 112) & 0x0F == 0x02):
        errs.append(FieldError.invalid(
            path, value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
    return errs


def is_ipv6_string(value: str) -> bool:
    """netutils.IsIPv6String: a sloppily parsed address that is not IPv4 (nor IPv4-mapped)."""
    parsed = parse_ip_sloppy(value)
    return parsed is not None and not parsed[1] and parsed[0] >> 32 != 0xFFFF
