"""The apiserver's validation of a CRD's `openAPIV3Schema` (validateCustomResourceDefinitionValidation
of apiextensions-apiserver's validation.go); `schema_warnings` (format_warnings) is re-exported here.

For one `schema` (a version's, or the top-level `spec.validation`) the apiserver runs, in order:
the root restrictions when the status subresource is enabled; `nullable` at the root; when
structural schemas are required, NewStructural + ValidateStructural, then the defaults
(ValidateDefaults); then the recursive ValidateCustomResourceDefinitionOpenAPISchema, whose
schema errors all come before its CEL errors; NewStructural's own error only when nothing else
was found; and last the CRD-wide CEL cost limit. This module reproduces that order and leaves CEL
compilation and cost estimation to a `RuleCompiler` (schema.crd.seam, implemented by `crdtool.cel`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import go_float_f, go_trim_space
from crdtool.model.path import Path, Trail, trail_path
from crdtool.schema.crd.gostruct import schema_props, validation_rule
from crdtool.schema.crd.options import ValidationOptions
from crdtool.schema.crd.seam import RuleCompilation, RuleCompileError, RuleCompiler, RuleCompileRequest
from crdtool.schema.crd.warnings import schema_warnings
from crdtool.schema.defaulting.validation import validate_defaults
from crdtool.schema.pruning.algorithm import META_FIELDS
from crdtool.schema.structural.structural import NotStructuralError, Structural, new_structural, valid_field_path
from crdtool.schema.structural.validation import list_and_map_type_errors, validate_structural
from crdtool.schema.values.validation import compile_schema

__all__ = ["cost_error_message", "expression_cost", "schema_warnings", "validate_crd_validation", "validate_value"]

OPENAPI_V3_TYPES = ("array", "boolean", "integer", "number", "object", "string")
SUPPORTED_VALIDATION_REASONS = ("FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired")
STATIC_ESTIMATED_COST_LIMIT = 10_000_000
STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000
MAX_UINT64 = (1 << 64) - 1

# The internal JSONSchemaProps fields in declaration order, with their JSON names and how a zero
# value looks ("s": empty string, "b": false, "p": nil pointer, slice or map).
_GO_FIELDS = (
    ("ID", "id", "s"), ("Schema", "$schema", "s"), ("Ref", "$ref", "p"), ("Description", "description", "s"),
    ("Type", "type", "s"), ("Nullable", "nullable", "b"), ("Format", "format", "s"), ("Title", "title", "s"),
    ("Default", "default", "p"), ("Maximum", "maximum", "p"), ("ExclusiveMaximum", "exclusiveMaximum", "b"),
    ("Minimum", "minimum", "p"), ("ExclusiveMinimum", "exclusiveMinimum", "b"), ("MaxLength", "maxLength", "p"),
    ("MinLength", "minLength", "p"), ("Pattern", "pattern", "s"), ("MaxItems", "maxItems", "p"),
    ("MinItems", "minItems", "p"), ("UniqueItems", "uniqueItems", "b"), ("MultipleOf", "multipleOf", "p"),
    ("Enum", "enum", "p"), ("MaxProperties", "maxProperties", "p"), ("MinProperties", "minProperties", "p"),
    ("Required", "required", "p"), ("Items", "items", "p"), ("AllOf", "allOf", "p"), ("OneOf", "oneOf", "p"),
    ("AnyOf", "anyOf", "p"), ("Not", "not", "p"), ("Properties", "properties", "p"),
    ("AdditionalProperties", "additionalProperties", "p"), ("PatternProperties", "patternProperties", "p"),
    ("Dependencies", "dependencies", "p"), ("AdditionalItems", "additionalItems", "p"),
    ("Definitions", "definitions", "p"), ("ExternalDocs", "externalDocs", "p"), ("Example", "example", "p"),
    ("XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields", "p"),
    ("XEmbeddedResource", "x-kubernetes-embedded-resource", "b"), ("XIntOrString", "x-kubernetes-int-or-string", "b"),
    ("XListMapKeys", "x-kubernetes-list-map-keys", "p"), ("XListType", "x-kubernetes-list-type", "p"),
    ("XMapType", "x-kubernetes-map-type", "p"), ("XValidations", "x-kubernetes-validations", "p"),
)
ALLOWED_AT_ROOT_WITH_STATUS = ("Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum",
                               "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems",
                               "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs",
                               "Example", "XPreserveUnknownFields", "XValidations")
_ROOT_FIELDS_DETAIL = (f"only [{' '.join(ALLOWED_AT_ROOT_WITH_STATUS)}] fields are allowed at the root of the schema "
                       "if the status subresource is enabled")
_NEWLINES = re.compile(r"[\n\r]")
#: The subschemas most nodes lack (the walker looks for them only when a node has one of these keys).
_RARE_SUBSCHEMAS = frozenset(("not", "allOf", "oneOf", "anyOf", "definitions"))
#: The fields the standard validator's later checks look at (besides `type: null`).
_STANDARD_RARE = frozenset(("id", "additionalItems", "patternProperties", "definitions", "dependencies", "$ref",
                            "items", "x-kubernetes-embedded-resource"))


def expression_cost(compilation: RuleCompilation, context_cardinality: int | None) -> int:
    """getExpressionCost: a rule's cost times how often it can run (the schema's bound, else the compiler's)."""
    cardinality = compilation.max_cardinality if context_cardinality is None else context_cardinality
    return min(compilation.max_cost * cardinality, MAX_UINT64)


