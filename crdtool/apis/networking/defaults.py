"""networking.k8s.io/v1 defaulting (kubernetes pkg/apis/networking/v1/defaults.go, 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

NETWORKING = "io.k8s.api.networking.v1."


@register(NETWORKING + "NetworkPolicyPort")
def network_policy_port(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_NetworkPolicyPort: protocol TCP."""
    if obj.get("protocol") is None:
        d.set(obj, "protocol", "TCP", at)


@register(NETWORKING + "NetworkPolicy")
def network_policy(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_NetworkPolicy: without policyTypes, Ingress, and Egress too when egress rules exist."""
    spec = obj.setdefault("spec", {})
    if not spec.get("policyTypes"):
        types = ["Ingress"] + (["Egress"] if spec.get("egress") else [])
        d.set(spec, "policyTypes", types, f"{at}.spec" if at else "spec")


@register(NETWORKING + "IngressClass")
def ingress_class(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_IngressClass: a parameters reference's scope Cluster."""
    params = (obj.get("spec") or {}).get("parameters")
    if isinstance(params, dict) and params.get("scope") is None:
        d.set(params, "scope", "Cluster", f"{at}.spec.parameters" if at else "spec.parameters")
