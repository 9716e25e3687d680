"""LimitRange validation against the expectations of kubernetes' own test (pkg/apis/core/validation
TestValidateLimitRange: its success cases, and each error case's detail, which Go requires of every
error the case yields), plus the texts, paths and bad values of each check."""

from __future__ import annotations

import pytest

from crdtool.apis.core import limitranges
from crdtool.apis.core.validation import VALIDATORS
from crdtool.model.errors import ErrorType


def resources(cpu: str = "", memory: str = "") -> dict:
    """getResourceList: cpu and memory, each only when given."""
    return {k: v for k, v in (("cpu", cpu), ("memory", memory)) if v}


def storage(value: str) -> dict:
    """getStorageResourceList."""
    return {"storage": value} if value else {}


def limit_range(*limits: dict) -> dict:
    return {"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "abc", "namespace": "foo"},
            "spec": {"limits": list(limits)}}


SUCCESS_CASES = [
    ("all-fields-valid", [
        {"type": "Pod", "max": resources("100m", "10000Mi"), "min": resources("5m", "100Mi"),
         "maxLimitRequestRatio": resources("10")},
        {"type": "Container", "max": resources("100m", "10000Mi"), "min": resources("5m", "100Mi"),
         "default": resources("50m", "500Mi"), "defaultRequest": resources("10m", "200Mi"),
         "maxLimitRequestRatio": resources("10")},
        {"type": "PersistentVolumeClaim", "max": storage("10Gi"), "min": storage("5Gi")}]),
    ("pvc-min-only", [{"type": "PersistentVolumeClaim", "min": storage("5Gi")}]),
    ("pvc-max-only", [{"type": "PersistentVolumeClaim", "max": storage("10Gi")}]),
    ("all-fields-valid-big-numbers", [
        {"type": "Container", "max": resources("100m", "10000T"), "min": resources("5m", "100Mi"),
         "default": resources("50m", "500Mi"), "defaultRequest": resources("10m", "200Mi"),
         "maxLimitRequestRatio": resources("10")}]),
    ("thirdparty-fields-all-valid-standard-container-resources", [
        {"type": "thirdparty.com/foo", "max": resources("100m", "10000T"), "min": resources("5m", "100Mi"),
         "default": resources("50m", "500Mi"), "defaultRequest": resources("10m", "200Mi"),
         "maxLimitRequestRatio": resources("10")}]),
    ("thirdparty-fields-all-valid-storage-resources", [
        {"type": "thirdparty.com/foo", "max": storage("10000T"), "min": storage("100Mi"),
         "default": storage("500Mi"), "defaultRequest": storage("200Mi")}]),
    ("LocalStorageCapacityIsolation on (GA): all-fields-valid", [
        {"type": "Pod", "max": {"ephemeral-storage": "10000Mi"}, "min": {"ephemeral-storage": "100Mi"}},
        {"type": "Container", "max": {"ephemeral-storage": "10000Mi"}, "min": {"ephemeral-storage": "100Mi"},
         "default": {"ephemeral-storage": "500Mi"}, "defaultRequest": {"ephemeral-storage": "200Mi"}}]),
]


@pytest.mark.parametrize(("name", "limits"), SUCCESS_CASES, ids=[c[0] for c in SUCCESS_CASES])
def test_valid_limit_ranges(name: str, limits: list) -> None:
    assert limitranges.validate_limit_range(limit_range(*limits)) == []


IV, F, R, D = ErrorType.INVALID, ErrorType.FORBIDDEN, ErrorType.REQUIRED, ErrorType.DUPLICATE

