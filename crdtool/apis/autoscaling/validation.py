"""autoscaling validation (kubernetes pkg/apis/autoscaling/validation/validation.go, 1.36):
HorizontalPodAutoscaler, create and update, with the apiserver's texts.

Go validates the internal type, which autoscaling/v2 mirrors; an autoscaling/v1 object is validated
as its conversion (targetCPUUtilizationPercentage becomes a Resource cpu metric). Feature gate
HPAScaleToZero is off in 1.36 (alpha): minReplicas is at least 1, unless the stored object had 0.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.model.quantity import quantity_sign
from crdtool.schema.apimachinery.names import is_dns1123_label, validate_path_segment_name

MAX_PERIOD_SECONDS = 1800
MAX_STABILIZATION_WINDOW_SECONDS = 3600
_METRIC_SOURCE_TYPES = ["ContainerResource", "External", "Object", "Pods", "Resource"]
_FIELD_OF_TYPE = {"Object": "object", "Pods": "pods", "Resource": "resource", "External": "external",
                  "ContainerResource": "containerResource"}
_SELECT_POLICIES = ["Disabled", "Max", "Min"]
_POLICY_TYPES = ["Percent", "Pods"]


def _quantity(value: Any) -> TypedString:
    """A *resource.Quantity as ErrorBody renders it (json.Marshal of the quantity: its string)."""
    return TypedString(str(value))


def validate_cross_version_object_reference(ref: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateCrossVersionObjectReference: kind and name required, path segment names."""
    errs: list[FieldError] = []
    for key in ("kind", "name"):
        value = ref.get(key) or ""
        if not value:
            errs.append(FieldError.required(path.child(key), ""))
        else:
            errs.extend(FieldError.invalid(path.child(key), value, m) for m in validate_path_segment_name(value, False))
    return errs


