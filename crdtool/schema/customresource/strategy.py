"""The apiserver's validation of a custom resource on create and update (everything after decoding,
pruning, defaulting and metadata coercion; CEL comes in through a seam).

This is the generic registry's BeforeCreate/BeforeUpdate around apiextensions' customResourceStrategy
(registry/customresource strategy.go and validator.go), in the apiserver's order:

create: PrepareForCreate (status dropped when the status subresource is on, generation 1), the
  namespace cleared for a cluster-scoped kind, a name generated from generateName, then
  1. kind and apiVersion (when wrong, the next three steps are skipped),
  2. ObjectMeta (names must be DNS subdomains; namespace required or ignored by scope),
  3. the OpenAPI schema (`values`), 4. the scale subresource's replicas and selector paths,
  5. embedded resources, 6. set and map lists, 7. CEL rules - or, when the schema has rules and an
  earlier error would make them unreliable, the apiserver's "some validation rules were not checked".
update: PrepareForUpdate (status kept from the old object with the status subresource, the generation
  bumped when anything but metadata changed), the common ObjectMeta checks of every kind (names as
  path segments, then the update rules), then the same steps
  with the update rules of ObjectMeta (which the apiserver reports twice), ratcheting of the schema
  (`values.validate_update`) and of list types (checked only when the old object passed them).

Warnings are the strategy's (finalizer names) and come only with a valid object; the CEL seam may add
its own. The caller's objects are never modified; the metadata the server fills in is set as the server
sets it: a generated name gets a fixed suffix instead of a random one, user-given managedFields are left
out (the field manager replaces them before validation), and an update without a resourceVersion takes
the stored object's, as a patch (kubectl apply) does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.model.errors import NAMESPACE_MISMATCH, ErrorType, FieldError
from crdtool.model.gofmt import go_quote, go_type_name, go_value
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.notes import Note
from crdtool.model.path import Path
from crdtool.model.record import FrozenRecord
from crdtool.schema.apimachinery.names import is_qualified_name, name_is_dns_subdomain, validate_path_segment_name
from crdtool.schema.apimachinery.objectmeta import validate_object_meta, validate_object_meta_update
from crdtool.schema.listtype.validation import ListTypes
from crdtool.schema.objectmeta.coerce import validate_embedded
from crdtool.schema.structural.structural import Structural, has_rules, new_structural
from crdtool.schema.values.validation import Validator, compile_schema

__all__ = [
    "BLOCKING_RULES_MESSAGE", "ResourceContext", "RuleValidator", "ScaleSubresource", "namespace_mismatch",
    "prepare_for_create", "prepare_for_update", "validate_create", "validate_update",
]

#: The CEL seam: (new object, old object or None on create) -> (field errors, warnings). It receives the
#: object as the strategy sees it (after PrepareForCreate/PrepareForUpdate) and runs last.
#: Runs a version's CEL rules: their field errors, and the warnings (strings) with crdtool's own notes
#: (model.notes.Note: rules it could not evaluate) passed along with them.
RuleValidator = Callable[[dict, "dict | None"], tuple[list[FieldError], list["str | Note"]]]

BLOCKING_RULES_MESSAGE = ("some validation rules were not checked because the object was invalid; "
                          "correct the existing errors to complete validation")
_BLOCKING_TYPES = {ErrorType.NOT_SUPPORTED, ErrorType.REQUIRED, ErrorType.TOO_LONG, ErrorType.TOO_MANY,
                   ErrorType.TYPE_INVALID}
_STANDARD_FINALIZERS = frozenset({"orphan", "foregroundDeletion", "kubernetes"})
_MAX_INT32 = (1 << 31) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
#: names.SimpleNameGenerator: a generateName prefix is cut to 58 bytes and gets 5 random characters;
#: crdtool uses a fixed suffix from the generator's alphabet
_MAX_GENERATED_NAME_PREFIX = 58
_GENERATED_SUFFIX = "x7b2k"
_METADATA = Path.root("metadata")


class ScaleSubresource(FrozenRecord):
    """A version's `subresources.scale`: JSON paths like `.spec.replicas`."""

    __slots__ = ("spec_replicas_path", "status_replicas_path", "label_selector_path")

    spec_replicas_path: str
    status_replicas_path: str
    label_selector_path: str | None

    def __init__(self, spec_replicas_path: str, status_replicas_path: str, label_selector_path: str | None = None
                 ) -> None:
        self.spec_replicas_path = spec_replicas_path
        self.status_replicas_path = status_replicas_path
        self.label_selector_path = label_selector_path


