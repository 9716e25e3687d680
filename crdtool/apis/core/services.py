"""Service validation (kubernetes pkg/apis/core/validation ValidateService and ValidateServiceUpdate,
1.36) and the service strategy's preparation before it (pkg/registry/core/service/strategy.go:
NormalizeClusterIPs, dropTypeDependentFields on an update).

The apiserver's service storage also allocates before validating (pkg/registry/core/service/
storage/alloc.go): cluster IPs, IP families and policy, node ports and the health check node port.
That depends on the cluster's configuration (service CIDRs, node port range, single or dual stack)
and is not reproduced; so an unset healthCheckNodePort, which the allocator always fills when
validation requires it, is not reported, and what only the allocator refuses (a RequireDualStack
service in a single-stack cluster, a node port outside the range or in use) is not checked.

Feature gates at their 1.36 defaults: StrictIPCIDRValidation off (alpha), so clusterIPs, externalIPs
and loadBalancerSourceRanges parse as legacy fields (sloppily); PreferSameTrafficDistribution on
(GA in 1.35), so trafficDistribution takes PreferClose, PreferSameZone and PreferSameNode.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.core.containers import validate_dns1123_label, validate_port_num_or_name
from crdtool.apis.fieldchecks import (
    is_ipv6_string,
    parse_ip_sloppy,
    validate_cidr_for_legacy_field,
    validate_ip_for_legacy_field,
    validate_non_special_ip,
    validate_qualified_name,
)
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_dns1123_subdomain, is_valid_port_num
from crdtool.schema.apimachinery.objectmeta import validate_labels

_SPEC = Path.root("spec")
_PROTOCOLS = ["SCTP", "TCP", "UDP"]
_TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]
_AFFINITIES = ["ClientIP", "None"]
_FAMILIES = ["IPv4", "IPv6"]
_FAMILY_POLICIES = ["PreferDualStack", "RequireDualStack", "SingleStack"]
_TRAFFIC_POLICIES = ["Cluster", "Local"]
_TRAFFIC_DISTRIBUTIONS = ["PreferClose", "PreferSameZone", "PreferSameNode"]
#: core.MaxClientIPServiceAffinitySeconds: one day.
MAX_CLIENT_IP_AFFINITY_SECONDS = 86400
_SOURCE_RANGES_ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges"
_TOPOLOGY_HINTS = "service.kubernetes.io/topology-aware-hints"
_TOPOLOGY_MODE = "service.kubernetes.io/topology-mode"
_ONLY_LOAD_BALANCER = "may only be used when `type` is 'LoadBalancer'"
_MAY_NOT_CHANGE = "may not change once set"


# ---------------------------------------------------------------- the strategy

def prepare_for_create(service: dict[str, Any]) -> dict[str, Any]:
    """PrepareForCreate's NormalizeClusterIPs: a clusterIP without clusterIPs becomes clusterIPs."""
    spec = service.get("spec") or {}
    if spec.get("clusterIP") and not spec.get("clusterIPs"):
        return {**service, "spec": {**spec, "clusterIPs": [spec["clusterIP"]]}}
    return service


