"""A MutatingAdmissionPolicy compiled, and its mutations applied to one object: k8s.io/apiserver
pkg/admission/plugin/policy/mutating (compilation.go's compilePolicy; patch/json_patch.go).

Compilation as the apiserver's: variables (without the patch types), matchConditions, then each
mutation's expression with the patch types (`JSONPatch`, `Object...`), which must evaluate to
`list(JSONPatch)` (patchType JSONPatch) or `Object` (ApplyConfiguration).

A JSONPatch mutation's operations are applied as evanphx/json-patch v4 applies them
(crdtool.admission.jsonpatch, the webhooks' patch); a failed `test` operation leaves the object as it
was. An ApplyConfiguration's Object (its type names checked against its field path first) is merged
into the object with structured-merge semantics (crdtool.admission.policy.smd, patch/smd.go) by the
kind's types, which the caller gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format  # type: ignore[import-untyped]

from crdtool.admission import jsonpatch
from crdtool.admission.policy import smd
from crdtool.admission.policy.model import Policy
from crdtool.admission.policy.objects import (
    ConstructionError,
    PatchTypes,
    UnsupportedExpression,
    object_value,
    type_names,
)
from crdtool.admission.policy.validator import CompiledPolicy, Decision
from crdtool.cel import admission as celadm

__all__ = ["MutationError", "Mutator", "Unsupported", "compile_mutator"]

JSON_PATCH_TYPE = "list(JSONPatch)"
APPLY_CONFIGURATION_TYPE = "Object"


class MutationError(Exception):
    """The mutation failed: the apiserver's error text (a policy error under the failurePolicy)."""


class Unsupported(Exception):
    """crdtool cannot apply this mutation faithfully: the reason, for a note."""


@dataclass
class _Mutation:
    patch_type: str
    compiled: celadm.Compiled | None
    unsupported: str = ""


@dataclass
class Mutator:
    """A policy's compiled expressions (the apiserver's PolicyEvaluator)."""

    policy: Policy
    conditions: CompiledPolicy
    mutations: list[_Mutation] = field(default_factory=list)

    def matches(self, activation: dict[str, Any]) -> tuple[dict[str, celadm.Evaluation], Decision | None, bool]:
        """The variables, and the matchConditions' outcome: (variables, an error or unknown decision,
        whether the conditions hold)."""
        variables = self.conditions._variables(activation)
        decisions = self.conditions._match(activation, variables, "admit" if self.policy.failure_policy == "Ignore"
                                           else "deny")
        if decisions is None:
            return variables, None, True
        return variables, (decisions[0] if decisions else None), False

    def apply(self, index: int, obj: dict[str, Any], activation: dict[str, Any],
              variables: dict[str, celadm.Evaluation], types: smd.Types | None = None) -> dict[str, Any]:
        """Mutation `index` applied to `obj` (a new object; `obj` is not changed), an ApplyConfiguration
        by the kind's `types`. Raises MutationError, Unsupported."""
        mutation = self.mutations[index]
        if mutation.unsupported or mutation.compiled is None:
            raise Unsupported(mutation.unsupported or f"its mutation {index} has no expression")
        compiled = mutation.compiled
        if compiled.error:
            raise MutationError(compiled.error)
        if compiled.unsupported:
            raise Unsupported("a mutation expression is nested deeper than crdtool's CEL runtime evaluates")
        if mutation.patch_type != "JSONPatch" and types is None:
            raise Unsupported(f"its mutation {index} is an ApplyConfiguration, and crdtool has no types to merge it by")
        outcome = celadm.evaluate(compiled, activation, variables)
        if outcome.unsupported:
            raise Unsupported(f"mutation '{compiled.expression}' {outcome.unsupported}")
        if outcome.error is not None:
            raise MutationError(outcome.error)
        if types is not None and mutation.patch_type != "JSONPatch":
            return _apply_configuration(outcome.value, obj, types)
        operations: list[dict[str, Any] | None] = [_operation(op) for op in outcome.value or []]
        try:
            return dict(jsonpatch.apply(operations, obj))
        except jsonpatch.PatchError as err:
            if str(err).endswith(": test failed"):
                return obj  # a failed test operation: the patch is not applied
            raise MutationError(f"JSON Patch: {err}") from None


