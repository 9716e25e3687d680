"""autoscaling defaulting (kubernetes pkg/apis/autoscaling/v2/defaults.go and v1/defaults.go, 1.36)."""

from __future__ import annotations

import copy
from typing import Any

from crdtool.apis.defaults import Defaulted, register

V2 = "io.k8s.api.autoscaling.v2."
V1 = "io.k8s.api.autoscaling.v1."
DEFAULT_CPU_UTILIZATION = 80
_SCALE_UP = {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
             "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15},
                          {"type": "Percent", "value": 100, "periodSeconds": 15}]}
_SCALE_DOWN = {"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}


def _rules(given: dict[str, Any] | None, default: dict[str, Any]) -> dict[str, Any]:
    """copyHPAScalingRules onto a copy of the default rules: the fields the object sets win."""
    out = copy.deepcopy(default)
    for key in ("selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"):
        if given is not None and given.get(key) is not None:
            out[key] = given[key]
    return out


@register(V2 + "HorizontalPodAutoscaler")
def hpa_v2(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_HorizontalPodAutoscaler: minReplicas 1, a CPU metric at 80% utilization when no
    metric is given, and behavior's missing scaling rule fields from the default rules."""
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    if spec.get("minReplicas") is None:
        d.set(spec, "minReplicas", 1, s_at)
    if not spec.get("metrics"):
        d.set(spec, "metrics", [{"type": "Resource", "resource": {
            "name": "cpu", "target": {"type": "Utilization", "averageUtilization": DEFAULT_CPU_UTILIZATION}}}], s_at)
    behavior = spec.get("behavior")
    if isinstance(behavior, dict):
        for key, default in (("scaleUp", _SCALE_UP), ("scaleDown", _SCALE_DOWN)):
            filled = _rules(behavior.get(key), default)
            if filled != behavior.get(key):
                d.set(behavior, key, filled, f"{s_at}.behavior")


@register(V1 + "HorizontalPodAutoscaler")
def hpa_v1(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_HorizontalPodAutoscaler (v1): minReplicas 1."""
    spec = obj.setdefault("spec", {})
    if spec.get("minReplicas") is None:
        d.set(spec, "minReplicas", 1, f"{at}.spec" if at else "spec")
