"""The switches of the apiserver's CRD validation (`validationOptions` in
apiextensions-apiserver's validation.go). A create uses the strict defaults; an update
relaxes a rule only where the stored CRD already broke it (ratcheting).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class ValidationOptions:
    """What a CRD create (the defaults) or an update (derived from the old CRD) requires."""

    allow_defaults: bool = True
    disallow_defaults_reason: str = ""
    require_recognized_conversion_review_version: bool = True
    require_immutable_names: bool = False
    require_openapi_schema: bool = True
    require_valid_property_type: bool = True
    require_structural_schema: bool = True
    require_pruned_defaults: bool = True
    require_atomic_set_type: bool = True
    require_map_list_keys_map_set_validation: bool = True
    #: CEL rules and messageExpressions that the stored CRD already had (update only).
    preexisting_rules: frozenset[str] = field(default_factory=frozenset)
    preexisting_message_expressions: frozenset[str] = field(default_factory=frozenset)
    #: Versions whose schema is unchanged by an update (update only).
    versions_with_unchanged_schemas: frozenset[str] = field(default_factory=frozenset)
    suppress_per_expression_cost: bool = False
    allow_invalid_ca_bundle: bool = True
    is_update: bool = False

    def for_version(self, version: str) -> ValidationOptions:
        """The options for one version's schema: the per-rule cost check is suppressed when it is unchanged."""
        if version in self.versions_with_unchanged_schemas:
            return replace(self, suppress_per_expression_cost=True)
        return self


CREATE = ValidationOptions()