def cost_error_message(cost_name: str, cost: int, limit: int) -> str:
    """getCostErrorMessage: how far an estimated cost exceeds its limit."""
    factor = float(cost) / float(limit)
    if factor > 100.0:
        shown = "more than 100x"
    elif factor < 1.5:
        shown = f"{go_float_f(factor, 6)}x"
    else:
        shown = f"{go_float_f(factor, 1)}x"
    return (f"{cost_name} exceeds budget by factor of {shown} (try simplifying the rule, or adding maxItems, "
            "maxProperties, and maxLength where arrays, maps, and strings are declared)")


@dataclass(slots=True)
class _TotalCost:
    """The CRD-wide sum of rule costs and the (at most 4) biggest contributors of 1% of the limit or more."""

    total: int = 0
    most_expensive: list[tuple[Path, int]] = field(default_factory=list)

    def observe(self, path: Path, cost: int) -> None:
        self.total = min(self.total + cost, MAX_UINT64)
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT // 100:
            return
        self.most_expensive.append((path, cost))
        self.most_expensive.sort(key=lambda pc: pc[1], reverse=True)
        del self.most_expensive[4:]


@dataclass(frozen=True, slots=True)
class _CelContext:
    """CELSchemaContext: the structural node rules are typed against, and how often it can occur."""

    schema: Structural
    max_cardinality: int | None  # None: unbounded
    is_root: bool

    def child_cardinality(self, parent_raw: dict) -> int | None:
        """How often a child of this node can occur (the same for all its children)."""
        card = self.max_cardinality
        if card is not None:
            factor = _max_elements(parent_raw)
            card = None if factor is None else min(card * factor, MAX_UINT64)
        return card

    def child(self, schema: Structural | None, parent_raw: dict) -> _CelContext | None:
        if schema is None:
            return None
        return _CelContext(schema, self.child_cardinality(parent_raw), False)


def _max_elements(schema: dict) -> int | None:
    """extractMaxElements: how many children a value of this schema can have (None: unbounded)."""
    type_ = schema.get("type")
    if type_ == "object":
        if schema.get("additionalProperties") is not None:
            n = schema.get("maxProperties")
            return None if n is None else max(n, 0)
        return 1
    if type_ == "array":
        n = schema.get("maxItems")
        return None if n is None else max(n, 0)
    return 1


