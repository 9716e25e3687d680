"""apis.validation: each group's validation module is found by its package, and a kind without one
gets None (decoding, defaulting and metadata only)."""

from __future__ import annotations

import pytest

from crdtool.apis.validation import package_of, validation_for

KINDS = [("networking.k8s.io", "Ingress"), ("networking.k8s.io", "IngressClass"),
         ("networking.k8s.io", "NetworkPolicy"), ("rbac.authorization.k8s.io", "Role"),
         ("rbac.authorization.k8s.io", "ClusterRole"), ("rbac.authorization.k8s.io", "RoleBinding"),
         ("rbac.authorization.k8s.io", "ClusterRoleBinding"), ("autoscaling", "HorizontalPodAutoscaler"),
         ("policy", "PodDisruptionBudget"), ("scheduling.k8s.io", "PriorityClass"), ("storage.k8s.io", "StorageClass")]


@pytest.mark.parametrize(("group", "kind"), KINDS)
def test_the_kinds_validation_is_registered(group: str, kind: str) -> None:
    assert validation_for(group, kind) is not None


def test_roles_update_as_they_create_and_bindings_check_their_role_ref() -> None:
    role = validation_for("rbac.authorization.k8s.io", "Role")
    binding = validation_for("rbac.authorization.k8s.io", "RoleBinding")
    assert role is not None and role.update is None
    assert binding is not None and binding.update is not None


def test_kinds_and_groups_without_validation() -> None:
    assert package_of("rbac.authorization.k8s.io") == "rbac"
    assert validation_for("networking.k8s.io", "IPAddress") is None
    assert validation_for("coordination.k8s.io", "Lease") is None