class ResourceContext(FrozenRecord):
    """What the apiserver's strategy knows about one served version of a custom resource.

    group, version, kind, plural: the CRD's names (status texts name `Kind.group`);
    namespaced: the CRD's scope; structural: the version's structural schema (None without one);
    validator: the compiled OpenAPI schema of the version (`values.compile_schema`);
    status_enabled: whether the version has the status subresource; scale: its scale subresource or None.
    The list-type checks are prepared once, at construction.
    """

    __slots__ = ("group", "version", "kind", "plural", "namespaced", "structural", "validator", "status_enabled",
                 "scale", "list_types", "has_rules")

    group: str
    version: str
    kind: str
    plural: str
    namespaced: bool
    structural: Structural | None
    validator: Validator
    status_enabled: bool
    scale: ScaleSubresource | None
    #: Made from `structural` at construction.
    list_types: ListTypes
    has_rules: bool

    def __init__(self, group: str, version: str, kind: str, plural: str, namespaced: bool,
                 structural: Structural | None, validator: Validator, status_enabled: bool = False,
                 scale: ScaleSubresource | None = None) -> None:
        self.group = group
        self.version = version
        self.kind = kind
        self.plural = plural
        self.namespaced = namespaced
        self.structural = structural
        self.validator = validator
        self.status_enabled = status_enabled
        self.scale = scale
        self.list_types = ListTypes(structural)
        self.has_rules = has_rules(structural)

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}"

    @property
    def qualified_kind(self) -> str:
        """`Kind.group`, as status messages name the resource."""
        return f"{self.kind}.{self.group}"

    @classmethod
    def from_crd(cls, crd: dict, version: str) -> ResourceContext:
        """The context of one version of an apiextensions.k8s.io/v1 CRD (a decoded dict; per-version schema
        and subresources). Raises KeyError for an unknown version and NotStructuralError for a schema the
        apiserver would not have accepted."""
        spec = crd.get("spec") or {}
        names = spec.get("names") or {}
        served = next((v for v in spec.get("versions") or () if v.get("name") == version), None)
        if served is None:
            raise KeyError(f"the CRD has no version {version!r}")
        raw = ((served.get("schema") or {}).get("openAPIV3Schema")) or {}
        subresources = served.get("subresources") or {}
        scale = subresources.get("scale")
        return cls(
            group=spec.get("group", ""), version=version, kind=names.get("kind", ""),
            plural=names.get("plural", ""), namespaced=spec.get("scope") != "Cluster",
            structural=new_structural(raw) if raw else None, validator=compile_schema(raw),
            status_enabled=subresources.get("status") is not None,
            scale=None if scale is None else ScaleSubresource(
                scale.get("specReplicasPath", ""), scale.get("statusReplicasPath", ""),
                scale.get("labelSelectorPath")),
        )


def namespace_mismatch(obj: dict, request_namespace: str, namespaced: bool) -> str | None:
    """BeforeCreate/BeforeUpdate's 400 for a namespaced object whose namespace is not the request's."""
    namespace = (obj.get("metadata") or {}).get("namespace") or ""
    if namespaced and namespace and request_namespace and namespace != request_namespace:
        return NAMESPACE_MISMATCH
    return None


# ---------------------------------------------------------------- create

def prepare_for_create(obj: dict, ctx: ResourceContext) -> dict:
    """The object as the create strategy validates it (a copy: top level and metadata only)."""
    out = dict(obj)
    if ctx.status_enabled:
        out.pop("status", None)
    meta = dict(out.get("metadata") or {})
    if not ctx.namespaced:
        meta.pop("namespace", None)
    for system in ("deletionTimestamp", "deletionGracePeriodSeconds", "managedFields"):
        meta.pop(system, None)  # cleared by BeforeCreate; managedFields are the field manager's
    meta["generation"] = 1
    if meta.get("generateName") and not meta.get("name"):
        prefix = meta["generateName"].encode("utf-8", "surrogateescape")[:_MAX_GENERATED_NAME_PREFIX]
        meta["name"] = prefix.decode("utf-8", "surrogateescape") + _GENERATED_SUFFIX
    out["metadata"] = meta
    return out


