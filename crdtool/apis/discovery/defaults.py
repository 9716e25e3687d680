"""discovery.k8s.io/v1 defaulting (kubernetes pkg/apis/discovery/v1/defaults.go, 1.36): EndpointPort."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register


@register("io.k8s.api.discovery.v1.EndpointPort")
def endpoint_port(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_EndpointPort: an absent name becomes "", an absent protocol TCP."""
    if obj.get("name") is None:
        d.set(obj, "name", "", at)
    if obj.get("protocol") is None:
        d.set(obj, "protocol", "TCP", at)
