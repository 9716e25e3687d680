"""The ValidatingAdmissionPolicy plugin as a stage of the admission chain (crdtool.admission.chain):
its policies, bindings and params are the admission documents of the run.
"""

from __future__ import annotations

from typing import Any

from crdtool.admission import CONFIGURATION_GROUP
from crdtool.admission.chain import Attributes, Inputs, Status, Verdict
from crdtool.admission.policy.dispatcher import PolicySet, ScopeOf
from crdtool.admission.policy.model import Binding, Policy, default_binding, default_policy
from crdtool.load.document import Document
from crdtool.model.discovery import Status as KindStatus
from crdtool.model.discovery import lookup_kind
from crdtool.model.groupversion import try_parse_group_version

__all__ = ["PolicyStage", "build_validating", "policy_set"]

_V1 = f"{CONFIGURATION_GROUP}/v1"


class PolicyStage:
    """admission.ValidationInterface of the ValidatingAdmissionPolicy plugin."""

    def __init__(self, policies: PolicySet) -> None:
        self.policies = policies

    def validate(self, attributes: Attributes) -> Verdict:
        outcome = self.policies.dispatch(attributes)
        status = None
        if outcome.refusal is not None:
            refusal = outcome.refusal
            status = Status(refusal.message, refusal.reason, refusal.code, refusal.details)
        return Verdict(status=status, warnings=outcome.warnings, audit_annotations=outcome.audit_annotations,
                       notes=outcome.notes)


def policy_set(documents: list[Document]) -> PolicySet:
    """The policies and bindings of admissionregistration.k8s.io/v1 among `documents`, every object
    among them a possible param."""
    policies: list[Policy] = []
    bindings: list[Binding] = []
    objects: list[dict[str, Any]] = []
    for doc in documents:
        if not isinstance(doc.data, dict):
            continue
        if doc.api_version == _V1 and doc.kind == "ValidatingAdmissionPolicy":
            policies.append(default_policy(doc.data, doc.source))
        elif doc.api_version == _V1 and doc.kind == "ValidatingAdmissionPolicyBinding":
            bindings.append(default_binding(doc.data, doc.source))
        else:
            objects.append(doc.data)
    return PolicySet(policies, bindings, objects, _scope_resolver(objects))


def _scope_resolver(objects: list[dict[str, Any]]) -> ScopeOf:
    """The scope of a param kind: discovery's for built-in groups, a CRD's among the documents."""
    crds: dict[tuple[str, str], str] = {}
    for obj in objects:
        if obj.get("kind") != "CustomResourceDefinition" or not isinstance(obj.get("spec"), dict):
            continue
        spec = obj["spec"]
        names = spec.get("names") if isinstance(spec.get("names"), dict) else {}
        versions = spec.get("versions")
        for version in versions if isinstance(versions, list) else []:
            if isinstance(version, dict) and version.get("served", True):
                crds[(f"{spec.get('group')}/{version.get('name')}", str(names.get("kind")))] = str(spec.get("scope"))

    def scope_of(api_version: str, kind: str) -> str | None:
        found = lookup_kind(api_version, kind)
        if found.status == KindStatus.SERVED and found.builtin is not None:
            return "Namespaced" if found.builtin.namespaced else "Cluster"
        if found.status != KindStatus.CUSTOM:
            return ""
        if try_parse_group_version(api_version) is None:
            return ""
        return crds.get((api_version, kind))
    return scope_of


def build_validating(inputs: Inputs) -> list[PolicyStage]:
    """The plugin's stage when the inputs hold a policy with a binding (none otherwise)."""
    policies = policy_set(list(inputs.documents))
    if not any(b.policy_name == p.name for p in policies.policies for b in policies.bindings):
        return []
    return [PolicyStage(policies)]
