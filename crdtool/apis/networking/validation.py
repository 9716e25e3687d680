"""networking.k8s.io validation (kubernetes pkg/apis/networking/validation/validation.go, 1.36):
Ingress, IngressClass and NetworkPolicy, create and update, with the apiserver's texts.

Feature gates at their 1.36 defaults: RelaxedServiceNameValidation and StrictIPCIDRValidation
are off (alpha), so a backend's service name is a DNS-1035 label and CIDRs parse sloppily.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.fieldchecks import parse_cidr_sloppy, parse_ip_sloppy, validate_cidr_for_legacy_field
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_selector
from crdtool.schema.apimachinery.names import (
    domain_prefixed_path_errors,
    is_dns1123_subdomain,
    is_valid_port_name,
    is_valid_port_num,
    is_wildcard_dns1123_subdomain,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
)
from crdtool.schema.apimachinery.objectmeta import validate_immutable_field

_ANNOTATION_INGRESS_CLASS = "kubernetes.io/ingress.class"
_MAX_LEN_INGRESS_CLASS_CONTROLLER = 250
_SUPPORTED_PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"]
_INVALID_PATH_SEQUENCES = ("//", "/./", "/../", "%2f", "%2F")
_INVALID_PATH_SUFFIXES = ("/..", "/.")
_SPEC = Path.root("spec")


def _path_segment_name(name: str) -> list[str]:
    """content.IsPathSegmentName: not `.` or `..`, no `/` or `%`."""
    if name in (".", ".."):
        return [f"may not be '{name}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in name]


# ---------------------------------------------------------------- NetworkPolicy

def validate_network_policy_port(port: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateNetworkPolicyPort."""
    errs: list[FieldError] = []
    protocol = port.get("protocol")
    if protocol is not None and protocol not in ("TCP", "UDP", "SCTP"):
        errs.append(FieldError.not_supported(path.child("protocol"), TypedString(protocol), ["TCP", "UDP", "SCTP"]))
    number = port.get("port")
    end = port.get("endPort")
    if number is not None:
        if isinstance(number, int):
            errs.extend(FieldError.invalid(path.child("port"), number, m) for m in is_valid_port_num(number))
            if end is not None:
                if end < number:
                    errs.append(FieldError.invalid(path.child("endPort"), end,
                                                   "must be greater than or equal to `port`"))
                errs.extend(FieldError.invalid(path.child("endPort"), end, m) for m in is_valid_port_num(end))
        else:
            if end is not None:
                errs.append(FieldError.invalid(path.child("endPort"), end,
                                               "may not be specified when `port` is non-numeric"))
            errs.extend(FieldError.invalid(path.child("port"), number, m) for m in is_valid_port_name(number))
    elif end is not None:
        errs.append(FieldError.invalid(path.child("endPort"), end, "may not be specified when `port` is not specified"))
    return errs


def validate_ip_block(block: dict[str, Any], path: Path, allowed_cidrs: list[str]) -> list[FieldError]:
    """ValidateIPBlock: a CIDR, and each `except` a CIDR strictly inside it. CIDRs the stored object
    already held are not checked again (AllowCIDRsEvenIfInvalid, which only the strict parsing uses)."""
    cidr = block.get("cidr") or ""
    if not cidr:
        return [FieldError.required(path.child("cidr"), "")]
    errs = validate_cidr_for_legacy_field(cidr, path.child("cidr"))
    network = parse_cidr_sloppy(cidr)
    if network is None:
        return errs
    net_value, net_ones, net4 = network
    for i, text in enumerate(block.get("except") or ()):
        at = path.child("except").index(i)
        errs.extend(validate_cidr_for_legacy_field(text, at))
        inner = parse_cidr_sloppy(text)
        if inner is None:
            continue
        value, ones, is4 = inner
        size = 32 if net4 else 128
        contains = is4 == net4 and (value >> (size - net_ones) if net_ones else 0) == \
            (net_value >> (size - net_ones) if net_ones else 0)
        if not contains or net_ones >= ones:
            errs.append(FieldError.invalid(at, text, "must be a strict subset of `cidr`"))
    return errs


