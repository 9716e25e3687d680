"""An ephemeral volume's claim template as core/validation checks it (kubernetes
pkg/apis/core/validation/validation.go, 1.36): ValidatePersistentVolumeClaimTemplate with the
options ValidationOptionsForPersistentVolumeClaimTemplate gives a new template (invalid label
values refused, VolumeAttributesClass on), and ValidateTemplateObjectMeta: of the template's
metadata only labels and annotations may be set."""

from __future__ import annotations

from typing import Any

from crdtool.apis.core.claims import validate_claim_spec
from crdtool.model.errors import FieldError
from crdtool.model.path import Path
from crdtool.schema.apimachinery.objectmeta import validate_annotations, validate_labels

#: ObjectMeta's fields in Go's order, as validateFieldAllowList names them (the struct field name
#: with its first letter lowered: `uID`) beside the JSON name they decode from.
_OBJECT_META_FIELDS = (
    ("name", "name"), ("generateName", "generateName"), ("namespace", "namespace"), ("selfLink", "selfLink"),
    ("uid", "uID"), ("resourceVersion", "resourceVersion"), ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"), ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"), ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"), ("managedFields", "managedFields"))


def validate_claim_template(template: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidatePersistentVolumeClaimTemplate: the template's metadata, then its claim spec
    (ValidatePersistentVolumeClaimSpec). `path` is the `volumeClaimTemplate`'s."""
    errs = validate_template_object_meta(template.get("metadata") or {}, path.child("metadata"))
    return errs + validate_claim_spec(template.get("spec") or {}, path.child("spec"))


def validate_template_object_meta(meta: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateTemplateObjectMeta: annotations, labels, and no other metadata field set (Go's
    zero values are unset)."""
    errs = validate_annotations(meta.get("annotations"), path.child("annotations"))
    errs += validate_labels(meta.get("labels"), path.child("labels"))
    for json_name, go_name in _OBJECT_META_FIELDS:
        if meta.get(json_name) not in (None, "", 0, [], {}):
            errs.append(FieldError.forbidden(path.child(go_name), "cannot be set"))
    return errs
