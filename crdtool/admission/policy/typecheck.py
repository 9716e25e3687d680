"""A ValidatingAdmissionPolicy's type checking: the `status.typeChecking.expressionWarnings` the
status controller of kube-controller-manager writes after the policy is stored
(k8s.io/apiserver pkg/admission/plugin/policy/validating/typechecking.go, TypeChecker.Check;
pkg/controller/validatingadmissionpolicystatus).

The apiserver compiles a policy's expressions with `object`, `oldObject` and `params` as dyn, so a
misspelt field passes on create and fails on every request. The controller compiles each
validation's expression and messageExpression again, once per kind the policy matches, with
`object` and `oldObject` typed by that kind's schema and `params` by the paramKind's (variables
compiled first, a variable that does not compile being dyn; `authorizer` declared everywhere). Each
expression that fails for some kinds gets one warning: per kind `GROUP/VERSION, Kind=KIND: ` and
cel-go's error, each ending in a newline, joined by newlines. Nothing else is checked (variables,
matchConditions and auditAnnotations are not), and nothing is refused: the policy works as it is.

The kinds come from matchConstraints.resourceRules through the RESTMapper (admission.policy.kinds):
each rule's groups, versions and resources, sorted; a rule with a group or version containing `*`
is passed over, and so is a resource containing `*` or `/`; a rule stops the search when it has
resolved 10 kinds (maxTypesToCheck). A kind without a schema is skipped. The kinds are sorted by
group, version and kind.

What crdtool cannot resolve (a resource of a group it does not know, the schema of a built-in kind
it lacks, a paramKind's) is said in notes, with what it did check.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from crdtool.admission.policy.kinds import GVK, Cluster, SchemaNotFound, SchemaUnknown, gvk_string
from crdtool.cel.types import DeclType
from crdtool.model.groupversion import GroupVersionError, parse_group_version
from crdtool.model.notes import Note
from crdtool.model.path import Path

__all__ = ["MAX_TYPES_TO_CHECK", "ExpressionWarning", "TypeChecking", "check", "types_to_check"]

MAX_TYPES_TO_CHECK = 10
_SPEC = Path.root("spec")
#: The number in a kind's CEL type name (the apiserver uses the clock's nanoseconds, which no run repeats).
_type_numbers = itertools.count(1)


@dataclass(frozen=True)
class ExpressionWarning:
    """One entry of status.typeChecking.expressionWarnings: `field_ref` and `warning` as the controller
    writes them; `path` the field it names, for locating it in the document."""

    field_ref: str
    warning: str
    path: Path


@dataclass
class TypeChecking:
    """The warnings the controller would write, and crdtool's notes on what it could not check."""

    warnings: list[ExpressionWarning] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


def types_to_check(spec: dict[str, Any], cluster: Cluster) -> tuple[list[GVK], list[Note]]:
    """typesToCheck: the kinds matchConstraints' resourceRules resolve to, sorted, and a note for each
    resource crdtool cannot resolve."""
    match = spec.get("matchConstraints")
    rules = match.get("resourceRules") if isinstance(match, dict) else None
    found: list[GVK] = []
    notes: list[Note] = []
    for index, rule in enumerate(rules if isinstance(rules, list) else []):
        rule = rule if isinstance(rule, dict) else {}
        groups, versions = _strings(rule, "apiGroups"), _strings(rule, "apiVersions")
        resources = [r for r in _strings(rule, "resources") if "*" not in r and "/" not in r]
        if any("*" in g for g in groups) or any("*" in v for v in versions):
            continue
        count = 0
        for group, version, resource in itertools.product(sorted(groups), sorted(versions), sorted(resources)):
            kinds = cluster.kinds_for(group, version, resource)
            if not kinds and not cluster.knows_resource(group, resource):
                notes.append(Note(_SPEC.child("matchConstraints", "resourceRules").index(index),
                                  f"not type-checked against {resource} ({_api_version(group, version)}): neither "
                                  "a built-in resource nor one of a CRD among the inputs"))
            for gvk in kinds:
                if gvk not in found:
                    found.append(gvk)
                count += 1
                if count == MAX_TYPES_TO_CHECK:
                    return sorted(found), notes
    return sorted(found), notes


