"""Label selectors (apimachinery LabelSelectorAsSelector and labels.Selector.Matches)."""

from __future__ import annotations

import pytest

from crdtool.admission import selectors

LABELS = {"team": "kitchen", "tier": "front"}


@pytest.mark.parametrize(("selector", "matched"), [
    (None, True),
    ({}, True),
    ({"matchLabels": {"team": "kitchen"}}, True),
    ({"matchLabels": {"team": "kitchen", "tier": "back"}}, False),
    ({"matchExpressions": [{"key": "team", "operator": "In", "values": ["bar", "kitchen"]}]}, True),
    ({"matchExpressions": [{"key": "owner", "operator": "NotIn", "values": ["x"]}]}, True),  # absent: not in
    ({"matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["kitchen"]}]}, False),
    ({"matchExpressions": [{"key": "tier", "operator": "Exists"}]}, True),
    ({"matchExpressions": [{"key": "tier", "operator": "DoesNotExist"}]}, False),
    ({"matchLabels": {"team": "kitchen"}, "matchExpressions": [{"key": "x", "operator": "Exists"}]}, False),
])
def test_matches(selector, matched) -> None:
    assert selectors.matches(selector, LABELS) is matched


@pytest.mark.parametrize(("expression", "message"), [
    ({"key": "a", "operator": "In", "values": []}, "for 'in', 'notin' operators, values set can't be empty"),
    ({"key": "a", "operator": "Exists", "values": ["x"]}, "values set must be empty for exists and does not exist"),
    ({"key": "a", "operator": "Near"}, '"Near" is not a valid label selector operator'),
])
def test_invalid_requirements(expression, message) -> None:
    with pytest.raises(selectors.SelectorError, match=message):
        selectors.matches({"matchExpressions": [expression]}, LABELS)


def test_object_labels_ignore_what_is_not_a_string() -> None:
    assert selectors.object_labels({"metadata": {"labels": {"a": "b", "n": 1}}}) == {"a": "b"}
    assert selectors.object_labels({"metadata": None}) == {}