def validate_network_policy_peer(peer: dict[str, Any], path: Path, allow_invalid_label_value: bool,
                                 allowed_cidrs: list[str]) -> list[FieldError]:
    """ValidateNetworkPolicyPeer: exactly one kind of peer, except podSelector with namespaceSelector."""
    errs: list[FieldError] = []
    count = 0
    for key in ("podSelector", "namespaceSelector"):
        if peer.get(key) is not None:
            count += 1
            errs.extend(validate_label_selector(peer[key], path.child(key), allow_invalid_label_value))
    if peer.get("ipBlock") is not None:
        count += 1
        errs.extend(validate_ip_block(peer["ipBlock"], path.child("ipBlock"), allowed_cidrs))
    if count == 0:
        errs.append(FieldError.required(path, "must specify a peer"))
    elif count > 1 and peer.get("ipBlock") is not None:
        errs.append(FieldError.forbidden(path, "may not specify both ipBlock and another peer"))
    return errs


def validate_network_policy_spec(spec: dict[str, Any], path: Path, allow_invalid_label_value: bool = False,
                                 allowed_cidrs: list[str] | None = None) -> list[FieldError]:
    """ValidateNetworkPolicySpec."""
    cidrs = allowed_cidrs or []
    errs = validate_label_selector(spec.get("podSelector") or {}, path.child("podSelector"),
                                   allow_invalid_label_value)
    for direction, peers in (("ingress", "from"), ("egress", "to")):
        for i, rule in enumerate(spec.get(direction) or ()):
            at = path.child(direction).index(i)
            for j, port in enumerate(rule.get("ports") or ()):
                errs.extend(validate_network_policy_port(port, at.child("ports").index(j)))
            for j, peer in enumerate(rule.get(peers) or ()):
                errs.extend(validate_network_policy_peer(peer, at.child(peers).index(j),
                                                         allow_invalid_label_value, cidrs))
    types = spec.get("policyTypes") or []
    if len(types) > 2:
        errs.append(FieldError.invalid(path.child("policyTypes"), types, "may not specify more than two policyTypes"))
        return errs
    for i, kind in enumerate(types):
        if kind not in ("Ingress", "Egress"):
            errs.append(FieldError.not_supported(path.child("policyTypes").index(i), TypedString(kind),
                                                 ["Ingress", "Egress"]))
    return errs


