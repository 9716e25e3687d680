"""The apiserver's checks of `default` values in a CRD schema (ValidateDefaults of
apiextensions-apiserver's schema/defaulting package).

Every default must survive pruning unchanged (`must not have unknown fields`), keep embedded
TypeMeta/ObjectMeta well-formed, validate against its own schema (kube-openapi's messages,
from `crdtool.schema.values.validation`) and, where CEL rules apply, pass them (the CEL seam). A default
inside metadata, apiVersion or kind of an embedded resource is checked inside the object it
would be defaulted into, as the apiserver does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.model.errors import FieldError, aggregate_text, dedupe
from crdtool.model.jsonvalue import json_copy
from crdtool.model.path import Path, Trail, trail_path
from crdtool.schema.objectmeta import coerce as objectmeta
from crdtool.schema.pruning.algorithm import META_FIELDS, would_prune
from crdtool.schema.structural.structural import Structural, as_resource_root

#: Validates one value against a schema node; returns its field errors (paths under `path`).
ValueValidator = Callable[[Path, Any, Structural], list[FieldError]]
#: Runs the CEL rules of a schema on a default value: (schema, is_resource_root, value, path) -> errors.
DefaultRuleValidator = Callable[[Structural, bool, Any, Path], list[FieldError]]


def validate_defaults(path: Path, s: Structural, require_pruned_defaults: bool, validate_value: ValueValidator,
                      validate_rules: DefaultRuleValidator | None = None) -> list[FieldError]:
    """ValidateDefaults for a CRD's root schema (which is always treated as a resource root)."""
    s = as_resource_root(s)
    errs: list[FieldError] = []
    _Walker(require_pruned_defaults, validate_value, validate_rules, errs).walk(path, s, s, (), False)
    return errs


class _Walker:
    """One pass over a schema (items and properties; defaults are forbidden under additionalProperties)."""

    def __init__(self, require_pruned: bool, validate_value: ValueValidator,
                 validate_rules: DefaultRuleValidator | None, errs: list[FieldError]) -> None:
        self.require_pruned = require_pruned
        self.validate_value = validate_value
        self.validate_rules = validate_rules
        self.errs = errs

    def walk(self, at: Trail, s: Structural, root: Structural, steps: _Steps, inside_meta: bool) -> None:
        """`steps` lead from the enclosing resource root to s. Where s is (`at`) and the steps are made
        only for a default: the walk meets every node, most have none."""
        if s.x_embedded_resource:
            inside_meta, root, steps = False, s, ()
        if s.default is not None:
            if inside_meta:
                self._check_meta_default(trail_path(at), s, root, _steps(steps))
            else:
                self._check_default(trail_path(at), s)
        if s.items is not None:
            self.walk((at, "f", "items"), s.items, root, (steps, None), inside_meta)
        if s.properties:
            props_at = (at, "f", "properties")
            for name, prop in s.properties.items():
                sub_meta = inside_meta or (s.x_embedded_resource and name in META_FIELDS)
                self.walk((props_at, "k", name), prop, root, (steps, name), sub_meta)

    def _check_default(self, path: Path, s: Structural) -> None:
        value = s.default
        default_path = path.child("default")
        if self.require_pruned and would_prune(value, s):
            self.errs.append(FieldError.invalid(default_path, value, "must not have unknown fields"))
        value = json_copy(value)  # Coerce writes the decoded metadata back (the schema's own default stays)
        problem = objectmeta.coerce(default_path, value, s, s.x_embedded_resource)
        if problem is not None:
            self.errs.append(problem)
            return
        meta_errs = objectmeta.validate_embedded(value, s, default_path, s.x_embedded_resource)
        if meta_errs:
            self.errs.extend(meta_errs)
            return
        value_errs = self.validate_value(default_path, value, s)
        if value_errs:
            self.errs.extend(value_errs)
        elif self.validate_rules is not None:
            self.errs.extend(self.validate_rules(s, s.x_embedded_resource, value, default_path))

    def _check_meta_default(self, path: Path, s: Structural, root: Structural, steps: tuple) -> None:
        """A default of (part of) metadata, apiVersion or kind: checked in the object it would land in."""
        value = s.default
        default_path = path.child("default")
        obj = _surrounding_object(json_copy(value), steps)
        problem = objectmeta.coerce(None, obj, root, True)
        if problem is not None:
            self.errs.append(FieldError.invalid(default_path, value, f"must result in valid metadata: {problem}"))
            return
        meta_errs = objectmeta.validate_embedded(obj, root, None, True)
        if meta_errs:
            detail = aggregate_text(dedupe([str(e) for e in meta_errs]))
            self.errs.append(FieldError.invalid(default_path, value, f"must result in valid metadata: {detail}"))
            return
        value_errs = self.validate_value(default_path, value, s)
        if value_errs:
            self.errs.extend(value_errs)
        elif self.validate_rules is not None:
            self.errs.extend(self.validate_rules(s, s is root, value, default_path))


#: The steps from a resource root to a node (str: field, None: list item), as (the parent's steps, the
#: last step); () at the root.
_Steps = tuple


def _steps(steps: _Steps) -> tuple:
    """The steps from the resource root, in order."""
    out = []
    while steps:
        steps, step = steps
        out.append(step)
    return tuple(reversed(out))


def _surrounding_object(value: Any, steps: tuple) -> dict:
    """The test object the apiserver builds around a metadata default: the value plugged in at its
    place under the resource root, with `apiVersion: validation/v1` and `kind: Validation`."""
    for step in reversed(steps):
        value = [value] if step is None else {step: value}
    obj = dict(value) if isinstance(value, dict) else {}
    obj["kind"] = "Validation"
    obj["apiVersion"] = "validation/v1"
    return obj