def prepare_for_update(service: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """PrepareForUpdate: NormalizeClusterIPs against the stored service (an old client that sent only
    clusterIP keeps the stored clusterIPs; clearing or changing clusterIP carries over to clusterIPs
    left as they were), then dropTypeDependentFields (what a change of type leaves behind)."""
    spec = dict(service.get("spec") or {})
    old_spec = old.get("spec") or {}
    old_ips = old_spec.get("clusterIPs") or []
    if old_ips and not spec.get("clusterIPs") and (old_spec.get("clusterIP") or "") == (spec.get("clusterIP") or ""):
        spec["clusterIPs"] = list(old_ips)
    old_ip, new_ip = old_spec.get("clusterIP") or "", spec.get("clusterIP") or ""
    if old_ip != new_ip and (spec.get("clusterIPs") or []) == old_ips:
        if old_ip and not new_ip:
            spec.pop("clusterIPs", None)
        else:
            spec["clusterIPs"] = [new_ip]
    _drop_type_dependent_fields(spec, old_spec)
    return {**service, "spec": spec}


def _drop_type_dependent_fields(spec: dict[str, Any], old_spec: dict[str, Any]) -> None:
    """dropTypeDependentFields: when the type changes, fields the new type cannot use and that the
    user left as they were are cleared (the allocator releases them)."""
    new_type, old_type = spec.get("type"), old_spec.get("type")
    if new_type == old_type:
        return
    if new_type == "ExternalName" and old_type != "ExternalName":
        for key in ("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"):
            if spec.get(key) == old_spec.get(key):
                spec.pop(key, None)
    if new_type not in ("NodePort", "LoadBalancer") and old_type in ("NodePort", "LoadBalancer"):
        old_ports = old_spec.get("ports") or []
        if _same_node_ports(spec.get("ports") or [], old_ports):
            spec["ports"] = [{k: v for k, v in p.items() if k != "nodePort"} for p in spec.get("ports") or []]
    if new_type != "LoadBalancer" and old_type == "LoadBalancer":
        for key in ("healthCheckNodePort", "allocateLoadBalancerNodePorts", "loadBalancerClass"):
            if spec.get(key) == old_spec.get(key):
                spec.pop(key, None)


def _same_node_ports(ports: list[Any], old_ports: list[Any]) -> bool:
    """sameNodePorts: every port's nodePort is the stored port's (by index), or unset."""
    for i, port in enumerate(ports):
        if i < len(old_ports) and port.get("nodePort") not in (None, 0, old_ports[i].get("nodePort")):
            return False
    return True


# ---------------------------------------------------------------- ValidateService

def _is_headless(spec: dict[str, Any]) -> bool:
    """isHeadlessService: clusterIPs is exactly ["None"]."""
    return (spec.get("clusterIPs") or []) == ["None"]


def validate_service(service: dict[str, Any]) -> list[FieldError]:
    """ValidateService beyond ValidateObjectMeta, in its order."""
    spec = service.get("spec") or {}
    annotations = (service.get("metadata") or {}).get("annotations") or {}
    errs: list[FieldError] = []
    if _TOPOLOGY_MODE in annotations and _TOPOLOGY_HINTS in annotations \
            and annotations[_TOPOLOGY_MODE] != annotations[_TOPOLOGY_HINTS]:
        errs.append(FieldError.invalid(Path.root("metadata", "annotations").key(_TOPOLOGY_MODE),
                                       annotations[_TOPOLOGY_MODE],
                                       f"must match annotations[{_TOPOLOGY_HINTS}] when both are specified"))
    kind = spec.get("type") or ""
    ports = spec.get("ports") or []
    headless = _is_headless(spec)
    if not ports and not headless and kind != "ExternalName":
        errs.append(FieldError.required(_SPEC.child("ports")))
    errs += _type_specific(spec, kind, headless)

    names: set[str] = set()
    for i, port in enumerate(ports):
        errs += _validate_service_port(port, len(ports) > 1, names, _SPEC.child("ports").index(i))
    if spec.get("selector") is not None:
        errs += validate_labels(spec["selector"], _SPEC.child("selector"))
    errs += _session_affinity(spec)
    errs += validate_cluster_ips_related_fields(spec)
    for i, ip in enumerate(spec.get("externalIPs") or ()):
        at = _SPEC.child("externalIPs").index(i)
        errs += validate_ip_for_legacy_field(ip, at) or validate_non_special_ip(ip, at)
    if not kind:
        errs.append(FieldError.required(_SPEC.child("type")))
    elif kind not in _TYPES:
        errs.append(FieldError.not_supported(_SPEC.child("type"), TypedString(kind), _TYPES))
    errs += _ports_across(ports, kind)
    errs += _source_ranges(spec, annotations, kind)
    if spec.get("allocateLoadBalancerNodePorts") is not None and kind != "LoadBalancer":
        errs.append(FieldError.forbidden(_SPEC.child("allocateLoadBalancerNodePorts"), _ONLY_LOAD_BALANCER))
    if kind == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is None:
        errs.append(FieldError.required(Path.root("allocateLoadBalancerNodePorts")))
    errs += validate_load_balancer_class(spec, None)
    errs += _external_traffic_policy(spec)
    errs += _internal_traffic_policy(spec, kind)
    distribution = spec.get("trafficDistribution")
    if distribution is not None and distribution not in _TRAFFIC_DISTRIBUTIONS:
        errs.append(FieldError.not_supported(_SPEC.child("trafficDistribution"), distribution,
                                             _TRAFFIC_DISTRIBUTIONS))
    return errs


def _type_specific(spec: dict[str, Any], kind: str, headless: bool) -> list[FieldError]:
    """ValidateService's switch on the type: no headless LoadBalancer or NodePort; an ExternalName
    without cluster IPs or families, with a DNS name (a trailing dot allowed)."""
    ips_path = _SPEC.child("clusterIPs")
    if kind in ("LoadBalancer", "NodePort") and headless:
        return [FieldError.invalid(ips_path.index(0), "None", f"may not be set to 'None' for {kind} services")]
    if kind != "ExternalName":
        return []
    errs: list[FieldError] = []
    for key in ("clusterIPs", "ipFamilies"):
        if spec.get(key):
            errs.append(FieldError.forbidden(_SPEC.child(key), "may not be set for ExternalName services"))
    if spec.get("ipFamilyPolicy") is not None:
        errs.append(FieldError.forbidden(_SPEC.child("ipFamilyPolicy"), "may not be set for ExternalName services"))
    cname = spec.get("externalName") or ""
    cname = cname[:-1] if cname.endswith(".") else cname
    if cname:
        errs += [FieldError.invalid(_SPEC.child("externalName"), cname, m) for m in is_dns1123_subdomain(cname)]
    else:
        errs.append(FieldError.required(_SPEC.child("externalName")))
    return errs


def _validate_service_port(port: dict[str, Any], require_name: bool, names: set[str], path: Path) -> list[FieldError]:
    """validateServicePort: a name (required when there are several, a DNS label, unique), the port
    number, the protocol, the target port, the appProtocol."""
    errs: list[FieldError] = []
    name = port.get("name") or ""
    if require_name and not name:
        errs.append(FieldError.required(path.child("name")))
    elif name:
        errs += validate_dns1123_label(name, path.child("name"))
        if name in names:
            errs.append(FieldError.duplicate(path.child("name"), name))
        else:
            names.add(name)
    number = port.get("port") or 0
    errs += [FieldError.invalid(path.child("port"), number, m) for m in is_valid_port_num(number)]
    protocol = port.get("protocol") or ""
    if not protocol:
        errs.append(FieldError.required(path.child("protocol")))
    elif protocol not in _PROTOCOLS:
        errs.append(FieldError.not_supported(path.child("protocol"), TypedString(protocol), _PROTOCOLS))
    errs += validate_port_num_or_name(port.get("targetPort") or 0, path.child("targetPort"))
    if port.get("appProtocol") is not None:
        errs += validate_qualified_name(port["appProtocol"], path.child("appProtocol"))
    return errs


def _session_affinity(spec: dict[str, Any]) -> list[FieldError]:
    """sessionAffinity is ClientIP (with a timeout of 1 s to a day) or None (without a config)."""
    path = _SPEC.child("sessionAffinity")
    affinity = spec.get("sessionAffinity") or ""
    config_path = _SPEC.child("sessionAffinityConfig")
    if not affinity:
        return [FieldError.required(path)]
    if affinity not in _AFFINITIES:
        return [FieldError.not_supported(path, TypedString(affinity), _AFFINITIES)]
    config = spec.get("sessionAffinityConfig")
    if affinity == "None":
        if config is not None:
            return [FieldError.forbidden(config_path, "must not be set when session affinity is None")]
        return []
    when = "when session affinity type is ClientIP"
    if config is None:
        return [FieldError.required(config_path, when)]
    if config.get("clientIP") is None:
        return [FieldError.required(config_path.child("clientIP"), when)]
    timeout = config["clientIP"].get("timeoutSeconds")
    timeout_path = config_path.child("clientIP", "timeoutSeconds")
    if timeout is None:
        return [FieldError.required(timeout_path, when)]
    if timeout <= 0 or timeout > MAX_CLIENT_IP_AFFINITY_SECONDS:
        return [FieldError.invalid(timeout_path, timeout,
                                   f"must be greater than 0 and less than {MAX_CLIENT_IP_AFFINITY_SECONDS}")]
    return []


def _ports_across(ports: list[Any], kind: str) -> list[FieldError]:
    """No nodePort on a ClusterIP service; no two ports with the same (protocol, nodePort) or
    (protocol, port)."""
    errs: list[FieldError] = []
    path = _SPEC.child("ports")
    if kind == "ClusterIP":
        for i, port in enumerate(ports):
            if port.get("nodePort"):
                errs.append(FieldError.forbidden(path.index(i).child("nodePort"),
                                                 "may not be used when `type` is 'ClusterIP'"))
    node_ports: set[tuple[str, int]] = set()
    for i, port in enumerate(ports):
        if not port.get("nodePort"):
            continue
        key = (port.get("protocol") or "", port["nodePort"])
        if key in node_ports:
            errs.append(FieldError.duplicate(path.index(i).child("nodePort"), port["nodePort"]))
        node_ports.add(key)
    seen: set[tuple[str, int]] = set()
    for i, port in enumerate(ports):
        pair = (port.get("protocol") or "", port.get("port") or 0)
        if pair in seen:
            errs.append(FieldError.duplicate(path.index(i), _service_port_key(*pair)))
        seen.add(pair)
    return errs


def _service_port_key(protocol: str, port: int) -> GoStruct:
    """The internal core.ServicePort{Protocol, Port} the duplicate error carries (no JSON tags)."""
    return GoStruct(Name="", Protocol=protocol, AppProtocol=None, Port=port, TargetPort=0, NodePort=0)


def _source_ranges(spec: dict[str, Any], annotations: dict[str, Any], kind: str) -> list[FieldError]:
    """loadBalancerSourceRanges (or, without them, its annotation): only on a LoadBalancer, each a
    CIDR (space-padding tolerated)."""
    errs: list[FieldError] = []
    ranges = spec.get("loadBalancerSourceRanges") or []
    if ranges:
        path = _SPEC.child("LoadBalancerSourceRanges")
        if kind != "LoadBalancer":
            errs.append(FieldError.forbidden(path, _ONLY_LOAD_BALANCER))
        for i, value in enumerate(ranges):
            errs += validate_cidr_for_legacy_field(_trim_space(value or ""), path.index(i))
    elif _SOURCE_RANGES_ANNOTATION in annotations:
        path = Path.root("metadata", "annotations").key(_SOURCE_RANGES_ANNOTATION)
        if kind != "LoadBalancer":
            errs.append(FieldError.forbidden(path, _ONLY_LOAD_BALANCER))
        value = _trim_space(annotations[_SOURCE_RANGES_ANNOTATION] or "")
        if value:
            for cidr in value.split(","):
                errs += validate_cidr_for_legacy_field(_trim_space(cidr), path)
    return errs


def _trim_space(text: str) -> str:
    """strings.TrimSpace: ASCII and Unicode white space at both ends."""
    return text.strip(" \t\n\v\f\r\x85\xa0")


def validate_load_balancer_class(spec: dict[str, Any], old_spec: dict[str, Any] | None) -> list[FieldError]:
    """validateLoadBalancerClassField: a qualified name on a LoadBalancer, unchanged while it stays
    one; forbidden on other types."""
    errs: list[FieldError] = []
    path = _SPEC.child("loadBalancerClass")
    value = spec.get("loadBalancerClass")
    if old_spec is not None and old_spec.get("type") == "LoadBalancer" and spec.get("type") == "LoadBalancer" \
            and old_spec.get("loadBalancerClass") != value:
        errs.append(FieldError.invalid(path, None if value is None else TypedString(value), _MAY_NOT_CHANGE))
    if spec.get("type") == "LoadBalancer":
        if value is not None:
            errs += validate_qualified_name(value, path)
    elif value is not None:
        errs.append(FieldError.forbidden(path, _ONLY_LOAD_BALANCER))
    return errs


def _externally_accessible(spec: dict[str, Any]) -> bool:
    """apiservice.ExternallyAccessible: a LoadBalancer or NodePort, or a ClusterIP with external IPs."""
    kind = spec.get("type")
    return kind in ("LoadBalancer", "NodePort") or (kind == "ClusterIP" and bool(spec.get("externalIPs")))


def needs_health_check(spec: dict[str, Any]) -> bool:
    """apiservice.NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local."""
    return spec.get("type") == "LoadBalancer" and spec.get("externalTrafficPolicy") == "Local"


def _external_traffic_policy(spec: dict[str, Any]) -> list[FieldError]:
    """validateServiceExternalTrafficPolicy. An unset healthCheckNodePort that the policy needs is
    the allocator's to fill, before validation: not reported (see the module's docstring)."""
    errs: list[FieldError] = []
    policy = spec.get("externalTrafficPolicy") or ""
    path = _SPEC.child("externalTrafficPolicy")
    if not _externally_accessible(spec):
        if policy:
            errs.append(FieldError.invalid(path, TypedString(policy),
                                           "may only be set for externally-accessible services"))
    elif not policy:
        errs.append(FieldError.required(path))
    elif policy not in _TRAFFIC_POLICIES:
        errs.append(FieldError.not_supported(path, TypedString(policy), _TRAFFIC_POLICIES))
    port = spec.get("healthCheckNodePort") or 0
    port_path = _SPEC.child("healthCheckNodePort")
    if not needs_health_check(spec):
        if port:
            errs.append(FieldError.invalid(port_path, port, "may only be set when `type` is 'LoadBalancer' and "
                                                            "`externalTrafficPolicy` is 'Local'"))
    elif port:
        errs += [FieldError.invalid(port_path, port, m) for m in is_valid_port_num(port)]
    return errs


def _internal_traffic_policy(spec: dict[str, Any], kind: str) -> list[FieldError]:
    """validateServiceInternalTrafficFieldsValue: set (defaulting sets it) on the types with cluster
    IPs, and Cluster or Local."""
    policy = spec.get("internalTrafficPolicy")
    path = _SPEC.child("internalTrafficPolicy")
    if policy is None:
        if kind in ("NodePort", "LoadBalancer", "ClusterIP"):
            return [FieldError.required(path)]
        return []
    if policy not in _TRAFFIC_POLICIES:
        return [FieldError.not_supported(path, TypedString(policy), _TRAFFIC_POLICIES)]
    return []


def validate_cluster_ips_related_fields(spec: dict[str, Any]) -> list[FieldError]:
    """ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, families and policy are
    known, the IPs are IPs (or a single "None"), at most one per family, each of its family."""
    if spec.get("type") == "ExternalName":
        return []
    errs: list[FieldError] = []
    ips_path = _SPEC.child("clusterIPs")
    families_path = _SPEC.child("ipFamilies")
    cluster_ip = spec.get("clusterIP") or ""
    ips: list[str] = [ip or "" for ip in spec.get("clusterIPs") or []]
    if cluster_ip:
        if not ips:
            errs.append(FieldError.required(ips_path))
        elif ips[0] != cluster_ip:
            errs.append(FieldError.invalid(ips_path, ips, "first value must match `clusterIP`"))
    elif ips:
        errs.append(FieldError.invalid(ips_path, ips, "must be empty when `clusterIP` is not specified"))
    families = spec.get("ipFamilies") or []
    seen: set[str] = set()
    for i, family in enumerate(families):
        if family not in _FAMILIES:
            errs.append(FieldError.not_supported(families_path.index(i), TypedString(family), _FAMILIES))
        if family in seen:
            errs.append(FieldError.duplicate(families_path.index(i), TypedString(family)))
        seen.add(family)
    policy = spec.get("ipFamilyPolicy")
    if policy is not None and policy not in _FAMILY_POLICIES:
        errs.append(FieldError.not_supported(_SPEC.child("ipFamilyPolicy"), TypedString(policy), _FAMILY_POLICIES))
    invalid = False
    for i, ip in enumerate(ips):
        if i == 0 and ip == "None":
            if len(ips) > 1:
                invalid = True
                errs.append(FieldError.invalid(ips_path, ips, "'None' must be the first and only value"))
            continue
        ip_errs = validate_ip_for_legacy_field(ip, ips_path.index(i))
        invalid = invalid or bool(ip_errs)
        errs += ip_errs
    if len(ips) > 2:
        errs.append(FieldError.invalid(ips_path, ips, "may only hold up to 2 values"))
    if invalid:
        return errs
    if len(ips) > 1 and not _dual_stack(ips):
        errs.append(FieldError.invalid(ips_path, ips, "may specify no more than one IP for each IP family"))
    if not _is_headless(spec) and ips and families:
        for i, ip in enumerate(ips[:len(families)]):
            if families[i] == "IPv4" and is_ipv6_string(ip):
                errs.append(FieldError.invalid(ips_path.index(i), ip,
                                               f"expected an IPv4 value as indicated by `ipFamilies[{i}]`"))
            if families[i] == "IPv6" and not is_ipv6_string(ip):
                errs.append(FieldError.invalid(ips_path.index(i), ip,
                                               f"expected an IPv6 value as indicated by `ipFamilies[{i}]`"))
    return errs


def _dual_stack(ips: list[str]) -> bool:
    """netutils.IsDualStackIPStrings: at least one IPv4 and one IPv6 address."""
    v6 = [is_ipv6_string(ip) for ip in ips if parse_ip_sloppy(ip) is not None]
    return any(v6) and not all(v6)


def validate_service_create(service: dict[str, Any]) -> list[FieldError]:
    """The service strategy's create: PrepareForCreate, then ValidateServiceCreate (ValidateService)."""
    return validate_service(prepare_for_create(service))


# ---------------------------------------------------------------- ValidateServiceUpdate

def validate_service_update(service: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The service strategy's update: PrepareForUpdate, then ValidateServiceUpdate beyond
    ValidateObjectMetaUpdate: cluster IPs and IP families may be added or released but not changed,
    the load balancer class and (while needed) the health check node port are immutable; then
    ValidateService."""
    old = prepare_for_create(old)  # as it was stored
    service = prepare_for_update(service, old)
    spec = service.get("spec") or {}
    old_spec = old.get("spec") or {}
    errs = _upgrade_downgrade_cluster_ips(old_spec, spec)
    errs += _upgrade_downgrade_ip_families(old_spec, spec)
    errs += validate_load_balancer_class(spec, old_spec)
    if needs_health_check(old_spec) and needs_health_check(spec) \
            and (spec.get("healthCheckNodePort") or 0) != (old_spec.get("healthCheckNodePort") or 0):
        errs.append(FieldError.forbidden(_SPEC.child("healthCheckNodePort"), "field is immutable"))
    return errs + validate_service(service)


def _policy_value(spec: dict[str, Any]) -> Any:
    """The *IPFamilyPolicy bad value (JSON): null when unset, else the policy."""
    policy = spec.get("ipFamilyPolicy")
    return None if policy is None else TypedString(policy)


def _upgrade_downgrade_cluster_ips(old_spec: dict[str, Any], spec: dict[str, Any]) -> list[FieldError]:
    """validateUpgradeDowngradeClusterIPs."""
    if "ExternalName" in (spec.get("type"), old_spec.get("type")):
        return []
    if _is_headless(old_spec) and _is_headless(spec):
        return []
    old_ips, ips = old_spec.get("clusterIPs") or [], spec.get("clusterIPs") or []
    path = _SPEC.child("clusterIPs")
    errs: list[FieldError] = []
    if len(old_ips) == len(ips):
        errs += [FieldError.invalid(path.index(i), ips, _MAY_NOT_CHANGE)
                 for i, ip in enumerate(old_ips) if ip != ips[i]]
    elif len(old_ips) > len(ips):
        if not ips:
            errs.append(FieldError.invalid(path.index(0), ips, "primary clusterIP can not be unset"))
        if old_ips and ips and ips[0] != old_ips[0]:
            errs.append(FieldError.invalid(path.index(0), ips, _MAY_NOT_CHANGE))
        if len(ips) == 1 and spec.get("ipFamilyPolicy") != "SingleStack":
            errs.append(FieldError.invalid(_SPEC.child("ipFamilyPolicy"), _policy_value(spec),
                                           "must be set to 'SingleStack' when releasing the secondary clusterIP"))
    elif old_ips and ips[0] != old_ips[0]:
        errs.append(FieldError.invalid(path.index(0), ips, _MAY_NOT_CHANGE))
    return errs


def _upgrade_downgrade_ip_families(old_spec: dict[str, Any], spec: dict[str, Any]) -> list[FieldError]:
    """validateUpgradeDowngradeIPFamilies (its bad values as Go has them, clusterIPs in two places)."""
    if "ExternalName" in (spec.get("type"), old_spec.get("type")):
        return []
    if _is_headless(old_spec) or _is_headless(spec):
        return []
    old_families, families = old_spec.get("ipFamilies") or [], spec.get("ipFamilies") or []
    ips = spec.get("clusterIPs") or []
    path = _SPEC.child("ipFamilies").index(0)
    errs: list[FieldError] = []
    if len(old_families) == len(families):
        errs += [FieldError.invalid(path, families, _MAY_NOT_CHANGE)
                 for i, family in enumerate(old_families) if family != families[i]]
    elif len(old_families) > len(families):
        if not ips:
            errs.append(FieldError.invalid(path, families, "primary ipFamily can not be unset"))
        if families and families[0] != old_families[0]:
            errs.append(FieldError.invalid(path, ips, _MAY_NOT_CHANGE))
        if len(families) == 1 and spec.get("ipFamilyPolicy") != "SingleStack":
            errs.append(FieldError.invalid(_SPEC.child("ipFamilyPolicy"), _policy_value(spec),
                                           "must be set to 'SingleStack' when releasing the secondary ipFamily"))
    elif old_families and families[0] != old_families[0]:
        errs.append(FieldError.invalid(path, ips, _MAY_NOT_CHANGE))
    return errs
