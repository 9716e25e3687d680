"""The apiserver's defaulting of the networking, rbac, autoscaling, scheduling and storage kinds
(crdtool.apis.<group>.defaults). Each case: a kind, the object, and the paths defaulting sets with
their values, read from the 1.36 defaults.go it exercises (cited), following its defaults_test.go."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis import set_defaults
from crdtool.model.discovery import lookup_kind

NET = "pkg/apis/networking/v1/defaults.go "
RBAC = "pkg/apis/rbac/v1/defaults.go "
HPA = "pkg/apis/autoscaling/v2/defaults.go "
HPA1 = "pkg/apis/autoscaling/v1/defaults.go "
SCHED = "pkg/apis/scheduling/v1/defaults.go "
STORAGE = "pkg/apis/storage/v1/defaults.go "
RB_GROUP = "rbac.authorization.k8s.io"
SCALE_UP = {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
            "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15},
                         {"type": "Percent", "value": 100, "periodSeconds": 15}]}
SCALE_DOWN = {"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}
CPU80 = [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]

CASES = [
    (NET + "SetDefaults_NetworkPolicy", "networking.k8s.io/v1", "NetworkPolicy", {"spec": {}},
     {"spec.policyTypes": ["Ingress"]}),
    (NET + "SetDefaults_NetworkPolicy (egress rules)", "networking.k8s.io/v1", "NetworkPolicy",
     {"spec": {"egress": [{}]}}, {"spec.policyTypes": ["Ingress", "Egress"]}),
    (NET + "SetDefaults_NetworkPolicy (given)", "networking.k8s.io/v1", "NetworkPolicy",
     {"spec": {"policyTypes": ["Egress"]}}, {}),
    (NET + "SetDefaults_NetworkPolicyPort", "networking.k8s.io/v1", "NetworkPolicy",
     {"spec": {"policyTypes": ["Ingress"], "ingress": [{"ports": [{"port": 80}, {"protocol": "UDP"}]}]}},
     {"spec.ingress[0].ports[0].protocol": "TCP"}),
    (NET + "SetDefaults_IngressClass", "networking.k8s.io/v1", "IngressClass",
     {"spec": {"controller": "a.io/b", "parameters": {"kind": "K", "name": "n"}}},
     {"spec.parameters.scope": "Cluster"}),
    (NET + "SetDefaults_IngressClass (no parameters)", "networking.k8s.io/v1", "IngressClass",
     {"spec": {"controller": "a.io/b"}}, {}),
    (RBAC + "SetDefaults_RoleBinding", "rbac.authorization.k8s.io/v1", "RoleBinding",
     {"roleRef": {"kind": "Role", "name": "r"}}, {"roleRef.apiGroup": RB_GROUP}),
    (RBAC + "SetDefaults_ClusterRoleBinding", "rbac.authorization.k8s.io/v1", "ClusterRoleBinding",
     {"roleRef": {"kind": "ClusterRole", "name": "r"}}, {"roleRef.apiGroup": RB_GROUP}),
    (RBAC + "SetDefaults_Subject", "rbac.authorization.k8s.io/v1", "RoleBinding",
     {"roleRef": {"apiGroup": RB_GROUP, "kind": "Role", "name": "r"},
      "subjects": [{"kind": "User", "name": "u"}, {"kind": "Group", "name": "g"},
                   {"kind": "ServiceAccount", "name": "s"}]},
     {"subjects[0].apiGroup": RB_GROUP, "subjects[1].apiGroup": RB_GROUP}),
    (HPA + "SetDefaults_HorizontalPodAutoscaler", "autoscaling/v2", "HorizontalPodAutoscaler",
     {"spec": {"maxReplicas": 3}}, {"spec.minReplicas": 1, "spec.metrics": CPU80}),
    (HPA + "SetDefaults_HorizontalPodAutoscalerBehavior (empty behavior)", "autoscaling/v2",
     "HorizontalPodAutoscaler", {"spec": {"minReplicas": 2, "metrics": CPU80, "behavior": {}}},
     {"spec.behavior.scaleUp": SCALE_UP, "spec.behavior.scaleDown": SCALE_DOWN}),
    (HPA + "GenerateHPAScaleUpRules (the given fields win)", "autoscaling/v2", "HorizontalPodAutoscaler",
     {"spec": {"minReplicas": 2, "metrics": CPU80, "behavior": {"scaleUp": {"selectPolicy": "Min"},
                                                                "scaleDown": SCALE_DOWN}}},
     {"spec.behavior.scaleUp": {**SCALE_UP, "selectPolicy": "Min"}}),
    (HPA1 + "SetDefaults_HorizontalPodAutoscaler", "autoscaling/v1", "HorizontalPodAutoscaler",
     {"spec": {"maxReplicas": 3}}, {"spec.minReplicas": 1}),
    (SCHED + "SetDefaults_PriorityClass", "scheduling.k8s.io/v1", "PriorityClass", {"value": 1},
     {"preemptionPolicy": "PreemptLowerPriority"}),
    (STORAGE + "SetDefaults_StorageClass", "storage.k8s.io/v1", "StorageClass", {"provisioner": "a"},
     {"reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"}),
    (STORAGE + "SetDefaults_StorageClass (given)", "storage.k8s.io/v1", "StorageClass",
     {"provisioner": "a", "reclaimPolicy": "Retain", "volumeBindingMode": "WaitForFirstConsumer"}, {}),
]


def _get(obj, path: str):
    for step in path.replace("[", ".").replace("]", "").split("."):
        obj = obj[int(step)] if isinstance(obj, list) else obj[step]
    return obj


@pytest.mark.parametrize(("source", "api_version", "kind", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_group_defaults(source: str, api_version: str, kind: str, obj: dict, expected: dict) -> None:
    """Exactly the expected paths are set (set_defaults' list), with the expected values."""
    found = lookup_kind(api_version, kind).builtin
    assert found is not None
    value = copy.deepcopy(obj)
    paths = set_defaults(value, found)
    assert sorted(paths) == sorted(expected)
    for path, want in expected.items():
        assert _get(value, path) == want, path