def _apply_configuration(value: Any, obj: dict[str, Any], types: smd.Types) -> dict[str, Any]:
    """applyConfigPatcher.Patch after the evaluation: the Object's type names checked, then merged.
    The Object's values go in as CEL gave them (no JSON round trip, unlike a JSONPatch's)."""
    try:
        configuration = object_value(value)
    except ConstructionError as err:
        raise MutationError(f"type mismatch: {err}") from None
    if not isinstance(configuration, dict):
        raise MutationError(f"invalid return type: {type(configuration).__name__}")
    try:
        return smd.apply(types, obj, configuration)
    except smd.ApplyError as err:
        raise MutationError(f"error applying patch: {err}") from None


def _operation(message: Any) -> dict[str, Any]:
    """A JSONPatchVal as json_patch.go makes an operation of it: op and path always, from when not
    empty, value when set (an Object's type names checked, numbers as Go's JSON gives them back)."""
    op: dict[str, Any] = {"op": message.op, "path": message.path}
    if getattr(message, "from"):
        op["from"] = getattr(message, "from")
    if message.HasField("value"):
        value = json_format.MessageToDict(message.value)
        try:
            op["value"] = _numbers(object_value(value, check=isinstance(value, dict)))
        except ConstructionError as err:
            raise MutationError(f"type mismatch: {err}") from None
    return op


def _numbers(value: Any) -> Any:
    """A JSON number marshaled by Go (float64) and decoded into an unstructured object: an integer
    when it has no fraction and fits int64 (what encoding/json writes without an exponent)."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 1e21 \
            and -(2 ** 63) <= value < 2 ** 63:
        return int(value)
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return value


def compile_mutator(policy: Policy) -> Mutator:
    """compilePolicy: variables, matchConditions, then each mutation of a known patchType with its expression."""
    spec = policy.spec
    mutations = [m for m in spec.get("mutations") or [] if isinstance(m, dict)]
    names: set[str] = set()
    for mutation in mutations:
        names |= type_names(_expression(mutation))
    compiler = celadm.AdmissionCompiler(has_params=policy.param_kind is not None, patch_types=PatchTypes(names))
    conditions = CompiledPolicy(policy, compiler)
    for variable in _items(spec.get("variables")):
        name = str(variable.get("name") or "")
        conditions.variables.append((name, compiler.compile_variable(name, str(variable.get("expression") or ""))))
    for condition in _items(spec.get("matchConditions")):
        conditions.match_conditions.append((str(condition.get("name") or ""), compiler.compile(
            str(condition.get("expression") or ""), (celadm.BOOL,), authorizer=True)))
    mutator = Mutator(policy, conditions)
    for mutation in mutations:
        patch_type = mutation.get("patchType")
        returns = {"JSONPatch": JSON_PATCH_TYPE, "ApplyConfiguration": APPLY_CONFIGURATION_TYPE}.get(str(patch_type))
        source = _expression(mutation)
        if returns is None or not isinstance(mutation.get(_member(patch_type)), dict):
            continue  # compilePolicy adds no patcher (the policy's validation refuses it on create)
        try:
            compiled = compiler.compile(source, (returns,), authorizer=True, patch=True)
        except UnsupportedExpression as err:
            mutator.mutations.append(_Mutation(str(patch_type), None, f"mutation '{source}' uses {err}"))
            continue
        mutator.mutations.append(_Mutation(str(patch_type), compiled))
    return mutator


def _member(patch_type: Any) -> str:
    return "jsonPatch" if patch_type == "JSONPatch" else "applyConfiguration"


def _expression(mutation: dict[str, Any]) -> str:
    member = mutation.get(_member(mutation.get("patchType")))
    return str(member.get("expression") or "") if isinstance(member, dict) else ""


def _items(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