def check(policy: dict[str, Any], cluster: Cluster) -> TypeChecking:
    """TypeChecker.Check of a stored policy (its object as the apiserver keeps it) against `cluster`."""
    out = TypeChecking()
    spec = policy.get("spec")
    if not isinstance(spec, dict):
        return out
    gvks, out.notes = types_to_check(spec, cluster)
    kinds: list[tuple[GVK, DeclType | None]] = []
    for gvk in gvks:
        try:
            kinds.append((gvk, cluster.decl_type(gvk)))
        except SchemaNotFound:
            continue
        except SchemaUnknown as err:
            out.notes.append(Note(_SPEC.child("matchConstraints"),
                                  f"not type-checked against {gvk_string(gvk)}: {err}"))
    if not kinds:
        return out
    from crdtool.cel.admission import ANY

    has_params, params = _params(spec, cluster, out.notes)
    compilers = [_compiler(spec, gvk, t, has_params, params) for gvk, t in kinds]
    validations = spec.get("validations")
    for i, validation in enumerate(validations if isinstance(validations, list) else []):
        if not isinstance(validation, dict):
            continue
        for name in ("expression", "messageExpression"):
            expression = validation.get(name)
            if not isinstance(expression, str) or not expression:
                continue
            path = _SPEC.child("validations").index(i).child(name)
            messages, unchecked = [], False
            for (gvk, _), compiler in zip(kinds, compilers, strict=True):
                compiled = compiler.compile(expression, (ANY,), authorizer=True)
                unchecked = unchecked or compiled.unsupported
                if compiled.issues:
                    messages.append(f"{gvk_string(gvk)}: {compiled.issues}\n")
            if messages:
                out.warnings.append(ExpressionWarning(str(path), "\n".join(messages), path))
            if unchecked:
                out.notes.append(Note(path, "not type-checked: it nests deeper than crdtool's CEL engine parses"))
    return out


def _params(spec: dict[str, Any], cluster: Cluster, notes: list[Note]) -> tuple[bool, tuple[str, DeclType] | None]:
    """Whether `params` is declared (a paramKind whose apiVersion parses), and its named type (None: dyn)."""
    kind = spec.get("paramKind")
    if not isinstance(kind, dict):
        return False, None
    api_version, name = str(kind.get("apiVersion") or ""), str(kind.get("kind") or "")
    try:
        group, version = parse_group_version(api_version)
    except GroupVersionError:
        return False, None
    if not (group or version or name):
        return False, None
    try:
        params = cluster.decl_type((group, version, name))
    except SchemaNotFound:
        return True, None
    except SchemaUnknown as err:
        notes.append(Note(_SPEC.child("paramKind"), f"type-checked with params as dyn: {err}"))
        return True, None
    return True, (_type_name(name), params) if params is not None else None


def _compiler(spec: dict[str, Any], gvk: GVK, object_type: DeclType | None, has_params: bool,
              params: tuple[str, DeclType] | None) -> Any:
    """The type checker's compiler for one kind, with the policy's variables compiled in order."""
    from crdtool.cel.admission import AdmissionCompiler, TypedObjects

    params_name, params_type = params if params is not None else ("", None)
    typed = TypedObjects(object_type, _type_name(gvk[2]), params_type, params_name)
    compiler = AdmissionCompiler(has_params, typed=typed)
    variables = spec.get("variables")
    for variable in variables if isinstance(variables, list) else []:
        if isinstance(variable, dict) and isinstance(variable.get("expression"), str):
            compiler.compile_variable(str(variable.get("name") or ""), variable["expression"])
    return compiler


def _type_name(kind: str) -> str:
    """generateUniqueTypeName: the kind and a number."""
    return f"{kind}{next(_type_numbers)}"


def _strings(rule: dict[str, Any], key: str) -> list[str]:
    values = rule.get(key)
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def _api_version(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version
