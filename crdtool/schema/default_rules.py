"""The apiserver's checks of `default` values in a CRD schema (ValidateDefaults of
apiextensions-apiserver's schema/defaulting package).

Every default must survive pruning unchanged (`must not have unknown fields`), keep embedded
TypeMeta/ObjectMeta well-formed, validate against its own schema (kube-openapi's messages,
from `crdtool.schema.values`) and, where CEL rules apply, pass them (the CEL seam). A default
inside metadata, apiVersion or kind of an embedded resource is checked inside the object it
would be defaulted into, as the apiserver does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from crdtool.model.errors import FieldError, aggregate_text, dedupe
from crdtool.model.gofmt import go_json_kind
from crdtool.model.path import Path
from crdtool.schema.names import is_dns1035_label, validate_path_segment_name
from crdtool.schema.objectmeta import validate_object_meta
from crdtool.schema.structural import Structural

META_FIELDS = frozenset(("apiVersion", "kind", "metadata"))

#: Validates one value against a schema node; returns its field errors (paths under `path`).
ValueValidator = Callable[[Path, Any, Structural], list[FieldError]]
#: Runs the CEL rules of a schema on a default value: (schema, is_resource_root, value, path) -> errors.
DefaultRuleValidator = Callable[[Structural, bool, Any, Path], list[FieldError]]


def validate_defaults(path: Path, s: Structural, require_pruned_defaults: bool, validate_value: ValueValidator,
                      validate_rules: DefaultRuleValidator | None = None) -> list[FieldError]:
    """ValidateDefaults for a CRD's root schema (which is always treated as a resource root)."""
    if not s.x_embedded_resource:
        s = replace(s, x_embedded_resource=True)
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

    def walk(self, path: Path, s: Structural, root: Structural, steps: tuple, inside_meta: bool) -> None:
        """`steps` lead from the enclosing resource root to s (str: field, None: list item)."""
        if s.x_embedded_resource:
            inside_meta, root, steps = False, s, ()
        if s.default is not None:
            if inside_meta:
                self._check_meta_default(path, s, root, steps)
            else:
                self._check_default(path, s)
        if s.items is not None:
            self.walk(path.child("items"), s.items, root, steps + (None,), inside_meta)
        if s.properties:
            props_path = path.child("properties")
            for name, prop in s.properties.items():
                sub_meta = inside_meta or (s.x_embedded_resource and name in META_FIELDS)
                self.walk(props_path.key(name), prop, root, steps + (name,), sub_meta)

    def _check_default(self, path: Path, s: Structural) -> None:
        value = s.default
        default_path = path.child("default")
        if self.require_pruned and would_prune(value, s):
            self.errs.append(FieldError.invalid(default_path, value, "must not have unknown fields"))
        problem = coerce_type_meta(default_path, value, s)
        if problem is not None:
            self.errs.append(problem)
            return
        meta_errs = validate_type_meta(default_path, value, s)
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
        obj = _surrounding_object(value, steps)
        problem = coerce_type_meta(Path(), obj, root)
        if problem is not None:
            self.errs.append(FieldError.invalid(default_path, value, f"must result in valid metadata: {problem}"))
            return
        meta_errs = validate_type_meta(Path(), obj, root)
        if meta_errs:
            detail = aggregate_text(dedupe([str(e) for e in meta_errs]))
            self.errs.append(FieldError.invalid(default_path, value, f"must result in valid metadata: {detail}"))
            return
        value_errs = self.validate_value(default_path, value, s)
        if value_errs:
            self.errs.extend(value_errs)
        elif self.validate_rules is not None:
            self.errs.extend(self.validate_rules(s, s is root, value, default_path))


def _surrounding_object(value: Any, steps: tuple) -> dict:
    """The test object the apiserver builds around a metadata default: the value plugged in at its
    place under the resource root, with `apiVersion: validation/v1` and `kind: Validation`."""
    for step in reversed(steps):
        value = [value] if step is None else {step: value}
    obj = dict(value) if isinstance(value, dict) else {}
    obj["kind"] = "Validation"
    obj["apiVersion"] = "validation/v1"
    return obj


# ------------------------------------------------------------------ pruning
def would_prune(value: Any, s: Structural | None) -> bool:
    """Whether pruning `value` with its schema s would remove anything (pruning.Prune; apiVersion, kind and
    metadata of an embedded resource are left to ObjectMeta handling, as the apiserver does)."""
    return _prunes(value, s)


def _prunes(x: Any, s: Structural | None) -> bool:
    if s is not None and s.x_preserve_unknown_fields:
        return _skip_prunes(x, s)
    if isinstance(x, dict):
        if s is None:
            return bool(x)
        for k, v in x.items():
            if s.x_embedded_resource and k in META_FIELDS:
                continue
            prop = s.properties.get(k)
            if prop is not None:
                if _prunes(v, prop):
                    return True
            elif s.additional_properties is not None:
                if _prunes(v, s.additional_properties_schema):
                    return True
            else:
                return True
    elif isinstance(x, list):
        items = None if s is None else s.items
        return any(_prunes(v, items) for v in x)
    return False


def _skip_prunes(x: Any, s: Structural | None) -> bool:
    """Under x-kubernetes-preserve-unknown-fields unknown fields stay; specified ones are pruned inside."""
    if s is None:
        return False
    if isinstance(x, dict):
        for k, v in x.items():
            if s.x_embedded_resource and k in META_FIELDS:
                continue
            prop = s.properties.get(k)
            if prop is not None:
                if _prunes(v, prop):
                    return True
            elif s.additional_properties is not None and _prunes(v, s.additional_properties_schema):
                return True
    elif isinstance(x, list):
        return any(_skip_prunes(v, s.items) for v in x)
    return False


