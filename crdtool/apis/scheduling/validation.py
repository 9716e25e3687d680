"""scheduling.k8s.io validation (kubernetes pkg/apis/scheduling/validation/validation.go, 1.36):
PriorityClass, create and update."""

from __future__ import annotations

from typing import Any

from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path

SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000
SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY
#: scheduling/v1 systemPriorityClasses: name -> (value, globalDefault).
SYSTEM_PRIORITY_CLASSES = {
    "system-node-critical": (SYSTEM_CRITICAL_PRIORITY + 1000, False),
    "system-cluster-critical": (SYSTEM_CRITICAL_PRIORITY, False),
}


def known_system_priority_class_error(name: str, value: int, global_default: bool) -> str | None:
    """schedulingapiv1.IsKnownSystemPriorityClass's error, None when the class is a known one."""
    known = SYSTEM_PRIORITY_CLASSES.get(name)
    if known is None:
        return f"{name} is not a known system priority class"
    if known[0] != value:
        return f"value of {name} PriorityClass must be {known[0]}"
    if known[1] != global_default:
        return f"globalDefault of {name} PriorityClass must be {str(known[1]).lower()}"
    return None


def validate_preemption_policy(policy: str, path: Path) -> list[FieldError]:
    """core ValidatePreemptionPolicy."""
    if policy in ("PreemptLowerPriority", "Never"):
        return []
    if policy == "":
        return [FieldError.required(path, "")]
    return [FieldError.not_supported(path, TypedString(policy), ["PreemptLowerPriority", "Never"])]


def validate_priority_class(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidatePriorityClass (`system-` names reserved, values above 1e9 for system classes only) /
    ValidatePriorityClassUpdate (value and preemptionPolicy immutable)."""
    value = obj.get("value") or 0
    policy = obj.get("preemptionPolicy")
    if old is not None:
        errs: list[FieldError] = []
        if value != (old.get("value") or 0):
            errs.append(FieldError.forbidden(Path.root("value"), "may not be changed in an update."))
        if policy != old.get("preemptionPolicy"):
            errs.append(FieldError.invalid(Path.root("preemptionPolicy"), TypedString(policy) if policy is not None
                                           else None, "field is immutable"))
        return errs
    errs = []
    name = (obj.get("metadata") or {}).get("name") or ""
    if name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        problem = known_system_priority_class_error(name, value, bool(obj.get("globalDefault")))
        if problem is not None:
            errs.append(FieldError.forbidden(Path.root("metadata", "name"),
                                             f"priority class names with '{SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are "
                                             f"reserved for system use only. error: {problem}"))
    elif value > HIGHEST_USER_DEFINABLE_PRIORITY:
        errs.append(FieldError.forbidden(Path.root("value"), "maximum allowed value of a user defined priority is "
                                         f"{HIGHEST_USER_DEFINABLE_PRIORITY}"))
    if policy is not None:
        errs.extend(validate_preemption_policy(policy, Path.root("preemptionPolicy")))
    return errs


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "PriorityClass": KindValidation(create=validate_priority_class, update=validate_priority_class),
}
