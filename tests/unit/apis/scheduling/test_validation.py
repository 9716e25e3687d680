"""scheduling.k8s.io validation (crdtool.apis.scheduling.validation) against the cases of kubernetes'
pkg/apis/scheduling/validation/validation_test.go (1.36): TestValidatePriorityClass and
TestValidatePriorityClassUpdate."""

from __future__ import annotations

import pytest
from builtin_cases import assert_errors

T = "pkg/apis/scheduling/validation/validation_test.go "


def pc(name: str = "tier1", value: int = 100, **more) -> dict:
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
            "value": value, **more}


CASES = [
    (T + "TestValidatePriorityClass success", pc(), []),
    (T + "TestValidatePriorityClass system-node-critical", pc("system-node-critical", 2000001000), []),
    (T + "TestValidatePriorityClass system-cluster-critical", pc("system-cluster-critical", 2000000000), []),
    (T + "TestValidatePriorityClass valid PreemptionPolicy", pc(preemptionPolicy="Never"), []),
    (T + "TestValidatePriorityClass invalid system name", pc("system-something", 200),
     ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. "
      "error: system-something is not a known system priority class"]),
    (T + "TestValidatePriorityClass system class with a wrong value", pc("system-node-critical", 100),
     ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. "
      "error: value of system-node-critical PriorityClass must be 2000001000"]),
    (T + "TestValidatePriorityClass system class as global default",
     pc("system-cluster-critical", 2000000000, globalDefault=True),
     ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. "
      "error: globalDefault of system-cluster-critical PriorityClass must be false"]),
    (T + "TestValidatePriorityClass too large value", pc(value=1000000001),
     ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]),
    (T + "TestValidatePriorityClass largest user value", pc(value=1000000000), []),
    (T + "TestValidatePriorityClass invalid PreemptionPolicy", pc(preemptionPolicy="foo"),
     ['preemptionPolicy: Unsupported value: "foo": supported values: "PreemptLowerPriority", "Never"']),
    (T + "TestValidatePriorityClass empty PreemptionPolicy", pc(preemptionPolicy=""),
     ["preemptionPolicy: Required value"]),
]


@pytest.mark.parametrize(("name", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_priority_class(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


UPDATES = [
    ("TestValidatePriorityClassUpdate no change", pc(), []),
    ("TestValidatePriorityClassUpdate description change", pc(description="new"), []),
    ("TestValidatePriorityClassUpdate value change", pc(value=200),
     ["value: Forbidden: may not be changed in an update."]),
    ("TestValidatePriorityClassUpdate preemptionPolicy change", pc(preemptionPolicy="Never"),
     ['preemptionPolicy: Invalid value: "Never": field is immutable']),
]


@pytest.mark.parametrize(("name", "obj", "expected"), UPDATES, ids=[c[0] for c in UPDATES])
def test_priority_class_update(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected, old=pc())
