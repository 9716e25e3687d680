"""core/v1 defaulting (kubernetes pkg/apis/core/v1/defaults.go, 1.36): the hand-written
SetDefaults_ functions for the types of pods, services, secrets, volumes and claims.

Each function is registered for the Go type it takes (the OpenAPI name of k8s.io/api/core/v1's
type) and called by the generated walk (apis.defaults). Not reproduced: the canonical spelling the
apiserver stores for every quantity (one SetDefaults_ResourceList does not round is kept as written),
pod-level limits' defaults (defaultHugePagePodLimits, defaultPodLimits; the requests' are), an image volume's pull
policy (feature ImageVolume), and the defaults of node statuses.
"""

from __future__ import annotations

import re
from typing import Any

from crdtool.apis.defaults import Defaulted, register

CORE = "io.k8s.api.core.v1."
_DEFAULT_MODE = 0o644  # SecretVolumeSourceDefaultMode, ConfigMapVolumeSourceDefaultMode, ...


@register(CORE + "PodSpec")
def pod_spec(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PodSpec: dnsPolicy ClusterFirst, restartPolicy Always, securityContext {},
    terminationGracePeriodSeconds 30, schedulerName default-scheduler."""
    d.empty(obj, "dnsPolicy", "ClusterFirst", at)
    d.empty(obj, "restartPolicy", "Always", at)
    if obj.get("securityContext") is None:
        d.set(obj, "securityContext", {}, at)
    if obj.get("terminationGracePeriodSeconds") is None:
        d.set(obj, "terminationGracePeriodSeconds", 30, at)
    d.empty(obj, "schedulerName", "default-scheduler", at)


@register(CORE + "Pod")
def pod(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Pod (a Pod only, not a template): a container's requests default to its limits,
    pod-level requests are completed (defaultPodRequests), enableServiceLinks true, and with
    hostNetwork each container port's hostPort to its containerPort."""
    spec = obj.setdefault("spec", {})
    spec_at = f"{at}.spec" if at else "spec"
    for field in ("containers", "initContainers"):
        for i, container in enumerate(spec.get(field) or ()):
            resources = container.get("resources") or {}
            limits = resources.get("limits")
            if limits is None:
                continue
            container["resources"] = resources
            requests = resources.setdefault("requests", {})
            for key, value in limits.items():
                if key not in requests:
                    d.set(requests, key, value, f"{spec_at}.{field}[{i}].resources.requests")
    _default_pod_requests(spec, d, f"{spec_at}.resources")
    if spec.get("enableServiceLinks") is None:
        d.set(spec, "enableServiceLinks", True, spec_at)
    if spec.get("hostNetwork"):
        for field in ("containers", "initContainers"):
            for i, container in enumerate(spec.get(field) or ()):
                for j, port in enumerate(container.get("ports") or ()):
                    if not port.get("hostPort"):
                        d.set(port, "hostPort", port.get("containerPort", 0), f"{spec_at}.{field}[{i}].ports[{j}]")


@register("v1.ResourceList")
def resource_list(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ResourceList: each quantity rounded up to a thousandth (Quantity.RoundUp(-3))."""
    from crdtool.model.quantity import QuantityError, round_up_to_milli

    for key, value in obj.items():
        try:
            rounded = round_up_to_milli(value) if isinstance(value, (str, int, float)) else None
        except (QuantityError, ValueError):
            rounded = None  # not a quantity: decoding has reported it
        if rounded is not None:
            d.set(obj, key, rounded, at)


@register(CORE + "Container")
def container(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Container: imagePullPolicy Always for an image tagged (or defaulting to) `latest`,
    IfNotPresent otherwise; terminationMessagePath /dev/termination-log; terminationMessagePolicy File."""
    if not obj.get("imagePullPolicy"):
        d.set(obj, "imagePullPolicy", "Always" if image_tag(obj.get("image", "")) == "latest" else "IfNotPresent", at)
    d.empty(obj, "terminationMessagePath", "/dev/termination-log", at)
    d.empty(obj, "terminationMessagePolicy", "File", at)


register(CORE + "EphemeralContainer")(container)  # SetDefaults_EphemeralContainer: the container's defaults


@register(CORE + "Volume")
def volume(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Volume: a volume without any source is an emptyDir (VolumeSource is inline in Volume)."""
    if all(key == "name" for key in obj):
        d.set(obj, "emptyDir", {}, at)


@register(CORE + "HostPathVolumeSource")
def host_path(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_HostPathVolumeSource: type HostPathUnset ("")."""
    if obj.get("type") is None:
        d.set(obj, "type", "", at)


def _default_mode(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_{Secret,ConfigMap,DownwardAPI,Projected}VolumeSource: defaultMode 0644 (420)."""
    if obj.get("defaultMode") is None:
        d.set(obj, "defaultMode", _DEFAULT_MODE, at)


for _source in ("SecretVolumeSource", "ConfigMapVolumeSource", "DownwardAPIVolumeSource", "ProjectedVolumeSource"):
    register(CORE + _source)(_default_mode)


@register(CORE + "ServiceAccountTokenProjection")
def token_projection(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ServiceAccountTokenProjection: expirationSeconds one hour."""
    if obj.get("expirationSeconds") is None:
        d.set(obj, "expirationSeconds", 3600, at)


@register(CORE + "Probe")
def probe(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Probe: timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3."""
    for key, value in (("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1), ("failureThreshold", 3)):
        if not obj.get(key):
            d.set(obj, key, value, at)


@register(CORE + "HTTPGetAction")
def http_get(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_HTTPGetAction: path "/", scheme HTTP."""
    d.empty(obj, "path", "/", at)
    d.empty(obj, "scheme", "HTTP", at)


@register(CORE + "ObjectFieldSelector")
def field_selector(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ObjectFieldSelector: apiVersion v1."""
    d.empty(obj, "apiVersion", "v1", at)


@register(CORE + "Service")
def service(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Service: sessionAffinity None (and no sessionAffinityConfig then; ClientIP gets a
    10800 s timeout), type ClusterIP, each port's protocol TCP and targetPort its port,
    externalTrafficPolicy Cluster for an externally accessible service, internalTrafficPolicy Cluster,
    allocateLoadBalancerNodePorts true for a LoadBalancer, and a load balancer ingress IP's ipMode VIP."""
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    d.empty(spec, "sessionAffinity", "None", s_at)
    if spec["sessionAffinity"] == "None":
        spec.pop("sessionAffinityConfig", None)
    elif spec["sessionAffinity"] == "ClientIP":
        config = spec.get("sessionAffinityConfig") or {}
        if (config.get("clientIP") or {}).get("timeoutSeconds") is None:
            d.set(spec, "sessionAffinityConfig", {"clientIP": {"timeoutSeconds": 10800}}, s_at)
    d.empty(spec, "type", "ClusterIP", s_at)
    for i, port in enumerate(spec.get("ports") or ()):
        d.empty(port, "protocol", "TCP", f"{s_at}.ports[{i}]")
        if port.get("targetPort") in (None, 0, ""):
            d.set(port, "targetPort", port.get("port", 0), f"{s_at}.ports[{i}]")
    kind = spec["type"]
    # service.ExternallyAccessible: a LoadBalancer or NodePort, or a ClusterIP with external IPs
    accessible = kind in ("LoadBalancer", "NodePort") or (kind == "ClusterIP" and bool(spec.get("externalIPs")))
    if accessible:
        d.empty(spec, "externalTrafficPolicy", "Cluster", s_at)
    if spec.get("internalTrafficPolicy") is None and kind in ("NodePort", "LoadBalancer", "ClusterIP"):
        d.set(spec, "internalTrafficPolicy", "Cluster", s_at)
    if kind == "LoadBalancer":
        if spec.get("allocateLoadBalancerNodePorts") is None:
            d.set(spec, "allocateLoadBalancerNodePorts", True, s_at)
        ingress = ((obj.get("status") or {}).get("loadBalancer") or {}).get("ingress") or ()
        for i, entry in enumerate(ingress):
            if entry.get("ip") and entry.get("ipMode") is None:
                d.set(entry, "ipMode", "VIP", f"{at + '.' if at else ''}status.loadBalancer.ingress[{i}]")


@register(CORE + "Secret")
def secret(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Secret: type Opaque."""
    d.empty(obj, "type", "Opaque", at)


def _default_pod_requests(spec: dict[str, Any], d: Defaulted, at: str) -> None:
    """defaultPodRequests (feature PodLevelResources, on): with pod-level limits, a pod-level
    resource the pod does not request is requested as its containers request it in aggregate (if
    it can be overcommitted), else as the pod limits it."""
    from crdtool.apis.core.podresources import aggregate_container_requests, is_pod_level_resource
    from crdtool.apis.core.resources import is_overcommit_allowed

    resources = spec.get("resources")
    if not isinstance(resources, dict) or not resources.get("limits"):
        return
    requests = dict(resources.get("requests") or {})
    for key, total in aggregate_container_requests(spec).items():
        if key not in requests and is_pod_level_resource(key) and is_overcommit_allowed(key):
            requests[key] = total.string()
    for key, limit in resources["limits"].items():
        if key not in requests and is_pod_level_resource(key):
            requests[key] = limit
    if requests and requests != resources.get("requests"):
        d.set(resources, "requests", requests, at)


@register(CORE + "PersistentVolumeClaim")
def claim(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PersistentVolumeClaim: status.phase Pending."""
    status = obj.setdefault("status", {})
    d.empty(status, "phase", "Pending", f"{at}.status" if at else "status")


@register(CORE + "PersistentVolumeClaimSpec")
def claim_spec(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PersistentVolumeClaimSpec: volumeMode Filesystem."""
    if obj.get("volumeMode") is None:
        d.set(obj, "volumeMode", "Filesystem", at)


@register(CORE + "PersistentVolume")
def volume_object(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PersistentVolume: status.phase Pending, reclaim policy Retain, volumeMode Filesystem."""
    status = obj.setdefault("status", {})
    d.empty(status, "phase", "Pending", f"{at}.status" if at else "status")
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    d.empty(spec, "persistentVolumeReclaimPolicy", "Retain", s_at)
    if spec.get("volumeMode") is None:
        d.set(spec, "volumeMode", "Filesystem", s_at)


@register(CORE + "Namespace")
def namespace(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Namespace: a named namespace gets the label kubernetes.io/metadata.name = its name."""
    meta = obj.get("metadata") or {}
    name = meta.get("name")
    if name:
        obj["metadata"] = meta
        labels = meta.setdefault("labels", {})
        if labels.get("kubernetes.io/metadata.name") != name:
            d.set(labels, "kubernetes.io/metadata.name", name, f"{at + '.' if at else ''}metadata.labels")


@register(CORE + "NamespaceStatus")
def namespace_status(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_NamespaceStatus: phase Active."""
    d.empty(obj, "phase", "Active", at)


@register(CORE + "LimitRangeItem")
def limit_range_item(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_LimitRangeItem, for a Container limit: a resource with a max and no default limit
    gets the max as its default; a default limit without a default request gives that request; a min
    without a default request gives it too. (Go makes both maps even when nothing goes in them: an
    empty map is not written, so it is left out here.)"""
    if obj.get("type") != "Container":
        return
    default = obj.get("default") or {}
    request = obj.get("defaultRequest") or {}
    for source, target, key in ((obj.get("max"), default, "default"), (default, request, "defaultRequest"),
                                (obj.get("min"), request, "defaultRequest")):
        for name, value in (source or {}).items():
            if name not in target:
                d.set(target, name, value, f"{at}.{key}" if at else key)
        if target:
            obj[key] = target


@register(CORE + "Endpoints")
def endpoints(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Endpoints: each subset port's protocol TCP."""
    for i, subset in enumerate(obj.get("subsets") or ()):
        for j, port in enumerate(subset.get("ports") or ()):
            d.empty(port, "protocol", "TCP", f"{at + '.' if at else ''}subsets[{i}].ports[{j}]")


@register(CORE + "ReplicationController")
def replication_controller(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ReplicationController: selector and labels from the template's labels when empty."""
    spec = obj.setdefault("spec", {})
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
    if labels is not None:
        if not spec.get("selector"):
            d.set(spec, "selector", dict(labels), f"{at}.spec" if at else "spec")
        meta = obj.setdefault("metadata", {})
        if not meta.get("labels"):
            d.set(meta, "labels", dict(labels), f"{at}.metadata" if at else "metadata")


# ---------------------------------------------------------------- image references

_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*"
_DOMAIN = r"(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*" \
          r"|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?"
_REFERENCE = re.compile(rf"(?:{_DOMAIN}/)?{_COMPONENT}(?:/{_COMPONENT})*"
                        r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
                        r"(?:@(?P<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?")
_NAME_MAX = 255


def image_tag(image: str) -> str:
    """The tag parsers.ParseImageName gives an image reference (docker's ParseNormalizedNamed):
    its tag; `latest` when it has neither tag nor digest; "" when it does not parse."""
    m = _REFERENCE.fullmatch(image) if isinstance(image, str) else None
    if m is None:
        return ""
    name_length = len(image.split("@")[0]) - (len(m.group("tag")) + 1 if m.group("tag") else 0)
    if name_length > _NAME_MAX:
        return ""
    if m.group("tag"):
        return m.group("tag")
    return "" if m.group("digest") else "latest"
