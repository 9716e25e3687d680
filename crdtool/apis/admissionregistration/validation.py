"""admissionregistration.k8s.io's validation (kubernetes pkg/apis/admissionregistration/validation)
for the kinds crdtool reproduces: ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding,
MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding, whose checks live with the policies'
evaluation (crdtool.admission.policy.validation, .mutating_validation), and the webhook
configurations (apis.admissionregistration.webhooks).
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.admissionregistration.webhooks import VALIDATORS as WEBHOOK_VALIDATORS
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError

__all__ = ["VALIDATORS"]


def _policy(obj: dict[str, Any]) -> list[FieldError]:
    from crdtool.admission.policy.validation import validate_policy

    return validate_policy(obj)


def _policy_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateValidatingAdmissionPolicyUpdate: matchConditions are not checked again when neither they
    nor paramKind changed."""
    from crdtool.admission.policy.validation import validate_policy
    from crdtool.model.jsonvalue import deep_equal

    new_spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    unchanged = all(deep_equal(new_spec.get(k), old_spec.get(k)) for k in ("paramKind", "matchConditions"))
    return validate_policy(new, ignore_match_conditions=unchanged)


def _binding(obj: dict[str, Any]) -> list[FieldError]:
    from crdtool.admission.policy.validation import validate_binding

    return validate_binding(obj)


def _unchanged_match_conditions(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """ignore...AdmissionPolicyMatchConditions: neither paramKind nor matchConditions changed."""
    from crdtool.model.jsonvalue import deep_equal

    new_spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    return all(deep_equal(new_spec.get(k), old_spec.get(k)) for k in ("paramKind", "matchConditions"))


def _mutating_policy(obj: dict[str, Any]) -> list[FieldError]:
    from crdtool.admission.policy.mutating_validation import validate_mutating_policy

    return validate_mutating_policy(obj)


def _mutating_policy_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateMutatingAdmissionPolicyUpdate: as the validating policy's."""
    from crdtool.admission.policy.mutating_validation import validate_mutating_policy

    return validate_mutating_policy(new, ignore_match_conditions=_unchanged_match_conditions(new, old))


def _mutating_binding(obj: dict[str, Any]) -> list[FieldError]:
    from crdtool.admission.policy.mutating_validation import validate_mutating_binding

    return validate_mutating_binding(obj)


VALIDATORS = {
    "ValidatingAdmissionPolicy": KindValidation(_policy, _policy_update),
    "ValidatingAdmissionPolicyBinding": KindValidation(_binding),
    "MutatingAdmissionPolicy": KindValidation(_mutating_policy, _mutating_policy_update),
    "MutatingAdmissionPolicyBinding": KindValidation(_mutating_binding),
    **WEBHOOK_VALIDATORS,
}
