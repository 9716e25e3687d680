"""discovery.k8s.io validation (kubernetes pkg/apis/discovery/validation/validation.go, 1.36):
EndpointSlice, create and update, after the strategy's preparation (pkg/registry/discovery/
endpointslice/strategy.go).

What 1.36 is taken to do where the stored sources are older (the reasoning is in the comments):
- An IPv4 or IPv6 address is parsed as a legacy IP field (StrictIPCIDRValidation off, its 1.36
  default, so leading zeros and IPv4-mapped IPv6 are accepted): an unparsable one is one error,
  "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"; a parsed one of the other family
  is "must be an IPv4 address" / "must be an IPv6 address" (apimachinery 1.36's texts); then
  ValidateEndpointIP (no unspecified, loopback or link-local address). validation_test.go's
  "bad-ip" case (one error for "123.456.789.012") fixes that an unparsable address gets one error.
- hints.forNodes (PreferSameTrafficDistribution, GA): at most 8 entries, names unique and valid
  node names (ValidateNodeName), as forZones are checked with label values.
- The v1 API drops deprecatedTopology on every write that changes the endpoints
  (dropTopologyOnV1), so its checks never see a value written through v1 and are not reproduced.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.core.containers import validate_dns1123_label
from crdtool.apis.fieldchecks import parse_ip_sloppy, validate_ip_for_legacy_field, validate_non_special_ip
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import (
    is_dns1123_label,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
    name_is_dns_subdomain,
)
from crdtool.schema.apimachinery.objectmeta import validate_immutable_field

ADDRESS_TYPES = ["FQDN", "IPv4", "IPv6"]
PROTOCOLS = ["SCTP", "TCP", "UDP"]
MAX_ADDRESSES = 100
MAX_PORTS = 20000
MAX_ENDPOINTS = 1000
MAX_ZONE_HINTS = 8
MAX_NODE_HINTS = 8


def validate_endpoint_slice(slice_: dict[str, Any]) -> list[FieldError]:
    """ValidateEndpointSlice beyond ValidateObjectMeta: the address type, the endpoints, the ports."""
    address_type = slice_.get("addressType") or ""
    errs = _address_type(address_type)
    errs += _endpoints(slice_.get("endpoints") or [], address_type, Path.root("endpoints"))
    return errs + _ports(slice_.get("ports") or [], Path.root("ports"))


def validate_endpoint_slice_update(slice_: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateEndpointSliceUpdate: the slice is valid, its addressType unchanged."""
    new_type, old_type = slice_.get("addressType") or "", old.get("addressType") or ""
    return validate_endpoint_slice(slice_) + validate_immutable_field(
        TypedString(new_type), TypedString(old_type), Path.root("addressType"))


def _address_type(address_type: str) -> list[FieldError]:
    """validateAddressType: IPv4, IPv6 or FQDN (the deprecated "IP" is refused, even on update)."""
    path = Path.root("addressType")
    if not address_type:
        return [FieldError.required(path)]
    if address_type not in ADDRESS_TYPES:
        return [FieldError.not_supported(path, TypedString(address_type), ADDRESS_TYPES)]
    return []


def _endpoints(endpoints: list[Any], address_type: str, path: Path) -> list[FieldError]:
    """validateEndpoints: at most 1000; each with 1 to 100 addresses of the slice's type, a valid
    node name, hostname and hints."""
    if len(endpoints) > MAX_ENDPOINTS:
        return [FieldError.too_many(path, len(endpoints), MAX_ENDPOINTS)]
    errs: list[FieldError] = []
    for i, endpoint in enumerate(endpoints):
        endpoint = endpoint or {}
        at = path.index(i)
        addresses_path = at.child("addresses")
        addresses = endpoint.get("addresses") or []
        if not addresses:
            errs.append(FieldError.required(addresses_path, "must contain at least 1 address"))
        elif len(addresses) > MAX_ADDRESSES:
            errs.append(FieldError.too_many(addresses_path, len(addresses), MAX_ADDRESSES))
        for j, address in enumerate(addresses):
            errs += _address(address or "", address_type, addresses_path.index(j))
        node = endpoint.get("nodeName")
        if node is not None:
            errs += [FieldError.invalid(at.child("nodeName"), node, m) for m in name_is_dns_subdomain(node, False)]
        hostname = endpoint.get("hostname")
        if hostname is not None:
            errs += validate_dns1123_label(hostname, at.child("hostname"))
        if endpoint.get("hints") is not None:
            errs += _hints(endpoint["hints"], at.child("hints"))
    return errs


