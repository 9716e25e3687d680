"""ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1) as
the apiserver holds them: decoded JSON with the API's defaults applied (pkg/apis/admissionregistration/v1
defaults.go: failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope `*`; v1 gives
paramRef.parameterNotFoundAction no default, its validation requires it).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

__all__ = ["Binding", "Policy", "POLICY_KINDS", "default_binding", "default_policy"]

POLICY_KINDS = ("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding")


@dataclass
class Policy:
    """A ValidatingAdmissionPolicy: its name and defaulted spec (where it came from, for notes)."""

    name: str
    spec: dict[str, Any]
    source: str = ""

    @property
    def failure_policy(self) -> str:
        return self.spec.get("failurePolicy") or "Fail"

    @property
    def param_kind(self) -> dict[str, Any] | None:
        kind = self.spec.get("paramKind")
        return kind if isinstance(kind, dict) else None


@dataclass
class Binding:
    """A ValidatingAdmissionPolicyBinding: its name and defaulted spec."""

    name: str
    spec: dict[str, Any]
    source: str = ""

    @property
    def policy_name(self) -> str:
        return self.spec.get("policyName") or ""

    @property
    def actions(self) -> list[str]:
        return [a for a in self.spec.get("validationActions") or [] if isinstance(a, str)]


def _default_match_resources(match: Any) -> None:
    """SetDefaults_MatchResources and SetDefaults_Rule of each rule."""
    if not isinstance(match, dict):
        return
    match.setdefault("matchPolicy", "Equivalent")
    if match.get("namespaceSelector") is None:
        match["namespaceSelector"] = {}
    if match.get("objectSelector") is None:
        match["objectSelector"] = {}
    for key in ("resourceRules", "excludeResourceRules"):
        for rule in match.get(key) or []:
            if isinstance(rule, dict) and rule.get("scope") is None:
                rule["scope"] = "*"


def default_policy(obj: dict[str, Any], source: str = "") -> Policy:
    """A policy object with its defaults (the object is not changed)."""
    spec = _spec(obj)
    spec.setdefault("failurePolicy", "Fail")
    _default_match_resources(spec.get("matchConstraints"))
    return Policy(_name(obj), spec, source)


def default_binding(obj: dict[str, Any], source: str = "") -> Binding:
    """A binding object with its defaults (the object is not changed)."""
    spec = _spec(obj)
    _default_match_resources(spec.get("matchResources"))
    return Binding(_name(obj), spec, source)


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj.get("spec")
    return copy.deepcopy(spec) if isinstance(spec, dict) else {}


def _name(obj: dict[str, Any]) -> str:
    meta = obj.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else ""
