"""Which rules a CRD create or update must meet, decided from the schemas (validationOptions).

A create meets every rule. An update is excused from a rule the stored CRD already broke, so
that objects the apiserver accepted once can still be updated (ratcheting): `update_options`
derives the switches from the old CRD the way ValidateCustomResourceDefinitionUpdate does.
The schemas here are the raw `openAPIV3Schema` dicts of the internal form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from crdtool.model.path import Path
from crdtool.schema.crd.conversion import (
    ca_bundle_bytes,
    ca_bundle_error,
    has_valid_conversion_review_version_or_empty,
)
from crdtool.schema.crd.nodes import iter_schemas
from crdtool.schema.crd.options import ValidationOptions
from crdtool.schema.pruning.algorithm import would_prune
from crdtool.schema.structural.structural import NotStructuralError, new_structural
from crdtool.schema.structural.validation import is_structural, map_list_keys_map_set_errors

OPENAPI_V3_TYPES = frozenset(("string", "number", "integer", "boolean", "array", "object"))

SchemaPredicate = Callable[[dict], bool]


def spec_schemas(spec: dict) -> Iterator[dict]:
    """The top-level openAPIV3Schema and each version's, where set (HasSchemaWith's order)."""
    validation = spec.get("validation")
    if validation and validation.get("openAPIV3Schema") is not None:
        yield validation["openAPIV3Schema"]
    for v in spec.get("versions") or ():
        schema = v.get("schema")
        if schema and schema.get("openAPIV3Schema") is not None:
            yield schema["openAPIV3Schema"]


def spec_has(spec: dict, pred: SchemaPredicate) -> bool:
    """HasSchemaWith + SchemaHas: whether any node of any schema satisfies pred."""
    return any(pred(node) for schema in spec_schemas(spec) for node in iter_schemas(schema))


def has_default(s: dict) -> bool:
    return s.get("default") is not None


def has_kubernetes_extension(s: dict) -> bool:
    """schemaHasKubernetesExtensions' test of one node."""
    return bool(s.get("x-kubernetes-embedded-resource") or s.get("x-kubernetes-preserve-unknown-fields") is not None
                or s.get("x-kubernetes-int-or-string") or s.get("x-kubernetes-list-map-keys")
                or s.get("x-kubernetes-list-type") is not None or s.get("x-kubernetes-validations"))


def has_invalid_type(s: dict) -> bool:
    t = s.get("type")
    return bool(t) and t not in OPENAPI_V3_TYPES


def has_non_atomic_set_type(s: dict) -> bool:
    """A list-type=set whose items are not atomic (granular maps, non-atomic lists)."""
    items = s.get("items")
    if s.get("x-kubernetes-list-type") != "set" or not isinstance(items, dict):
        return False
    if items.get("type") == "array":
        return items.get("x-kubernetes-list-type") not in (None, "atomic")
    if items.get("type") == "object":
        return items.get("x-kubernetes-map-type") != "atomic"
    return False


def has_invalid_map_list_keys_map_set(s: dict) -> bool:
    """hasInvalidMapListKeysMapSet's test of one schema: validateMapListKeysMapSet finds something."""
    return bool(map_list_keys_map_set_errors(s, Path()))


def all_versions_specify_openapi_schema(spec: dict) -> bool:
    validation = spec.get("validation")
    if validation and validation.get("openAPIV3Schema") is not None:
        return True
    return all((v.get("schema") or {}).get("openAPIV3Schema") is not None for v in spec.get("versions") or ())


def condition_true(crd: dict, condition_type: str) -> bool:
    """IsCRDConditionTrue."""
    for c in (crd.get("status") or {}).get("conditions") or ():
        if c.get("type") == condition_type:
            return c.get("status") == "True"
    return False


def schema_for_version(spec: dict, name: str) -> tuple[bool, dict | None]:
    """GetSchemaForVersion: (found, the version's CustomResourceValidation)."""
    versions = spec.get("versions") or []
    if not any(v.get("schema") is not None for v in versions):
        return True, spec.get("validation")
    if spec.get("validation") is not None:
        return False, None
    for v in versions:
        if v.get("name") == name:
            return True, v.get("schema")
    return False, None


