"""EndpointSlice validation and defaults against the expectations of kubernetes' own tests
(pkg/apis/discovery/validation validation_test.go: TestValidateEndpointSlice,
TestValidateEndpointSliceCreate, TestValidateEndpointSliceUpdate, whose cases state the number of
errors; pkg/apis/discovery/v1 defaults_test.go). A slice here is the v1 object after defaulting."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.defaults import set_object_defaults
from crdtool.apis.discovery import validation as v
from crdtool.model.errors import ErrorType

IV = ErrorType.INVALID
HTTP = [{"name": "http", "protocol": "TCP"}]


def ips(n: int) -> list[str]:
    """generateIPAddresses."""
    return [f"10.1.2.{i % 255}" for i in range(n)]


def slice_(address_type: str = "IPv4", ports: list | None = None, endpoints: list | None = None) -> dict:
    obj = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
           "metadata": {"name": "hello", "namespace": "world"}, "addressType": address_type,
           "ports": copy.deepcopy(HTTP if ports is None else ports),
           "endpoints": copy.deepcopy([{"addresses": ips(1), "hostname": "valid-123"}]
                                      if endpoints is None else endpoints)}
    set_object_defaults(obj, "io.k8s.api.discovery.v1.EndpointSlice")
    return obj


def ports(n: int) -> list[dict]:
    """generatePorts."""
    return [{"name": f"http-{i}", "protocol": "TCP"} for i in range(n)]


CASES = [
    # TestValidateEndpointSlice
    ("good-slice", slice_(), 0),
    ("good-ipv6", slice_("IPv6", endpoints=[{"addresses": ["a00:100::4"], "hostname": "valid-123"}]), 0),
    ("good-fqdns", slice_("FQDN", endpoints=[{"addresses": ["foo.example.com", "example.com", "example.com.",
                                                          "hyphens-are-good.example.com"]}]), 0),
    ("all-protocols", slice_(ports=[{"name": "tcp", "protocol": "TCP"}, {"name": "udp", "protocol": "UDP"},
                                    {"name": "sctp", "protocol": "SCTP"}]), 0),
    ("app-protocols", slice_(ports=[{"name": "one", "protocol": "TCP", "appProtocol": "HTTP"},
                                    {"name": "two", "protocol": "TCP", "appProtocol": "https"},
                                    {"name": "three", "protocol": "TCP", "appProtocol": "my-protocol"},
                                    {"name": "four", "protocol": "TCP",
                                     "appProtocol": "example.com/custom-protocol"}]), 0),
    ("empty-port-name", slice_(ports=[{"name": "", "protocol": "TCP"}, {"name": "http", "protocol": "TCP"}]), 0),
    ("long-port-name", slice_(ports=[{"name": "a" * 63, "protocol": "TCP"}]), 0),
    ("empty-ports-and-endpoints", slice_(ports=[], endpoints=[]), 0),
    ("max-endpoints", slice_(ports=ports(1), endpoints=[{"addresses": ips(1)} for _ in range(1000)]), 0),
    ("max-ports", slice_(ports=ports(20000), endpoints=[]), 0),
    ("max-addresses", slice_(endpoints=[{"addresses": ips(100)}]), 0),
    ("valid-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forZones": [{"name": "zone-a"}]}}]), 0),
    ("duplicate-port-name", slice_(ports=[{"name": "", "protocol": "TCP"}, {"name": "", "protocol": "TCP"}],
                                   endpoints=[]), 1),
    ("bad-port-name-caps", slice_(ports=[{"name": "aCapital", "protocol": "TCP"}], endpoints=[]), 1),
    ("bad-port-name-chars", slice_(ports=[{"name": "almost_valid", "protocol": "TCP"}], endpoints=[]), 1),
    ("bad-port-name-length", slice_(ports=[{"name": "a" * 64, "protocol": "TCP"}], endpoints=[]), 1),
    ("invalid-port-protocol", slice_(ports=[{"name": "http", "protocol": "foo"}]), 1),
    ("too-many-ports", slice_(ports=ports(20001), endpoints=[]), 1),
    ("too-many-endpoints", slice_(ports=ports(1), endpoints=[{"addresses": ips(1)} for _ in range(1001)]), 1),
    ("no-endpoint-addresses", slice_(endpoints=[{"addresses": []}]), 1),
    ("too-many-addresses", slice_(endpoints=[{"addresses": ips(101)}]), 1),
    ("bad-hostname", slice_(endpoints=[{"addresses": ips(1), "hostname": "--INVALID"}]), 1),
    ("bad-ip", slice_(endpoints=[{"addresses": ["123.456.789.012"], "hostname": "valid-123"}]), 1),
    ("bad-ipv4", slice_(endpoints=[{"addresses": ["123.456.789.012", "2001:4860:4860::8888"]}]), 2),
    ("bad-ipv6", slice_("IPv6", endpoints=[{"addresses": ["123.456.789.012", "2001:4860:4860:defg"]}]), 2),
    ("bad-fqdns", slice_("FQDN", endpoints=[{"addresses": ["foo.*", "FOO.example.com",
                                                         "underscores_are_bad.example.com", "*.example.com"]}]), 4),
    ("bad-app-protocol", slice_(ports=[{"name": "http", "protocol": "TCP", "appProtocol": "--"}]), 1),
    ("invalid-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forZones": [{"name": "inv@lid"}]}}]), 1),
    ("overlapping-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forZones": [
        {"name": "zone-a"}, {"name": "zone-b"}, {"name": "zone-a"}]}}]), 1),
    ("too-many-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forZones": [
        {"name": f"zone-{c}"} for c in "abcdefghi"]}}]), 1),
    ("special-ipv4", slice_(endpoints=[{"addresses": ["127.0.0.1"], "hostname": "valid-123"}]), 1),
    ("special-ipv6", slice_("IPv6", endpoints=[{"addresses": ["fe80::9656:d028:8652:66b6"]}]), 1),
    # TestValidateEndpointSliceCreate
    ("good-slice-node-name", slice_(endpoints=[{"addresses": ips(1), "nodeName": "valid-node-name"}]), 0),
    ("bad-node-name", slice_(endpoints=[{"addresses": ips(1), "nodeName": "INvalid-node-name"}]), 1),
    ("deprecated-address-type", slice_("IP"), 1),
    ("bad-address-type", slice_("other"), 1),
    # forNodes (PreferSameTrafficDistribution): at most 8, unique, node names
    ("valid-node-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forNodes": [{"name": "node-1"}]}}]), 0),
    ("invalid-node-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forNodes": [{"name": "Node_1"}]}}]),
     1),
    ("too-many-node-hints", slice_(endpoints=[{"addresses": ips(1), "hints": {"forNodes": [
        {"name": f"node-{i}"} for i in range(9)]}}]), 1),
]


@pytest.mark.parametrize(("go_test", "obj", "count"), CASES, ids=[c[0] for c in CASES])
def test_endpoint_slice(go_test: str, obj: dict, count: int) -> None:
    errors = v.validate_endpoint_slice(obj)
    assert len(errors) == count, f"{go_test}: {[str(e) for e in errors]}"


def test_empty_everything_needs_an_address_type() -> None:
    """"empty-everything" (3 errors with the metadata's two, which apis.handler checks)."""
    assert [str(e) for e in v.validate_endpoint_slice({})] == ["addressType: Required value"]


@pytest.mark.parametrize(("go_test", "old_type", "new", "count"), [
    ("valid and identical slices", "IPv6", slice_("IPv6", ports=[], endpoints=[]), 0),
    ("invalid node name set", "IPv4", slice_(endpoints=[{"addresses": ["10.1.2.3"], "nodeName": "INVALID foo"}]), 1),
    ("deprecated address type", "IP", slice_("IP", ports=[], endpoints=[]), 1),
    ("valid and identical slices with different address types", "other", slice_(ports=[], endpoints=[]), 1),
    ("invalid slices with valid address types", "IPv4", slice_(ports=[{"name": "", "protocol": "invalid"}]), 1),
])
def test_endpoint_slice_update(go_test: str, old_type: str, new: dict, count: int) -> None:
    errors = v.validate_endpoint_slice_update(new, slice_(old_type))
    assert len(errors) == count, f"{go_test}: {[str(e) for e in errors]}"


def test_messages() -> None:
    """The texts: the address family check, the legacy IP parse, the immutable address type, FQDN."""
    wrong_family = v.validate_endpoint_slice(slice_(endpoints=[{"addresses": ["2001:db8::1"]}]))
    assert [str(e) for e in wrong_family] == [
        'endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be an IPv4 address']
    unparsable = v.validate_endpoint_slice(slice_("IPv6", endpoints=[{"addresses": ["nope"]}]))
    assert [str(e) for e in unparsable] == [
        'endpoints[0].addresses[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or '
        '2001:db8::ffff)']
    assert [str(e) for e in v.validate_endpoint_slice_update(slice_("IPv6", endpoints=[]), slice_())] == [
        'addressType: Invalid value: "IPv6": field is immutable']
    fqdn = v.validate_endpoint_slice(slice_("FQDN", endpoints=[{"addresses": ["localhost", "a.-b.com"]}]))
    assert [str(e) for e in fqdn] == [
        'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments '
        "separated by dots",
        'endpoints[0].addresses[1]: Invalid value: "a.-b.com": a lowercase RFC 1123 subdomain must consist of lower '
        "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
        "'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]


def test_defaults() -> None:
    """defaults_test.go: an EndpointPort without name or protocol gets "" and TCP; set ones stay."""
    obj = {"addressType": "IPv4", "ports": [{"port": 80}, {"name": "dns", "protocol": "UDP"}]}
    paths = set_object_defaults(obj, "io.k8s.api.discovery.v1.EndpointSlice")
    assert obj["ports"] == [{"port": 80, "name": "", "protocol": "TCP"}, {"name": "dns", "protocol": "UDP"}]
    assert paths == ["ports[0].name", "ports[0].protocol"]
