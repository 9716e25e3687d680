"""apps/v1 validation (kubernetes pkg/apis/apps/validation/validation.go, 1.36, and the update rules
of pkg/registry/apps/<kind>/strategy.go): Deployment, ReplicaSet, DaemonSet, StatefulSet.

Objects arrive decoded and defaulted as JSON values; a field absent from the JSON is Go's zero value.
Bad values that Go passes as internal structs (a strategy) are rendered as json.Marshal writes those
untagged structs: Go field names, every field, in declaration order.
"""

from __future__ import annotations

import re
from typing import Any

from crdtool.apis.core.validation import validate_pod_template_spec
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.path import Path
from crdtool.model.strconv import atoi
from crdtool.schema.apimachinery import labelselector as ls
from crdtool.schema.apimachinery.generic import validate_nonnegative_field as nonnegative
from crdtool.schema.apimachinery.names import regex_error
from crdtool.schema.apimachinery.objectmeta import validate_annotations, validate_immutable_field, validate_labels

_SPEC = Path.root("spec")
_PERCENT_FMT = "[0-9]+%"
_PERCENT_RE = re.compile(_PERCENT_FMT)
_PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%'"
_DOES_NOT_MATCH = "`selector` does not match template `labels`"


# ---------------------------------------------------------------- int-or-percent

def _is_valid_percent(value: str) -> list[str]:
    """validation.IsValidPercent."""
    if _PERCENT_RE.fullmatch(value):
        return []
    return [regex_error(_PERCENT_MSG, _PERCENT_FMT, "1%", "93%")]


def _int_value(text: str) -> int:
    """IntOrString.IntValue() of a string: strconv.Atoi, 0 when it fails."""
    try:
        return atoi(text)
    except ValueError:
        return 0


def _int_or_string(value: Any) -> Any:
    """An intstr.IntOrString as json.Marshal writes it (IntOrString.MarshalJSON)."""
    return TypedString(value) if isinstance(value, str) else value


def validate_positive_int_or_percent(value: Any, path: Path) -> list[FieldError]:
    """ValidatePositiveIntOrPercent: a percent string, or an int ≥ 0."""
    if isinstance(value, str):
        return [FieldError.invalid(path, _int_or_string(value), m) for m in _is_valid_percent(value)]
    return nonnegative(value or 0, path)


def _percent_value(value: Any) -> int | None:
    """getPercentValue: the number of a valid percent string, None otherwise."""
    if not isinstance(value, str) or _is_valid_percent(value):
        return None
    return _int_value(value[:-1])


def int_or_percent_value(value: Any) -> int:
    """getIntOrPercentValue: a percent's number, else IntValue()."""
    percent = _percent_value(value)
    if percent is not None:
        return percent
    return _int_value(value) if isinstance(value, str) else (value or 0)


def is_not_more_than_100_percent(value: Any, path: Path) -> list[FieldError]:
    """IsNotMoreThan100Percent."""
    percent = _percent_value(value)
    if percent is None or percent <= 100:
        return []
    return [FieldError.invalid(path, _int_or_string(value), "must not be greater than 100%")]


# ---------------------------------------------------------------- shared by the controllers

def _strategy_struct(strategy: dict[str, Any], rolling_fields: tuple[str, ...]) -> GoStruct:
    """An internal {Type, RollingUpdate} strategy as json.Marshal writes it (no json tags)."""
    rolling = strategy.get("rollingUpdate")
    if rolling is not None:
        rolling = GoStruct((name[0].upper() + name[1:], _int_or_string(rolling.get(name, 0)))
                           for name in rolling_fields)
    return GoStruct(Type=strategy.get("type") or "", RollingUpdate=rolling)


def _template_labels(spec: dict[str, Any]) -> Any:
    return ((spec.get("template") or {}).get("metadata") or {}).get("labels")


