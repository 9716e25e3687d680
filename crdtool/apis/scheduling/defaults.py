"""scheduling.k8s.io/v1 defaulting (kubernetes pkg/apis/scheduling/v1/defaults.go, 1.36): PriorityClass."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register


@register("io.k8s.api.scheduling.v1.PriorityClass")
def priority_class(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority."""
    if obj.get("preemptionPolicy") is None:
        d.set(obj, "preemptionPolicy", "PreemptLowerPriority", at)
