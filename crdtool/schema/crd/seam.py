"""The seam between a CRD schema's validation (schema.crd.schema) and the CEL compiler (crdtool.cel):
what the schema's check asks of the compiler for one node's x-kubernetes-validations, and what it
gets back. A module of its own, so that a run that only evaluates rules already compiled (an object
against a CRD whose verdict the cache holds) need not load the schema's whole validation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

from crdtool.model.record import FrozenRecord

if TYPE_CHECKING:
    from crdtool.model.errors import FieldError
    from crdtool.model.path import Path
    from crdtool.schema.crd.options import ValidationOptions
    from crdtool.schema.structural.structural import Structural

__all__ = ["RuleCompilation", "RuleCompileError", "RuleCompileRequest", "RuleCompiler"]


class RuleCompilation(FrozenRecord):
    """What compiling one x-kubernetes-validations rule yields (the apiserver's cel.CompilationResult)."""

    __slots__ = ("error_type", "error_detail", "max_cost", "max_cardinality", "message_expression_error",
                 "has_message_expression", "message_expression_max_cost", "uses_old_self", "largest_size_path",
                 "unsupported", "message_expression_unsupported", "unsupported_note")

    #: "required" or "invalid" when the rule did not compile (its field.ErrorType), with the detail text.
    error_type: Literal["required", "invalid"] | None
    error_detail: str
    #: The estimated worst-case cost of one evaluation, and the compiler's own estimate of how often the
    #: rule runs (used only where the schema path gives no bound: an unbounded list or map above the rule).
    max_cost: int
    max_cardinality: int
    #: The messageExpression's compile error detail, or whether it has one and its estimated cost.
    message_expression_error: str | None
    has_message_expression: bool
    message_expression_max_cost: int
    #: Whether the rule refers to oldSelf (a transition rule).
    uses_old_self: bool
    #: For cost reports: the value path whose schema size weighed most in max_cost (e.g. `self.spec.items`).
    largest_size_path: str
    #: crdtool's own finding, not the apiserver's: the rule (or its messageExpression) could be neither
    #: checked nor run here.
    unsupported: bool
    message_expression_unsupported: bool
    #: Why the rule is unsupported, when not for nesting too deep (the note's text).
    unsupported_note: str

    def __init__(self, error_type: Literal["required", "invalid"] | None = None, error_detail: str = "",
                 max_cost: int = 0, max_cardinality: int = 0, message_expression_error: str | None = None,
                 has_message_expression: bool = False, message_expression_max_cost: int = 0,
                 uses_old_self: bool = False, largest_size_path: str = "", unsupported: bool = False,
                 message_expression_unsupported: bool = False, unsupported_note: str = "") -> None:
        self.error_type = error_type
        self.error_detail = error_detail
        self.max_cost = max_cost
        self.max_cardinality = max_cardinality
        self.message_expression_error = message_expression_error
        self.has_message_expression = has_message_expression
        self.message_expression_max_cost = message_expression_max_cost
        self.uses_old_self = uses_old_self
        self.largest_size_path = largest_size_path
        self.unsupported = unsupported
        self.message_expression_unsupported = message_expression_unsupported
        self.unsupported_note = unsupported_note


class RuleCompileRequest(FrozenRecord):
    """The rules of one schema node, with what compiling them needs."""

    __slots__ = ("schema", "is_resource_root", "rules", "path", "opts", "max_cardinality")

    schema: Structural  # the node's structural schema: the type of `self`
    is_resource_root: bool  # the root or an embedded resource: apiVersion, kind and metadata are typed
    rules: list[dict]  # the node's x-kubernetes-validations, as decoded
    path: Path  # the node's path; rule i is at path.x-kubernetes-validations[i]
    opts: ValidationOptions  # preexisting rules pick the stored-expressions environment
    #: How many times the node can occur in one object, from maxItems/maxProperties above it (None: unbounded).
    max_cardinality: int | None

    def __init__(self, schema: Structural, is_resource_root: bool, rules: list[dict], path: Path,
                 opts: ValidationOptions, max_cardinality: int | None = None) -> None:
        self.schema = schema
        self.is_resource_root = is_resource_root
        self.rules = rules
        self.path = path
        self.opts = opts
        self.max_cardinality = max_cardinality


class RuleCompileError(Exception):
    """The node's rules could not be compiled at all (no CEL type for the schema, or cel.Compile failed).

    Reported as `<node>.x-kubernetes-validations: Internal error: <text>`, so the text must be the
    apiserver's, e.g. `internal error: failed to construct type information for x-kubernetes-validations
    rules: unable to convert structural schema to CEL declarations`.
    """


class RuleCompiler(Protocol):
    """The CEL seam (implemented by `crdtool.cel`).

    `compile` returns one RuleCompilation per rule, in order; this module turns them into the
    apiserver's errors (compile errors, per-expression and CRD-wide cost limits, oldSelf checks) at
    the apiserver's positions. It is only asked for nodes whose subtree has no schema error, after
    the whole schema passed ValidateStructural and the default checks, as the apiserver does.

    `validate_default` runs the CEL rules of a schema subtree on one default value, as ValidateDefaults
    does (with the value as both self and oldSelf, then, with ratcheting, without oldSelf), and returns
    the field errors: none if the subtree has no rules or they hold.
    """

    def compile(self, request: RuleCompileRequest) -> list[RuleCompilation]: ...

    def validate_default(self, schema: Structural, is_resource_root: bool, value: Any,
                         path: Path) -> list[FieldError]: ...
