"""networking.k8s.io validation (crdtool.apis.networking.validation) against the cases of kubernetes'
pkg/apis/networking/validation/validation_test.go (1.36): TestValidateNetworkPolicy's success and error
cases (built with its tweak functions), TestValidateIngress*, TestValidateIngressClass*. Each case
cites its Go test; the expected texts are validation.go's."""

from __future__ import annotations

import copy

import pytest
from builtin_cases import assert_errors

T = "pkg/apis/networking/validation/validation_test.go "
API = "networking.k8s.io/v1"
INVALID_SELECTOR = {"NoUppercaseOrSpecialCharsLike=Equals": "b"}
IPV4 = {"cidr": "192.168.0.0/16", "except": ["192.168.3.0/24", "192.168.4.0/24"]}
IPV6 = {"cidr": "fd00:192:168::/48", "except": ["fd00:192:168:3::/64", "fd00:192:168:4::/64"]}


def netpol(spec: dict | None = None, **more) -> dict:
    """makeNetworkPolicyCustom: name foo in namespace bar, podSelector a=b."""
    base = {"podSelector": {"matchLabels": {"a": "b"}}}
    base.update(spec or {})
    base.update(more)
    return {"apiVersion": API, "kind": "NetworkPolicy", "metadata": {"name": "foo", "namespace": "bar"}, "spec": base}


def port(protocol: str | None, number: int | str | None, end: int | None = None) -> dict:
    """makePort: a zero port is no port."""
    out: dict = {}
    if protocol is not None:
        out["protocol"] = protocol
    if number not in (None, 0, ""):
        out["port"] = number
    if end:
        out["endPort"] = end
    return out


def ingress(*peers: dict, ports: list | None = None) -> dict:
    rule: dict = {}
    if peers:
        rule["from"] = list(peers)
    if ports is not None:
        rule["ports"] = ports
    return {"ingress": [rule]}


def egress(*peers: dict, ports: list | None = None) -> dict:
    rule: dict = {}
    if peers:
        rule["to"] = list(peers)
    if ports is not None:
        rule["ports"] = ports
    return {"egress": [rule]}


NS = {"namespaceSelector": {"matchLabels": {"c": "d"}}}
POD = {"podSelector": {"matchLabels": {"c": "d"}}}
FIVE_PORTS = [port(None, 80), port("TCP", 0), port("TCP", 443), port("UDP", "dns"), port("SCTP", 7777)]