def _address(address: str, address_type: str, path: Path) -> list[FieldError]:
    """One address by the slice's type (an unknown type's addresses are not checked)."""
    if address_type == "FQDN":
        return is_fully_qualified_domain_name(address, path)
    if address_type not in ("IPv4", "IPv6"):
        return []
    errs = validate_ip_for_legacy_field(address, path)
    if errs:
        return errs
    parsed = parse_ip_sloppy(address)
    assert parsed is not None
    bits, written_v4 = parsed
    is4 = written_v4 or bits >> 32 == 0xFFFF
    if address_type == "IPv4" and not is4:
        errs.append(FieldError.invalid(path, address, "must be an IPv4 address"))
    elif address_type == "IPv6" and is4:
        errs.append(FieldError.invalid(path, address, "must be an IPv6 address"))
    return errs + validate_non_special_ip(address, path)


def is_fully_qualified_domain_name(name: str, path: Path) -> list[FieldError]:
    """apimachinery IsFullyQualifiedDomainName: a DNS subdomain (a trailing dot allowed) of at least
    two labels; the first failing check alone, with its messages joined by commas."""
    if not name:
        return [FieldError.required(path)]
    name = name[:-1] if name.endswith(".") else name
    messages = is_dns1123_subdomain(name)
    if messages:
        return [FieldError.invalid(path, name, ",".join(messages))]
    labels = name.split(".")
    if len(labels) < 2:
        return [FieldError.invalid(path, name, "should be a domain with at least two segments separated by dots")]
    for label in labels:
        messages = is_dns1123_label(label)
        if messages:
            return [FieldError.invalid(path, label, ",".join(messages))]
    return []


def _hints(hints: dict[str, Any], path: Path) -> list[FieldError]:
    """validateHints: forZones (at most 8, unique label values), then forNodes (at most 8, unique
    node names); too many of either ends the hints' checks."""
    errs: list[FieldError] = []
    for field, maximum, check in (("forZones", MAX_ZONE_HINTS, is_valid_label_value),
                                  ("forNodes", MAX_NODE_HINTS, lambda n: name_is_dns_subdomain(n, False))):
        entries = hints.get(field) or []
        at = path.child(field)
        if len(entries) > maximum:
            return errs + [FieldError.too_many(at, len(entries), maximum)]
        seen: set[str] = set()
        for i, entry in enumerate(entries):
            name = (entry or {}).get("name") or ""
            name_path = at.index(i).child("name")
            if name in seen:
                errs.append(FieldError.duplicate(name_path, name))
            seen.add(name)
            errs += [FieldError.invalid(name_path, name, m) for m in check(name)]
    return errs


def _ports(ports: list[Any], path: Path) -> list[FieldError]:
    """validatePorts: at most 20000; names (defaulted to "") DNS labels and unique; a supported
    protocol; an appProtocol that is a qualified name."""
    if len(ports) > MAX_PORTS:
        return [FieldError.too_many(path, len(ports), MAX_PORTS)]
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, port in enumerate(ports):
        port = port or {}
        at = path.index(i)
        name = port.get("name") or ""
        if name:
            errs += validate_dns1123_label(name, at.child("name"))
        if name in names:
            errs.append(FieldError.duplicate(at.child("name"), TypedString(name)))
        names.add(name)
        protocol = port.get("protocol")
        if protocol is None:
            errs.append(FieldError.required(at.child("protocol")))
        elif protocol not in PROTOCOLS:
            errs.append(FieldError.not_supported(at.child("protocol"), TypedString(protocol), PROTOCOLS))
        app_protocol = port.get("appProtocol")
        if app_protocol is not None:
            errs += [FieldError.invalid(at.child("appProtocol"), app_protocol, m)
                     for m in is_qualified_name(app_protocol)]
    return errs


#: The kinds whose validation this module reproduces (apis.validation).
VALIDATORS = {
    "EndpointSlice": KindValidation(validate_endpoint_slice, validate_endpoint_slice_update),
}