def validate_create(obj: dict, ctx: ResourceContext,
                    rule_validator: RuleValidator | None = None) -> tuple[list[FieldError], list[str | Note]]:
    """The field errors and warnings of creating `obj` (pruned, defaulted and coerced)."""
    obj = prepare_for_create(obj, ctx)
    errs = _type_meta(obj, ctx)
    if not errs:
        errs += validate_object_meta(obj["metadata"], ctx.namespaced, name_is_dns_subdomain, _METADATA)
        errs += ctx.validator.validate(obj)
        errs += _scale(obj, ctx.scale)
    errs += _embedded_and_lists(obj, None, ctx)
    warnings = _rules(obj, None, ctx, errs, rule_validator)
    if not errs:
        warnings += _finalizer_warnings(obj, None)
    return errs, warnings


# ---------------------------------------------------------------- update

def prepare_for_update(obj: dict, old: dict, ctx: ResourceContext, *, content_generation: bool = True
                       ) -> tuple[dict, dict]:
    """The new and old objects as the update strategy validates them (copies of the top level and metadata).

    BeforeUpdate gives the new object the stored generation; customResourceStrategy.PrepareForUpdate
    then adds one when anything but metadata changed (`content_generation`; a kind whose strategy
    has no such rule passes False)."""
    new, old = dict(obj), dict(old)
    if ctx.status_enabled:
        if "status" in old:
            new["status"] = old["status"]
        else:
            new.pop("status", None)
    meta, old_meta = dict(new.get("metadata") or {}), dict(old.get("metadata") or {})
    if not ctx.namespaced:
        meta.pop("namespace", None)
        old_meta.pop("namespace", None)
    meta.pop("managedFields", None)
    old_meta.pop("managedFields", None)
    # BeforeUpdate keeps the stored uid when none is given, and the stored timestamps in any case
    if not meta.get("uid") and old_meta.get("uid"):
        meta["uid"] = old_meta["uid"]
    for kept in ("creationTimestamp", "deletionTimestamp"):
        if old_meta.get(kept):
            meta[kept] = old_meta[kept]
    if old_meta.get("deletionGracePeriodSeconds") is not None and meta.get("deletionGracePeriodSeconds") is None:
        meta["deletionGracePeriodSeconds"] = old_meta["deletionGracePeriodSeconds"]
    if not meta.get("resourceVersion"):  # as on a patch (kubectl apply): the live object's resourceVersion
        meta["resourceVersion"] = old_meta.setdefault("resourceVersion", "1")
    # requests cannot set the generation (it only grows, so "must not be decremented" never applies)
    meta["generation"] = old_meta["generation"] = old_meta.get("generation") or 1
    if content_generation and not deep_equal(_non_metadata(new), _non_metadata(old)):
        meta["generation"] += 1
    new["metadata"], old["metadata"] = meta, old_meta
    return new, old


def _non_metadata(obj: dict) -> dict:
    """copyNonMetadata: what a change of bumps the generation."""
    return {k: v for k, v in obj.items() if k != "metadata"}


def validate_update(obj: dict, old: dict, ctx: ResourceContext,
                    rule_validator: RuleValidator | None = None) -> tuple[list[FieldError], list[str | Note]]:
    """The field errors and warnings of updating the stored `old` to `obj` (both pruned, defaulted, coerced)."""
    new, old = prepare_for_update(obj, old, ctx)
    meta, old_meta = new["metadata"], old["metadata"]
    common = validate_object_meta(meta, ctx.namespaced, validate_path_segment_name, _METADATA)
    common += validate_object_meta_update(meta, old_meta, _METADATA)
    errs = _type_meta(new, ctx)
    if not errs:
        errs += validate_object_meta_update(meta, old_meta, _METADATA)
        errs += ctx.validator.validate_update(new, old)
        errs += _scale(new, ctx.scale)
    errs += _embedded_and_lists(new, old, ctx)
    warnings = _rules(new, old, ctx, errs, rule_validator)
    errs = common + errs
    if not errs:
        warnings += _finalizer_warnings(new, old)
    return errs, warnings


# ---------------------------------------------------------------- shared steps

