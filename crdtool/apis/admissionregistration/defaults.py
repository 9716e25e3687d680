"""admissionregistration.k8s.io/v1 defaulting of the webhook configurations (kubernetes
pkg/apis/admissionregistration/v1/defaults.go, 1.36): each webhook's failurePolicy Fail, matchPolicy
Equivalent, empty namespace and object selectors, timeoutSeconds 10 (and a mutating webhook's
reinvocationPolicy Never), each rule's scope `*`, a service reference's port 443. sideEffects and
admissionReviewVersions get no default in v1: their validation requires them.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

_V1 = "io.k8s.api.admissionregistration.v1"
DEFAULT_TIMEOUT_SECONDS = 10


def _webhook(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """What SetDefaults_ValidatingWebhook and SetDefaults_MutatingWebhook share."""
    if obj.get("failurePolicy") is None:
        d.set(obj, "failurePolicy", "Fail", at)
    if obj.get("matchPolicy") is None:
        d.set(obj, "matchPolicy", "Equivalent", at)
    if obj.get("namespaceSelector") is None:
        d.set(obj, "namespaceSelector", {}, at)
    if obj.get("objectSelector") is None:
        d.set(obj, "objectSelector", {}, at)
    if obj.get("timeoutSeconds") is None:
        d.set(obj, "timeoutSeconds", DEFAULT_TIMEOUT_SECONDS, at)


@register(f"{_V1}.ValidatingWebhook")
def validating_webhook(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ValidatingWebhook."""
    _webhook(obj, d, at)


@register(f"{_V1}.MutatingWebhook")
def mutating_webhook(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_MutatingWebhook: a validating webhook's defaults and reinvocationPolicy Never."""
    _webhook(obj, d, at)
    if obj.get("reinvocationPolicy") is None:
        d.set(obj, "reinvocationPolicy", "Never", at)


@register(f"{_V1}.RuleWithOperations")
def rule(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Rule of the rule a RuleWithOperations embeds: scope `*`."""
    if obj.get("scope") is None:
        d.set(obj, "scope", "*", at)


@register(f"{_V1}.ServiceReference")
def service_reference(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_ServiceReference: port 443."""
    if obj.get("port") is None:
        d.set(obj, "port", 443, at)
