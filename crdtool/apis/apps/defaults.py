"""apps/v1 defaulting (kubernetes pkg/apis/apps/v1/defaults.go, 1.36): Deployment, DaemonSet,
StatefulSet and ReplicaSet. Their pod templates get core/v1's defaults through the generated walk."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

APPS = "io.k8s.api.apps.v1."


def _spec(obj: dict[str, Any], at: str) -> tuple[dict[str, Any], str]:
    return obj.setdefault("spec", {}), f"{at}.spec" if at else "spec"


def _pointer(obj: dict[str, Any], key: str, value: object, d: Defaulted, at: str) -> None:
    """`if obj.X == nil { obj.X = &value }`."""
    if obj.get(key) is None:
        d.set(obj, key, value, at)


@register(APPS + "Deployment")
def deployment(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Deployment: replicas 1; strategy RollingUpdate with maxUnavailable and maxSurge 25%;
    revisionHistoryLimit 10; progressDeadlineSeconds 600."""
    spec, s_at = _spec(obj, at)
    _pointer(spec, "replicas", 1, d, s_at)
    strategy = spec.setdefault("strategy", {})
    st_at = f"{s_at}.strategy"
    d.empty(strategy, "type", "RollingUpdate", st_at)
    if strategy["type"] == "RollingUpdate":
        if strategy.get("rollingUpdate") is None:
            d.set(strategy, "rollingUpdate", {}, st_at)
        rolling = strategy["rollingUpdate"]
        _pointer(rolling, "maxUnavailable", "25%", d, f"{st_at}.rollingUpdate")
        _pointer(rolling, "maxSurge", "25%", d, f"{st_at}.rollingUpdate")
    _pointer(spec, "revisionHistoryLimit", 10, d, s_at)
    _pointer(spec, "progressDeadlineSeconds", 600, d, s_at)


@register(APPS + "DaemonSet")
def daemon_set(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_DaemonSet: updateStrategy RollingUpdate with maxUnavailable 1 and maxSurge 0;
    revisionHistoryLimit 10."""
    spec, s_at = _spec(obj, at)
    strategy = spec.setdefault("updateStrategy", {})
    st_at = f"{s_at}.updateStrategy"
    d.empty(strategy, "type", "RollingUpdate", st_at)
    if strategy["type"] == "RollingUpdate":
        if strategy.get("rollingUpdate") is None:
            d.set(strategy, "rollingUpdate", {}, st_at)
        rolling = strategy["rollingUpdate"]
        _pointer(rolling, "maxUnavailable", 1, d, f"{st_at}.rollingUpdate")
        _pointer(rolling, "maxSurge", 0, d, f"{st_at}.rollingUpdate")
    _pointer(spec, "revisionHistoryLimit", 10, d, s_at)


@register(APPS + "StatefulSet")
def stateful_set(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_StatefulSet: podManagementPolicy OrderedReady; updateStrategy RollingUpdate (with
    rollingUpdate {} when the type was defaulted) and partition 0; persistentVolumeClaimRetentionPolicy
    Retain/Retain (feature StatefulSetAutoDeletePVC, on in 1.36); replicas 1; revisionHistoryLimit 10."""
    spec, s_at = _spec(obj, at)
    d.empty(spec, "podManagementPolicy", "OrderedReady", s_at)
    strategy = spec.setdefault("updateStrategy", {})
    st_at = f"{s_at}.updateStrategy"
    if not strategy.get("type"):
        d.set(strategy, "type", "RollingUpdate", st_at)
        if strategy.get("rollingUpdate") is None:
            d.set(strategy, "rollingUpdate", {}, st_at)
    rolling = strategy.get("rollingUpdate")
    if strategy["type"] == "RollingUpdate" and rolling is not None:
        _pointer(rolling, "partition", 0, d, f"{st_at}.rollingUpdate")
    if spec.get("persistentVolumeClaimRetentionPolicy") is None:
        d.set(spec, "persistentVolumeClaimRetentionPolicy", {}, s_at)
    policy = spec["persistentVolumeClaimRetentionPolicy"]
    d.empty(policy, "whenDeleted", "Retain", f"{s_at}.persistentVolumeClaimRetentionPolicy")
    d.empty(policy, "whenScaled", "Retain", f"{s_at}.persistentVolumeClaimRetentionPolicy")
    _pointer(spec, "replicas", 1, d, s_at)
    _pointer(spec, "revisionHistoryLimit", 10, d, s_at)


@register(APPS + "ReplicaSet")
def replica_set(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ReplicaSet: replicas 1."""
    spec, s_at = _spec(obj, at)
    _pointer(spec, "replicas", 1, d, s_at)
