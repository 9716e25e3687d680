"""Endpoints validation (kubernetes pkg/apis/core/validation ValidateEndpoints, 1.36; an update runs
the same checks on the new object). Feature gate StrictIPCIDRValidation at its 1.36 default (off):
addresses parse as legacy IP fields (sloppily)."""

from __future__ import annotations

from typing import Any

from crdtool.apis.core.containers import validate_dns1123_label
from crdtool.apis.fieldchecks import validate_ip_for_legacy_field, validate_non_special_ip, validate_qualified_name
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_valid_port_num, name_is_dns_subdomain

_PROTOCOLS = ["SCTP", "TCP", "UDP"]


def validate_endpoints(endpoints: dict[str, Any]) -> list[FieldError]:
    """ValidateEndpoints beyond ValidateObjectMeta: validateEndpointSubsets."""
    errs: list[FieldError] = []
    for i, subset in enumerate(endpoints.get("subsets") or ()):
        at = Path.root("subsets").index(i)
        addresses, not_ready = subset.get("addresses") or [], subset.get("notReadyAddresses") or []
        if not addresses and not not_ready:
            errs.append(FieldError.required(at, "must specify `addresses` or `notReadyAddresses`"))
        for field, entries in (("addresses", addresses), ("notReadyAddresses", not_ready)):
            for j, address in enumerate(entries):
                errs += _address(address or {}, at.child(field).index(j))
        ports = subset.get("ports") or []
        for j, port in enumerate(ports):
            errs += _port(port or {}, len(ports) > 1, at.child("ports").index(j))
    return errs


def _address(address: dict[str, Any], path: Path) -> list[FieldError]:
    """validateEndpointAddress: an IP, a DNS-label hostname, a DNS-subdomain nodeName, and an IP that
    is not special (its "must be a valid IP address" repeats a bad IP, as in the apiserver)."""
    ip = address.get("ip") or ""
    errs = validate_ip_for_legacy_field(ip, path.child("ip"))
    hostname = address.get("hostname") or ""
    if hostname:
        errs += validate_dns1123_label(hostname, path.child("hostname"))
    node = address.get("nodeName")
    if node is not None:
        errs += [FieldError.invalid(path.child("nodeName"), node, m) for m in name_is_dns_subdomain(node, False)]
    return errs + validate_non_special_ip(ip, path.child("ip"))


def _port(port: dict[str, Any], require_name: bool, path: Path) -> list[FieldError]:
    """validateEndpointPort."""
    errs: list[FieldError] = []
    name = port.get("name") or ""
    if require_name and not name:
        errs.append(FieldError.required(path.child("name")))
    elif name:
        errs += validate_dns1123_label(name, path.child("name"))
    number = port.get("port") or 0
    errs += [FieldError.invalid(path.child("port"), number, m) for m in is_valid_port_num(number)]
    protocol = port.get("protocol") or ""
    if not protocol:
        errs.append(FieldError.required(path.child("protocol")))
    elif protocol not in _PROTOCOLS:
        errs.append(FieldError.not_supported(path.child("protocol"), TypedString(protocol), _PROTOCOLS))
    if port.get("appProtocol") is not None:
        errs += validate_qualified_name(port["appProtocol"], path.child("appProtocol"))
    return errs
