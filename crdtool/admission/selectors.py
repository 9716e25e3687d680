"""Label selectors as admission matches them: metav1.LabelSelectorAsSelector and labels.Selector's
Matches (apimachinery pkg/apis/meta/v1/helpers.go, pkg/labels/selector.go), and the namespace's
labels the namespace matcher reads (admission plugin webhook/predicates/namespace).

A selector the apiserver defaulted (namespaceSelector and objectSelector default to `{}`) is given
as an absent one: it selects everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SelectorError", "matches", "object_labels"]


class SelectorError(ValueError):
    """A selector LabelSelectorAsSelector refuses (the configuration's validation would have too)."""


def _requirement(expression: Any) -> tuple[str, str, frozenset[str]]:
    if not isinstance(expression, dict):
        raise SelectorError("a matchExpressions item is not an object")
    key, operator, values = expression.get("key", ""), expression.get("operator", ""), expression.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            raise SelectorError("for 'in', 'notin' operators, values set can't be empty")
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            raise SelectorError("values set must be empty for exists and does not exist")
    else:
        raise SelectorError(f'"{operator}" is not a valid label selector operator')
    return str(key), str(operator), frozenset(str(v) for v in values)


def matches(selector: Any, labels: Mapping[str, str]) -> bool:
    """Whether `labels` satisfy the metav1.LabelSelector (None or `{}`: everything); a selector
    LabelSelectorAsSelector refuses is a SelectorError. The matching is labels.Selector's
    (schema/apimachinery/labelselector)."""
    from crdtool.schema.apimachinery import labelselector

    if selector is None:
        return True
    if not isinstance(selector, dict):
        raise SelectorError("the selector is not an object")
    for expression in selector.get("matchExpressions") or []:
        _requirement(expression)
    return labelselector.matches(selector, dict(labels))


def object_labels(obj: Any) -> dict[str, str]:
    """An object's metadata.labels as meta.Accessor reads them ({} when it has none)."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return {k: v for k, v in labels.items() if isinstance(v, str)} if isinstance(labels, dict) else {}
