"""Huge page quantities in whole pages (validateResourceQuantityHugePageValue with
helper.IsHugePageResourceValueDivisible, kubernetes pkg/apis/core/validation, 1.36), in limits and
requests of a container's resources."""

from __future__ import annotations

import pytest

from crdtool.apis.core.resources import is_huge_page_value_divisible, validate_container_resource_requirements
from crdtool.model.path import Path
from crdtool.model.quantity import as_quantity

PATH = Path.root("spec", "containers").index(0).child("resources")


@pytest.mark.parametrize(("name", "quantity", "divisible"), [
    ("hugepages-2Mi", "4Mi", True),
    ("hugepages-2Mi", "3Mi", False),
    ("hugepages-1Gi", "2Gi", True),
    ("hugepages-1Gi", "1536Mi", False),
    ("hugepages-2Mi", "0", True),
    ("hugepages-500m", "1", False),    # a page size that is not whole bytes
    ("hugepages-0", "1", False),       # nor positive
    ("hugepages-foo", "2Mi", False),   # nor a quantity
    ("hugepages-1k", 3000, True),
])
def test_is_huge_page_value_divisible(name: str, quantity: str, divisible: bool) -> None:
    assert is_huge_page_value_divisible(name, as_quantity(quantity)) is divisible


def test_indivisible_limit_and_request_are_reported_at_their_keys() -> None:
    errors = validate_container_resource_requirements(
        {"limits": {"memory": "1Gi", "hugepages-2Mi": "3Mi"}, "requests": {"memory": "1Gi", "hugepages-2Mi": "3Mi"}},
        set(), PATH)
    assert [str(e) for e in errors] == [
        'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer '
        "multiple of hugepages-2Mi",
        'spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer '
        "multiple of hugepages-2Mi",
    ]


def test_whole_pages_pass() -> None:
    assert validate_container_resource_requirements(
        {"limits": {"cpu": "1", "hugepages-1Gi": "2Gi"}, "requests": {"cpu": "1", "hugepages-1Gi": "2Gi"}},
        set(), PATH) == []