# ------------------------------------------------------------------ entry point
def validate_crd_validation(validation: dict | None, status_enabled: bool, opts: ValidationOptions, path: Path,
                            rule_compiler: RuleCompiler | None = None) -> list[FieldError]:
    """validateCustomResourceDefinitionValidation for one CustomResourceValidation (`{"openAPIV3Schema": ...}`)
    of the internal CRD at `path` (`spec.validation` or `spec.versions[i].schema`).

    `opts` are the options as validateCustomResourceDefinitionSpec passes them on: structural schemas
    required when spec.preserveUnknownFields is not true (or defaults or x-kubernetes-* extensions are
    used), and `suppress_per_expression_cost` set for a version whose schema an update left unchanged.
    `status_enabled`: the status subresource applies to this schema (any version's, for spec.validation).
    Without a `rule_compiler` only the schema is checked: no rule is compiled, so no CEL error is reported.
    """
    errs: list[FieldError] = []
    schema = None if validation is None else validation.get("openAPIV3Schema")
    if schema is None:
        return errs
    root = path.child("openAPIV3Schema")
    if status_enabled:
        errs.extend(_status_root_errors(schema, root))
    if schema.get("nullable"):
        errs.append(FieldError.forbidden(root.child("nullable"), "nullable cannot be true at the root"))

    init_errs: list[FieldError] = []
    cel: _CelContext | None = None
    if opts.require_structural_schema:
        try:
            ss = new_structural(schema)
        except NotStructuralError as err:
            init_errs.append(FieldError.invalid(root, "", str(err)))
        else:
            structural_errs = validate_structural(root, ss)
            if structural_errs:
                errs.extend(structural_errs)
            else:
                default_rules = None if rule_compiler is None else rule_compiler.validate_default
                default_errs = validate_defaults(root, ss, opts.require_pruned_defaults, validate_value, default_rules)
                if default_errs:
                    errs.extend(default_errs)
                else:
                    cel = _CelContext(ss, 1, True)

    walker = _SchemaWalker(opts, rule_compiler)
    scope = _Scope(allow_defaults=opts.allow_defaults, disallow_reason=opts.disallow_defaults_reason)
    walker.walk(schema, root, scope, True, cel)
    errs.extend(walker.schema_errs)
    errs.extend(walker.cel_errs)
    if not errs:
        errs.extend(init_errs)
    if cel is not None and walker.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT:
        for expensive_path, _ in walker.total.most_expensive:
            errs.append(FieldError.forbidden(expensive_path, "contributed to estimated rule cost total exceeding "
                                                             "cost limit for entire OpenAPIv3 schema"))
        errs.append(FieldError.forbidden(root, cost_error_message(
            "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", walker.total.total,
            STATIC_ESTIMATED_CRD_COST_LIMIT)))
    return errs


def validate_value(path: Path, value: Any, schema: Structural) -> list[FieldError]:
    """OpenAPI value validation of a default against its schema node (kube-openapi's messages)."""
    return compile_schema(schema.raw or {}).validate(value, path)


def _status_root_errors(schema: dict, root: Path) -> list[FieldError]:
    """With the status subresource, the root may only hold fields that survive extracting properties[status]."""
    for go_name, key, zero in _GO_FIELDS:
        value = schema.get(key)
        if (value is None) if zero == "p" else (not value):
            continue
        if go_name == "Type":
            if value != "object":
                return [FieldError.invalid(root.child("type"), value, 'only "object" is allowed as the type at the '
                                           "root of the schema if the status subresource is enabled")]
            continue
        if go_name not in ALLOWED_AT_ROOT_WITH_STATUS:
            return [FieldError.invalid(root, schema_props(schema), _ROOT_FIELDS_DETAIL)]
    return []


# ------------------------------------------------------------------ the recursive schema check
@dataclass(frozen=True, slots=True)
class _Scope:
    """specStandardValidator's state: where defaults are forbidden, whether inside resource meta, and the
    highest ancestor below which old and new values cannot be correlated (oldSelf is forbidden)."""

    allow_defaults: bool = True
    disallow_reason: str = ""
    inside_resource_meta: bool = False
    uncorrelatable: Trail | None = None

    def forbid_defaults(self, reason: str) -> _Scope:
        return replace(self, allow_defaults=False, disallow_reason=reason)

    def forbid_old_self(self, at: Trail) -> _Scope:
        return self if self.uncorrelatable is not None else replace(self, uncorrelatable=at)