def _metric_identifier(metric: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMetricIdentifier."""
    name = metric.get("name") or ""
    if not name:
        return [FieldError.required(path.child("name"), "must specify a metric name")]
    return [FieldError.invalid(path.child("name"), name, m) for m in validate_path_segment_name(name, False)]


def _metric_target(target: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMetricTarget."""
    errs: list[FieldError] = []
    kind = target.get("type") or ""
    if not kind:
        errs.append(FieldError.required(path.child("type"), "must specify a metric target type"))
    if kind not in ("Utilization", "Value", "AverageValue"):
        errs.append(FieldError.invalid(path.child("type"), TypedString(kind),
                                       "must be either Utilization, Value, or AverageValue"))
    for key in ("value", "averageValue"):
        if target.get(key) is not None and quantity_sign(target[key]) != 1:
            errs.append(FieldError.invalid(path.child(key), _quantity(target[key]), "must be positive"))
    utilization = target.get("averageUtilization")
    if utilization is not None and utilization < 1:
        errs.append(FieldError.invalid(path.child("averageUtilization"), utilization, "must be greater than 0"))
    return errs


def _object_source(src: dict[str, Any], path: Path) -> list[FieldError]:
    target = src.get("target") or {}
    errs = validate_cross_version_object_reference(src.get("describedObject") or {}, path.child("describedObject"))
    errs += _metric_identifier(src.get("metric") or {}, path.child("metric"))
    errs += _metric_target(target, path.child("target"))
    if target.get("value") is None and target.get("averageValue") is None:
        errs.append(FieldError.required(path.child("target", "averageValue"),
                                        "must set either a target value or averageValue"))
    return errs


def _external_source(src: dict[str, Any], path: Path) -> list[FieldError]:
    target = src.get("target") or {}
    errs = _metric_identifier(src.get("metric") or {}, path.child("metric"))
    errs += _metric_target(target, path.child("target"))
    if target.get("value") is None and target.get("averageValue") is None:
        errs.append(FieldError.required(path.child("target", "averageValue"),
                                        "must set either a target value for metric or a per-pod target"))
    if target.get("value") is not None and target.get("averageValue") is not None:
        errs.append(FieldError.forbidden(path.child("target", "value"),
                                         "may not set both a target value for metric and a per-pod target"))
    return errs


def _pods_source(src: dict[str, Any], path: Path) -> list[FieldError]:
    target = src.get("target") or {}
    errs = _metric_identifier(src.get("metric") or {}, path.child("metric"))
    errs += _metric_target(target, path.child("target"))
    if target.get("averageValue") is None:
        errs.append(FieldError.required(path.child("target", "averageValue"),
                                        "must specify a positive target averageValue"))
    return errs


def _utilization_or_value(target: dict[str, Any], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    if target.get("averageUtilization") is None and target.get("averageValue") is None:
        errs.append(FieldError.required(path.child("target", "averageUtilization"),
                                        "must set either a target raw value or a target utilization"))
    if target.get("averageUtilization") is not None and target.get("averageValue") is not None:
        errs.append(FieldError.forbidden(path.child("target", "averageValue"),
                                         "may not set both a target raw value and a target utilization"))
    return errs


def _resource_source(src: dict[str, Any], path: Path) -> list[FieldError]:
    target = src.get("target") or {}
    errs: list[FieldError] = []
    if not src.get("name"):
        errs.append(FieldError.required(path.child("name"), "must specify a resource name"))
    errs += _metric_target(target, path.child("target"))
    return errs + _utilization_or_value(target, path)


def _container_resource_source(src: dict[str, Any], path: Path) -> list[FieldError]:
    """validateContainerResourceSource (the resource name's own checks, ValidateContainerResourceName,
    are not reproduced)."""
    target = src.get("target") or {}
    errs: list[FieldError] = []
    if not src.get("name"):
        errs.append(FieldError.required(path.child("name"), "must specify a resource name"))
    container = src.get("container") or ""
    if not container:
        errs.append(FieldError.required(path.child("container"), "must specify a container"))
    else:
        errs.extend(FieldError.invalid(path.child("container"), container, m) for m in is_dns1123_label(container))
    errs += _metric_target(target, path.child("target"))
    return errs + _utilization_or_value(target, path)


_SOURCES = (("object", _object_source), ("external", _external_source), ("pods", _pods_source),
            ("resource", _resource_source), ("containerResource", _container_resource_source))


def validate_metric_spec(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMetricSpec: a known type, its source given, and no other source (only the first present
    source, in Go's order, is validated)."""
    errs: list[FieldError] = []
    kind = spec.get("type") or ""
    if not kind:
        errs.append(FieldError.required(path.child("type"), "must specify a metric source type"))
    if kind not in _METRIC_SOURCE_TYPES:
        errs.append(FieldError.not_supported(path.child("type"), TypedString(kind), _METRIC_SOURCE_TYPES))
    present: list[str] = []
    for key, check in _SOURCES:
        if spec.get(key) is not None:
            present.append(key)
            if len(present) == 1:
                errs.extend(check(spec[key], path.child(key)))
    expected = _FIELD_OF_TYPE.get(kind, "")
    if expected:
        if spec.get(expected) is None:
            errs.append(FieldError.required(path.child(expected),
                                            "must populate information for the given metric source"))
    else:
        errs.append(FieldError.not_supported(path.child("type"), TypedString(kind), _METRIC_SOURCE_TYPES))
    if len(present) != 1:
        # Go ranges over a set here: its order is random; crdtool reports in field order.
        errs.extend(FieldError.forbidden(path.child(key), "must populate the given metric source only")
                    for key in present if key != expected)
    return errs


def _scaling_rules(rules: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """validateScalingRules and validateScalingPolicy."""
    if rules is None:
        return []
    errs: list[FieldError] = []
    window = rules.get("stabilizationWindowSeconds")
    if window is not None and window < 0:
        errs.append(FieldError.invalid(path.child("stabilizationWindowSeconds"), window,
                                       "must be greater than or equal to zero"))
    if window is not None and window > MAX_STABILIZATION_WINDOW_SECONDS:
        errs.append(FieldError.invalid(path.child("stabilizationWindowSeconds"), window,
                                       f"must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"))
    select = rules.get("selectPolicy")
    if select is not None and select not in _SELECT_POLICIES:
        errs.append(FieldError.not_supported(path.child("selectPolicy"), TypedString(select), _SELECT_POLICIES))
    policies = rules.get("policies") or []
    if not policies:
        errs.append(FieldError.required(path.child("policies"), "must specify at least one Policy"))
    for i, policy in enumerate(policies):
        at = path.child("policies").index(i)
        kind = policy.get("type") or ""
        if kind not in _POLICY_TYPES:
            errs.append(FieldError.not_supported(at.child("type"), TypedString(kind), _POLICY_TYPES))
        value, period = policy.get("value") or 0, policy.get("periodSeconds") or 0
        if value <= 0:
            errs.append(FieldError.invalid(at.child("value"), value, "must be greater than zero"))
        if period <= 0:
            errs.append(FieldError.invalid(at.child("periodSeconds"), period, "must be greater than zero"))
        if period > MAX_PERIOD_SECONDS:
            errs.append(FieldError.invalid(at.child("periodSeconds"), period,
                                           f"must be less than or equal to {MAX_PERIOD_SECONDS}"))
    return errs


def validate_hpa_spec(spec: dict[str, Any], path: Path, min_replicas_lower_bound: int) -> list[FieldError]:
    """validateHorizontalPodAutoscalerSpec."""
    errs: list[FieldError] = []
    low, high = spec.get("minReplicas"), spec.get("maxReplicas") or 0
    if low is not None and low < min_replicas_lower_bound:
        errs.append(FieldError.invalid(path.child("minReplicas"), low,
                                       f"must be greater than or equal to {min_replicas_lower_bound}"))
    if high < 1:
        errs.append(FieldError.invalid(path.child("maxReplicas"), high, "must be greater than 0"))
    if low is not None and high < low:
        errs.append(FieldError.invalid(path.child("maxReplicas"), high,
                                       "must be greater than or equal to `minReplicas`"))
    errs.extend(validate_cross_version_object_reference(spec.get("scaleTargetRef") or {}, path.child("scaleTargetRef")))
    metrics = spec.get("metrics") or []
    for i, metric in enumerate(metrics):
        errs.extend(validate_metric_spec(metric, path.child("metrics").index(i)))
    if low == 0 and not any(m.get("type") in ("Object", "External") for m in metrics):
        errs.append(FieldError.forbidden(path.child("metrics"),
                                         "must specify at least one Object or External metric to support scaling "
                                         "to zero replicas"))
    behavior = spec.get("behavior")
    if behavior is not None:
        errs.extend(_scaling_rules(behavior.get("scaleUp"), path.child("behavior", "scaleUp")))
        errs.extend(_scaling_rules(behavior.get("scaleDown"), path.child("behavior", "scaleDown")))
    return errs


def _internal_spec(obj: dict[str, Any]) -> dict[str, Any]:
    """The spec as the internal type holds it: autoscaling/v1's CPU target converted to a metric."""
    spec = obj.get("spec") or {}
    if obj.get("apiVersion") != "autoscaling/v1":
        return spec
    out = {k: v for k, v in spec.items() if k != "targetCPUUtilizationPercentage"}
    cpu = spec.get("targetCPUUtilizationPercentage")
    if cpu is not None:
        out["metrics"] = [{"type": "Resource", "resource": {
            "name": "cpu", "target": {"type": "Utilization", "averageUtilization": cpu}}}]
    return out


def validate_hpa(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidateHorizontalPodAutoscaler / ValidateHorizontalPodAutoscalerUpdate."""
    bound = 1
    if old is not None and (old.get("spec") or {}).get("minReplicas") == 0:
        bound = 0
    return validate_hpa_spec(_internal_spec(obj), Path.root("spec"), bound)


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "HorizontalPodAutoscaler": KindValidation(create=validate_hpa, update=validate_hpa),
}
