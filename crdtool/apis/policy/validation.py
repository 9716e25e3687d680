"""policy validation (kubernetes pkg/apis/policy/validation/validation.go, 1.36): PodDisruptionBudget.

The registry's update (registry/policy/poddisruptionbudget strategy) validates the new object as on
a create; the spec may change since 1.15.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.fieldchecks import is_not_more_than_100_percent, validate_positive_int_or_percent
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_selector

_EVICTION_POLICIES = ["AlwaysAllow", "IfHealthyBudget"]


def _selector_go(selector: dict[str, Any] | None) -> GoStruct | None:
    """A metav1.LabelSelector as json.Marshal writes it: its json names in field order, omitempty."""
    if selector is None:
        return None
    out = GoStruct()
    if selector.get("matchLabels"):
        out["matchLabels"] = selector["matchLabels"]
    if selector.get("matchExpressions"):
        out["matchExpressions"] = [
            GoStruct({"key": r.get("key") or "", "operator": r.get("operator") or "",
                      **({"values": r["values"]} if r.get("values") else {})})
            for r in selector["matchExpressions"]]
    return out


def _spec_go(spec: dict[str, Any]) -> GoStruct:
    """The internal PodDisruptionBudgetSpec as json.Marshal writes it (Go field names in field order,
    no tags)."""
    return GoStruct({"MinAvailable": spec.get("minAvailable"), "Selector": _selector_go(spec.get("selector")),
                     "MaxUnavailable": spec.get("maxUnavailable"),
                     "UnhealthyPodEvictionPolicy": spec.get("unhealthyPodEvictionPolicy")})


def validate_pdb_spec(spec: dict[str, Any], path: Path, allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidatePodDisruptionBudgetSpec: minAvailable xor maxUnavailable, each a non-negative integer or a
    percent of at most 100%; the selector; the unhealthy pod eviction policy."""
    errs: list[FieldError] = []
    if spec.get("minAvailable") is not None and spec.get("maxUnavailable") is not None:
        errs.append(FieldError.invalid(path, _spec_go(spec), "minAvailable and maxUnavailable cannot be both set"))
    for key in ("minAvailable", "maxUnavailable"):
        if spec.get(key) is not None:
            errs.extend(validate_positive_int_or_percent(spec[key], path.child(key)))
            errs.extend(is_not_more_than_100_percent(spec[key], path.child(key)))
    errs.extend(validate_label_selector(spec.get("selector"), path.child("selector"), allow_invalid_label_value))
    policy = spec.get("unhealthyPodEvictionPolicy")
    if policy is not None and policy not in _EVICTION_POLICIES:
        errs.append(FieldError.not_supported(path.child("unhealthyPodEvictionPolicy"), TypedString(policy),
                                             _EVICTION_POLICIES))
    return errs


def validate_pdb(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[FieldError]:
    """ValidatePodDisruptionBudget (on update, label values the stored selector already broke may stay)."""
    allow = False
    if old is not None:
        allow = bool(validate_label_selector((old.get("spec") or {}).get("selector"), Path.root("spec")))
    return validate_pdb_spec(obj.get("spec") or {}, Path.root("spec"), allow)


#: The kinds whose validation this module reproduces (apis.validation): `create` is Validate<Kind>
#: beyond ObjectMeta, `update` Validate<Kind>Update beyond ObjectMetaUpdate (the same function, given
#: the stored object).
VALIDATORS = {
    "PodDisruptionBudget": KindValidation(create=validate_pdb, update=validate_pdb),
}