class _SchemaWalker:
    """ValidateCustomResourceDefinitionOpenAPISchema over the JSONSchemaProps dicts (document order)."""

    def __init__(self, opts: ValidationOptions, rule_compiler: RuleCompiler | None) -> None:
        self.opts = opts
        self.rule_compiler = rule_compiler
        self.schema_errs: list[FieldError] = []
        self.cel_errs: list[FieldError] = []
        self.total = _TotalCost()
        self._structural_cache: dict[int, Structural | None] = {}

    def walk(self, schema: dict | None, at: Trail, scope: _Scope, is_root: bool, cel: _CelContext | None) -> None:
        """One schema: its own checks, its subschemas in Go's order, then the checks after them (the
        CEL rules are compiled only when the schema itself has no error). Where the schema is (`at`) is
        made into a Path only for a finding or a rule."""
        if schema is None:
            return
        start = len(self.schema_errs)
        self._standard(schema, at, scope)
        self._unique_items_and_additional_properties(schema, at)
        additional = schema.get("additionalProperties")
        if isinstance(additional, dict):
            sub = scope
            if scope.inside_resource_meta:
                sub = scope.forbid_defaults("inside additionalProperties applying to object metadata")
            child = None if cel is None else cel.child(cel.schema.additional_properties_schema, schema)
            self.walk(additional, (at, "f", "additionalProperties"), sub, False, child)
        props = schema.get("properties")
        if props:
            correlatable = schema.get("x-kubernetes-map-type") in (None, "granular", "atomic")
            embedded = bool(schema.get("x-kubernetes-embedded-resource"))
            props_at = (at, "f", "properties")
            props_scope = scope if correlatable else scope.forbid_old_self(at)
            cel_props = None if cel is None else cel.schema.properties
            cel_card = None if cel is None else cel.child_cardinality(schema)
            for name, prop in props.items():
                sub = props_scope
                if (is_root or embedded) and name in META_FIELDS:
                    sub = replace(sub, inside_resource_meta=True)
                    if is_root:
                        sub = sub.forbid_defaults(f"in top-level {name}")
                child_schema = None if cel_props is None else cel_props.get(name)
                child = None if child_schema is None else _CelContext(child_schema, cel_card, False)
                self.walk(prop, (props_at, "k", name), sub, False, child)
        if not schema.keys().isdisjoint(_RARE_SUBSCHEMAS):
            self._rare_subschemas(schema, trail_path(at), scope)
        items = schema.get("items")
        if items is not None:
            sub = scope if schema.get("x-kubernetes-list-type") == "map" else scope.forbid_old_self(at)
            if isinstance(items, list):
                for i, item in enumerate(items):
                    self.walk(item, ((at, "f", "items"), "i", i), sub, False, None)
            else:
                child = None if cel is None else cel.child(cel.schema.items, schema)
                self.walk(items, (at, "f", "items"), sub, False, child)
        for name, dependency in (schema.get("dependencies") or {}).items():
            if isinstance(dependency, dict):
                self.walk(dependency, ((at, "f", "dependencies"), "k", name), scope, False, None)
        self._after_subschemas(schema, at, scope, cel, start)

    def _rare_subschemas(self, schema: dict, path: Path, scope: _Scope) -> None:
        """not, allOf, oneOf, anyOf and definitions, in Go's order (between properties and items)."""
        not_schema = schema.get("not")
        if not_schema is not None:
            self.walk(not_schema, path.child("not"), scope, False, None)
        for key in ("allOf", "oneOf", "anyOf"):
            for i, clause in enumerate(schema.get(key) or ()):
                self.walk(clause, path.child(key).index(i), scope, False, None)
        for name, definition in (schema.get("definitions") or {}).items():
            self.walk(definition, path.child("definitions").key(name), scope, False, None)

    def _unique_items_and_additional_properties(self, schema: dict, at: Trail) -> None:
        """uniqueItems is forbidden; additionalProperties (other than true) excludes properties."""
        errs = self.schema_errs
        if schema.get("uniqueItems"):
            errs.append(FieldError.forbidden(trail_path(at).child("uniqueItems"),
                                             "uniqueItems cannot be set to true since the runtime complexity "
                                             "becomes quadratic"))
        additional = schema.get("additionalProperties")
        if additional is not None and schema.get("properties") and additional is not True:
            errs.append(FieldError.forbidden(trail_path(at).child("additionalProperties"),
                                             "additionalProperties and properties are mutual exclusive"))

    def _after_subschemas(self, schema: dict, at: Trail, scope: _Scope, cel: _CelContext | None,
                          start: int) -> None:
        """x-kubernetes-preserve-unknown-fields: false, the list and map types, and the CEL rules
        (compiled when no error was found since `start`, the schema's first)."""
        errs = self.schema_errs
        if schema.get("x-kubernetes-preserve-unknown-fields") is False:
            errs.append(FieldError.invalid(trail_path(at).child("x-kubernetes-preserve-unknown-fields"), False,
                                           "must be true or undefined"))
        errs.extend(list_and_map_type_errors(schema, at, self.opts.require_atomic_set_type,
                                             self.opts.require_map_list_keys_map_set_validation))
        rules = schema.get("x-kubernetes-validations")
        if rules:
            path = trail_path(at)
            errs.extend(self._rule_errors(schema, rules, path))
            if len(errs) == start and cel is not None:
                self._compile(rules, path, scope, cel)

    def _standard(self, schema: dict, at: Trail, scope: _Scope) -> None:
        """specStandardValidatorV3.validate: what OpenAPI v3 allows but CRDs do not."""
        errs = self.schema_errs
        type_ = schema.get("type") or ""
        if self.opts.require_valid_property_type and type_ and type_ not in OPENAPI_V3_TYPES:
            errs.append(FieldError.not_supported(trail_path(at).child("type"), type_, OPENAPI_V3_TYPES))
        if schema.get("default") is not None and not scope.allow_defaults:
            detail = "must not be set"
            if scope.disallow_reason:
                detail += " " + scope.disallow_reason
            errs.append(FieldError.forbidden(trail_path(at).child("default"), detail))
        if schema.keys().isdisjoint(_STANDARD_RARE) and type_ != "null":
            return  # none of the checks below can find anything (most nodes)
        if schema.get("id"):
            errs.append(FieldError.forbidden(trail_path(at).child("id"), "id is not supported"))
        if schema.get("additionalItems") is not None:
            errs.append(FieldError.forbidden(trail_path(at).child("additionalItems"),
                                             "additionalItems is not supported"))
        if schema.get("patternProperties"):
            errs.append(FieldError.forbidden(trail_path(at).child("patternProperties"),
                                             "patternProperties is not supported"))
        if schema.get("definitions"):
            errs.append(FieldError.forbidden(trail_path(at).child("definitions"), "definitions is not supported"))
        if schema.get("dependencies") is not None:
            errs.append(FieldError.forbidden(trail_path(at).child("dependencies"), "dependencies is not supported"))
        if schema.get("$ref") is not None:
            errs.append(FieldError.forbidden(trail_path(at).child("$ref"), "$ref is not supported"))
        if type_ == "null":
            errs.append(FieldError.forbidden(trail_path(at).child("type"),
                                             "type cannot be set to null, use nullable as an alternative"))
        items = schema.get("items")
        if isinstance(items, list) and items:
            errs.append(FieldError.forbidden(trail_path(at).child("items"),
                                             "items must be a schema object and not an array"))
        if scope.inside_resource_meta and schema.get("x-kubernetes-embedded-resource"):
            errs.append(FieldError.forbidden(trail_path(at).child("x-kubernetes-embedded-resource"),
                                             "must not be used inside of resource meta"))

    def _rule_errors(self, schema: dict, rules: list, path: Path) -> list[FieldError]:
        """The x-kubernetes-validations checks that need no CEL engine."""
        errs: list[FieldError] = []
        for i, rule in enumerate(rules):
            rule_path = path.child("x-kubernetes-validations").index(i)
            text = rule.get("rule") or ""
            message = rule.get("message") or ""
            message_expression = rule.get("messageExpression") or ""
            trimmed_rule, trimmed_message = go_trim_space(text), go_trim_space(message)
            if not trimmed_rule:
                errs.append(FieldError.required(rule_path.child("rule"), "rule is not specified"))
            elif message and not trimmed_message:
                errs.append(FieldError.invalid(rule_path.child("message"), message, "must be non-empty if specified"))
            elif _NEWLINES.search(trimmed_message):
                errs.append(FieldError.invalid(rule_path.child("message"), message, "must not contain line breaks"))
            elif _NEWLINES.search(trimmed_rule) and not trimmed_message:
                errs.append(FieldError.required(rule_path.child("message"),
                                                "message must be specified if rule contains line breaks"))
            if message_expression and not go_trim_space(message_expression):
                errs.append(FieldError.required(rule_path.child("messageExpression"),
                                                "messageExpression must be non-empty if specified"))
            reason = rule.get("reason")
            if reason is not None and reason not in SUPPORTED_VALIDATION_REASONS:
                # a FieldValueErrorReason, rendered by json.Marshal
                errs.append(FieldError.not_supported(rule_path.child("reason"), TypedString(reason),
                                                     SUPPORTED_VALIDATION_REASONS))
            field_path = rule.get("fieldPath") or ""
            if field_path and not go_trim_space(field_path):
                errs.append(FieldError.invalid(rule_path.child("fieldPath"), field_path,
                                               "must be non-empty if specified"))
            if _NEWLINES.search(field_path):
                errs.append(FieldError.invalid(rule_path.child("fieldPath"), field_path,
                                               "must not contain line breaks"))
            if field_path and not self._path_valid(schema, field_path):
                errs.append(FieldError.invalid(rule_path.child("fieldPath"), field_path, "must be a valid path"))
        return errs

    def _path_valid(self, schema: dict, field_path: str) -> bool:
        """pathValid: a fieldPath must name a field of the node's schema (unknowable if it is not structural)."""
        key = id(schema)
        if key not in self._structural_cache:
            try:
                self._structural_cache[key] = new_structural(schema)
            except NotStructuralError:
                self._structural_cache[key] = None
        structural = self._structural_cache[key]
        if structural is None:
            return True
        try:
            valid_field_path(field_path, structural)
        except ValueError:
            return False
        return True

    def _compile(self, rules: list, path: Path, scope: _Scope, cel: _CelContext) -> None:
        """Compile the node's rules and report as the apiserver does, rule by rule."""
        errs = self.cel_errs
        opts = self.opts
        if self.rule_compiler is None:  # schema checks only, no CEL engine
            return
        request = RuleCompileRequest(cel.schema, cel.is_root or cel.schema.x_embedded_resource, rules, path, opts,
                                     cel.max_cardinality)
        try:
            results = self.rule_compiler.compile(request)
        except RuleCompileError as err:
            errs.append(FieldError.internal(path.child("x-kubernetes-validations"), str(err)))
            return
        for i, (rule, cr) in enumerate(zip(rules, results, strict=False)):
            rule_path = path.child("x-kubernetes-validations").index(i)
            cost = expression_cost(cr, cel.max_cardinality)
            if not opts.suppress_per_expression_cost and cost > STATIC_ESTIMATED_COST_LIMIT:
                errs.append(FieldError.forbidden(rule_path.child("rule"), cost_error_message(
                    "estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT)))
            self.total.observe(rule_path.child("rule"), cost)
            if cr.error_type == "required":
                errs.append(FieldError.required(rule_path.child("rule"), cr.error_detail))
            elif cr.error_type is not None:
                errs.append(FieldError.invalid(rule_path.child("rule"), validation_rule(rule), cr.error_detail))
            if cr.message_expression_error is not None:
                errs.append(FieldError.invalid(rule_path.child("messageExpression"), validation_rule(rule),
                                               cr.message_expression_error))
            elif cr.has_message_expression:
                if not opts.suppress_per_expression_cost and \
                        cr.message_expression_max_cost > STATIC_ESTIMATED_COST_LIMIT:
                    errs.append(FieldError.forbidden(rule_path.child("messageExpression"), cost_error_message(
                        "estimated messageExpression cost", cr.message_expression_max_cost,
                        STATIC_ESTIMATED_COST_LIMIT)))
                self.total.observe(rule_path.child("messageExpression"), cr.message_expression_max_cost)
            if cr.uses_old_self:
                if scope.uncorrelatable is not None:
                    errs.append(FieldError.invalid(rule_path.child("rule"), rule.get("rule") or "",
                                                   "oldSelf cannot be used on the uncorrelatable portion of the "
                                                   f"schema within {trail_path(scope.uncorrelatable)}"))
            elif rule.get("optionalOldSelf") is not None:
                errs.append(FieldError.invalid(rule_path.child("optionalOldSelf"), rule["optionalOldSelf"],
                                               "may not be set if oldSelf is not used in rule"))

