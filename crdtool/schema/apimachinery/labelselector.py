"""metav1.LabelSelector as the apiserver validates, converts and matches it
(apimachinery `pkg/apis/meta/v1/validation` ValidateLabelSelector, `pkg/apis/meta/v1/helpers.go`
LabelSelectorAsSelector, `pkg/labels` Requirement.Matches).

A selector arrives as decoded JSON (`{"matchLabels": {...}, "matchExpressions": [...]}`), None
for a nil *LabelSelector.
"""

from __future__ import annotations

from typing import Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_qualified_name, is_valid_label_value
from crdtool.schema.apimachinery.objectmeta import validate_labels

_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def validate_label_name(name: str, path: Path) -> list[FieldError]:
    """ValidateLabelName: a qualified name."""
    return [FieldError.invalid(path, name, m) for m in is_qualified_name(name)]


def validate_label_selector(selector: dict | None, path: Path,
                            allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidateLabelSelector (LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector as given;
    unknown operators refused): matchLabels as labels, then each requirement."""
    if selector is None:
        return []
    errs = validate_labels(selector.get("matchLabels"), path.child("matchLabels"))
    for i, expr in enumerate(selector.get("matchExpressions") or []):
        errs += _requirement(expr or {}, path.child("matchExpressions").index(i), allow_invalid_label_value)
    return errs


def _requirement(expr: dict, path: Path, allow_invalid_label_value: bool) -> list[FieldError]:
    """ValidateLabelSelectorRequirement."""
    errs: list[FieldError] = []
    operator = expr.get("operator") or ""
    values = expr.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(FieldError.required(path.child("values"),
                                            "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(FieldError.forbidden(path.child("values"),
                                             "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    else:
        # (a core.LabelSelectorOperator: a named string type, which field errors print unquoted)
        errs.append(FieldError.invalid(path.child("operator"), TypedString(operator), "not a valid selector operator"))
    errs += validate_label_name(expr.get("key") or "", path.child("key"))
    if not allow_invalid_label_value:
        for i, value in enumerate(values):
            errs += [FieldError.invalid(path.child("values").index(i), value or "", m)
                     for m in is_valid_label_value(value or "")]
    return errs


def converts(selector: dict | None) -> bool:
    """Whether LabelSelectorAsSelector returns no error: every key a label key, every value a label
    value, a known operator with the number of values it takes (labels.NewRequirement)."""
    if selector is None:
        return True
    for key, value in (selector.get("matchLabels") or {}).items():
        if is_qualified_name(key) or is_valid_label_value(value or ""):
            return False
    for expr in selector.get("matchExpressions") or []:
        expr = expr or {}
        operator, values = expr.get("operator") or "", expr.get("values") or []
        if operator not in _OPERATORS or is_qualified_name(expr.get("key") or ""):
            return False
        if (operator in ("In", "NotIn")) != bool(values):
            return False
        if any(is_valid_label_value(v or "") for v in values):
            return False
    return True


def is_empty(selector: dict | None) -> bool:
    """labels.Selector.Empty() of the converted selector: true for a selector with no requirement
    (Everything), false for nil (Nothing)."""
    return selector is not None and not selector.get("matchLabels") and not selector.get("matchExpressions")


def matches(selector: dict | None, labels: dict | None) -> bool:
    """Selector.Matches(labels.Set(labels)) of a selector that converts: nil matches nothing, an empty
    selector everything, otherwise every requirement must hold."""
    if selector is None:
        return False
    labels = labels or {}
    for key, value in (selector.get("matchLabels") or {}).items():
        if key not in labels or (labels[key] or "") != (value or ""):
            return False
    for expr in selector.get("matchExpressions") or []:
        key, operator = expr.get("key") or "", expr.get("operator")
        values = [v or "" for v in expr.get("values") or []]
        present = key in labels
        if operator == "In" and not (present and (labels[key] or "") in values):
            return False
        if operator == "NotIn" and present and (labels[key] or "") in values:
            return False
        if operator == "Exists" and not present:
            return False
        if operator == "DoesNotExist" and present:
            return False
    return True


def selector_struct(selector: dict | None) -> Any:
    """A *metav1.LabelSelector as json.Marshal writes it in a field error: field order, empty fields
    omitted (`omitempty`), nil as null."""
    if selector is None:
        return None
    out = GoStruct()
    if selector.get("matchLabels"):
        out["matchLabels"] = {k: v or "" for k, v in selector["matchLabels"].items()}
    if selector.get("matchExpressions"):
        out["matchExpressions"] = [_requirement_struct(e or {}) for e in selector["matchExpressions"]]
    return out


def _requirement_struct(expr: dict) -> GoStruct:
    out = GoStruct(key=expr.get("key") or "", operator=expr.get("operator") or "")
    if expr.get("values"):
        out["values"] = [v or "" for v in expr["values"]]
    return out
