"""rbac.authorization.k8s.io validation (crdtool.apis.rbac.validation) against the cases of kubernetes'
pkg/apis/rbac/validation/validation_test.go (1.36): each case cites its Go test and error case, the
expected field path and error type as the Go test states them (the texts are validation.go's)."""

from __future__ import annotations

import pytest
from builtin_cases import assert_errors

GROUP = "rbac.authorization.k8s.io"
API = f"{GROUP}/v1"
T = "pkg/apis/rbac/validation/validation_test.go "
VALID_SUBJECTS = [{"name": "validsaname", "namespace": "foo", "kind": "ServiceAccount"},
                  {"name": "valid@username", "kind": "User"}, {"name": "valid@groupname", "kind": "Group"}]


def crb(ref: dict, subjects: list | None = None, name: str = "master") -> dict:
    obj = {"apiVersion": API, "kind": "ClusterRoleBinding", "metadata": {"name": name}, "roleRef": ref}
    if subjects is not None:
        obj["subjects"] = subjects
    return obj


def rb(ref: dict, subjects: list | None = None, name: str = "master") -> dict:
    obj = crb(ref, subjects, name)
    obj["kind"] = "RoleBinding"
    obj["metadata"]["namespace"] = "default"
    return obj


def ref(kind: str = "ClusterRole", name: str | None = "valid", group: str = GROUP) -> dict:
    out = {"apiGroup": group, "kind": kind}
    if name is not None:
        out["name"] = name
    return out


def role(rules: list, cluster: bool = False) -> dict:
    meta = {"name": "default"} if cluster else {"name": "default", "namespace": "default"}
    return {"apiVersion": API, "kind": "ClusterRole" if cluster else "Role", "metadata": meta, "rules": rules}


