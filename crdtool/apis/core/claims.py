"""PersistentVolumeClaim validation (kubernetes pkg/apis/core/validation ValidatePersistentVolumeClaim,
ValidatePersistentVolumeClaimSpec and ValidatePersistentVolumeClaimUpdate, with the options
ValidationOptionsForPersistentVolumeClaim derives from the stored claim, 1.36).

Feature gates at their 1.36 defaults: VolumeAttributesClass and RecoverVolumeExpansionFailure are
GA (on). The update's "spec is immutable" error ends, in the apiserver, with go-cmp's diff of the
internal specs, whose layout go-cmp deliberately varies from run to run; here it ends with the
changed fields, one `-` (stored) and one `+` (new) line each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct, go_json
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.path import Path
from crdtool.model.quantity import quantity_value
from crdtool.schema.apimachinery.labelselector import validate_label_selector
from crdtool.schema.apimachinery.names import is_dns1123_subdomain, name_is_dns_label, name_is_dns_subdomain
from crdtool.schema.apimachinery.objectmeta import FIELD_IMMUTABLE, validate_immutable_field

if TYPE_CHECKING:
    from decimal import Decimal

_SPEC = Path.root("spec")
ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"]
VOLUME_MODES = ["Block", "Filesystem"]
_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"
_IMMUTABLE_SPEC = ("spec is immutable after creation except resources.requests and volumeAttributesClassName "
                   "for bound claims")


def _quantity_text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def validate_access_modes(modes: list[Any], path: Path) -> list[FieldError]:
    """The access-mode loop ValidatePersistentVolumeSpec and ValidatePersistentVolumeClaimSpec share:
    each supported, ReadWriteOncePod alone."""
    errs: list[FieldError] = []
    once_pod = others = False
    for mode in modes:
        if mode not in ACCESS_MODES:
            errs.append(FieldError.not_supported(path, TypedString(mode or ""), ACCESS_MODES))
        if mode == "ReadWriteOncePod":
            once_pod = True
        elif mode in ACCESS_MODES:
            others = True
    if once_pod and others:
        errs.append(FieldError.forbidden(path, "may not use ReadWriteOncePod with other access modes"))
    return errs


def validate_claim_spec(spec: dict[str, Any], path: Path, allow_invalid_label_value: bool = False,
                        allow_invalid_api_group: bool = False) -> list[FieldError]:
    """ValidatePersistentVolumeClaimSpec (also a StatefulSet's claim templates and ephemeral volumes)."""
    errs: list[FieldError] = []
    modes = spec.get("accessModes") or []
    if not modes:
        errs.append(FieldError.required(path.child("accessModes"), "at least 1 access mode is required"))
    if spec.get("selector") is not None:
        errs += validate_label_selector(spec["selector"], path.child("selector"), allow_invalid_label_value)
    errs += validate_access_modes(modes, path.child("accessModes"))
    storage_path = path.child("resources").key("storage")
    requests = (spec.get("resources") or {}).get("requests") or {}
    if "storage" not in requests:
        errs.append(FieldError.required(storage_path))
    elif quantity_value(requests["storage"]) <= 0:
        errs.append(FieldError.invalid(storage_path, _quantity_text(requests["storage"]), "must be greater than zero"))
    class_name = spec.get("storageClassName")
    if class_name:
        errs += [FieldError.invalid(path.child("storageClassName"), class_name, m)
                 for m in name_is_dns_subdomain(class_name, False)]
    mode = spec.get("volumeMode")
    if mode is not None and mode not in VOLUME_MODES:
        errs.append(FieldError.not_supported(path.child("volumeMode"), TypedString(mode), VOLUME_MODES))
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    if source is not None:
        errs += _data_source(source, path.child("dataSource"), allow_invalid_api_group)
    if ref is not None:
        errs += _data_source(ref, path.child("dataSourceRef"), allow_invalid_api_group)
        namespace = ref.get("namespace")
        if namespace:
            errs += [FieldError.invalid(path.child("dataSourceRef", "namespace"), namespace, m)
                     for m in name_is_dns_label(namespace, False)]
    if ref is not None and ref.get("namespace"):
        if source is not None:
            # the bad value is a *field.Path, whose fields are unexported: JSON `{}`
            errs.append(FieldError.invalid(path, GoStruct(), "may not be specified when dataSourceRef.namespace "
                                                             "is specified"))
    elif source is not None and ref is not None and not _same_source(source, ref):
        errs.append(FieldError.invalid(path, GoStruct(), "must match dataSourceRef"))
    attributes_class = spec.get("volumeAttributesClassName")
    if attributes_class:
        errs += [FieldError.invalid(path.child("volumeAttributesClassName"), attributes_class, m)
                 for m in name_is_dns_subdomain(attributes_class, False)]
    return errs


def _data_source(source: dict[str, Any], path: Path, allow_invalid_api_group: bool) -> list[FieldError]:
    """validateDataSource / validateDataSourceRef (the namespace is checked by the caller): a name and
    a kind, a PersistentVolumeClaim in the core group, an API group that is a DNS subdomain."""
    errs: list[FieldError] = []
    if not source.get("name"):
        errs.append(FieldError.required(path.child("name")))
    kind = source.get("kind") or ""
    if not kind:
        errs.append(FieldError.required(path.child("kind")))
    group = source.get("apiGroup") or ""
    if not group and kind != "PersistentVolumeClaim":
        errs.append(FieldError.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default "
                                                   "apiGroup"))
    if group and not allow_invalid_api_group:
        errs += [FieldError.invalid(path.child("apiGroup"), group, m) for m in is_dns1123_subdomain(group)]
    return errs