def _type_meta(obj: dict, ctx: ResourceContext) -> list[FieldError]:
    """ValidateTypeMeta: the object's kind and apiVersion are the version's."""
    errs = []
    kind = obj.get("kind")
    kind = kind if isinstance(kind, str) else ""
    if kind != ctx.kind:
        errs.append(FieldError.invalid(Path.root("kind"), kind, f"must be {ctx.kind}"))
    api_version = obj.get("apiVersion")
    api_version = api_version if isinstance(api_version, str) else ""
    if api_version != ctx.api_version:
        errs.append(FieldError.invalid(Path.root("apiVersion"), api_version, f"must be {ctx.api_version}"))
    return errs


def _embedded_and_lists(obj: dict, old: dict | None, ctx: ResourceContext) -> list[FieldError]:
    """The strategy's checks after the validator's: embedded resources, then set and map lists (on update
    only when the old object passed them)."""
    errs = validate_embedded(obj, ctx.structural)
    if not ctx.list_types.empty and (old is None or not ctx.list_types.validate(old)):
        errs += ctx.list_types.validate(obj)
    return errs


def _rules(obj: dict, old: dict | None, ctx: ResourceContext, errs: list[FieldError],
           rule_validator: RuleValidator | None) -> list[str]:
    """The CEL step, last: skipped with one error when an earlier error makes the rules unreliable
    (hasBlockingErr); adds the rules' errors to `errs` and returns their warnings."""
    if not ctx.has_rules:
        return []
    if any(err.type in _BLOCKING_TYPES for err in errs):
        errs.append(FieldError.invalid("<nil>", None, BLOCKING_RULES_MESSAGE))
        return []
    if rule_validator is None:
        return []
    rule_errs, warnings = rule_validator(obj, old)
    errs += rule_errs
    return list(warnings)


def _finalizer_warnings(obj: dict, old: dict | None) -> list[str]:
    """generateWarningsFromObj: each finalizer the request adds (sorted) that is no domain-qualified name."""
    added = set((obj.get("metadata") or {}).get("finalizers") or ())
    if old is not None:
        added -= set((old.get("metadata") or {}).get("finalizers") or ())
    at = "metadata.finalizers"
    warnings = []
    for name in sorted(added):
        warnings += [f"{at}: {go_quote(name)}: {message}" for message in is_qualified_name(name)]
        if "/" not in name and name not in _STANDARD_FINALIZERS:
            advice = "a domain-qualified finalizer name including a path (/)" if "." in name else \
                "a domain-qualified finalizer name"
            warnings.append(f"{at}: {go_quote(name)}: prefer {advice} to avoid accidental conflicts with "
                            "other finalizer writers")
    return warnings


def _scale(obj: dict, scale: ScaleSubresource | None) -> list[FieldError]:
    """ValidateScaleSpec and ValidateScaleStatus: replicas are int64 in 0..MaxInt32, the selector a string."""
    if scale is None:
        return []
    errs = []
    for json_path in (scale.spec_replicas_path, scale.status_replicas_path):
        replicas, error = _nested(obj, json_path, int, "int64")
        if error:
            errs.append(FieldError.invalid(json_path, 0, error))
        elif replicas is not None and replicas < 0:
            errs.append(FieldError.invalid(json_path, replicas, "should be a non-negative integer"))
        elif replicas is not None and replicas > _MAX_INT32:
            errs.append(FieldError.invalid(json_path, replicas, f"should be less than or equal to {_MAX_INT32}"))
    if scale.label_selector_path is not None:
        _, error = _nested(obj, scale.label_selector_path, str, "string")
        if error:
            errs.append(FieldError.invalid(scale.label_selector_path, "", error))
    return errs


def _nested(obj: dict, json_path: str, py_type: type, go_type: str) -> tuple[Any, str]:
    """unstructured.NestedInt64/NestedString at a dotted path: (value or None, accessor error or "")."""
    fields = json_path.removeprefix(".").split(".")
    value: Any = obj
    for i, name in enumerate(fields):
        if value is None:
            return None, ""
        if not isinstance(value, dict):
            return None, (f".{'.'.join(fields[:i + 1])} accessor error: {go_value(value)} is of the type "
                          f"{go_type_name(value)}, expected map[string]interface{{}}")
        if name not in value:
            return None, ""
        value = value[name]
    if type(value) is int and not _INT64_MIN <= value <= _INT64_MAX:
        value = float(value)  # JSON decoding makes an integer beyond int64 a float64
    if type(value) is not py_type:
        return None, (f".{'.'.join(fields)} accessor error: {go_value(value)} is of the type "
                      f"{go_type_name(value)}, expected {go_type}")
    return value, ""