def _required_selector(spec: dict[str, Any], path: Path, kind_word: str) -> list[FieldError]:
    """The selector block of ValidateDeploymentSpec, ValidateReplicaSetSpec and ValidateStatefulSetSpec:
    required, validated strictly (no invalid label values), and not empty."""
    selector = spec.get("selector")
    if selector is None:
        return [FieldError.required(path.child("selector"))]
    errs = ls.validate_label_selector(selector, path.child("selector"))
    if ls.is_empty(selector):
        errs.append(FieldError.invalid(path.child("selector"), ls.selector_struct(selector),
                                       f"empty selector is invalid for {kind_word}"))
    return errs


def _restart_policy_always(template: dict[str, Any], path: Path, kind: str) -> list[FieldError]:
    """The template rules of the replicated controllers: restartPolicy Always, no activeDeadlineSeconds."""
    spec = template.get("spec") or {}
    errs: list[FieldError] = []
    policy = spec.get("restartPolicy") or ""
    if policy != "Always":
        errs.append(FieldError.not_supported(path.child("spec", "restartPolicy"), TypedString(policy), ["Always"]))
    if spec.get("activeDeadlineSeconds") is not None:
        errs.append(FieldError.forbidden(path.child("spec", "activeDeadlineSeconds"),
                                         f"activeDeadlineSeconds in {kind} is not Supported"))
    return errs


def validate_pod_template_spec_for_replica_set(spec: dict[str, Any], path: Path, kind: str) -> list[FieldError]:
    """ValidatePodTemplateSpecForReplicaSet (Deployment and ReplicaSet): the selector (when it converts
    and is not empty) must match the template's labels; ValidatePodTemplateSpec; restartPolicy Always."""
    template = spec.get("template") or {}
    selector = spec.get("selector")
    errs: list[FieldError] = []
    if not ls.is_empty(selector) and not ls.matches(selector, _template_labels(spec)):
        errs.append(FieldError.invalid(path.child("metadata", "labels"), _template_labels(spec), _DOES_NOT_MATCH))
    errs += validate_pod_template_spec(template, path)
    errs += _restart_policy_always(template, path, kind)
    return errs


def _selector_or_template(spec: dict[str, Any], path: Path, kind: str) -> list[FieldError]:
    """`LabelSelectorAsSelector`: an invalid selector is reported once more, else the template is checked."""
    if not ls.converts(spec.get("selector")):
        return [FieldError.invalid(path.child("selector"), ls.selector_struct(spec.get("selector")),
                                   "invalid label selector")]
    return validate_pod_template_spec_for_replica_set(spec, path.child("template"), kind)