def validate_network_policy(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateNetworkPolicy / ValidateNetworkPolicyUpdate (with ValidationOptionsForNetworking: label
    values the stored pod selector already broke may stay)."""
    spec = obj.get("spec") or {}
    if old is None:
        return validate_network_policy_spec(spec, _SPEC)
    old_spec = old.get("spec") or {}
    allow = bool(validate_label_selector(old_spec.get("podSelector") or {}, _SPEC))
    cidrs: list[str] = []
    for direction, peers in (("ingress", "from"), ("egress", "to")):
        for rule in old_spec.get(direction) or ():
            for peer in rule.get(peers) or ():
                block = peer.get("ipBlock")
                if block is not None:
                    cidrs.append(block.get("cidr") or "")
                    cidrs.extend(block.get("except") or ())
    return validate_network_policy_spec(spec, _SPEC, allow, cidrs)


# ---------------------------------------------------------------- Ingress

def _validate_backend(backend: dict[str, Any], path: Path) -> list[FieldError]:
    """validateIngressBackend: a resource or a service (with a port name or number), not both."""
    resource, service = backend.get("resource"), backend.get("service")
    if resource is not None and service is not None:
        return [FieldError.invalid(path, "", "cannot set both resource and service backends")]
    if resource is not None:
        return _validate_typed_local_object_reference(resource, path.child("resource"))
    if service is None:
        return [FieldError.invalid(path, "", "resource or service backend is required")]
    errs: list[FieldError] = []
    name = service.get("name") or ""
    if not name:
        errs.append(FieldError.required(path.child("service", "name"), ""))
    else:
        errs.extend(FieldError.invalid(path.child("service", "name"), name, m)
                    for m in name_is_dns1035_label(name, False))
    port = service.get("port") or {}
    port_name, number = port.get("name") or "", port.get("number") or 0
    if port_name and number:
        errs.append(FieldError.invalid(path, "", "cannot set both port name & port number"))
    elif port_name:
        errs.extend(FieldError.invalid(path.child("service", "port", "name"), port_name, m)
                    for m in is_valid_port_name(port_name))
    elif number:
        errs.extend(FieldError.invalid(path.child("service", "port", "number"), number, m)
                    for m in is_valid_port_num(number))
    else:
        errs.append(FieldError.required(path, "port name or number is required"))
    return errs


def _validate_typed_local_object_reference(ref: dict[str, Any], path: Path) -> list[FieldError]:
    """validateIngressTypedLocalObjectReference: apiGroup a DNS subdomain, kind and name path segments."""
    errs: list[FieldError] = []
    if ref.get("apiGroup") is not None:
        errs.extend(FieldError.invalid(path.child("apiGroup"), ref["apiGroup"], m)
                    for m in is_dns1123_subdomain(ref["apiGroup"]))
    for key in ("kind", "name"):
        value = ref.get(key) or ""
        if not value:
            errs.append(FieldError.required(path.child(key), ""))
        else:
            errs.extend(FieldError.invalid(path.child(key), value, m) for m in _path_segment_name(value))
    return errs


def _validate_http_path(entry: dict[str, Any], path: Path) -> list[FieldError]:
    """validateHTTPIngressPath: pathType required; Exact and Prefix paths absolute and clean."""
    kind = entry.get("pathType")
    if kind is None:
        return [FieldError.required(path.child("pathType"), "pathType must be specified")]
    errs: list[FieldError] = []
    value = entry.get("path") or ""
    if kind in ("Exact", "Prefix"):
        if not value.startswith("/"):
            errs.append(FieldError.invalid(path.child("path"), value, "must be an absolute path"))
        if value:
            errs.extend(FieldError.invalid(path.child("path"), value, f"must not contain '{seq}'")
                        for seq in _INVALID_PATH_SEQUENCES if seq in value)
            errs.extend(FieldError.invalid(path.child("path"), value, f"cannot end with '{suffix}'")
                        for suffix in _INVALID_PATH_SUFFIXES if value.endswith(suffix))
    elif kind == "ImplementationSpecific":
        if value and not value.startswith("/"):
            errs.append(FieldError.invalid(path.child("path"), value, "must be an absolute path"))
    else:
        errs.append(FieldError.not_supported(path.child("pathType"), TypedString(kind), _SUPPORTED_PATH_TYPES))
    errs.extend(_validate_backend(entry.get("backend") or {}, path.child("backend")))
    return errs


def _validate_rule_value(rule: dict[str, Any], path: Path) -> list[FieldError]:
    """validateIngressRuleValue / validateHTTPIngressRuleValue."""
    http = rule.get("http")
    if http is None:
        return []
    at = path.child("http")
    paths = http.get("paths") or []
    errs = [] if paths else [FieldError.required(at.child("paths"), "")]
    for i, entry in enumerate(paths):
        errs.extend(_validate_http_path(entry, at.child("paths").index(i)))
    return errs


def _validate_rules(rules: list[Any], path: Path, allow_invalid_wildcard_host_rule: bool) -> list[FieldError]:
    """validateIngressRules: a host is a DNS name (a wildcard one with `*`), not an IP."""
    errs: list[FieldError] = []
    for i, rule in enumerate(rules):
        host = rule.get("host") or ""
        at = path.index(i)
        wildcard = False
        if host:
            if parse_ip_sloppy(host) is not None:
                errs.append(FieldError.invalid(at.child("host"), host, "must be a DNS name, not an IP address"))
            if "*" in host:
                errs.extend(FieldError.invalid(at.child("host"), host, m) for m in is_wildcard_dns1123_subdomain(host))
                wildcard = True
            else:
                errs.extend(FieldError.invalid(at.child("host"), host, m) for m in is_dns1123_subdomain(host))
        if not wildcard or not allow_invalid_wildcard_host_rule:
            errs.extend(_validate_rule_value(rule, at))
    return errs


def _validate_tls(tls: list[Any], path: Path, allow_invalid_secret_name: bool) -> list[FieldError]:
    """validateIngressTLS: hosts as DNS (wildcard) subdomains, secretName a Secret's name."""
    errs: list[FieldError] = []
    for i, entry in enumerate(tls):
        for j, host in enumerate(entry.get("hosts") or ()):
            at = path.index(i).child("hosts").index(j)
            check = is_wildcard_dns1123_subdomain if "*" in host else is_dns1123_subdomain
            errs.extend(FieldError.invalid(at, host, m) for m in check(host))
        secret = entry.get("secretName") or ""
        if not allow_invalid_secret_name and secret:
            errs.extend(FieldError.invalid(path.index(i).child("secretName"), secret, m)
                        for m in name_is_dns_subdomain(secret, False))
    return errs


def validate_ingress_spec(spec: dict[str, Any], path: Path, allow_invalid_secret_name: bool = False,
                          allow_invalid_wildcard_host_rule: bool = False) -> list[FieldError]:
    """ValidateIngressSpec."""
    errs: list[FieldError] = []
    rules = spec.get("rules")
    if not rules and spec.get("defaultBackend") is None:
        errs.append(FieldError.invalid(path, rules, "either `defaultBackend` or `rules` must be specified"))
    if spec.get("defaultBackend") is not None:
        errs.extend(_validate_backend(spec["defaultBackend"], path.child("defaultBackend")))
    if rules:
        errs.extend(_validate_rules(rules, path.child("rules"), allow_invalid_wildcard_host_rule))
    if spec.get("tls"):
        errs.extend(_validate_tls(spec["tls"], path.child("tls"), allow_invalid_secret_name))
    class_name = spec.get("ingressClassName")
    if class_name is not None:
        errs.extend(FieldError.invalid(path.child("ingressClassName"), class_name, m)
                    for m in name_is_dns_subdomain(class_name, False))
    return errs


def validate_ingress(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateIngressCreate (with the `kubernetes.io/ingress.class` annotation agreeing with
    ingressClassName) / ValidateIngressUpdate (invalid secret names and wildcard-host rules the stored
    object already had may stay)."""
    spec = obj.get("spec") or {}
    if old is None:
        errs = validate_ingress_spec(spec, _SPEC)
        annotations = (obj.get("metadata") or {}).get("annotations") or {}
        class_name = spec.get("ingressClassName")
        if _ANNOTATION_INGRESS_CLASS in annotations and class_name is not None \
                and annotations[_ANNOTATION_INGRESS_CLASS] != class_name:
            errs.append(FieldError.invalid(Path.root("annotations", _ANNOTATION_INGRESS_CLASS),
                                           annotations[_ANNOTATION_INGRESS_CLASS],
                                           "must match `ingressClassName` when both are specified"))
        return errs
    old_spec = old.get("spec") or {}
    allow_secret = any(name_is_dns_subdomain(t.get("secretName") or "", False) and t.get("secretName")
                       for t in old_spec.get("tls") or ())
    allow_wildcard = any("*" in (r.get("host") or "") and _validate_rule_value(r, Path.root(""))
                         for r in old_spec.get("rules") or ())
    return validate_ingress_spec(spec, _SPEC, allow_secret, allow_wildcard)


# ---------------------------------------------------------------- IngressClass

def _validate_parameters(params: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """validateIngressClassParametersReference: the typed reference, and a scope of Namespace (with a
    namespace) or Cluster (without one)."""
    if params is None:
        return []
    errs = _validate_typed_local_object_reference(params, path)
    scope = params.get("scope")
    if scope is None:
        errs.append(FieldError.required(path.child("scope"), ""))
        return errs
    if scope not in ("Cluster", "Namespace"):
        errs.append(FieldError.not_supported(path.child("scope"), scope, ["Cluster", "Namespace"]))
        return errs
    namespace = params.get("namespace")
    if scope == "Namespace":
        if namespace is None:
            errs.append(FieldError.required(path.child("namespace"), "`parameters.scope` is set to 'Namespace'"))
        else:
            errs.extend(FieldError.invalid(path.child("namespace"), namespace, m)
                        for m in name_is_dns_label(namespace, False))
    if scope == "Cluster" and namespace is not None:
        errs.append(FieldError.forbidden(path.child("namespace"), "`parameters.scope` is set to 'Cluster'"))
    return errs


def validate_ingress_class_spec(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateIngressClassSpec: a domain-prefixed controller of at most 250 bytes, and the parameters."""
    errs: list[FieldError] = []
    controller = spec.get("controller") or ""
    at = path.child("controller")
    if not controller:
        errs.append(FieldError.required(at, ""))
    else:
        if len(controller.encode()) > _MAX_LEN_INGRESS_CLASS_CONTROLLER:
            errs.append(FieldError.too_long(at, _MAX_LEN_INGRESS_CLASS_CONTROLLER))
        errs.extend(FieldError.invalid(at, value, m) for value, m in domain_prefixed_path_errors(controller))
    errs.extend(_validate_parameters(spec.get("parameters"), path.child("parameters")))
    return errs


def validate_ingress_class(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateIngressClass / ValidateIngressClassUpdate (the controller is immutable)."""
    spec = obj.get("spec") or {}
    errs: list[FieldError] = []
    if old is not None:
        errs.extend(validate_immutable_field(spec.get("controller") or "", (old.get("spec") or {}).get("controller")
                                             or "", _SPEC.child("controller")))
    errs.extend(validate_ingress_class_spec(spec, _SPEC))
    return errs


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "NetworkPolicy": KindValidation(create=validate_network_policy, update=validate_network_policy),
    "Ingress": KindValidation(create=validate_ingress, update=validate_ingress),
    "IngressClass": KindValidation(create=validate_ingress_class, update=validate_ingress_class),
}
