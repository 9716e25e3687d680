"""rbac.authorization.k8s.io/v1 defaulting (kubernetes pkg/apis/rbac/v1/defaults.go, 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

RBAC = "io.k8s.api.rbac.v1."
GROUP = "rbac.authorization.k8s.io"


def _role_ref(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    ref = obj.setdefault("roleRef", {})
    if not ref.get("apiGroup"):
        d.set(ref, "apiGroup", GROUP, f"{at}.roleRef" if at else "roleRef")


@register(RBAC + "RoleBinding")
def role_binding(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_RoleBinding: roleRef.apiGroup rbac.authorization.k8s.io."""
    _role_ref(obj, d, at)


@register(RBAC + "ClusterRoleBinding")
def cluster_role_binding(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ClusterRoleBinding: roleRef.apiGroup rbac.authorization.k8s.io."""
    _role_ref(obj, d, at)


@register(RBAC + "Subject")
def subject(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Subject: a User's or Group's apiGroup rbac.authorization.k8s.io (a ServiceAccount's
    stays "")."""
    if not obj.get("apiGroup") and obj.get("kind") in ("User", "Group"):
        d.set(obj, "apiGroup", GROUP, at)
