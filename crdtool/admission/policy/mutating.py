"""MutatingAdmissionPolicy (admissionregistration.k8s.io/v1), served by default in kube-apiserver 1.36
(feature gate MutatingAdmissionPolicy GA and on, k8s.io/apiserver pkg/features/kube_features.go).

crdtool does not apply its mutations yet (ApplyConfiguration and JSONPatch). So that a mutation it
skips is never a silent pass, the stage names every bound policy whose matchConstraints (and
binding's matchResources) match the request: the object checked afterwards is the object before
that policy's mutations.
"""

from __future__ import annotations

from typing import Any

from crdtool.admission.chain import Attributes, Inputs, Verdict
from crdtool.admission.policy.matching import NamespaceUnknown, SelectorError, match_resources
from crdtool.admission.policy.model import GROUP, default_binding, default_policy

__all__ = ["MutatingPolicyStage", "build_mutating"]

_V1 = f"{GROUP}/v1"


class MutatingPolicyStage:
    """admission.MutationInterface of the MutatingAdmissionPolicy plugin, as far as crdtool goes: notes."""

    def __init__(self, bound: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]]) -> None:
        #: (policy, binding, the policy's matchConstraints, the binding's matchResources)
        self.bound = bound

    def admit(self, attributes: Attributes) -> Verdict:
        verdict = Verdict()
        for policy, binding, constraints, resources in self.bound:
            labels = _labels(attributes.namespace_object)
            try:
                if match_resources(constraints, attributes, labels) is None:
                    continue
                if resources is not None and match_resources(resources, attributes, labels) is None:
                    continue
            except (NamespaceUnknown, SelectorError):
                pass  # whether it matches is unknown: said below as for a match
            verdict.notes.append(
                f"not checked: MutatingAdmissionPolicy '{policy}' with binding '{binding}' may mutate this object; "
                "crdtool does not apply MutatingAdmissionPolicy mutations")
        return verdict


def _labels(namespace: dict[str, Any] | None) -> dict[str, Any] | None:
    if not isinstance(namespace, dict):
        return None
    labels = (namespace.get("metadata") or {}).get("labels")
    return labels if isinstance(labels, dict) else {}


def build_mutating(inputs: Inputs) -> list[MutatingPolicyStage]:
    """The stage when the inputs bind a MutatingAdmissionPolicy (none otherwise)."""
    policies = [default_policy(d.data) for d in inputs.documents
                if d.api_version == _V1 and d.kind == "MutatingAdmissionPolicy" and isinstance(d.data, dict)]
    bindings = [default_binding(d.data) for d in inputs.documents
                if d.api_version == _V1 and d.kind == "MutatingAdmissionPolicyBinding" and isinstance(d.data, dict)]
    bound: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]] = []
    for policy in policies:
        for binding in bindings:
            if binding.policy_name == policy.name:
                resources = binding.spec.get("matchResources")
                bound.append((policy.name, binding.name, policy.spec.get("matchConstraints") or {},
                              resources if isinstance(resources, dict) else None))
    return [MutatingPolicyStage(bound)] if bound else []
