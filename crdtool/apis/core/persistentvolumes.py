"""PersistentVolume validation (kubernetes pkg/apis/core/validation ValidatePersistentVolume,
ValidatePersistentVolumeSpec and ValidatePersistentVolumeUpdate with the options
ValidationOptionsForPersistentVolume derives, and pkg/volume/validation's mount-option check, which
the PV strategy runs after them; 1.36).

Feature gates at their 1.36 defaults: VolumeAttributesClass GA (on), so volumeAttributesClassName is
checked and may change but not be cleared; MutablePVNodeAffinity off (alpha), so a set node
affinity may only change its beta zone/region/instance-type label keys to the GA ones. The
update's "spec.persistentvolumesource is immutable" error ends, in the apiserver, with go-cmp's diff
of the internal sources (whose layout go-cmp varies on purpose); here it ends with the changed
sources as claims.changed_fields renders them. The strategy runs ValidatePersistentVolume twice on an
update (directly and inside ValidatePersistentVolumeUpdate); the aggregate drops the repeats, so it
runs once here.
"""

from __future__ import annotations

import posixpath
from typing import Any

from crdtool.apis.core.affinity import validate_node_selector
from crdtool.apis.core.claims import changed_fields, semantic, validate_access_modes
from crdtool.apis.core.pv_sources import SOURCES, validate_pv_source
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.path import Path
from crdtool.model.quantity import as_quantity
from crdtool.schema.apimachinery.names import is_valid_label_value, name_is_dns_subdomain
from crdtool.schema.apimachinery.objectmeta import FIELD_IMMUTABLE, validate_immutable_field

_SPEC = Path.root("spec")
RECLAIM_POLICIES = ["Delete", "Recycle", "Retain"]
VOLUME_MODES = ["Block", "Filesystem"]
MOUNT_OPTIONS_ANNOTATION = "volume.beta.kubernetes.io/mount-options"
#: checkMountOption: the sources whose plugins take mount options.
_MOUNTABLE = ("gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "nfs", "rbd", "quobyte", "iscsi", "cinder",
              "cephfs", "azureFile", "vsphereVolume", "azureDisk", "photonPersistentDisk")
#: the beta node label keys a PV's node affinity may be moved off (to their GA keys)
_BETA_TO_GA = {"failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
               "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
               "beta.kubernetes.io/instance-type": "node.kubernetes.io/instance-type"}


def _text(quantity: Any) -> str:
    return quantity if isinstance(quantity, str) else str(quantity)


def validate_pv_spec(spec: dict[str, Any], pv_name: str,
                     allow_invalid_node_label_values: bool = False) -> list[FieldError]:
    """ValidatePersistentVolumeSpec of a (not inline) PersistentVolume, in Go's order."""
    errs: list[FieldError] = []
    modes = spec.get("accessModes") or []
    if not modes:
        errs.append(FieldError.required(_SPEC.child("accessModes")))
    errs += validate_access_modes(modes, _SPEC.child("accessModes"))
    errs += _capacity(spec.get("capacity"))
    policy = spec.get("persistentVolumeReclaimPolicy") or ""
    if policy and policy not in RECLAIM_POLICIES:
        errs.append(FieldError.not_supported(_SPEC.child("persistentVolumeReclaimPolicy"), TypedString(policy),
                                             RECLAIM_POLICIES))
    affinity = spec.get("nodeAffinity")
    if affinity is not None:
        errs += _node_affinity(affinity, allow_invalid_node_label_values)
    local, source_errs = validate_pv_source(spec, pv_name, _SPEC)
    errs += source_errs
    if local and affinity is None:
        errs.append(FieldError.required(_SPEC.child("nodeAffinity"), "Local volume requires node affinity"))
    host_path = spec.get("hostPath")
    if host_path is not None and _clean(host_path.get("path") or "") == "/" and policy == "Recycle":
        errs.append(FieldError.forbidden(_SPEC.child("persistentVolumeReclaimPolicy"),
                                         "may not be 'recycle' for a hostPath mount of '/'"))
    class_name = spec.get("storageClassName") or ""
    if class_name:
        errs += [FieldError.invalid(_SPEC.child("storageClassName"), class_name, m)
                 for m in name_is_dns_subdomain(class_name, False)]
    mode = spec.get("volumeMode")
    if mode is not None and mode not in VOLUME_MODES:
        errs.append(FieldError.not_supported(_SPEC.child("volumeMode"), TypedString(mode), VOLUME_MODES))
    attributes_class = spec.get("volumeAttributesClassName")
    if attributes_class is not None:
        at = _SPEC.child("volumeAttributesClassName")
        if not attributes_class:
            errs.append(FieldError.required(at, "an empty string is disallowed"))
        else:
            errs += [FieldError.invalid(at, attributes_class, m)
                     for m in name_is_dns_subdomain(attributes_class, False)]
        if spec.get("csi") is None:
            errs.append(FieldError.required(_SPEC.child("csi"), "has to be specified when using "
                                                                "volumeAttributesClassName"))
    return errs


