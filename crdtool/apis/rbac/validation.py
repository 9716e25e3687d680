"""rbac.authorization.k8s.io validation (kubernetes pkg/apis/rbac/validation/validation.go, 1.36):
Role, ClusterRole, RoleBinding, ClusterRoleBinding, with the apiserver's texts.

Bad values that are Go structs or lists of the internal types render as json.Marshal renders them:
the internal RoleRef has no json tags, so `cannot change roleRef` shows `{"APIGroup":...}`.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import name_is_dns_subdomain, validate_path_segment_name

GROUP = "rbac.authorization.k8s.io"


def validate_policy_rule(rule: dict[str, Any], namespaced: bool, path: Path) -> list[FieldError]:
    """validatePolicyRule: verbs required; non-resource URLs only in cluster rules and alone; resource
    rules with api groups and resources, resource names with one resource."""
    errs: list[FieldError] = []
    if not rule.get("verbs"):
        errs.append(FieldError.required(path.child("verbs"), "verbs must contain at least one value"))
    urls = rule.get("nonResourceURLs") or []
    if urls:
        if namespaced:
            errs.append(FieldError.invalid(path.child("nonResourceURLs"), urls,
                                           "namespaced rules cannot apply to non-resource URLs"))
        if rule.get("apiGroups") or rule.get("resources") or rule.get("resourceNames"):
            errs.append(FieldError.invalid(path.child("nonResourceURLs"), urls,
                                           "rules cannot apply to both regular resources and non-resource URLs"))
        return errs
    if not rule.get("apiGroups"):
        errs.append(FieldError.required(path.child("apiGroups"), "resource rules must supply at least one api group"))
    if not rule.get("resources"):
        errs.append(FieldError.required(path.child("resources"), "resource rules must supply at least one resource"))
    if rule.get("resourceNames") and len(rule.get("resources") or ()) > 1:
        errs.append(FieldError.required(path.child("resourceNames"),
                                        "resource names cannot apply to multiple resources"))
    return errs


def _rules(obj: dict[str, Any], namespaced: bool) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, rule in enumerate(obj.get("rules") or ()):
        errs.extend(validate_policy_rule(rule, namespaced, Path.root("rules").index(i)))
    return errs


def validate_role(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateRole (and ValidateRoleUpdate, which adds only metadata checks)."""
    return _rules(obj, True)


def validate_cluster_role(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateClusterRole (ValidateClusterRoleUpdate adds only metadata checks; an aggregationRule's
    selectors are not validated by 1.36)."""
    return _rules(obj, False)


def validate_subject(subject: dict[str, Any], namespaced: bool, path: Path) -> list[FieldError]:
    """validateRoleBindingSubject: by kind, a ServiceAccount (a DNS subdomain name, no apiGroup, a
    namespace in a cluster binding), a User or a Group (apiGroup rbac.authorization.k8s.io)."""
    errs: list[FieldError] = []
    name = subject.get("name") or ""
    api_group = subject.get("apiGroup") or ""
    if not name:
        errs.append(FieldError.required(path.child("name"), ""))
    kind = subject.get("kind") or ""
    if kind == "ServiceAccount":
        if name:
            errs.extend(FieldError.invalid(path.child("name"), name, m) for m in name_is_dns_subdomain(name, False))
        if api_group:
            errs.append(FieldError.not_supported(path.child("apiGroup"), api_group, [""]))
        if not namespaced and not subject.get("namespace"):
            errs.append(FieldError.required(path.child("namespace"), ""))
    elif kind in ("User", "Group"):
        if not name:
            errs.append(FieldError.invalid(path.child("name"), name, f"{kind.lower()} name cannot be empty"))
        if api_group != GROUP:
            errs.append(FieldError.not_supported(path.child("apiGroup"), api_group, [GROUP]))
    else:
        errs.append(FieldError.not_supported(path.child("kind"), kind, ["ServiceAccount", "User", "Group"]))
    return errs


def _role_ref_go(ref: dict[str, Any]) -> GoStruct:
    """The internal rbac.RoleRef as json.Marshal writes it (Go field names in field order, no tags)."""
    return GoStruct({"APIGroup": ref.get("apiGroup") or "", "Kind": ref.get("kind") or "",
                     "Name": ref.get("name") or ""})


def _binding(obj: dict[str, Any], old: dict[str, Any] | None, namespaced: bool) -> list[FieldError]:
    """ValidateRoleBinding / ValidateClusterRoleBinding, and on update the immutable roleRef."""
    errs: list[FieldError] = []
    ref = obj.get("roleRef") or {}
    api_group = ref.get("apiGroup") or ""
    if api_group != GROUP:
        errs.append(FieldError.not_supported(Path.root("roleRef", "apiGroup"), api_group, [GROUP]))
    kinds = ["Role", "ClusterRole"] if namespaced else ["ClusterRole"]
    kind = ref.get("kind") or ""
    if kind not in kinds:
        errs.append(FieldError.not_supported(Path.root("roleRef", "kind"), kind, kinds))
    name = ref.get("name") or ""
    if not name:
        errs.append(FieldError.required(Path.root("roleRef", "name"), ""))
    else:
        errs.extend(FieldError.invalid(Path.root("roleRef", "name"), name, m)
                    for m in validate_path_segment_name(name, False))
    for i, subject in enumerate(obj.get("subjects") or ()):
        errs.extend(validate_subject(subject, namespaced, Path.root("subjects").index(i)))
    if old is not None and _role_ref_go(old.get("roleRef") or {}) != _role_ref_go(ref):
        errs.append(FieldError.invalid(Path.root("roleRef"), _role_ref_go(ref), "cannot change roleRef"))
    return errs


def validate_role_binding(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateRoleBinding / ValidateRoleBindingUpdate."""
    return _binding(obj, old, True)


def validate_cluster_role_binding(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateClusterRoleBinding / ValidateClusterRoleBindingUpdate."""
    return _binding(obj, old, False)


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "Role": KindValidation(create=validate_role),
    "ClusterRole": KindValidation(create=validate_cluster_role),
    "RoleBinding": KindValidation(create=validate_role_binding, update=validate_role_binding),
    "ClusterRoleBinding": KindValidation(create=validate_cluster_role_binding, update=validate_cluster_role_binding),
}
