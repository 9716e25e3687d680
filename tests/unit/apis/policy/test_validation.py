"""policy validation (crdtool.apis.policy.validation) against the cases of kubernetes'
pkg/apis/policy/validation/validation_test.go (1.36): TestValidateMinAvailablePodDisruptionBudgetSpec,
TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec, TestValidateUnhealthyPodEvictionPolicy..."""

from __future__ import annotations

import pytest
from builtin_cases import assert_errors

T = "pkg/apis/policy/validation/validation_test.go "


def pdb(**spec) -> dict:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "pdb", "namespace": "default"}, "spec": spec}


CASES = [
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 0", pdb(minAvailable=0), []),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 5", pdb(minAvailable=5), []),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 0%", pdb(minAvailable="0%"), []),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 100%", pdb(minAvailable="100%"), []),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec -1", pdb(minAvailable=-1),
     ["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"]),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec -1%", pdb(minAvailable="-1%"),
     ['spec.minAvailable: Invalid value: "-1%": a valid percent string must be a numeric string followed by an '
      "ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 101%", pdb(minAvailable="101%"),
     ['spec.minAvailable: Invalid value: "101%": must not be greater than 100%']),
    (T + "TestValidateMinAvailablePodDisruptionBudgetSpec 5 (a string)", pdb(minAvailable="5"),
     ['spec.minAvailable: Invalid value: "5": a valid percent string']),
    (T + "TestValidateMaxUnavailable 1", pdb(maxUnavailable=1), []),
    (T + "TestValidateMaxUnavailable 50%", pdb(maxUnavailable="50%"), []),
    (T + "TestValidateMaxUnavailable -1", pdb(maxUnavailable=-1),
     ["spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"]),
    (T + "TestValidateMaxUnavailable 200%", pdb(maxUnavailable="200%"),
     ['spec.maxUnavailable: Invalid value: "200%": must not be greater than 100%']),
    (T + "TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec", pdb(minAvailable=1, maxUnavailable="50%"),
     ['spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":"50%",'
      '"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set']),
    (T + "TestValidateUnhealthyPodEvictionPolicy IfHealthyBudget", pdb(unhealthyPodEvictionPolicy="IfHealthyBudget"),
     []),
    (T + "TestValidateUnhealthyPodEvictionPolicy AlwaysAllow", pdb(unhealthyPodEvictionPolicy="AlwaysAllow"), []),
    (T + "TestValidateUnhealthyPodEvictionPolicy invalid", pdb(unhealthyPodEvictionPolicy="Invalid"),
     ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Invalid": supported values: "AlwaysAllow", '
      '"IfHealthyBudget"']),
    (T + "TestValidatePodDisruptionBudgetSpec selector", pdb(minAvailable=1, selector={"matchLabels": {"a": "b"}}), []),
    (T + "TestValidatePodDisruptionBudgetSpec invalid selector label value",
     pdb(minAvailable=1, selector={"matchLabels": {"a": "-b"}}),
     ['spec.selector.matchLabels: Invalid value: "-b": a valid label must be an empty string']),
    (T + "TestValidatePodDisruptionBudgetSpec invalid selector operator",
     pdb(minAvailable=1, selector={"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]}),
     ['spec.selector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator']),
    (T + "TestValidatePodDisruptionBudgetSpec both set, with a selector",
     pdb(minAvailable="10%", maxUnavailable=1,
         selector={"matchLabels": {"z": "y", "a": "b"}, "matchExpressions": [{"key": "k", "operator": "Exists"}]}),
     ['spec: Invalid value: {"MinAvailable":"10%","Selector":{"matchLabels":{"a":"b","z":"y"},"matchExpressions":'
      '[{"key":"k","operator":"Exists"}]},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}']),
]


@pytest.mark.parametrize(("name", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_pdb(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


def test_update_keeps_invalid_stored_selector_values() -> None:
    """The registry's ValidateUpdate allows invalid label values the stored selector already had."""
    obj = pdb(minAvailable=1, selector={"matchExpressions": [{"key": "a", "operator": "In", "values": ["-b"]}]})
    assert_errors(obj, ["spec.selector.matchExpressions[0].values[0]: Invalid value"])
    assert_errors(obj, [], old=obj)
