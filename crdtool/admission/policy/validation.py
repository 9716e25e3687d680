"""What the apiserver refuses when a ValidatingAdmissionPolicy or ValidatingAdmissionPolicyBinding is
created: kubernetes pkg/apis/admissionregistration/validation (validateValidatingAdmissionPolicySpec,
validateValidatingAdmissionPolicyBindingSpec and what they call), with metav1's ValidateLabelSelector.

The expressions are compiled as on create (crdtool.cel.admission): a compile error is
`Invalid value: "EXPR": compilation failed: ERROR: <input>:...`, a wrong result type
`must evaluate to bool but got int`. The apiserver checks no cost on create (the runtime budget
applies when a policy runs). Metadata is validated by the built-in kinds' handler (crdtool.apis).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from crdtool.admission.policy.model import default_binding, default_policy
from crdtool.cel import admission as celadm
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import go_trim_space
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_selector
from crdtool.schema.apimachinery.names import (
    is_dns1035_label,
    is_dns1123_subdomain,
    is_qualified_name,
    name_is_dns_subdomain,
    validate_path_segment_name,
)

__all__ = ["validate_binding", "validate_match_conditions", "validate_policy", "validate_rule_with_operations"]

_FAILURE_POLICIES = ["Fail", "Ignore"]
_MATCH_POLICIES = ["Equivalent", "Exact"]
_OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"]
_SCOPES = ["*", "Cluster", "Namespaced"]
_REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"]
_ACTIONS = ["Audit", "Deny", "Warn"]
MAX_AUDIT_ANNOTATIONS = 20
MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024
_CEL_IDENT = re.compile(r"^[_a-zA-Z][_a-zA-Z0-9]*$")
_CEL_RESERVED = frozenset({"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for",
                           "function", "if", "import", "let", "loop", "package", "namespace", "return", "var",
                           "void", "while"})
_NEWLINES = re.compile(r"[\n\r]+")


def validate_policy_spec_head(spec: dict[str, Any], path: Path, ignore_match_conditions: bool,
                              check_match: Callable[[dict[str, Any], Path], list[FieldError]] | None = None,
                              ) -> tuple[list[FieldError], bool]:
    """What validateValidatingAdmissionPolicySpec and validateMutatingAdmissionPolicySpec check alike,
    first: failurePolicy, paramKind, matchConstraints (with `check_match`'s own checks of them, for
    the mutating kind's operations) and the matchConditions; with whether the policy has params."""
    errs: list[FieldError] = []
    failure = spec.get("failurePolicy")
    if failure not in _FAILURE_POLICIES:
        errs.append(FieldError.not_supported(path.child("failurePolicy"), TypedString(str(failure)),
                                             _FAILURE_POLICIES))
    param_kind = spec.get("paramKind")
    has_params = isinstance(param_kind, dict)
    if isinstance(param_kind, dict):
        errs += _param_kind(param_kind, path.child("paramKind"))
    match = spec.get("matchConstraints")
    if not isinstance(match, dict):
        errs.append(FieldError.required(path.child("matchConstraints")))
    else:
        errs += _match_resources(match, path.child("matchConstraints"))
        if not match.get("resourceRules"):
            errs.append(FieldError.required(path.child("matchConstraints").child("resourceRules")))
        if check_match is not None:
            errs += check_match(match, path.child("matchConstraints"))
    if not ignore_match_conditions:
        def stateless(expression: str) -> celadm.Compiled:  # match conditions see no variables
            return celadm.AdmissionCompiler(has_params).compile(expression, (celadm.BOOL,), authorizer=True)
        errs += validate_match_conditions(_items(spec.get("matchConditions")), stateless,
                                          path.child("matchConditions"))
    return errs, has_params


def validate_policy(obj: dict[str, Any], ignore_match_conditions: bool = False) -> list[FieldError]:
    """validateValidatingAdmissionPolicySpec of a policy (defaults applied first); an update whose
    matchConditions and paramKind are unchanged does not check the matchConditions again."""
    policy = default_policy(obj)
    spec = policy.spec
    path = Path.root("spec")
    errs, has_params = validate_policy_spec_head(spec, path, ignore_match_conditions)
    compiler = celadm.AdmissionCompiler(has_params)
    for i, variable in enumerate(_items(spec.get("variables"))):
        errs += _variable(variable, compiler, path.child("variables").index(i))
    validations, annotations = _items(spec.get("validations")), spec.get("auditAnnotations")
    if not validations and not annotations:
        detail = "validations or auditAnnotations must contain at least one item"
        errs.append(FieldError.required(path.child("validations"), detail))
        errs.append(FieldError.required(path.child("auditAnnotations"), detail))
        return errs
    for i, validation in enumerate(validations):
        errs += _validation(validation, compiler, path.child("validations").index(i))
    if isinstance(annotations, list):
        if len(annotations) > MAX_AUDIT_ANNOTATIONS:
            errs.append(FieldError.invalid(path.child("auditAnnotations"), annotations,
                                           f"must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"))
        keys: set[str] = set()
        for i, annotation in enumerate(_items(annotations)):
            at = path.child("auditAnnotations").index(i)
            errs += _audit_annotation(policy.name, annotation, compiler, at)
            key = str(annotation.get("key") or "")
            if key in keys:
                errs.append(FieldError.duplicate(at.child("key"), key))
            keys.add(key)
    return errs


def validate_binding(obj: dict[str, Any]) -> list[FieldError]:
    """validateValidatingAdmissionPolicyBindingSpec of a binding as created."""
    spec = default_binding(obj).spec
    path = Path.root("spec")
    errs = validate_binding_spec_head(spec, path)
    errs += _validation_actions(spec.get("validationActions"), path.child("validationActions"))
    return errs


def validate_binding_spec_head(spec: dict[str, Any], path: Path,
                               check_match: Callable[[dict[str, Any], Path], list[FieldError]] | None = None,
                               ) -> list[FieldError]:
    """What both kinds of binding check alike: policyName, paramRef, matchResources (with
    `check_match`'s own checks of them, for the mutating kind's operations)."""
    errs: list[FieldError] = []
    name = str(spec.get("policyName") or "")
    if not name:
        errs.append(FieldError.required(path.child("policyName")))
    else:
        errs += [FieldError.invalid(path.child("policyName"), name, msg) for msg in name_is_dns_subdomain(name, False)]
    ref = spec.get("paramRef")
    if isinstance(ref, dict):
        errs += _param_ref(ref, path.child("paramRef"))
    match = spec.get("matchResources")
    if isinstance(match, dict):
        errs += _match_resources(match, path.child("matchResources"))
        if check_match is not None:
            errs += check_match(match, path.child("matchResources"))
    return errs


def _items(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _param_kind(kind: dict[str, Any], path: Path) -> list[FieldError]:
    """validateParamKind."""
    errs: list[FieldError] = []
    api_version = str(kind.get("apiVersion") or "")
    if not api_version:
        errs.append(FieldError.required(path.child("apiVersion")))
    elif api_version != "/" and api_version.count("/") > 1:
        errs.append(FieldError.invalid(path.child("apiVersion"), api_version,
                                       f"unexpected GroupVersion string: {api_version}"))
    else:
        group, _, version = api_version.rpartition("/") if api_version != "/" else ("", "", "")
        if group:
            messages = is_dns1123_subdomain(group)
            if messages:
                errs.append(FieldError.invalid(path.child("apiVersion"), group, ",".join(messages)))
        if not version:
            errs.append(FieldError.invalid(path.child("apiVersion"), api_version, "version must be specified"))
        else:
            messages = is_dns1035_label(version)
            if messages:
                errs.append(FieldError.invalid(path.child("apiVersion"), version, ",".join(messages)))
    kind_name = str(kind.get("kind") or "")
    if not kind_name:
        errs.append(FieldError.required(path.child("kind")))
    else:
        messages = is_dns1035_label(kind_name.lower())
        if messages:
            errs.append(FieldError.invalid(path.child("kind"), kind_name,
                                           "may have mixed case, but should otherwise match: " + ",".join(messages)))
    return errs


def _match_resources(match: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMatchResources (after defaulting: matchPolicy and both selectors are set)."""
    errs: list[FieldError] = []
    policy = match.get("matchPolicy")
    if policy not in _MATCH_POLICIES:
        errs.append(FieldError.not_supported(path.child("matchPolicy"), TypedString(str(policy)), _MATCH_POLICIES))
    errs += validate_label_selector(match.get("namespaceSelector"), path.child("namespaceSelector"))
    errs += validate_label_selector(match.get("objectSelector"), path.child("objectSelector"))
    for key in ("resourceRules", "excludeResourceRules"):
        for i, rule in enumerate(_items(match.get(key))):
            errs += _named_rule(rule, path.child(key).index(i))
    return errs


def _named_rule(rule: dict[str, Any], path: Path) -> list[FieldError]:
    """validateNamedRuleWithOperations: resourceNames, then the rule with its operations."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, name in enumerate(_strings(rule.get("resourceNames"))):
        at = path.child("resourceNames").index(i)
        errs += [FieldError.invalid(at, name, msg) for msg in validate_path_segment_name(name, False)]
        if name in seen:
            errs.append(FieldError.duplicate(at, name))
        seen.add(name)
    return errs + validate_rule_with_operations(rule, path)


def validate_rule_with_operations(rule: dict[str, Any], path: Path) -> list[FieldError]:
    """validateRuleWithOperations: the operations, then the rule (subresources allowed)."""
    errs: list[FieldError] = []
    operations = _strings(rule.get("operations"))
    if not operations:
        errs.append(FieldError.required(path.child("operations")))
    if len(operations) > 1 and "*" in operations:
        errs.append(FieldError.invalid(path.child("operations"), operations,
                                       "if '*' is present, must not specify other operations"))
    for i, op in enumerate(operations):
        if op not in _OPERATIONS:
            errs.append(FieldError.not_supported(path.child("operations").index(i), TypedString(op), _OPERATIONS))
    return errs + _rule(rule, path)


def _rule(rule: dict[str, Any], path: Path) -> list[FieldError]:
    """validateRule with subresources allowed."""
    errs: list[FieldError] = []
    groups, versions = _strings(rule.get("apiGroups")), _strings(rule.get("apiVersions"))
    if not groups:
        errs.append(FieldError.required(path.child("apiGroups")))
    if len(groups) > 1 and "*" in groups:
        errs.append(FieldError.invalid(path.child("apiGroups"), groups,
                                       "if '*' is present, must not specify other API groups"))
    if not versions:
        errs.append(FieldError.required(path.child("apiVersions")))
    if len(versions) > 1 and "*" in versions:
        errs.append(FieldError.invalid(path.child("apiVersions"), versions,
                                       "if '*' is present, must not specify other API versions"))
    errs += [FieldError.required(path.child("apiVersions").index(i)) for i, v in enumerate(versions) if v == ""]
    errs += _resources(_strings(rule.get("resources")), path.child("resources"))
    scope = rule.get("scope")
    if scope is not None and scope not in _SCOPES:
        errs.append(FieldError.not_supported(path.child("scope"), TypedString(str(scope)), _SCOPES))
    return errs


def _resources(resources: list[str], path: Path) -> list[FieldError]:
    """validateResources: subresource wildcards may not overlap."""
    errs: list[FieldError] = []
    if not resources:
        errs.append(FieldError.required(path))
    with_wildcard_sub: set[str] = set()
    sub_with_wildcard_res: set[str] = set()
    double = single = plain = False
    for i, entry in enumerate(resources):
        if entry == "":
            errs.append(FieldError.required(path.index(i)))
            continue
        double = double or entry == "*/*"
        single = single or entry == "*"
        if "/" not in entry:
            plain = entry != "*"
            continue
        res, sub = entry.split("/", 1)
        if res in with_wildcard_sub:
            errs.append(FieldError.invalid(path.index(i), entry, f"if '{res}/*' is present, must not specify {entry}"))
        if sub in sub_with_wildcard_res:
            errs.append(FieldError.invalid(path.index(i), entry, f"if '*/{sub}' is present, must not specify {entry}"))
        if sub == "*":
            with_wildcard_sub.add(res)
        if res == "*":
            sub_with_wildcard_res.add(sub)
    if len(resources) > 1 and double:
        errs.append(FieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"))
    if single and plain:
        errs.append(FieldError.invalid(path, resources,
                                       "if '*' is present, must not specify other resources without subresources"))
    return errs


def _cel_error(path: Path, expression: str, compiled: celadm.Compiled) -> list[FieldError]:
    """convertCELErrorToValidationError of a compile result (nothing when it compiled)."""
    if not compiled.error:
        return []
    return [FieldError.invalid(path, expression, compiled.error)]


def validate_match_conditions(conditions: list[dict[str, Any]], compile_condition: Callable[[str], celadm.Compiled],
                              path: Path) -> list[FieldError]:
    """validateMatchConditions: at most 64, named uniquely, each (space trimmed) compiling to a bool with
    `compile_condition` (a policy's environment, or a webhook's: no params)."""
    errs: list[FieldError] = []
    if len(conditions) > 64:
        errs.append(FieldError.too_many(path, len(conditions), 64))
    names: set[str] = set()
    for i, condition in enumerate(conditions):
        at = path.index(i)
        expression = go_trim_space(str(condition.get("expression") or ""))
        if not expression:
            errs.append(FieldError.required(at.child("expression")))
        else:
            errs += _cel_error(at.child("expression"), expression, compile_condition(expression))
        name = str(condition.get("name") or "")
        if not name:
            errs.append(FieldError.required(at.child("name")))
        else:
            errs += [FieldError.invalid(at.child("name"), name, msg) for msg in is_qualified_name(name)]
            if name in names:
                errs.append(FieldError.duplicate(at.child("name"), name))
            names.add(name)
    return errs


def _variable(variable: dict[str, Any], compiler: celadm.AdmissionCompiler, path: Path) -> list[FieldError]:
    """validateVariable: a CEL identifier and an expression that compiles (declared to what follows)."""
    errs: list[FieldError] = []
    name = str(variable.get("name") or "")
    if not go_trim_space(name):
        errs.append(FieldError.required(path.child("name"), "name is not specified"))
    elif not _CEL_IDENT.match(name) or name in _CEL_RESERVED:
        errs.append(FieldError.invalid(path.child("name"), name, "name is not a valid CEL identifier"))
    expression = str(variable.get("expression") or "")
    if not go_trim_space(expression):
        errs.append(FieldError.required(path.child("expression"), "expression is not specified"))
    elif errs:
        pass  # a name that is no identifier cannot be declared here: the expression is not compiled
    else:
        errs += _cel_error(path.child("expression"), expression, compiler.compile_variable(name, expression))
    return errs


def _validation(validation: dict[str, Any], compiler: celadm.AdmissionCompiler, path: Path) -> list[FieldError]:
    """validateValidation: expression, messageExpression (without the authorizer), message, reason."""
    errs: list[FieldError] = []
    expression = str(validation.get("expression") or "")
    message = str(validation.get("message") or "")
    message_expression = str(validation.get("messageExpression") or "")
    if not go_trim_space(expression):
        errs.append(FieldError.required(path.child("expression"), "expression is not specified"))
    else:
        errs += _cel_error(path.child("expression"), expression,
                           compiler.compile(expression, (celadm.BOOL,), authorizer=True))
    if message_expression and not go_trim_space(message_expression):
        errs.append(FieldError.invalid(path.child("messageExpression"), message_expression,
                                       "must be non-empty if specified"))
    elif message_expression:
        errs += _cel_error(path.child("messageExpression"), message_expression,
                           compiler.compile(message_expression, (celadm.STRING,), authorizer=False))
    if message and not go_trim_space(message):
        errs.append(FieldError.invalid(path.child("message"), message, "message must be non-empty if specified"))
    elif _NEWLINES.search(go_trim_space(message)):
        errs.append(FieldError.invalid(path.child("message"), message, "message must not contain line breaks"))
    reason = validation.get("reason")
    if reason is not None and reason not in _REASONS:
        errs.append(FieldError.not_supported(path.child("reason"), TypedString(str(reason)), _REASONS))
    return errs


def _audit_annotation(policy_name: str, annotation: dict[str, Any], compiler: celadm.AdmissionCompiler,
                      path: Path) -> list[FieldError]:
    """validateAuditAnnotation: `POLICY/KEY` a qualified name, a valueExpression of string or null."""
    errs: list[FieldError] = []
    key = str(annotation.get("key") or "")
    if policy_name:
        errs += [FieldError.invalid(path.child("key"), f"{policy_name}/{key}", msg)
                 for msg in is_qualified_name(f"{policy_name}/{key}")]
    else:
        errs.append(FieldError.invalid(path.child("key"), key, "requires metadata.name be non-empty"))
    source = str(annotation.get("valueExpression") or "")
    trimmed = go_trim_space(source)
    if not trimmed:
        errs.append(FieldError.required(path.child("valueExpression"), "valueExpression is not specified"))
    elif len(trimmed.encode()) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH:
        limit = MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH
        errs.append(FieldError.required(path.child("valueExpression"), f"must not exceed {limit} bytes in length"))
    else:
        compiled = compiler.compile(trimmed, (celadm.STRING, celadm.NULL), authorizer=True)
        errs += _cel_error(path.child("valueExpression"), source, compiled)
    return errs


def _param_ref(ref: dict[str, Any], path: Path) -> list[FieldError]:
    """validateParamRef."""
    errs: list[FieldError] = []
    name = str(ref.get("name") or "")
    selector = ref.get("selector")
    if name:
        errs += [FieldError.invalid(path.child("name"), name, msg) for msg in validate_path_segment_name(name, False)]
        if selector is not None:
            errs.append(FieldError.forbidden(path.child("name"), "name and selector are mutually exclusive"))
    if selector is not None:
        errs += validate_label_selector(selector, path.child("selector"))
        if name:
            errs.append(FieldError.forbidden(path.child("selector"), "name and selector are mutually exclusive"))
    if not name and selector is None:
        errs.append(FieldError.required(path, "one of name or selector must be specified"))
    action = ref.get("parameterNotFoundAction")
    if not action:
        errs.append(FieldError.required(path.child("parameterNotFoundAction")))
    elif action not in ("Deny", "Allow"):
        errs.append(FieldError.not_supported(path.child("parameterNotFoundAction"), TypedString(str(action)),
                                             ["Deny", "Allow"]))
    return errs


def _validation_actions(actions: Any, path: Path) -> list[FieldError]:
    """validateValidationActions."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    listed = _strings(actions)
    for i, action in enumerate(listed):
        if action not in _ACTIONS:
            errs.append(FieldError.not_supported(path.index(i), TypedString(action), _ACTIONS))
        if action in seen:
            errs.append(FieldError.duplicate(path.index(i), TypedString(action)))
        seen.add(action)
    if "Deny" in seen and "Warn" in seen:
        errs.append(FieldError.invalid(path, listed, "must not contain both Deny and Warn (repeating the same "
                                                     "validation failure information in the API response and "
                                                     "headers serves no purpose)"))
    if not seen:
        errs.append(FieldError.required(path, "at least one validation action is required"))
    return errs