NETPOL_CASES = [
    ("success 0 (empty ingress rule)", netpol({"ingress": [{}]}), []),
    ("success 1 (empty peer and port)", netpol({"ingress": [{"from": [{}], "ports": [{}]}]}),
     ["spec.ingress[0].from[0]: Required value: must specify a peer"]),
    ("success 2 (ingress ports)", netpol(ingress(ports=FIVE_PORTS)), []),
    ("success 3 (podSelector peer)", netpol(ingress(POD)), []),
    ("success 4 (namespaceSelector peer)", netpol(ingress(NS)), []),
    ("success 5 (pod and namespace selectors)", netpol(ingress({**POD, **NS})), []),
    ("success 6 (egress namespaceSelector, ingress ipBlock)", netpol({**egress(NS), **ingress({"ipBlock": IPV4})}), []),
    ("success 7 (ipBlock IPv4)", netpol(ingress({"ipBlock": IPV4})), []),
    ("success 8 (egress ipBlock, policyTypes Egress)", netpol(egress({"ipBlock": IPV4}), policyTypes=["Egress"]), []),
    ("success 9 (policyTypes Ingress, Egress)", netpol(egress({"ipBlock": IPV4}), policyTypes=["Ingress", "Egress"]),
     []),
    ("success 10 (egress ports)", netpol(egress(ports=FIVE_PORTS)), []),
    ("success 11 (ipBlock IPv6)", netpol({**egress(NS), **ingress({"ipBlock": IPV6})}), []),
    ("success 12 (ingress ipBlock IPv6)", netpol(ingress({"ipBlock": IPV6})), []),
    ("success 13 (egress ipBlock IPv6)", netpol(egress({"ipBlock": IPV6}), policyTypes=["Egress"]), []),
    ("success 15 (port range)", netpol(egress(ports=[port(None, 32000, 32768), port("UDP", "dns")])), []),
    ("success 16 (port ranges both ways)",
     netpol({**egress(NS, ports=[port(None, 30000, 32768), port(None, 32000, 32768)]),
             **ingress({"podSelector": {"matchLabels": {"e": "f"}}}, ports=[port("TCP", 32768, 32768)])}), []),
    ("namespaceSelector and ipBlock", netpol(ingress({**NS, "ipBlock": IPV4})),
     ["spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer"]),
    ("podSelector and ipBlock", netpol(egress({**POD, "ipBlock": IPV4})),
     ["spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer"]),
    ("missing from and to type", netpol({"ingress": [{"from": [{}]}], "egress": [{"to": [{}]}]}),
     ["spec.ingress[0].from[0]: Required value: must specify a peer",
      "spec.egress[0].to[0]: Required value: must specify a peer"]),
    ("invalid spec.podSelector", netpol({"podSelector": {"matchLabels": INVALID_SELECTOR}}),
     ['spec.podSelector.matchLabels: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": name part must consist']),
    ("invalid ingress.ports.protocol", netpol(ingress(ports=[port("ICMP", 80)])),
     ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"']),
    ("invalid ingress.ports.port (int)", netpol(ingress(ports=[port("TCP", 123456789)])),
     ["spec.ingress[0].ports[0].port: Invalid value: 123456789: must be between 1 and 65535, inclusive"]),
    ("invalid ingress.ports.port (str)", netpol(ingress(ports=[port("TCP", "!@#$")])),
     ['spec.ingress[0].ports[0].port: Invalid value: "!@#$": must contain only alpha-numeric characters (a-z, 0-9), '
      "and hyphens (-)",
      'spec.ingress[0].ports[0].port: Invalid value: "!@#$": must contain at least one letter (a-z)']),
    ("invalid ingress.from.podSelector", netpol(ingress({"podSelector": {"matchLabels": INVALID_SELECTOR}})),
     ["spec.ingress[0].from[0].podSelector.matchLabels: Invalid value"]),
    ("invalid egress.to.podSelector", netpol(egress({"podSelector": {"matchLabels": INVALID_SELECTOR}})),
     ["spec.egress[0].to[0].podSelector.matchLabels: Invalid value"]),
    ("invalid egress.ports.protocol", netpol(egress(ports=[port("ICMP", 80)])),
     ["spec.egress[0].ports[0].protocol: Unsupported value"]),
    ("invalid egress.ports.port (int)", netpol(egress(ports=[port("TCP", 123456789)])),
     ["spec.egress[0].ports[0].port: Invalid value: 123456789"]),
    ("invalid egress.ports.port (str)", netpol(egress(ports=[port("TCP", "!@#$")])),
     ["spec.egress[0].ports[0].port: Invalid value", "spec.egress[0].ports[0].port: Invalid value"]),
    ("invalid ingress.from.namespaceSelector",
     netpol(ingress({"namespaceSelector": {"matchLabels": INVALID_SELECTOR}})),
     ["spec.ingress[0].from[0].namespaceSelector.matchLabels: Invalid value"]),
    ("missing cidr field", netpol(ingress({"ipBlock": {**IPV4, "cidr": ""}})),
     ["spec.ingress[0].from[0].ipBlock.cidr: Required value"]),
    ("invalid cidr format", netpol(ingress({"ipBlock": {**IPV4, "cidr": "192.168.5.6"}})),
     ['spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "192.168.5.6": must be a valid CIDR value, '
      "(e.g. 10.9.8.0/24 or 2001:db8::/64)"]),
    ("invalid ipv6 cidr format", netpol(ingress({"ipBlock": {**IPV6, "cidr": "fd00:192:168::"}})),
     ["spec.ingress[0].from[0].ipBlock.cidr: Invalid value: \"fd00:192:168::\": must be a valid CIDR value"]),
    ("except field is an empty string", netpol(ingress({"ipBlock": {**IPV4, "except": [""]}})),
     ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "": must be a valid CIDR value']),
    ("except field is an space string", netpol(ingress({"ipBlock": {**IPV4, "except": [" "]}})),
     ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: " ": must be a valid CIDR value']),
    ("except field is an invalid ip", netpol(ingress({"ipBlock": {**IPV4, "except": ["300.300.300.300"]}})),
     ["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"300.300.300.300\": must be a valid CIDR"]),
    ("except IP is outside of CIDR range",
     netpol(ingress({"ipBlock": {"cidr": "192.168.8.0/24", "except": ["192.168.9.1/32"]}})),
     ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.9.1/32": must be a strict subset of `cidr`']),
    ("except IP is not strictly within CIDR range",
     netpol(ingress({"ipBlock": {"cidr": "192.168.0.0/24", "except": ["192.168.0.0/24"]}})),
     ["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"192.168.0.0/24\": must be a strict subset"]),
    ("except IPv6 is outside of CIDR range",
     netpol(ingress({"ipBlock": {"cidr": "fd00:192:168:1::/64", "except": ["fd00:192:168:2::/64"]}})),
     ["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value"]),
    ("invalid policyTypes", netpol(egress({"ipBlock": IPV4}), policyTypes=["foo", "bar"]),
     ['spec.policyTypes[0]: Unsupported value: "foo": supported values: "Ingress", "Egress"',
      'spec.policyTypes[1]: Unsupported value: "bar"']),
    ("too many policyTypes", netpol(egress({"ipBlock": IPV4}), policyTypes=["foo", "bar", "baz"]),
     ['spec.policyTypes: Invalid value: ["foo","bar","baz"]: may not specify more than two policyTypes']),
    ("multiple ports defined, one port range is invalid",
     netpol(egress(NS, ports=[port("UDP", 35000, 32768), port(None, 32000, 32768)])),
     ["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`"]),
    ("endPort defined with named/string port",
     netpol(egress(NS, ports=[port("UDP", "dns", 32768), port(None, 32000, 32768)])),
     ["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is non-numeric"]),
    ("endPort defined without port defined", netpol(egress(NS, ports=[port("TCP", 0, 32768)])),
     ["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is not specified"]),
    ("port is greater than endPort", netpol(egress(NS, ports=[port("SCTP", 35000, 32768)])),
     ["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`"]),
    ("multiple invalid port ranges defined",
     netpol(egress(NS, ports=[port("UDP", 35000, 32768), port("TCP", 0, 32768), port("TCP", "https", 32768)])),
     ["spec.egress[0].ports[0].endPort: Invalid value", "spec.egress[0].ports[1].endPort: Invalid value",
      "spec.egress[0].ports[2].endPort: Invalid value"]),
    ("invalid endport range defined", netpol(egress(NS, ports=[port("TCP", 30000, 65537)])),
     ["spec.egress[0].ports[0].endPort: Invalid value: 65537: must be between 1 and 65535, inclusive"]),
    ("ValidateLabelSelectorRequirement: In without values",
     netpol({"podSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}),
     ["spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or "
      "'NotIn'"]),
    ("ValidateLabelSelectorRequirement: Exists with values",
     netpol({"podSelector": {"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]}}),
     ["spec.podSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or "
      "'DoesNotExist'"]),
    ("ValidateLabelSelectorRequirement: unknown operator",
     netpol({"podSelector": {"matchExpressions": [{"key": "a", "operator": "Equals", "values": ["x"]}]}}),
     ['spec.podSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator']),
]


@pytest.mark.parametrize(("name", "obj", "expected"), NETPOL_CASES, ids=[c[0] for c in NETPOL_CASES])
def test_network_policy(name: str, obj: dict, expected: list[str]) -> None:
    """TestValidateNetworkPolicy (its success cases pass; `{}` peers are refused, as its error cases show)."""
    assert_errors(obj, expected)


def test_network_policy_update_keeps_invalid_old_label_values() -> None:
    """ValidationOptionsForNetworking: a pod selector already invalid in the stored object may keep
    invalid label values in other selectors (TestValidateNetworkPolicyUpdate's options)."""
    old = netpol({"podSelector": {"matchLabels": {"a": "-bad"}}})
    new = netpol({"podSelector": {"matchLabels": {"a": "-bad"}}, **ingress(
        {"podSelector": {"matchExpressions": [{"key": "k", "operator": "In", "values": ["-bad"]}]}})})
    assert_errors(new, ["spec.podSelector.matchLabels: Invalid value"], old=old)
    assert_errors(new, ["spec.podSelector.matchLabels: Invalid value",
                        "spec.ingress[0].from[0].podSelector.matchExpressions[0].values[0]: Invalid value"])


# ---------------------------------------------------------------- Ingress

def backend(name: str = "default-backend", number: int | None = 80, port_name: str | None = None) -> dict:
    service: dict = {"name": name, "port": {}}
    if number is not None:
        service["port"]["number"] = number
    if port_name is not None:
        service["port"]["name"] = port_name
    return {"service": service}


def ingress_obj(spec: dict, annotations: dict | None = None) -> dict:
    meta: dict = {"name": "foo", "namespace": "default"}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": API, "kind": "Ingress", "metadata": meta, "spec": spec}


def http_rule(host: str = "foo.bar.com", path: str = "/foo", path_type: str | None = "ImplementationSpecific",
              back: dict | None = None) -> dict:
    entry: dict = {"path": path, "backend": back or backend()}
    if path_type is not None:
        entry["pathType"] = path_type
    return {"host": host, "http": {"paths": [entry]}}


VALID_INGRESS = {"defaultBackend": backend(), "rules": [http_rule()]}


def with_rule(**kw) -> dict:
    return ingress_obj({"defaultBackend": backend(), "rules": [http_rule(**kw)]})


INGRESS_CASES = [
    (T + "TestValidateIngress valid", ingress_obj(VALID_INGRESS), []),
    (T + "TestValidateIngress defaultBackend alone", ingress_obj({"defaultBackend": backend()}), []),
    (T + "TestValidateIngress spec.backend and spec.rules missing", ingress_obj({}),
     ["spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"]),
    (T + "TestValidateIngress empty rules list (an empty, non-nil slice)", ingress_obj({"rules": []}),
     ["spec: Invalid value: []: either `defaultBackend` or `rules` must be specified"]),
    (T + "TestValidateIngress backend without port",
     ingress_obj({"defaultBackend": {"service": {"name": "default-backend", "port": {}}}}),
     ["spec.defaultBackend: Required value: port name or number is required"]),
    (T + "TestValidateIngress backend with both port name and number",
     ingress_obj({"defaultBackend": backend(number=80, port_name="http")}),
     ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']),
    (T + "TestValidateIngress backend port name invalid",
     ingress_obj({"defaultBackend": backend(number=None, port_name="Http")}),
     ['spec.defaultBackend.service.port.name: Invalid value: "Http": must contain only alpha-numeric characters']),
    (T + "TestValidateIngress backend port name without a letter",
     ingress_obj({"defaultBackend": backend(number=None, port_name="-80-")}),
     ['spec.defaultBackend.service.port.name: Invalid value: "-80-": must contain at least one letter (a-z)',
      'spec.defaultBackend.service.port.name: Invalid value: "-80-": must not begin or end with a hyphen']),
    (T + "TestValidateIngress backend port number out of range", ingress_obj({"defaultBackend": backend(number=70000)}),
     ["spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive"]),
    (T + "TestValidateIngress service name required", ingress_obj({"defaultBackend": backend(name="")}),
     ["spec.defaultBackend.service.name: Required value"]),
    (T + "TestValidateIngress service name not a DNS-1035 label (RelaxedServiceNameValidation off)",
     ingress_obj({"defaultBackend": backend(name="1-backend")}),
     ['spec.defaultBackend.service.name: Invalid value: "1-backend": a DNS-1035 label must consist']),
    (T + "TestValidateIngress resource and service backends",
     ingress_obj({"defaultBackend": {**backend(),
                                     "resource": {"apiGroup": "example.com", "kind": "foo", "name": "bar"}}}),
     ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends']),
    (T + "TestValidateIngress resource backend", ingress_obj(
        {"defaultBackend": {"resource": {"apiGroup": "example.com", "kind": "foo", "name": "bar"}}}), []),
    (T + "TestValidateIngress resource backend missing kind and name",
     ingress_obj({"defaultBackend": {"resource": {"apiGroup": "example.com"}}}),
     ["spec.defaultBackend.resource.kind: Required value", "spec.defaultBackend.resource.name: Required value"]),
    (T + "TestValidateIngress resource backend bad apiGroup and name",
     ingress_obj({"defaultBackend": {"resource": {"apiGroup": "bad_group", "kind": "foo", "name": "a/b"}}}),
     ['spec.defaultBackend.resource.apiGroup: Invalid value: "bad_group": a lowercase RFC 1123 subdomain',
      "spec.defaultBackend.resource.name: Invalid value: \"a/b\": may not contain '/'"]),
    (T + "TestValidateIngress backend without service or resource", ingress_obj({"defaultBackend": {}}),
     ['spec.defaultBackend: Invalid value: "": resource or service backend is required']),
    (T + "TestValidateIngress host is an IP", with_rule(host="127.0.0.1"),
     ['spec.rules[0].host: Invalid value: "127.0.0.1": must be a DNS name, not an IP address']),
    (T + "TestValidateIngress host invalid", with_rule(host="foo_bar"),
     ['spec.rules[0].host: Invalid value: "foo_bar": a lowercase RFC 1123 subdomain']),
    (T + "TestValidateIngress wildcard host valid", with_rule(host="*.bar.com"), []),
    (T + "TestValidateIngress wildcard host invalid", with_rule(host="foo.*.bar.com"),
     ['spec.rules[0].host: Invalid value: "foo.*.bar.com": a wildcard DNS-1123 subdomain must start with \'*.\'']),
    (T + "TestValidateIngress pathType required", with_rule(path_type=None),
     ["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"]),
    (T + "TestValidateIngress pathType unknown", with_rule(path_type="Regex"),
     ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", '
      '"ImplementationSpecific", "Prefix"']),
    (T + "TestValidateIngress Exact path not absolute", with_rule(path="foo", path_type="Exact"),
     ['spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path']),
    (T + "TestValidateIngress Prefix path with //", with_rule(path="/foo//bar", path_type="Prefix"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo//bar\": must not contain '//'"]),
    (T + "TestValidateIngress Prefix path with /./", with_rule(path="/foo/./bar", path_type="Prefix"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/./bar\": must not contain '/./'"]),
    (T + "TestValidateIngress Exact path with /../", with_rule(path="/foo/../bar", path_type="Exact"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/../bar\": must not contain '/../'"]),
    (T + "TestValidateIngress Exact path with %2f", with_rule(path="/foo%2fbar", path_type="Exact"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo%2fbar\": must not contain '%2f'"]),
    (T + "TestValidateIngress Prefix path ending /..", with_rule(path="/foo/..", path_type="Prefix"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/..\": cannot end with '/..'"]),
    (T + "TestValidateIngress Prefix path ending /.", with_rule(path="/foo/.", path_type="Prefix"),
     ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/.\": cannot end with '/.'"]),
    (T + "TestValidateIngress ImplementationSpecific empty path",
     with_rule(path="", path_type="ImplementationSpecific"), []),
    (T + "TestValidateIngress ImplementationSpecific relative path",
     with_rule(path="foo", path_type="ImplementationSpecific"),
     ['spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path']),
    (T + "TestValidateIngress ImplementationSpecific path with //",
     with_rule(path="/foo//bar", path_type="ImplementationSpecific"), []),
    (T + "TestValidateIngress http without paths",
     ingress_obj({"defaultBackend": backend(), "rules": [{"host": "foo.bar.com", "http": {"paths": []}}]}),
     ["spec.rules[0].http.paths: Required value"]),
    (T + "TestValidateIngressTLS wildcard host", ingress_obj({**VALID_INGRESS, "tls": [{"hosts": ["*.bar.com"]}]}), []),
    (T + "TestValidateIngressTLS invalid wildcard host",
     ingress_obj({**VALID_INGRESS, "tls": [{"hosts": ["foo.*.bar.com"]}]}),
     ['spec.tls[0].hosts[0]: Invalid value: "foo.*.bar.com": a wildcard DNS-1123 subdomain']),
    (T + "TestValidateIngressTLS invalid host", ingress_obj({**VALID_INGRESS, "tls": [{"hosts": ["Foo.com"]}]}),
     ['spec.tls[0].hosts[0]: Invalid value: "Foo.com": a lowercase RFC 1123 subdomain']),
    (T + "TestValidateIngressTLS invalid secret name",
     ingress_obj({**VALID_INGRESS, "tls": [{"secretName": "Bad_Name"}]}),
     ['spec.tls[0].secretName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain']),
    (T + "TestValidateIngressCreate class name and annotation agree",
     ingress_obj({**VALID_INGRESS, "ingressClassName": "bar"}, {"kubernetes.io/ingress.class": "bar"}), []),
    (T + "TestValidateIngressCreate class name and annotation differ",
     ingress_obj({**VALID_INGRESS, "ingressClassName": "bar"}, {"kubernetes.io/ingress.class": "foo"}),
     ['annotations.kubernetes.io/ingress.class: Invalid value: "foo": must match `ingressClassName` when both are '
      "specified"]),
    (T + "TestValidateIngressCreate invalid class name", ingress_obj({**VALID_INGRESS, "ingressClassName": "Bar"}),
     ['spec.ingressClassName: Invalid value: "Bar": a lowercase RFC 1123 subdomain']),
]


@pytest.mark.parametrize(("name", "obj", "expected"), INGRESS_CASES, ids=[c[0] for c in INGRESS_CASES])
def test_ingress(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


def test_ingress_update_keeps_invalid_secret_name() -> None:
    """TestValidateIngressTLS / allowInvalidSecretName: a stored invalid secret name may stay."""
    old = ingress_obj({**VALID_INGRESS, "tls": [{"secretName": "Bad_Name"}]})
    new = copy.deepcopy(old)
    new["spec"]["tls"].append({"secretName": "Other_Bad"})
    assert_errors(new, [], old=old)


def test_ingress_update_keeps_invalid_wildcard_rule() -> None:
    """TestValidateIngressRuleValue / allowInvalidWildcardHostRule: a stored wildcard rule that broke
    the rule checks keeps their being skipped for wildcard hosts."""
    old = with_rule(host="*.bar.com", path="foo", path_type="Exact")
    assert_errors(old, ["spec.rules[0].http.paths[0].path: Invalid value"])
    assert_errors(copy.deepcopy(old), [], old=old)


# ---------------------------------------------------------------- IngressClass

def ingress_class(spec: dict) -> dict:
    return {"apiVersion": API, "kind": "IngressClass", "metadata": {"name": "test123"}, "spec": spec}


PARAMS = {"apiGroup": "example.com", "kind": "foo", "name": "bar"}
CLASS_CASES = [
    (T + "TestValidateIngressClass valid name, valid controller", ingress_class({"controller": "foo.co/bar"}), []),
    (T + "TestValidateIngressClass invalid controller", ingress_class({"controller": "foo.*/bar"}),
     ['spec.controller: Invalid value: "foo.*": a lowercase RFC 1123 subdomain']),
    (T + "TestValidateIngressClass controller not domain-prefixed", ingress_class({"controller": "foo"}),
     ['spec.controller: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")']),
    (T + "TestValidateIngressClass controller too long", ingress_class({"controller": "foo.co/" + "a" * 250}),
     ["spec.controller: Too long: may not be more than 250 bytes"]),
    (T + "TestValidateIngressClass controller path invalid", ingress_class({"controller": "foo.co/b ar"}),
     ['spec.controller: Invalid value: "b ar": must be a valid path (regex used for validation is']),
    (T + "TestValidateIngressClass controller required", ingress_class({}),
     ["spec.controller: Required value"]),
    (T + "TestValidateIngressClass valid parameters (scope defaults to Cluster)",
     ingress_class({"controller": "foo.co/bar", "parameters": PARAMS}), []),
    (T + "TestValidateIngressClass parameters missing kind",
     ingress_class({"controller": "foo.co/bar", "parameters": {"apiGroup": "example.com", "name": "bar"}}),
     ["spec.parameters.kind: Required value"]),
    (T + "TestValidateIngressClass Namespace scope without namespace",
     ingress_class({"controller": "foo.co/bar", "parameters": {**PARAMS, "scope": "Namespace"}}),
     ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]),
    (T + "TestValidateIngressClass Namespace scope with namespace",
     ingress_class({"controller": "foo.co/bar", "parameters": {**PARAMS, "scope": "Namespace", "namespace": "foo"}}),
     []),
    (T + "TestValidateIngressClass Namespace scope with invalid namespace",
     ingress_class({"controller": "foo.co/bar",
                    "parameters": {**PARAMS, "scope": "Namespace", "namespace": "foo.bar"}}),
     ['spec.parameters.namespace: Invalid value: "foo.bar": must not contain dots']),
    (T + "TestValidateIngressClass Cluster scope with namespace",
     ingress_class({"controller": "foo.co/bar", "parameters": {**PARAMS, "scope": "Cluster", "namespace": "foo"}}),
     ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]),
    (T + "TestValidateIngressClass unknown scope",
     ingress_class({"controller": "foo.co/bar", "parameters": {**PARAMS, "scope": "foo"}}),
     ['spec.parameters.scope: Unsupported value: "foo": supported values: "Cluster", "Namespace"']),
]


@pytest.mark.parametrize(("name", "obj", "expected"), CLASS_CASES, ids=[c[0] for c in CLASS_CASES])
def test_ingress_class(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


def test_ingress_class_controller_is_immutable() -> None:
    """TestValidateIngressClassUpdate: `spec.controller: Invalid value: ...: field is immutable`."""
    old = ingress_class({"controller": "foo.co/bar"})
    assert_errors(ingress_class({"controller": "foo.co/baz"}),
                  ['spec.controller: Invalid value: "foo.co/baz": field is immutable'], old=old)
    assert_errors(ingress_class({"controller": "foo.co/bar", "parameters": PARAMS}), [], old=old)
