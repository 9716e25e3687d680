"""storage.k8s.io validation (kubernetes pkg/apis/storage/validation/validation.go, 1.36):
StorageClass, create and update."""

from __future__ import annotations

from typing import Any

from crdtool.apis.fieldchecks import validate_qualified_name
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_name
from crdtool.schema.apimachinery.objectmeta import validate_immutable_field

MAX_PROVISIONER_PARAMETER_SIZE = 256 * (1 << 10)
MAX_PROVISIONER_PARAMETER_LEN = 512
_RECLAIM_POLICIES = ["Delete", "Retain"]
_BINDING_MODES = ["Immediate", "WaitForFirstConsumer"]


def _validate_parameters(params: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """validateParameters (allowEmpty): at most 512 entries of non-empty keys, 256 KiB in all."""
    params = params or {}
    if len(params) > MAX_PROVISIONER_PARAMETER_LEN:
        return [FieldError.too_long(path, MAX_PROVISIONER_PARAMETER_LEN)]
    errs: list[FieldError] = []
    total = 0
    for key, value in params.items():
        if not key:
            errs.append(FieldError.invalid(path, key, "field can not be empty."))
        total += len(key.encode()) + len((value or "").encode())
    if total > MAX_PROVISIONER_PARAMETER_SIZE:
        errs.append(FieldError.too_long(path, MAX_PROVISIONER_PARAMETER_SIZE))
    return errs


def _topology_term(term: dict[str, Any], path: Path) -> tuple[dict[str, set[str]], list[FieldError]]:
    """core ValidateTopologySelectorTerm: each expression's values required and unique, its key a label
    name, keys unique; the expressions as a map (for the duplicate-term check)."""
    errs: list[FieldError] = []
    found: dict[str, set[str]] = {}
    for i, req in enumerate(term.get("matchLabelExpressions") or ()):
        at = path.child("matchLabelExpressions").index(i)
        values: set[str] = set()
        listed = req.get("values") or []
        if not listed:
            errs.append(FieldError.required(at.child("values"), ""))
        for j, value in enumerate(listed):
            if value in values:
                errs.append(FieldError.duplicate(at.child("values").index(j), value))
            values.add(value)
        key = req.get("key") or ""
        errs.extend(validate_label_name(key, at.child("key")))
        if key in found:
            errs.append(FieldError.duplicate(at.child("key"), key))
        found[key] = values
    return found, errs


def _validate_allowed_topologies(terms: list[Any] | None, path: Path) -> list[FieldError]:
    """validateAllowedTopologies: each term valid and no two alike. Go seeds its list of seen terms
    with len(terms) nil maps, which Semantic.DeepEqual finds equal to a term without expressions."""
    if not terms:
        return []
    errs: list[FieldError] = []
    seen: list[dict[str, set[str]]] = [{} for _ in terms]
    for i, term in enumerate(terms):
        found, term_errs = _topology_term(term, path.index(i))
        errs.extend(term_errs)
        errs.extend(FieldError.duplicate(path.index(i).child("matchLabelExpressions"), "")
                    for earlier in seen if earlier == found)
        seen.append(found)
    return errs


def validate_storage_class(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateStorageClass / ValidateStorageClassUpdate (parameters, provisioner, reclaimPolicy and
    volumeBindingMode are immutable)."""
    provisioner = obj.get("provisioner") or ""
    reclaim = obj.get("reclaimPolicy")
    mode = obj.get("volumeBindingMode")
    if old is not None:
        errs: list[FieldError] = []
        if not deep_equal(old.get("parameters"), obj.get("parameters")):
            errs.append(FieldError.forbidden(Path.root("parameters"), "updates to parameters are forbidden."))
        if provisioner != (old.get("provisioner") or ""):
            errs.append(FieldError.forbidden(Path.root("provisioner"), "updates to provisioner are forbidden."))
        if (reclaim or "") != (old.get("reclaimPolicy") or ""):
            errs.append(FieldError.forbidden(Path.root("reclaimPolicy"), "updates to reclaimPolicy are forbidden."))
        errs.extend(validate_immutable_field(None if mode is None else TypedString(mode),
                                             None if old.get("volumeBindingMode") is None
                                             else TypedString(old["volumeBindingMode"]),
                                             Path.root("volumeBindingMode")))
        return errs
    errs = []
    if not provisioner:
        errs.append(FieldError.required(Path.root("provisioner"), ""))
    else:
        errs.extend(validate_qualified_name(provisioner.lower(), Path.root("provisioner")))
    errs.extend(_validate_parameters(obj.get("parameters"), Path.root("parameters")))
    if reclaim and reclaim not in _RECLAIM_POLICIES:
        errs.append(FieldError.not_supported(Path.root("reclaimPolicy"), TypedString(reclaim), _RECLAIM_POLICIES))
    if mode is None:
        errs.append(FieldError.required(Path.root("volumeBindingMode"), ""))
    elif mode not in _BINDING_MODES:
        errs.append(FieldError.not_supported(Path.root("volumeBindingMode"), TypedString(mode), _BINDING_MODES))
    errs.extend(_validate_allowed_topologies(obj.get("allowedTopologies"), Path.root("allowedTopologies")))
    return errs


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "StorageClass": KindValidation(create=validate_storage_class, update=validate_storage_class),
}