CASES = [
    (T + "TestValidateClusterRoleBinding success", crb(ref(), VALID_SUBJECTS), []),
    (T + "TestValidateClusterRoleBinding bad group", crb(ref(group="rbac.GroupName"), name="default"),
     ['roleRef.apiGroup: Unsupported value: "rbac.GroupName": supported values: "rbac.authorization.k8s.io"']),
    (T + "TestValidateClusterRoleBinding bad kind", crb(ref("Type"), name="default"),
     ['roleRef.kind: Unsupported value: "Type": supported values: "ClusterRole"']),
    (T + "TestValidateClusterRoleBinding reference role", crb(ref("Role"), name="default"),
     ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']),
    (T + "TestValidateClusterRoleBinding bad role", crb(ref(name=None), name="default"),
     ["roleRef.name: Required value"]),
    (T + "TestValidateClusterRoleBinding bad subject kind", crb(ref(), [{"name": "subject"}]),
     ['subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"']),
    (T + "TestValidateClusterRoleBinding bad subject name",
     crb(ref(), [{"namespace": "foo", "name": "subject:bad", "kind": "ServiceAccount"}]),
     ['subjects[0].name: Invalid value: "subject:bad": a lowercase RFC 1123 subdomain']),
    (T + "TestValidateClusterRoleBinding missing SA namespace",
     crb(ref(), [{"name": "good", "kind": "ServiceAccount"}]), ["subjects[0].namespace: Required value"]),
    (T + "TestValidateClusterRoleBinding missing subject name",
     crb(ref(), [{"namespace": "foo", "kind": "ServiceAccount"}]), ["subjects[0].name: Required value"]),
    (T + "TestValidateRoleBinding success", rb(ref("Role"), [s for s in VALID_SUBJECTS]), []),
    (T + "TestValidateRoleBinding bad group", rb(ref(group="rbac.GroupName"), name="default"),
     ["roleRef.apiGroup: Unsupported value"]),
    (T + "TestValidateRoleBinding bad kind", rb(ref("Type"), name="default"),
     ['roleRef.kind: Unsupported value: "Type": supported values: "Role", "ClusterRole"']),
    (T + "TestValidateRoleBinding bad role", rb(ref("Role", name=None), name="default"),
     ["roleRef.name: Required value"]),
    (T + "TestValidateRoleBinding bad subject kind", rb(ref("Role"), [{"name": "subject"}]),
     ["subjects[0].kind: Unsupported value"]),
    (T + "TestValidateRoleBinding bad subject name",
     rb(ref("Role"), [{"name": "subject:bad", "kind": "ServiceAccount"}]), ["subjects[0].name: Invalid value"]),
    (T + "TestValidateRoleBinding missing subject name", rb(ref("Role"), [{"kind": "ServiceAccount"}]),
     ["subjects[0].name: Required value"]),
    (T + "TestValidateRoleBinding: a namespaced binding's ServiceAccount needs no namespace",
     rb(ref("Role"), [{"name": "sa", "kind": "ServiceAccount"}]), []),
    ("validation.go validateRoleBindingSubject: a ServiceAccount has no apiGroup",
     rb(ref("Role"), [{"name": "sa", "kind": "ServiceAccount", "apiGroup": "x"}]),
     ['subjects[0].apiGroup: Unsupported value: "x": supported values: ""']),
    ("validation.go validateRoleBindingSubject: a User's apiGroup",
     rb(ref("Role"), [{"name": "u", "kind": "User", "apiGroup": "x"}]),
     ['subjects[0].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"']),
    ("validation.go validateRoleBindingSubject: an empty User name",
     rb(ref("Role"), [{"name": "", "kind": "User"}]),
     ["subjects[0].name: Required value", 'subjects[0].name: Invalid value: "": user name cannot be empty']),
    ("validation.go validateRoleBindingSubject: an empty Group name",
     rb(ref("Role"), [{"name": "", "kind": "Group"}]),
     ["subjects[0].name: Required value", 'subjects[0].name: Invalid value: "": group name cannot be empty']),
    ("validation.go ValidateRoleBinding: roleRef.name a path segment", rb(ref("Role", "a/b")),
     ["roleRef.name: Invalid value: \"a/b\": may not contain '/'"]),
    ("validation.go ValidateRoleBinding: roleRef.name not '..'", rb(ref("Role", "..")),
     ["roleRef.name: Invalid value: \"..\": may not be '..'"]),
    (T + "TestValidateRoleValidRole", role([]), []),
    (T + "TestValidateRoleValidRoleNoNamespace", role([], cluster=True), []),
    (T + "TestValidateRoleNonResourceURL", role([{"verbs": ["get"], "nonResourceURLs": ["/*"]}], cluster=True), []),
    (T + "TestValidateRoleNamespacedNonResourceURL", role([{"verbs": ["get"], "nonResourceURLs": ["/*"]}]),
     ['rules[0].nonResourceURLs: Invalid value: ["/*"]: namespaced rules cannot apply to non-resource URLs']),
    (T + "TestValidateRoleNonResourceURLNoVerbs",
     role([{"verbs": [], "nonResourceURLs": ["/*"]}], cluster=True),
     ["rules[0].verbs: Required value: verbs must contain at least one value"]),
    (T + "TestValidateRoleMixedNonResourceAndResource",
     role([{"verbs": ["get"], "nonResourceURLs": ["/*"], "apiGroups": ["v1"], "resources": ["pods"]}]),
     ["rules[0].nonResourceURLs: Invalid value: [\"/*\"]: namespaced rules cannot apply to non-resource URLs",
      "rules[0].nonResourceURLs: Invalid value: [\"/*\"]: rules cannot apply to both regular resources and "
      "non-resource URLs"]),
    (T + "TestValidateRoleValidResource", role([{"verbs": ["get"], "apiGroups": ["v1"], "resources": ["pods"]}]), []),
    (T + "TestValidateRoleNoAPIGroup", role([{"verbs": ["get"], "resources": ["pods"]}]),
     ["rules[0].apiGroups: Required value: resource rules must supply at least one api group"]),
    (T + "TestValidateRoleNoResources", role([{"verbs": ["get"], "apiGroups": ["v1"]}]),
     ["rules[0].resources: Required value: resource rules must supply at least one resource"]),
    ("validation.go validatePolicyRule: resource names with several resources",
     role([{"verbs": ["get"], "apiGroups": [""], "resources": ["pods", "secrets"], "resourceNames": ["a"]}]),
     ["rules[0].resourceNames: Required value: resource names cannot apply to multiple resources"]),
    ("validation.go validatePolicyRule: the empty api group counts",
     role([{"verbs": ["*"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]}]), []),
    ("validation.go ValidateClusterRole: an aggregationRule alone",
     {**role([], cluster=True), "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"a": "b"}}]}}, []),
]


@pytest.mark.parametrize(("source", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rbac_validation(source: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


def test_role_binding_update_role_ref_is_immutable() -> None:
    """TestValidateRoleBindingUpdate changedRef: `roleRef: Invalid value` with the internal RoleRef."""
    old = rb(ref("Role"))
    new = rb(ref("Role", "changed"))
    assert_errors(new, ['roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role",'
                        '"Name":"changed"}: cannot change roleRef'], old=old)
    assert_errors(rb(ref("Role")), [], old=old)


def test_role_ref_api_group_defaults_before_validation() -> None:
    """SetDefaults_RoleBinding fills roleRef.apiGroup, and SetDefaults_Subject a User's apiGroup."""
    obj = rb({"kind": "Role", "name": "r"}, [{"kind": "User", "name": "alice"}])
    assert_errors(obj, [])
