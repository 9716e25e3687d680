"""What the apiserver refuses when a MutatingAdmissionPolicy or MutatingAdmissionPolicyBinding is
created or updated: kubernetes pkg/apis/admissionregistration/validation (validateMutatingAdmissionPolicySpec,
validateMutation, validateApplyConfiguration, validateJSONPatch,
validateMutatingAdmissionPolicyBindingSpec), which shares the ValidatingAdmissionPolicy's checks of
paramKind, matchConstraints, matchConditions, variables and paramRef (crdtool.admission.policy.validation).

Beyond those: a policy matches no DELETE (`supportedMutatingOperations`), needs at least one
mutation and a reinvocationPolicy (v1 defaults only failurePolicy), and each mutation's expression
compiles with the patch types to `list(JSONPatch)` or `Object`. A binding has no validationActions.
An expression whose Object literals crdtool's CEL rewrite cannot reproduce is not compiled here.
"""

from __future__ import annotations

from typing import Any

from crdtool.admission.policy.model import default_binding, default_policy
from crdtool.admission.policy.objects import PatchTypes, UnsupportedExpression, type_names
from crdtool.admission.policy.patchers import APPLY_CONFIGURATION_TYPE, JSON_PATCH_TYPE
from crdtool.admission.policy.validation import (
    _cel_error,
    _items,
    _strings,
    _variable,
    validate_binding_spec_head,
    validate_policy_spec_head,
)
from crdtool.cel import admission as celadm
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import go_trim_space
from crdtool.model.path import Path

__all__ = ["validate_mutating_binding", "validate_mutating_policy"]

_MUTATING_OPERATIONS = ["*", "CONNECT", "CREATE", "UPDATE"]
_REINVOCATION_POLICIES = ["IfNeeded", "Never"]
_PATCH_TYPES = ["ApplyConfiguration", "JSONPatch"]


def validate_mutating_policy(obj: dict[str, Any], ignore_match_conditions: bool = False) -> list[FieldError]:
    """validateMutatingAdmissionPolicySpec of a policy (defaults applied first); an update whose
    matchConditions and paramKind are unchanged does not check the matchConditions again."""
    spec = default_policy(obj).spec
    path = Path.root("spec")
    errs, has_params = validate_policy_spec_head(spec, path, ignore_match_conditions, _mutating_operations)
    found = spec.get("mutations")
    mutations: list[Any] = found if isinstance(found, list) else []
    names: set[str] = set()
    for mutation in _items(mutations):
        for member in ("jsonPatch", "applyConfiguration"):
            if isinstance(mutation.get(member), dict):
                names |= type_names(str(mutation[member].get("expression") or ""))
    compiler = celadm.AdmissionCompiler(has_params, patch_types=PatchTypes(names))
    for i, variable in enumerate(_items(spec.get("variables"))):
        errs += _variable(variable, compiler, path.child("variables").index(i))
    if not mutations:
        errs.append(FieldError.required(path.child("mutations"), "mutations must contain at least one item"))
    for i, mutation in enumerate(mutations):
        if isinstance(mutation, dict):
            errs += _mutation(mutation, compiler, path.child("mutations").index(i))
    reinvocation = spec.get("reinvocationPolicy")
    if not reinvocation:
        errs.append(FieldError.required(path.child("reinvocationPolicy")))
    elif reinvocation not in _REINVOCATION_POLICIES:
        errs.append(FieldError.not_supported(path.child("reinvocationPolicy"), TypedString(str(reinvocation)),
                                             _REINVOCATION_POLICIES))
    return errs


def _mutating_operations(match: dict[str, Any], path: Path) -> list[FieldError]:
    """It is only possible to mutate create, update and connect requests: each rule's other operations,
    at the rules' path without an index."""
    at = path.child("resourceRules").child("operations")
    return [FieldError.not_supported(at, TypedString(op), _MUTATING_OPERATIONS)
            for rule in _items(match.get("resourceRules")) for op in _strings(rule.get("operations"))
            if op not in _MUTATING_OPERATIONS]


def _mutation(mutation: dict[str, Any], compiler: celadm.AdmissionCompiler, path: Path) -> list[FieldError]:
    """validateMutation: the patchType's member set (and compiling), the other one absent."""
    patch_type = mutation.get("patchType")
    if not patch_type:
        return [FieldError.required(path.child("patchType"))]
    if patch_type not in _PATCH_TYPES:
        return [FieldError.not_supported(path.child("patchType"), TypedString(str(patch_type)), _PATCH_TYPES)]
    member, other = ("jsonPatch", "applyConfiguration") if patch_type == "JSONPatch" \
        else ("applyConfiguration", "jsonPatch")
    errs: list[FieldError] = []
    if mutation.get(member) is None:
        errs.append(FieldError.required(path.child(member), f"must be specified when patchType is {patch_type}"))
    else:
        returns = JSON_PATCH_TYPE if patch_type == "JSONPatch" else APPLY_CONFIGURATION_TYPE
        errs += _expression(mutation[member], returns, compiler, path.child(member))
    if mutation.get(other) is not None:
        errs.append(FieldError.invalid(path.child(other), "{" + other + "}",
                                       f"must not be specified when patchType is {patch_type}"))
    return errs


def _expression(member: Any, returns: str, compiler: celadm.AdmissionCompiler, path: Path) -> list[FieldError]:
    """validateJSONPatch / validateApplyConfiguration: the trimmed expression compiled with the patch
    types, the authorizer and params when the policy has a paramKind."""
    source = str(member.get("expression") or "") if isinstance(member, dict) else ""
    trimmed = go_trim_space(source)
    if not trimmed:
        return [FieldError.required(path.child("expression"))]
    try:
        compiled = compiler.compile(trimmed, (returns,), authorizer=True, patch=True)
    except UnsupportedExpression:
        return []
    return _cel_error(path.child("expression"), trimmed, compiled)


def validate_mutating_binding(obj: dict[str, Any]) -> list[FieldError]:
    """validateMutatingAdmissionPolicyBindingSpec of a binding as created (or updated: the same)."""
    return validate_binding_spec_head(default_binding(obj).spec, Path.root("spec"), _mutating_operations)