def _capacity(capacity: dict[str, Any] | None) -> list[FieldError]:
    """Only `storage`, a positive quantity (validateBasicResource and ValidatePositiveQuantityValue)."""
    path = _SPEC.child("capacity")
    errs: list[FieldError] = []
    if not capacity:
        errs.append(FieldError.required(path))
    if "storage" not in (capacity or {}) or len(capacity or {}) > 1:
        # a ResourceList: json.Marshal writes each Quantity as its string
        shown = None if capacity is None else {k: _text(v) for k, v in capacity.items()}
        errs.append(FieldError.not_supported(path, shown, ["storage"]))
    for name, quantity in (capacity or {}).items():
        value = as_quantity(quantity)
        whole = value.scaled_value(0)  # validateBasicResource checks Value(), Go's int64
        if whole < 0:
            errs.append(FieldError.invalid(path.key(name), whole, "must be a valid resource quantity"))
        if value.sign() <= 0:
            errs.append(FieldError.invalid(path.key(name), _text(quantity), "must be greater than zero"))
    return errs


def _node_affinity(affinity: dict[str, Any], allow_invalid_label_values: bool) -> list[FieldError]:
    """validateVolumeNodeAffinity: a required node selector."""
    path = _SPEC.child("nodeAffinity")
    required = affinity.get("required")
    if required is None:
        return [FieldError.required(path.child("required"), "must specify required node constraints")]
    return validate_node_selector(required, allow_invalid_label_values, path.child("required"))


def _clean(target: str) -> str:
    """path.Clean (posixpath.normpath keeps a leading `//`, which Go folds to `/`)."""
    cleaned = posixpath.normpath(target) if target else "."
    return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned


def mount_option_errors(pv: dict[str, Any]) -> list[FieldError]:
    """pkg/volume/validation checkMountOption: the mount-options annotation only on sources that
    take mount options."""
    spec = pv.get("spec") or {}
    annotations = (pv.get("metadata") or {}).get("annotations") or {}
    if any(spec.get(s) is not None for s in _MOUNTABLE) or MOUNT_OPTIONS_ANNOTATION not in annotations:
        return []
    return [FieldError.forbidden(Path.root("metadata", "annotations", MOUNT_OPTIONS_ANNOTATION),
                                 "may not specify mount options for this volume type")]


def validate_pv(pv: dict[str, Any]) -> list[FieldError]:
    """The PV strategy's Validate beyond ValidateObjectMeta: the spec, then the mount options."""
    name = (pv.get("metadata") or {}).get("name") or ""
    return validate_pv_spec(pv.get("spec") or {}, name) + mount_option_errors(pv)