# ------------------------------------------------------------------ embedded TypeMeta and ObjectMeta
def coerce_type_meta(path: Path, x: Any, s: Structural | None) -> FieldError | None:
    """objectmeta.Coerce without dropping: the first ill-typed apiVersion, kind or metadata of an embedded resource."""
    if s is None:
        return None
    if isinstance(x, dict):
        for k, v in x.items():
            if s.x_embedded_resource:
                if k in ("apiVersion", "kind") and not isinstance(v, str):
                    return FieldError.invalid(path.child(k), v, "must be a string")
                if k == "metadata":
                    problem = object_meta_type_error(v)
                    if problem is not None:
                        return FieldError.invalid(path.child("metadata"), v, problem)
            prop = s.properties.get(k)
            if prop is not None:
                found = coerce_type_meta(path.child(k), v, prop)
            elif s.additional_properties is not None:
                found = coerce_type_meta(path.key(k), v, s.additional_properties_schema)
            else:
                found = None
            if found is not None:
                return found
    elif isinstance(x, list):
        for i, v in enumerate(x):
            found = coerce_type_meta(path.index(i), v, s.items)
            if found is not None:
                return found
    return None


_STRING_MAP_FIELDS = ("labels", "annotations")
_STRING_FIELDS = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion")


def object_meta_type_error(meta: Any) -> str | None:
    """The json.Unmarshal error of decoding metadata into ObjectMeta, for the common field types."""
    if meta is None:
        return None
    if not isinstance(meta, dict):
        return f"json: cannot unmarshal {go_json_kind(meta)} into Go value of type v1.ObjectMeta"
    for k in _STRING_FIELDS:
        v = meta.get(k)
        if v is not None and not isinstance(v, str):
            return f"json: cannot unmarshal {go_json_kind(v)} into Go struct field ObjectMeta.{k} of type string"
    for k in _STRING_MAP_FIELDS:
        v = meta.get(k)
        if v is None:
            continue
        if not isinstance(v, dict):
            return (f"json: cannot unmarshal {go_json_kind(v)} into Go struct field ObjectMeta.{k} "
                    "of type map[string]string")
        for item in v.values():
            if item is not None and not isinstance(item, str):
                return f"json: cannot unmarshal {go_json_kind(item)} into Go struct field ObjectMeta.{k} of type string"
    finalizers = meta.get("finalizers")
    if finalizers is not None:
        if not isinstance(finalizers, list):
            return (f"json: cannot unmarshal {go_json_kind(finalizers)} into Go struct field ObjectMeta.finalizers "
                    "of type []string")
        for item in finalizers:
            if item is not None and not isinstance(item, str):
                return (f"json: cannot unmarshal {go_json_kind(item)} into Go struct field ObjectMeta.finalizers "
                        "of type string")
    return None




def validate_type_meta(path: Path, x: Any, s: Structural | None) -> list[FieldError]:
    """objectmeta.Validate: embedded resources need a string apiVersion (a group version) and kind."""
    if s is None:
        return []
    errs: list[FieldError] = []
    if isinstance(x, dict):
        if s.x_embedded_resource:
            errs.extend(_embedded_resource_errors(path, x))
        for k, v in x.items():
            prop = s.properties.get(k)
            if prop is not None:
                errs.extend(validate_type_meta(path.child(k), v, prop))
            elif s.additional_properties is not None:
                errs.extend(validate_type_meta(path.key(k), v, s.additional_properties_schema))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            errs.extend(validate_type_meta(path.index(i), v, s.items))
    return errs


def _embedded_resource_errors(path: Path, x: dict) -> list[FieldError]:
    """validateEmbeddedResource: apiVersion and kind are required and well-formed, metadata valid."""
    errs: list[FieldError] = []
    if "apiVersion" not in x:
        errs.append(FieldError.required(path.child("apiVersion"), ""))
    if "kind" not in x:
        errs.append(FieldError.required(path.child("kind"), ""))
    for k, v in x.items():
        if k == "apiVersion":
            if not isinstance(v, str):
                errs.append(FieldError.invalid(path.child("apiVersion"), v, "must be a string"))
            elif not v:
                errs.append(FieldError.required(path.child("apiVersion"), ""))
            elif v.count("/") > 1:
                errs.append(FieldError.invalid(path.child("apiVersion"), v, f"unexpected GroupVersion string: {v}"))
        elif k == "kind":
            if not isinstance(v, str):
                errs.append(FieldError.invalid(path.child("kind"), v, "must be a string"))
            elif not v:
                errs.append(FieldError.required(path.child("kind"), ""))
            elif problems := is_dns1035_label(v.lower()):
                errs.append(FieldError.invalid(path.child("kind"), v, "may have mixed case, but should otherwise "
                                               "match: " + ",".join(problems)))
        elif k == "metadata":
            problem = object_meta_type_error(v)
            if problem is not None:
                errs.append(FieldError.invalid(path.child("metadata"), v, problem))
            elif isinstance(v, dict):
                meta = v if v.get("name") else {**v, "name": "fakename"}
                errs.extend(validate_object_meta(meta, bool(meta.get("namespace")), validate_path_segment_name,
                                                 path.child("metadata")))
    return errs