# (Go case name, limits, the (type, field) of each error in order, the detail every error contains)
ERROR_CASES = [
    ("duplicate-limit-type", [{"type": "Pod", "max": resources("100m", "10000m"), "min": resources("0m", "100m")},
                              {"type": "Pod", "min": resources("0m", "100m")}],
     [(D, "spec.limits[1].type")], ""),
    ("default-limit-type-pod", [{"type": "Pod", "max": resources("100m", "10000m"), "min": resources("0m", "100m"),
                                 "default": resources("10m", "100m")}],
     [(F, "spec.limits[0].default")], "may not be specified when `type` is 'Pod'"),
    ("default-request-limit-type-pod", [{"type": "Pod", "max": resources("100m", "10000m"),
                                         "min": resources("0m", "100m"), "defaultRequest": resources("10m", "100m")}],
     [(F, "spec.limits[0].defaultRequest")], "may not be specified when `type` is 'Pod'"),
    ("min value 100m is greater than max value 10m", [{"type": "Pod", "max": resources("10m"),
                                                       "min": resources("100m")}],
     [(IV, "spec.limits[0].min[cpu]")], "min value 100m is greater than max value 10m"),
    ("invalid spec default outside range", [{"type": "Container", "max": resources("1"), "min": resources("100m"),
                                             "default": resources("2")}],
     [(IV, "spec.limits[0].default[cpu]")], "default value 2 is greater than max value 1"),
    ("invalid spec default request outside range", [{"type": "Container", "max": resources("1"),
                                                     "min": resources("100m"), "defaultRequest": resources("2")}],
     [(IV, "spec.limits[0].defaultRequest[cpu]")], "default request value 2 is greater than max value 1"),
    ("invalid spec default request more than default", [{"type": "Container", "max": resources("2"),
                                                         "min": resources("100m"), "default": resources("500m"),
                                                         "defaultRequest": resources("800m")}],
     [(IV, "spec.limits[0].defaultRequest[cpu]")],
     "default request value 800m is greater than default limit value 500m"),
    ("invalid spec maxLimitRequestRatio less than 1", [{"type": "Pod", "maxLimitRequestRatio": resources("800m")}],
     [(IV, "spec.limits[0].maxLimitRequestRatio[cpu]")], "ratio 800m is less than 1"),
    ("invalid spec maxLimitRequestRatio greater than max/min", [
        {"type": "Container", "max": resources(memory="2Gi"), "min": resources(memory="512Mi"),
         "maxLimitRequestRatio": resources(memory="10")}],
     [(IV, "spec.limits[0].maxLimitRequestRatio[memory]")], "ratio 10 is greater than max/min = 4.000000"),
    ("invalid non standard limit type", [{"type": "foo", "max": storage("10000T"), "min": storage("100Mi"),
                                          "default": storage("500Mi"), "defaultRequest": storage("200Mi")}],
     [(IV, "spec.limits[0].type")], "must be a standard limit type or fully qualified"),
    ("min and max values missing, one required", [{"type": "PersistentVolumeClaim"}],
     [(R, "spec.limits[0].limits")], "either minimum or maximum storage value is required, but neither was provided"),
    ("invalid min greater than max", [{"type": "PersistentVolumeClaim", "min": storage("10Gi"),
                                       "max": storage("1Gi")}],
     [(IV, "spec.limits[0].min[storage]")], "min value 10Gi is greater than max value 1Gi"),
]


@pytest.mark.parametrize(("name", "limits", "expected", "detail"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_invalid_limit_ranges(name: str, limits: list, expected: list, detail: str) -> None:
    errors = limitranges.validate_limit_range(limit_range(*limits))
    assert [(e.type, e.field) for e in errors] == expected
    assert all(detail in e.detail for e in errors)


def test_messages_and_bad_values() -> None:
    """The bad value is the quantity Go passes (the max, not the default, for `default value ... is
    greater than max value`), rendered as json.Marshal renders a Quantity."""
    errors = limitranges.validate_limit_range(limit_range(
        {"type": "Container", "max": resources("1"), "min": resources("2"), "default": resources("3"),
         "defaultRequest": resources("500m")}))
    assert [str(e) for e in errors] == [
        'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
        'spec.limits[0].defaultRequest[cpu]: Invalid value: "500m": min value 2 is greater than default request '
        "value 500m",
        'spec.limits[0].default[cpu]: Invalid value: "1": default value 3 is greater than max value 1',
    ]


def test_resource_names_depend_on_the_limit_type() -> None:
    """validateLimitRangeResourceName: container resource names for Pod and Container limits."""
    container = limitranges.validate_limit_range(limit_range({"type": "Container", "max": storage("1Gi")}))
    assert [str(e) for e in container] == [
        'spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers']
    assert limitranges.validate_limit_range(limit_range({"type": "PersistentVolumeClaim", "max": {
        "bogus": "1"}}))[0].detail == "must be a standard resource type or fully qualified"


def test_resources_that_cannot_be_overcommitted_need_equal_defaults() -> None:
    errors = limitranges.validate_limit_range(limit_range(
        {"type": "Container", "default": {"hugepages-2Mi": "4Mi"}, "defaultRequest": {"hugepages-2Mi": "2Mi"}}))
    assert [str(e) for e in errors] == [
        'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to '
        "defaultRequest value 2Mi in hugepages-2Mi"]


def test_ratio_against_max_over_min() -> None:
    """max/min in milli units; a zero min gives no error (Go's division gives +Inf or NaN)."""
    def ratio_errors(lo: str, hi: str, ratio: str) -> list[str]:
        return [e.detail for e in limitranges.validate_limit_range(limit_range(
            {"type": "Pod", "min": {"cpu": lo}, "max": {"cpu": hi}, "maxLimitRequestRatio": {"cpu": ratio}}))]

    assert ratio_errors("300m", "1", "4") == ["ratio 4 is greater than max/min = 3.333333"]
    assert ratio_errors("300m", "1", "3") == []
    assert ratio_errors("0", "1", "100") == []
    assert ratio_errors("0", "0", "100") == []


def test_registered_for_create_and_update() -> None:
    """The limitrange strategy validates an update with ValidateLimitRange of the new object."""
    validation = VALIDATORS["LimitRange"]
    assert validation.create is limitranges.validate_limit_range and validation.update is None


def test_a_limit_types_bad_value_is_a_limit_type() -> None:
    """validateLimitRangeTypeName's value is a core.LimitType: ErrorBody renders it with json.Marshal."""
    [error] = limitranges.validate_limit_range(limit_range({"type": "a<b", "max": storage("1Gi")}))
    assert str(error).startswith('spec.limits[0].type: Invalid value: "a\\u003cb": name part must consist of')
