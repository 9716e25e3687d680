"""Whether an admission rule covers a request: rules.Matcher.Matches (k8s.io/apiserver
pkg/admission/plugin/webhook/predicates/rules), which webhooks and admission policies share, and
the kinds no webhook or policy sees (IsExemptAdmissionConfigurationResource, beside it)."""

from __future__ import annotations

from typing import Any

from crdtool.admission import CONFIGURATION_GROUP

__all__ = ["is_exempt_admission_configuration", "rule_matches"]

_NAMESPACES = ("", "v1", "namespaces")
_ADMISSION_CONFIGURATIONS = ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
                             "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
                             "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding")


def is_exempt_admission_configuration(group: str, kind: str) -> bool:
    """IsExemptAdmissionConfigurationResource: webhooks and policies configured through the API never
    see the objects that configure admission (no circular dependency)."""
    return group == CONFIGURATION_GROUP and kind in _ADMISSION_CONFIGURATIONS


def _exact_or_wildcard(items: Any, requested: str) -> bool:
    """exactOrWildcard: the item itself or `*`."""
    return isinstance(items, list) and any(item in ("*", requested) for item in items)


def rule_matches(rule: dict[str, Any], operation: str, namespace: str | None, group: str, version: str,
                 resource: str, subresource: str) -> bool:
    """Matches: the rule's scope (a namespace object is cluster-scoped), operation, group, version and
    resource with its subresource (`pods/*`, `*/status`, `*`)."""
    scope = rule.get("scope") or "*"
    is_namespace = (group, version, resource) == _NAMESPACES
    if scope == "Namespaced" and (is_namespace or not namespace):
        return False
    if scope == "Cluster" and not (is_namespace or not namespace):
        return False
    if scope not in ("*", "Namespaced", "Cluster"):
        return False
    if not _exact_or_wildcard(rule.get("operations"), operation):
        return False
    if not _exact_or_wildcard(rule.get("apiGroups"), group) or not _exact_or_wildcard(rule.get("apiVersions"), version):
        return False
    for item in rule.get("resources") or []:
        res, _, sub = str(item).partition("/")
        if res in ("*", resource) and sub in ("*", subresource):
            return True
    return False
