"""metav1 LabelSelector validation (apimachinery pkg/apis/meta/v1/validation, 1.36):
ValidateLabelSelector and ValidateLabelSelectorRequirement, with their texts."""

from __future__ import annotations

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_qualified_name, is_valid_label_value
from crdtool.schema.apimachinery.objectmeta import validate_labels


def validate_label_name(name: str, path: Path) -> list[FieldError]:
    """ValidateLabelName: a qualified name."""
    return [FieldError.invalid(path, name, m) for m in is_qualified_name(name)]


def validate_label_selector(selector: dict | None, path: Path,
                            allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidateLabelSelector: matchLabels as labels, each matchExpressions entry's operator, values and key
    (values as label values unless LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector)."""
    if selector is None:
        return []
    errs = validate_labels(selector.get("matchLabels"), path.child("matchLabels"))
    for i, req in enumerate(selector.get("matchExpressions") or ()):
        errs.extend(validate_requirement(req, path.child("matchExpressions").index(i), allow_invalid_label_value))
    return errs


def validate_requirement(req: dict, path: Path, allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidateLabelSelectorRequirement."""
    errs: list[FieldError] = []
    operator = req.get("operator") or ""
    values = req.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(FieldError.required(path.child("values"),
                                            "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(FieldError.forbidden(path.child("values"),
                                             "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    else:
        errs.append(FieldError.invalid(path.child("operator"), TypedString(operator), "not a valid selector operator"))
    errs.extend(validate_label_name(req.get("key") or "", path.child("key")))
    if not allow_invalid_label_value:
        for i, value in enumerate(values):
            errs.extend(FieldError.invalid(path.child("values").index(i), value, m)
                        for m in is_valid_label_value(value))
    return errs
