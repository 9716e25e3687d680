"""The name rule (ValidateNameFunc) each built-in kind's validation passes to ValidateObjectMeta
(kubernetes pkg/apis/<group>/validation, 1.36).

- Service: ValidateServiceName = NameIsDNS1035Label (core/validation).
- Namespace: ValidateNamespaceName = NameIsDNSLabel; StatefulSet: ValidateStatefulSetName =
  NameIsDNSLabel (apps/validation: room for the pods' `-index` suffix).
- Role, ClusterRole, RoleBinding, ClusterRoleBinding: ValidateRBACName = path.IsValidPathSegmentName.
- Every other kind of the issue's list (Pod, ReplicationController, Secret, ConfigMap, ServiceAccount,
  Endpoints, PersistentVolume(Claim), Deployment, ReplicaSet, DaemonSet, Job, CronJob, Ingress,
  IngressClass, NetworkPolicy, HorizontalPodAutoscaler, StorageClass, PriorityClass, the
  admissionregistration kinds): NameIsDNSSubdomain, which is also the rule used for kinds not listed.
"""

from __future__ import annotations

from crdtool.schema.apimachinery.names import (
    NameFunc,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
    validate_path_segment_name,
)

_RBAC = "rbac.authorization.k8s.io"
_BY_KIND: dict[tuple[str, str], NameFunc] = {
    ("", "Service"): name_is_dns1035_label,
    ("", "Namespace"): name_is_dns_label,
    ("apps", "StatefulSet"): name_is_dns_label,
    **{(_RBAC, kind): validate_path_segment_name
       for kind in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")},
}


def name_rule(group: str, kind: str) -> NameFunc:
    """The ValidateNameFunc of a built-in kind."""
    return _BY_KIND.get((group, kind), name_is_dns_subdomain)
