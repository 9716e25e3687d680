"""Kinds the apiserver serves itself: documents of these groups are not custom resources."""

from __future__ import annotations

from crdtool.model.groupversion import group_of

BUILTIN_GROUPS = frozenset({
    "", "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "apps",
    "authentication.k8s.io", "authorization.k8s.io", "autoscaling", "batch", "certificates.k8s.io",
    "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io", "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io", "policy", "rbac.authorization.k8s.io",
    "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io", "storagemigration.k8s.io",
})


def is_builtin(api_version: object) -> bool:
    """Whether an apiVersion belongs to a group kube-apiserver serves without any CRD."""
    if not isinstance(api_version, str):
        return False
    group = group_of(api_version)
    return group in BUILTIN_GROUPS