def validate_pv_update(pv: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The PV strategy's ValidateUpdate beyond ValidateObjectMetaUpdate: the PV is valid (with the
    invalid node label values the stored PV already had tolerated), its source unchanged (but for
    a CSI controllerExpandSecretRef set for the first time), volumeMode unchanged, a stored node
    affinity unchanged but for beta-to-GA label keys, a volume attributes class not cleared."""
    spec, old_spec = pv.get("spec") or {}, old.get("spec") or {}
    name = (pv.get("metadata") or {}).get("name") or ""
    errs = validate_pv_spec(spec, name, _has_invalid_label_value(old_spec.get("nodeAffinity")))
    errs += mount_option_errors(pv)
    new_source = {k: spec.get(k) for k in SOURCES if spec.get(k) is not None}
    old_source = {k: old_spec.get(k) for k in SOURCES if old_spec.get(k) is not None}
    old_csi, new_csi = old_source.get("csi"), new_source.get("csi")
    if old_csi is not None and new_csi is not None and old_csi.get("controllerExpandSecretRef") is None:
        new_source["csi"] = {k: v for k, v in new_csi.items() if k != "controllerExpandSecretRef"}
    if not deep_equal(semantic(new_source), semantic(old_source)):
        errs.append(FieldError.forbidden(_SPEC.child("persistentvolumesource"),
                                         "spec.persistentvolumesource is immutable after creation\n"
                                         + changed_fields(old_source, new_source)))
    new_mode, old_mode = spec.get("volumeMode"), old_spec.get("volumeMode")
    errs += validate_immutable_field(None if new_mode is None else TypedString(new_mode),
                                     None if old_mode is None else TypedString(old_mode), Path.root("volumeMode"))
    old_affinity, new_affinity = old_spec.get("nodeAffinity"), spec.get("nodeAffinity")
    if old_affinity is not None and not deep_equal(semantic(_ga_keys(new_affinity)),
                                                   semantic(_ga_keys(old_affinity))):
        errs.append(FieldError.invalid(Path.root("nodeAffinity"), _affinity_struct(new_affinity),
                                       FIELD_IMMUTABLE + ", except for updating from beta label to GA"))
    if old_spec.get("volumeAttributesClassName") is not None and spec.get("volumeAttributesClassName") is None:
        errs.append(FieldError.forbidden(_SPEC.child("volumeAttributesClassName"),
                                         "update from non-nil value to nil is forbidden"))
    return errs


def _has_invalid_label_value(affinity: dict[str, Any] | None) -> bool:
    """ValidationOptionsForPersistentVolume's AllowInvalidLabelValueInRequiredNodeAffinity: the stored
    PV's required node selector already has a value that is no label value."""
    terms = ((affinity or {}).get("required") or {}).get("nodeSelectorTerms") or []
    return any(is_valid_label_value(value or "")
               for term in terms for req in (term or {}).get("matchExpressions") or ()
               for value in (req or {}).get("values") or ())


def _ga_keys(affinity: Any) -> Any:
    """The node affinity with its match-expression keys moved from beta to GA labels."""
    if not isinstance(affinity, dict):
        return affinity
    required = affinity.get("required") or {}
    terms = [{**term, "matchExpressions": [{**req, "key": _BETA_TO_GA.get(req.get("key"), req.get("key"))}
                                           for req in term.get("matchExpressions") or ()]}
             for term in required.get("nodeSelectorTerms") or ()]
    return {**affinity, "required": {**required, "nodeSelectorTerms": terms}}


def _affinity_struct(affinity: dict[str, Any] | None) -> Any:
    """The internal *core.VolumeNodeAffinity as json.Marshal writes it (no JSON tags)."""
    if affinity is None:
        return None
    required = affinity.get("required")
    if required is None:
        return GoStruct(Required=None)

    def requirement(req: dict[str, Any]) -> GoStruct:
        return GoStruct(Key=req.get("key") or "", Operator=req.get("operator") or "", Values=req.get("values"))

    terms = [GoStruct(MatchExpressions=_list(t.get("matchExpressions"), requirement),
                      MatchFields=_list(t.get("matchFields"), requirement))
             for t in required.get("nodeSelectorTerms") or ()]
    return GoStruct(Required=GoStruct(NodeSelectorTerms=terms if required.get("nodeSelectorTerms") is not None
                                      else None))


def _list(items: list[Any] | None, fn: Any) -> list[Any] | None:
    return None if items is None else [fn(item or {}) for item in items]
