"""autoscaling validation (crdtool.apis.autoscaling.validation) against the cases of kubernetes'
pkg/apis/autoscaling/validation/validation_test.go (1.36): TestValidateHorizontalPodAutoscaler's
success and error cases (their `msg` is the expected error's detail), TestValidateBehavior*."""

from __future__ import annotations

import pytest
from builtin_cases import assert_errors

T = "pkg/apis/autoscaling/validation/validation_test.go TestValidateHorizontalPodAutoscaler "
REF = {"kind": "ReplicationController", "name": "myrc"}
CPU = {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}


def hpa(**spec) -> dict:
    base = {"scaleTargetRef": REF, "minReplicas": 1, "maxReplicas": 5, "metrics": [CPU]}
    base.update(spec)
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "myautoscaler", "namespace": "default"}, "spec": base}


def pods_metric(target: dict, name: str = "somemetric") -> dict:
    return {"type": "Pods", "pods": {"metric": {"name": name}, "target": target}}


def object_metric(target: dict, described: dict | None = None) -> dict:
    return {"type": "Object", "object": {"describedObject": described or REF, "metric": {"name": "somemetric"},
                                         "target": target}}


def external_metric(target: dict) -> dict:
    return {"type": "External", "external": {"metric": {"name": "somemetric"}, "target": target}}


def rules(**kw) -> dict:
    base = {"policies": [{"type": "Pods", "value": 1, "periodSeconds": 1800}]}
    base.update(kw)
    return base