def preexisting_expressions(spec: dict) -> tuple[frozenset[str], frozenset[str]]:
    """The CEL rules and messageExpressions of the stored CRD."""
    rules: set[str] = set()
    messages: set[str] = set()
    for schema in spec_schemas(spec):
        for node in iter_schemas(schema):
            for rule in node.get("x-kubernetes-validations") or ():
                rules.add(rule.get("rule") or "")
                if rule.get("messageExpression"):
                    messages.add(rule["messageExpression"])
    return frozenset(rules), frozenset(messages)


def versions_with_unchanged_schemas(new: dict, old: dict) -> frozenset[str]:
    """findVersionsWithUnchangedSchemas."""
    new_spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    out = set()
    for v in new_spec.get("versions") or ():
        name = v.get("name") or ""
        found_new, new_schema = schema_for_version(new_spec, name)
        found_old, old_schema = schema_for_version(old_spec, name)
        if found_new and found_old and new_schema == old_schema:
            out.add(name)
    return frozenset(out)


def allow_invalid_ca_bundle(old: dict) -> bool:
    """An invalid caBundle stays allowed before the CRD is established, or when the stored one is invalid."""
    if not condition_true(old, "Established"):
        return True
    conversion = (old.get("spec") or {}).get("conversion") or {}
    client_config = conversion.get("webhookClientConfig") or {}
    ca_bundle = ca_bundle_bytes(client_config.get("caBundle"))
    if not ca_bundle:
        return False
    return ca_bundle_error(ca_bundle) is not None


def schema_is_non_structural(schema: dict) -> bool:
    """schemaIsNonStructural: NewStructural fails or ValidateStructural finds something."""
    try:
        structural = new_structural(schema)
    except NotStructuralError:
        return True
    return structural is not None and not is_structural(structural)


def schema_has_unpruned_defaults(schema: dict) -> bool:
    """schemaHasUnprunedDefaults: a default that pruning with its own schema would change
    (false for schemas that are not structural: the apiserver ignores those here)."""
    if not any(has_default(node) for node in iter_schemas(schema)):
        return False
    try:
        structural = new_structural(schema)
    except NotStructuralError:
        return False
    if structural is None or not is_structural(structural):
        return False
    stack = [structural]
    while stack:
        node = stack.pop()
        if node.default is not None and would_prune(node.default, node):
            return True
        stack.extend(node.properties.values())
        if node.items is not None:
            stack.append(node.items)
        if node.additional_properties_schema is not None:
            stack.append(node.additional_properties_schema)
    return False


def update_options(old: dict, new: dict) -> ValidationOptions:
    """The options of ValidateCustomResourceDefinitionUpdate, derived from the stored CRD."""
    old_spec = old.get("spec") or {}
    conversion = old_spec.get("conversion")
    schemas = list(spec_schemas(old_spec))
    rules, messages = preexisting_expressions(old_spec)
    return ValidationOptions(
        allow_defaults=True,
        require_recognized_conversion_review_version=(
            conversion is None
            or has_valid_conversion_review_version_or_empty(conversion.get("conversionReviewVersions"))),
        require_immutable_names=condition_true(old, "Established"),
        require_openapi_schema=all_versions_specify_openapi_schema(old_spec),
        require_valid_property_type=not spec_has(old_spec, has_invalid_type),
        require_structural_schema=not any(schema_is_non_structural(s) for s in schemas),
        require_pruned_defaults=not any(schema_has_unpruned_defaults(s) for s in schemas),
        require_atomic_set_type=not spec_has(old_spec, has_non_atomic_set_type),
        require_map_list_keys_map_set_validation=not spec_has(old_spec, has_invalid_map_list_keys_map_set),
        preexisting_rules=rules,
        preexisting_message_expressions=messages,
        versions_with_unchanged_schemas=versions_with_unchanged_schemas(new, old),
        allow_invalid_ca_bundle=allow_invalid_ca_bundle(old),
        is_update=True,
    )