def _selector_immutable(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The apps/v1 update strategies of Deployment, ReplicaSet and DaemonSet: ValidateImmutableField
    on spec.selector."""
    selector, old_selector = (new.get("spec") or {}).get("selector"), (old.get("spec") or {}).get("selector")
    if deep_equal(selector, old_selector):
        return []
    return validate_immutable_field(ls.selector_struct(selector), ls.selector_struct(old_selector),
                                    _SPEC.child("selector"))


# ---------------------------------------------------------------- Deployment

def validate_deployment_strategy(strategy: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateDeploymentStrategy and ValidateRollingUpdateDeployment."""
    kind = strategy.get("type") or ""
    rolling = strategy.get("rollingUpdate")
    if kind == "Recreate":
        if rolling is not None:
            return [FieldError.forbidden(path.child("rollingUpdate"),
                                         "may not be specified when strategy `type` is 'Recreate'")]
        return []
    if kind == "RollingUpdate":
        if rolling is None:
            return [FieldError.required(path.child("rollingUpdate"), "this should be defaulted and never be nil")]
        r_path = path.child("rollingUpdate")
        unavailable, surge = rolling.get("maxUnavailable", 0), rolling.get("maxSurge", 0)
        errs = validate_positive_int_or_percent(unavailable, r_path.child("maxUnavailable"))
        errs += validate_positive_int_or_percent(surge, r_path.child("maxSurge"))
        if int_or_percent_value(unavailable) == 0 and int_or_percent_value(surge) == 0:
            errs.append(FieldError.invalid(r_path.child("maxUnavailable"), _int_or_string(unavailable),
                                           "may not be 0 when `maxSurge` is 0"))
        errs += is_not_more_than_100_percent(unavailable, r_path.child("maxUnavailable"))
        return errs
    return [FieldError.not_supported(path, _strategy_struct(strategy, ("maxUnavailable", "maxSurge")),
                                     ["Recreate", "RollingUpdate"])]


def validate_deployment_spec(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateDeploymentSpec."""
    errs = nonnegative(spec.get("replicas"), path.child("replicas"))
    errs += _required_selector(spec, path, "deployment")
    errs += _selector_or_template(spec, path, "ReplicaSet")
    errs += validate_deployment_strategy(spec.get("strategy") or {}, path.child("strategy"))
    min_ready = spec.get("minReadySeconds") or 0
    errs += nonnegative(min_ready, path.child("minReadySeconds"))
    errs += nonnegative(spec.get("revisionHistoryLimit"), path.child("revisionHistoryLimit"))
    deadline = spec.get("progressDeadlineSeconds")
    if deadline is not None:
        errs += nonnegative(deadline, path.child("progressDeadlineSeconds"))
        if deadline <= min_ready:
            errs.append(FieldError.invalid(path.child("progressDeadlineSeconds"), deadline,
                                           "must be greater than minReadySeconds"))
    return errs


def validate_deployment(obj: dict[str, Any]) -> list[FieldError]:
    """ValidateDeployment beyond ObjectMeta."""
    return validate_deployment_spec(obj.get("spec") or {}, _SPEC)


def validate_deployment_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateDeploymentUpdate beyond ObjectMetaUpdate (the spec, as on create), then the strategy's
    selector immutability."""
    return validate_deployment(new) + _selector_immutable(new, old)


# ---------------------------------------------------------------- ReplicaSet

def validate_replica_set(obj: dict[str, Any]) -> list[FieldError]:
    """ValidateReplicaSetSpec. Its empty-selector text says "deployment", as Go's does."""
    spec = obj.get("spec") or {}
    errs = nonnegative(spec.get("replicas"), _SPEC.child("replicas"))
    errs += nonnegative(spec.get("minReadySeconds"), _SPEC.child("minReadySeconds"))
    errs += _required_selector(spec, _SPEC, "deployment")
    errs += _selector_or_template(spec, _SPEC, "ReplicaSet")
    return errs


def validate_replica_set_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The ReplicaSet update strategy: the new object's validation, ValidateReplicaSetUpdate (the same
    spec errors again, which the status text shows once), then selector immutability."""
    return validate_replica_set(new) + _selector_immutable(new, old)


# ---------------------------------------------------------------- DaemonSet

def validate_rolling_update_daemon_set(rolling: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateRollingUpdateDaemonSet: int-or-percent, at most 100%, exactly one of the two non-zero."""
    unavailable, surge = rolling.get("maxUnavailable", 0), rolling.get("maxSurge", 0)
    errs = validate_positive_int_or_percent(unavailable, path.child("maxUnavailable"))
    errs += validate_positive_int_or_percent(surge, path.child("maxSurge"))
    errs += is_not_more_than_100_percent(unavailable, path.child("maxUnavailable"))
    errs += is_not_more_than_100_percent(surge, path.child("maxSurge"))
    has_unavailable = int_or_percent_value(unavailable) != 0
    has_surge = int_or_percent_value(surge) != 0
    if has_unavailable and has_surge:
        errs.append(FieldError.invalid(path.child("maxSurge"), _int_or_string(surge),
                                       "may not be set when maxUnavailable is non-zero"))
    elif not has_unavailable and not has_surge:
        errs.append(FieldError.required(path.child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
    return errs


def validate_daemon_set_update_strategy(strategy: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateDaemonSetUpdateStrategy."""
    kind = strategy.get("type") or ""
    if kind == "OnDelete":
        return []
    if kind == "RollingUpdate":
        rolling = strategy.get("rollingUpdate")
        if rolling is None:
            return [FieldError.required(path.child("rollingUpdate"))]
        return validate_rolling_update_daemon_set(rolling, path.child("rollingUpdate"))
    return [FieldError.not_supported(path, _strategy_struct(strategy, ("maxUnavailable", "maxSurge")),
                                     ["RollingUpdate", "OnDelete"])]


def validate_daemon_set(obj: dict[str, Any]) -> list[FieldError]:
    """ValidateDaemonSetSpec. The selector is optional here (its absence selects nothing, so the
    template never matches); label values are checked strictly for a new object."""
    spec = obj.get("spec") or {}
    selector = spec.get("selector")
    errs = ls.validate_label_selector(selector, _SPEC.child("selector"))
    if ls.converts(selector) and not ls.matches(selector, _template_labels(spec)):
        errs.append(FieldError.invalid(_SPEC.child("template", "metadata", "labels"), _template_labels(spec),
                                       _DOES_NOT_MATCH))
    if ls.is_empty(selector):
        errs.append(FieldError.invalid(_SPEC.child("selector"), ls.selector_struct(selector),
                                       "empty selector is invalid for daemonset"))
    template = spec.get("template") or {}
    errs += validate_pod_template_spec(template, _SPEC.child("template"))
    errs += _restart_policy_always(template, _SPEC.child("template"), "DaemonSet")
    errs += nonnegative(spec.get("minReadySeconds"), _SPEC.child("minReadySeconds"))
    errs += validate_daemon_set_update_strategy(spec.get("updateStrategy") or {}, _SPEC.child("updateStrategy"))
    errs += nonnegative(spec.get("revisionHistoryLimit"), _SPEC.child("revisionHistoryLimit"))
    return errs


def validate_daemon_set_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The DaemonSet update strategy: the new object's validation, then selector immutability.
    (ValidateDaemonSetSpecUpdate's templateGeneration rules concern a field apps/v1 does not have.)"""
    return validate_daemon_set(new) + _selector_immutable(new, old)


# ---------------------------------------------------------------- StatefulSet

def _rolling_update_stateful_set(rolling: dict[str, Any], path: Path) -> list[FieldError]:
    """validateRollingUpdateStatefulSet: partition ≥ 0; maxUnavailable an int-or-percent, not 0, ≤ 100%."""
    errs = nonnegative(rolling.get("partition"), path.child("partition"))
    unavailable = rolling.get("maxUnavailable")
    if unavailable is not None:
        u_path = path.child("maxUnavailable")
        errs += validate_positive_int_or_percent(unavailable, u_path)
        if int_or_percent_value(unavailable) == 0:
            errs.append(FieldError.invalid(u_path, _int_or_string(unavailable), "cannot be 0"))
        errs += is_not_more_than_100_percent(unavailable, u_path)
    return errs


def _stateful_set_strategy_struct(strategy: dict[str, Any]) -> GoStruct:
    """An internal StatefulSetUpdateStrategy as json.Marshal writes it."""
    rolling = strategy.get("rollingUpdate")
    if rolling is not None:
        unavailable = rolling.get("maxUnavailable")
        rolling = GoStruct(Partition=rolling.get("partition") or 0,
                           MaxUnavailable=None if unavailable is None else _int_or_string(unavailable))
    return GoStruct(Type=strategy.get("type") or "", RollingUpdate=rolling)


def _stateful_set_update_strategy(strategy: dict[str, Any], path: Path) -> list[FieldError]:
    kind = strategy.get("type") or ""
    rolling = strategy.get("rollingUpdate")
    if kind == "":
        return [FieldError.required(path)]
    if kind == "OnDelete":
        if rolling is not None:
            struct = _stateful_set_strategy_struct(strategy)["RollingUpdate"]
            return [FieldError.invalid(path.child("rollingUpdate"), struct,
                                       "only allowed for updateStrategy 'RollingUpdate'")]
        return []
    if kind == "RollingUpdate":
        return _rolling_update_stateful_set(rolling, path.child("rollingUpdate")) if rolling is not None else []
    return [FieldError.invalid(path, _stateful_set_strategy_struct(strategy), "must be 'RollingUpdate' or 'OnDelete'")]


def _retention_policy(policy: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """ValidatePersistentVolumeClaimRetentionPolicy."""
    if policy is None:
        return []
    errs = []
    for name in ("whenDeleted", "whenScaled"):
        value = policy.get(name) or ""
        if value not in ("Retain", "Delete"):
            errs.append(FieldError.not_supported(path.child(name), TypedString(value), ["Retain", "Delete"]))
    return errs


def validate_stateful_set_spec(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateStatefulSetSpec. Its pod template gets labels and annotations checks only (Go's
    ValidatePodTemplateSpec call is left out there), then restartPolicy Always."""
    errs: list[FieldError] = []
    policy = spec.get("podManagementPolicy") or ""
    if policy == "":
        errs.append(FieldError.required(path.child("podManagementPolicy")))
    elif policy not in ("OrderedReady", "Parallel"):
        errs.append(FieldError.invalid(path.child("podManagementPolicy"), TypedString(policy),
                                       "must be 'OrderedReady' or 'Parallel'"))
    errs += _stateful_set_update_strategy(spec.get("updateStrategy") or {}, path.child("updateStrategy"))
    errs += _retention_policy(spec.get("persistentVolumeClaimRetentionPolicy"),
                              path.child("persistentVolumeClaimRetentionPolicy"))
    errs += nonnegative(spec.get("replicas"), path.child("replicas"))
    errs += nonnegative(spec.get("minReadySeconds"), path.child("minReadySeconds"))
    ordinals = spec.get("ordinals")
    if ordinals is not None:
        errs += nonnegative(ordinals.get("start"), path.child("ordinals", "start"))
    errs += _required_selector(spec, path, "statefulset")
    selector = spec.get("selector")
    template = spec.get("template") or {}
    t_path = path.child("template")
    if not ls.converts(selector):
        errs.append(FieldError.invalid(path.child("selector"), ls.selector_struct(selector), ""))
    else:
        if not ls.is_empty(selector) and not ls.matches(selector, _template_labels(spec)):
            errs.append(FieldError.invalid(t_path.child("metadata", "labels"), _template_labels(spec),
                                           _DOES_NOT_MATCH))
        meta = template.get("metadata") or {}
        errs += validate_labels(meta.get("labels"), t_path.child("labels"))
        errs += validate_annotations(meta.get("annotations"), t_path.child("annotations"))
    errs += _restart_policy_always(template, t_path, "StatefulSet")
    return errs


def validate_stateful_set(obj: dict[str, Any]) -> list[FieldError]:
    """ValidateStatefulSet beyond ObjectMeta."""
    return validate_stateful_set_spec(obj.get("spec") or {}, _SPEC)


#: The spec fields ValidateStatefulSetUpdate lets an update change.
_STATEFUL_SET_MUTABLE = ("replicas", "template", "updateStrategy", "minReadySeconds", "ordinals",
                         "persistentVolumeClaimRetentionPolicy")
_STATEFUL_SET_FORBIDDEN = ("updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
                           "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' "
                           "are forbidden")


def _semantic(value: Any) -> Any:
    """A JSON value with Go's zero values left out, so that equality follows apiequality.Semantic on
    the decoded structs: an absent field, null, "", [] and {} are the same."""
    if isinstance(value, dict):
        out = {k: _semantic(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [_semantic(v) for v in value]
    return value


def validate_stateful_set_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateStatefulSetUpdate beyond ObjectMetaUpdate: the spec, then no change outside the
    fields an update may change."""
    spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    errs = validate_stateful_set_spec(spec, _SPEC)
    rest = {k: v for k, v in spec.items() if k not in _STATEFUL_SET_MUTABLE}
    old_rest = {k: v for k, v in old_spec.items() if k not in _STATEFUL_SET_MUTABLE}
    if not deep_equal(_semantic(rest), _semantic(old_rest)):
        errs.append(FieldError.forbidden(_SPEC, _STATEFUL_SET_FORBIDDEN))
    return errs


VALIDATORS: dict[str, KindValidation] = {
    "Deployment": KindValidation(validate_deployment, validate_deployment_update),
    "ReplicaSet": KindValidation(validate_replica_set, validate_replica_set_update),
    "DaemonSet": KindValidation(validate_daemon_set, validate_daemon_set_update),
    "StatefulSet": KindValidation(validate_stateful_set, validate_stateful_set_update),
}