CASES = [
    ("success: resource utilization", hpa(), []),
    ("success: resource averageValue",
     hpa(metrics=[{"type": "Resource", "resource": {"name": "cpu",
                                                    "target": {"type": "AverageValue", "averageValue": "100m"}}}]), []),
    ("success: pods metric", hpa(metrics=[pods_metric({"type": "AverageValue", "averageValue": "100m"})]), []),
    ("success: object metric value", hpa(metrics=[object_metric({"type": "Value", "value": "100m"})]), []),
    ("success: object metric averageValue",
     hpa(metrics=[object_metric({"type": "AverageValue", "averageValue": "100m"})]), []),
    ("success: external metric", hpa(metrics=[external_metric({"type": "Value", "value": "300"})]), []),
    ("success: behavior", hpa(behavior={"scaleUp": rules(), "scaleDown": rules(selectPolicy="Disabled")}), []),
    ("success: containerResource",
     hpa(metrics=[{"type": "ContainerResource", "containerResource": {
         "name": "cpu", "container": "test-container", "target": {"type": "Utilization", "averageUtilization": 70}}}]),
     []),
    ("scaleTargetRef.kind required", hpa(scaleTargetRef={"name": "myrc"}),
     ["spec.scaleTargetRef.kind: Required value"]),
    ("scaleTargetRef.kind invalid", hpa(scaleTargetRef={"kind": "..", "name": "myrc"}),
     ["spec.scaleTargetRef.kind: Invalid value: \"..\": may not be '..'"]),
    ("scaleTargetRef.name required", hpa(scaleTargetRef={"kind": "ReplicationController"}),
     ["spec.scaleTargetRef.name: Required value"]),
    ("scaleTargetRef.name invalid", hpa(scaleTargetRef={"kind": "ReplicationController", "name": "%%"}),
     ["spec.scaleTargetRef.name: Invalid value: \"%%\": may not contain '%'"]),
    ("minReplicas must be greater than or equal to 1", hpa(minReplicas=-1),
     ["spec.minReplicas: Invalid value: -1: must be greater than or equal to 1"]),
    ("maxReplicas must be greater than or equal to `minReplicas`", hpa(minReplicas=7, maxReplicas=5),
     ["spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"]),
    ("maxReplicas must be greater than 0", hpa(minReplicas=None, maxReplicas=0),
     ["spec.maxReplicas: Invalid value: 0: must be greater than 0",
      "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`"]),
    ("must be greater than 0 (averageUtilization)",
     hpa(metrics=[{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization",
                                                                              "averageUtilization": -70}}}]),
     ["spec.metrics[0].resource.target.averageUtilization: Invalid value: -70: must be greater than 0"]),
    ("may not set both a target raw value and a target utilization",
     hpa(metrics=[{"type": "Resource", "resource": {"name": "cpu", "target": {
         "type": "Utilization", "averageUtilization": 70, "averageValue": "100"}}}]),
     ["spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target "
      "utilization"]),
    ("must specify a resource name",
     hpa(metrics=[{"type": "Resource", "resource": {"target": {"type": "Utilization", "averageUtilization": 70}}}]),
     ["spec.metrics[0].resource.name: Required value: must specify a resource name"]),
    ("must set either a target raw value or a target utilization",
     hpa(metrics=[{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization"}}}]),
     ["spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a "
      "target utilization"]),
    ("must specify a metric target type",
     hpa(metrics=[pods_metric({"averageValue": "100m"})]),
     ["spec.metrics[0].pods.target.type: Required value: must specify a metric target type",
      'spec.metrics[0].pods.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue']),
    ("must be either Utilization, Value, or AverageValue", hpa(metrics=[pods_metric({"type": "boogity",
                                                                                    "averageValue": "100m"})]),
     ['spec.metrics[0].pods.target.type: Invalid value: "boogity": must be either Utilization, Value, or '
      "AverageValue"]),
    ("must specify a positive target averageValue (pods)", hpa(metrics=[pods_metric({"type": "Value",
                                                                                    "value": "100m"})]),
     ["spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue"]),
    ("must be positive (averageValue)", hpa(metrics=[pods_metric({"type": "AverageValue", "averageValue": "-1"})]),
     ['spec.metrics[0].pods.target.averageValue: Invalid value: "-1": must be positive']),
    ("must be positive (zero value)", hpa(metrics=[object_metric({"type": "Value", "value": "0"})]),
     ['spec.metrics[0].object.target.value: Invalid value: "0": must be positive']),
    ("must specify a metric name", hpa(metrics=[pods_metric({"type": "AverageValue", "averageValue": "1"}, "")]),
     ["spec.metrics[0].pods.metric.name: Required value: must specify a metric name"]),
    ("metric name invalid", hpa(metrics=[pods_metric({"type": "AverageValue", "averageValue": "1"}, "a/b")]),
     ["spec.metrics[0].pods.metric.name: Invalid value: \"a/b\": may not contain '/'"]),
    ("must set either a target value or averageValue (object)",
     hpa(metrics=[object_metric({"type": "Value"})]),
     ["spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue"]),
    ("object describedObject kind required",
     hpa(metrics=[object_metric({"type": "Value", "value": "1"}, {"name": "myrc"})]),
     ["spec.metrics[0].object.describedObject.kind: Required value"]),
    ("must set either a target value for metric or a per-pod target",
     hpa(metrics=[external_metric({"type": "Value"})]),
     ["spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or "
      "a per-pod target"]),
    ("may not set both a target value for metric and a per-pod target",
     hpa(metrics=[external_metric({"type": "Value", "value": "1", "averageValue": "1"})]),
     ["spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod "
      "target"]),
    ("must populate information for the given metric source", hpa(metrics=[{"type": "External"}]),
     ["spec.metrics[0].external: Required value: must populate information for the given metric source"]),
    ("must populate the given metric source only",
     hpa(metrics=[{**pods_metric({"type": "AverageValue", "averageValue": "1"}), "resource": CPU["resource"]}]),
     ["spec.metrics[0].resource: Forbidden: must populate the given metric source only"]),
    ("unsupported metric source type", hpa(metrics=[{"type": "boogity", "pods": pods_metric(
        {"type": "AverageValue", "averageValue": "1"})["pods"]}]),
     ['spec.metrics[0].type: Unsupported value: "boogity": supported values: "ContainerResource", "External", '
      '"Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "boogity"']),
    ("must specify a metric source type", hpa(metrics=[{}]),
     ["spec.metrics[0].type: Required value: must specify a metric source type",
      'spec.metrics[0].type: Unsupported value: ""', 'spec.metrics[0].type: Unsupported value: ""']),
    ("containerResource container required",
     hpa(metrics=[{"type": "ContainerResource", "containerResource": {
         "name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]),
     ["spec.metrics[0].containerResource.container: Required value: must specify a container"]),
    ("containerResource container invalid",
     hpa(metrics=[{"type": "ContainerResource", "containerResource": {
         "name": "cpu", "container": "Bad_Name", "target": {"type": "Utilization", "averageUtilization": 70}}}]),
     ['spec.metrics[0].containerResource.container: Invalid value: "Bad_Name": a lowercase RFC 1123 label']),
    ("minReplicas 0 needs an Object or External metric (HPAScaleToZero off: refused first)", hpa(minReplicas=0),
     ["spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
      "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero "
      "replicas"]),
]

BEHAVIOR = "pkg/apis/autoscaling/validation/validation_test.go TestValidateBehaviorInvalid "
BEHAVIOR_CASES = [
    ("scaleUp stabilizationWindowSeconds negative", {"scaleUp": rules(stabilizationWindowSeconds=-1)},
     ["spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero"]),
    ("scaleDown stabilizationWindowSeconds too big", {"scaleDown": rules(stabilizationWindowSeconds=3601)},
     ["spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600"]),
    ("selectPolicy unsupported", {"scaleUp": rules(selectPolicy="Sum")},
     ['spec.behavior.scaleUp.selectPolicy: Unsupported value: "Sum": supported values: "Disabled", "Max", "Min"']),
    ("policies given empty (copyHPAScalingRules keeps a non-nil empty list)", {"scaleDown": {"policies": []}},
     ["spec.behavior.scaleDown.policies: Required value: must specify at least one Policy"]),
    ("policy type unsupported", {"scaleUp": {"policies": [{"type": "Repetition", "value": 1, "periodSeconds": 1}]}},
     ['spec.behavior.scaleUp.policies[0].type: Unsupported value: "Repetition": supported values: "Percent", "Pods"']),
    ("policy value zero", {"scaleUp": {"policies": [{"type": "Pods", "value": 0, "periodSeconds": 1}]}},
     ["spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero"]),
    ("policy periodSeconds zero", {"scaleUp": {"policies": [{"type": "Pods", "value": 1, "periodSeconds": 0}]}},
     ["spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero"]),
    ("policy periodSeconds too big", {"scaleDown": {"policies": [{"type": "Percent", "value": 1,
                                                                  "periodSeconds": 1801}]}},
     ["spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800"]),
]


@pytest.mark.parametrize(("name", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_hpa(name: str, obj: dict, expected: list[str]) -> None:
    if obj["spec"].get("minReplicas", 1) is None:
        del obj["spec"]["minReplicas"]
    assert_errors(obj, expected)


@pytest.mark.parametrize(("name", "behavior", "expected"), BEHAVIOR_CASES, ids=[c[0] for c in BEHAVIOR_CASES])
def test_hpa_behavior(name: str, behavior: dict, expected: list[str]) -> None:
    assert_errors(hpa(behavior=behavior), expected)


def test_update_keeps_stored_zero_min_replicas() -> None:
    """ValidateHorizontalPodAutoscalerUpdate: a stored minReplicas 0 lowers the bound to 0."""
    obj = hpa(minReplicas=0, metrics=[object_metric({"type": "Value", "value": "1"})])
    assert_errors(obj, ["spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"])
    assert_errors(obj, [], old=obj)


def test_autoscaling_v1_cpu_target_is_validated_as_its_metric() -> None:
    """An autoscaling/v1 object is validated as its internal form: the CPU target is a Resource metric."""
    obj = {"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": "a", "namespace": "default"},
           "spec": {"scaleTargetRef": REF, "maxReplicas": 3, "targetCPUUtilizationPercentage": 0}}
    assert_errors(obj, ["spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"])