def _same_source(source: dict[str, Any], ref: dict[str, Any]) -> bool:
    """isDataSourceEqualDataSourceRef: same apiGroup pointer value, kind and name."""
    return (source.get("apiGroup") == ref.get("apiGroup") and (source.get("kind") or "") == (ref.get("kind") or "")
            and (source.get("name") or "") == (ref.get("name") or ""))


def validate_claim(claim: dict[str, Any]) -> list[FieldError]:
    """ValidatePersistentVolumeClaim beyond ValidateObjectMeta, with the options of a create."""
    return validate_claim_spec(claim.get("spec") or {}, _SPEC)


def validate_claim_update(claim: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidatePersistentVolumeClaimUpdate beyond ValidateObjectMetaUpdate: the claim is valid (with
    what the stored claim already had tolerated), and its spec unchanged except a volumeName set
    once, a storage class set from the beta annotation or from nil, and for a bound claim the
    storage request (which may shrink down to no less than status.capacity) and the volume
    attributes class."""
    spec, old_spec = claim.get("spec") or {}, old.get("spec") or {}
    allow_labels = bool(validate_label_selector(old_spec.get("selector"), _SPEC))
    allow_group = any((old_spec.get(k) or {}).get("apiGroup") is not None for k in ("dataSource", "dataSourceRef"))
    errs = validate_claim_spec(spec, _SPEC, allow_labels, allow_group)
    new_clone, old_clone = dict(spec), dict(old_spec)
    if not old_spec.get("volumeName"):
        old_clone["volumeName"] = spec.get("volumeName")
    annotations = (claim.get("metadata") or {}).get("annotations") or {}
    old_annotations = (old.get("metadata") or {}).get("annotations") or {}
    if _upgrade_from_annotation(old_annotations, annotations, old_spec.get("storageClassName"),
                                spec.get("storageClassName")):
        new_clone.pop("storageClassName", None)
    else:
        new_value = annotations.get(_STORAGE_CLASS_ANNOTATION, "")
        if new_value != old_annotations.get(_STORAGE_CLASS_ANNOTATION, ""):
            errs.append(FieldError.invalid(Path.root("metadata", "annotations", _STORAGE_CLASS_ANNOTATION),
                                           new_value, FIELD_IMMUTABLE))
        new_class = spec.get("storageClassName")
        if new_class is not None and old_spec.get("storageClassName") is None and (
                _STORAGE_CLASS_ANNOTATION not in old_annotations
                or new_class == old_annotations[_STORAGE_CLASS_ANNOTATION]):
            new_clone["storageClassName"] = old_clone.get("storageClassName")
    bound = ((claim.get("status") or {}).get("phase")) == "Bound"
    new_resources = dict(new_clone.get("resources") or {})
    if bound and new_resources.get("requests") is not None:
        requests = dict(new_resources["requests"])
        old_storage = ((old_spec.get("resources") or {}).get("requests") or {}).get("storage")
        if old_storage is None:
            requests.pop("storage", None)
        else:
            requests["storage"] = old_storage
        new_resources["requests"] = requests
        new_clone["resources"] = new_resources
    if bound and new_clone.get("volumeAttributesClassName") is not None:
        new_clone["volumeAttributesClassName"] = old_clone.get("volumeAttributesClassName")
    changed = changed_fields(old_clone, new_clone)
    if changed:
        errs.append(FieldError.forbidden(_SPEC, _IMMUTABLE_SPEC + "\n" + changed))
    new_size = _storage(spec)
    if new_size < _storage(old_spec):
        capacity = ((old.get("status") or {}).get("capacity") or {}).get("storage")
        if new_size <= (quantity_value(capacity) if capacity is not None else 0):
            errs.append(FieldError.forbidden(Path.root("spec", "resources", "requests", "storage"),
                                             "field can not be less than status.capacity"))
    new_mode, old_mode = spec.get("volumeMode"), old_spec.get("volumeMode")
    errs += validate_immutable_field(None if new_mode is None else TypedString(new_mode),
                                     None if old_mode is None else TypedString(old_mode), Path.root("volumeMode"))
    new_class, old_class = spec.get("volumeAttributesClassName"), old_spec.get("volumeAttributesClassName")
    if new_class != old_class and old_class is not None:
        path = _SPEC.child("volumeAttributesClassName")
        if new_class is None:
            errs.append(FieldError.forbidden(path, "update from non-nil value to nil is forbidden"))
        elif not new_class:
            errs.append(FieldError.forbidden(path, "update from non-nil value to an empty string is forbidden"))
    return errs


def _storage(spec: dict[str, Any]) -> Decimal | int:
    """spec.resources.requests[storage] (zero when absent)."""
    value = ((spec.get("resources") or {}).get("requests") or {}).get("storage")
    return quantity_value(value) if value is not None else 0


def _upgrade_from_annotation(old_annotations: dict[str, str], annotations: dict[str, str], old_class: Any,
                             new_class: Any) -> bool:
    """validateStorageClassUpgradeFromAnnotation: the stored claim named its class by the beta
    annotation only, and the new one names the same class in storageClassName."""
    if _STORAGE_CLASS_ANNOTATION not in old_annotations or old_class is not None:
        return False
    old_value = old_annotations[_STORAGE_CLASS_ANNOTATION]
    return new_class == old_value and annotations.get(_STORAGE_CLASS_ANNOTATION, old_value) == old_value


def semantic(value: Any, key: str = "") -> Any:
    """A spec value as apiequality.Semantic compares it: quantities by value, empty as absent."""
    if isinstance(value, dict):
        if key in ("requests", "limits"):
            return {k: quantity_value(v) for k, v in value.items()}
        return {k: semantic(v, k) for k, v in value.items() if v not in (None, "", [], {})}
    return value


def changed_fields(old_spec: dict[str, Any], new_spec: dict[str, Any]) -> str:
    """The spec fields that differ, `-` stored and `+` new, as JSON."""
    lines = []
    for key in sorted(set(old_spec) | set(new_spec)):
        old_value, new_value = old_spec.get(key), new_spec.get(key)
        if not deep_equal(semantic({key: old_value}), semantic({key: new_value})):
            lines.append(f"-\t{key}: {go_json(old_value)}")
            lines.append(f"+\t{key}: {go_json(new_value)}")
    return "\n".join(lines)
