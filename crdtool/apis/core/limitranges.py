"""LimitRange validation (kubernetes pkg/apis/core/validation ValidateLimitRange,
validateLimitRangeTypeName and validateLimitRangeResourceName, 1.36). The limitrange strategy's
ValidateUpdate runs the same ValidateLimitRange on the new object, so there is no update function.

The object arrives defaulted (SetDefaults_LimitRangeItem has filled a Container limit's default and
defaultRequest), as the apiserver validates it. Go walks each limit's resource names as a map and a
set, in random order; they are walked here in the order max, min, default, defaultRequest,
maxLimitRequestRatio, each in document order. A quantity is shown as Quantity.String() in the texts
and as json.Marshal of the Quantity (the same string, quoted) as the bad value; the decoder has made
quantities canonical already (model.quantity's Quantity.string()).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from crdtool.apis.core.resources import is_overcommit_allowed, validate_container_resource_name, validate_resource_name
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import go_float_f
from crdtool.model.path import Path
from crdtool.model.quantity import Quantity, as_quantity
from crdtool.schema.apimachinery.names import is_qualified_name

if TYPE_CHECKING:
    from decimal import Decimal

#: helper.IsStandardLimitRangeType: the limit types without a domain.
STANDARD_LIMIT_TYPES = frozenset({"Pod", "Container", "PersistentVolumeClaim"})
_FIELDS = ("max", "min", "default", "defaultRequest", "maxLimitRequestRatio")
#: resource.MaxMilliValue: the largest value whose MilliValue() fits an int64.
_MAX_MILLI_VALUE = ((1 << 63) - 1) // 1000


def _text(quantity: Any) -> str:
    return quantity if isinstance(quantity, str) else str(quantity)


def _bad(quantity: Any) -> TypedString:
    """A Quantity as ErrorBody renders a bad value: json.Marshal, its string quoted."""
    return TypedString(_text(quantity))


def validate_limit_type_name(value: str, path: Path) -> list[FieldError]:
    """validateLimitRangeTypeName: a qualified name; without a domain, a standard limit type. The
    bad value is a core.LimitType (json-rendered)."""
    bad = TypedString(value)
    errs = [FieldError.invalid(path, bad, m) for m in is_qualified_name(value)]
    if not errs and "/" not in value and value not in STANDARD_LIMIT_TYPES:
        errs.append(FieldError.invalid(path, bad, "must be a standard limit type or fully qualified"))
    return errs


def _resource_name(limit_type: str, name: str, path: Path) -> list[FieldError]:
    """validateLimitRangeResourceName: container resource names for Pod and Container limits, any
    resource name for the others (a claim's storage, a third-party type's)."""
    if limit_type in ("Pod", "Container"):
        return validate_container_resource_name(name, path)
    return validate_resource_name(name, path)


def validate_limit_range(limit_range: dict[str, Any]) -> list[FieldError]:
    """ValidateLimitRange beyond ValidateObjectMeta: each limit's type known and not repeated, its
    resource names, no default or defaultRequest on a Pod limit, a storage bound on a
    PersistentVolumeClaim limit, and per resource min <= defaultRequest <= default <= max,
    1 <= maxLimitRequestRatio <= max/min, default = defaultRequest where overcommit is not allowed."""
    errs: list[FieldError] = []
    seen_types: set[str] = set()
    limits_path = Path.root("spec", "limits")
    for i, limit in enumerate((limit_range.get("spec") or {}).get("limits") or ()):
        limit = limit or {}
        at = limits_path.index(i)
        limit_type = limit.get("type") or ""
        errs += validate_limit_type_name(limit_type, at.child("type"))
        if limit_type in seen_types:
            errs.append(FieldError.duplicate(at.child("type"), TypedString(limit_type)))
        seen_types.add(limit_type)
        lists: dict[str, dict[str, Any]] = {field: limit.get(field) or {} for field in _FIELDS}
        if limit_type == "Pod":
            for field in ("default", "defaultRequest"):
                if lists[field]:
                    errs.append(FieldError.forbidden(at.child(field), "may not be specified when `type` is 'Pod'"))
                lists[field] = {}
        keys: dict[str, None] = {}
        for field in _FIELDS[:4]:
            for name in lists[field]:
                errs += _resource_name(limit_type, name, at.child(field).key(name))
                keys[name] = None
        if limit_type == "PersistentVolumeClaim" and "storage" not in lists["min"] and "storage" not in lists["max"]:
            errs.append(FieldError.required(at.child("limits"),
                                            "either minimum or maximum storage value is required, but neither was "
                                            "provided"))
        for name in lists["maxLimitRequestRatio"]:
            errs += _resource_name(limit_type, name, at.child("maxLimitRequestRatio").key(name))
            keys[name] = None
        for name in keys:
            errs += _validate_bounds(name, {f: lists[f].get(name) for f in _FIELDS}, at)
    return errs


def _validate_bounds(name: str, q: dict[str, Any], at: Path) -> list[FieldError]:
    """The per-resource checks of ValidateLimitRange, in Go's order; `q` maps each of the limit's
    five lists to the resource's quantity in it (None when absent)."""
    errs: list[FieldError] = []
    quantities = {f: as_quantity(q[f]) for f in _FIELDS if q[f] is not None}
    v: dict[str, Decimal] = {f: quantity.amount for f, quantity in quantities.items()}  # Cmp: by value
    hi, lo, default, request, ratio = (q[f] for f in _FIELDS)

    def path(field: str) -> Path:
        return at.child(field).key(name)

    if "min" in v and "max" in v and v["min"] > v["max"]:
        errs.append(FieldError.invalid(path("min"), _bad(lo),
                                       f"min value {_text(lo)} is greater than max value {_text(hi)}"))
    if "defaultRequest" in v and "min" in v and v["min"] > v["defaultRequest"]:
        errs.append(FieldError.invalid(path("defaultRequest"), _bad(request),
                                       f"min value {_text(lo)} is greater than default request value {_text(request)}"))
    if "defaultRequest" in v and "max" in v and v["defaultRequest"] > v["max"]:
        errs.append(FieldError.invalid(path("defaultRequest"), _bad(request),
                                       f"default request value {_text(request)} is greater than max value {_text(hi)}"))
    if "defaultRequest" in v and "default" in v and v["defaultRequest"] > v["default"]:
        errs.append(FieldError.invalid(path("defaultRequest"), _bad(request),
                                       f"default request value {_text(request)} is greater than default limit value "
                                       f"{_text(default)}"))
    if "default" in v and "min" in v and v["min"] > v["default"]:
        errs.append(FieldError.invalid(path("default"), _bad(lo),
                                       f"min value {_text(lo)} is greater than default value {_text(default)}"))
    if "default" in v and "max" in v and v["default"] > v["max"]:
        errs.append(FieldError.invalid(path("default"), _bad(hi),
                                       f"default value {_text(default)} is greater than max value {_text(hi)}"))
    if "maxLimitRequestRatio" in v and v["maxLimitRequestRatio"] < 1:
        errs.append(FieldError.invalid(path("maxLimitRequestRatio"), _bad(ratio),
                                       f"ratio {_text(ratio)} is less than 1"))
    if "maxLimitRequestRatio" in v and "min" in v and "max" in v:
        ratio_f, limit = _ratio_and_limit(quantities["maxLimitRequestRatio"], quantities["min"], quantities["max"])
        if ratio_f > limit:
            errs.append(FieldError.invalid(path("maxLimitRequestRatio"), _bad(ratio),
                                           f"ratio {_text(ratio)} is greater than max/min = {go_float_f(limit, 6)}"))
    both_defaults = "default" in v and "defaultRequest" in v
    if not is_overcommit_allowed(name) and both_defaults and v["default"] != v["defaultRequest"]:
        errs.append(FieldError.invalid(path("defaultRequest"), _bad(request),
                                       f"default value {_text(default)} must equal to defaultRequest value "
                                       f"{_text(request)} in {name}"))
    return errs


def _ratio_and_limit(ratio: Quantity, lo: Quantity, hi: Quantity) -> tuple[float, float]:
    """The ratio and max/min as Go compares them: float64s of the values' MilliValue() when all three
    Value()s are below MaxMilliValue (of their Value() otherwise), Go's int64 overflow included; a zero
    min gives IEEE division's infinity or NaN, as Go's float division does."""
    ratio_v, lo_v, hi_v = ratio.scaled_value(0), lo.scaled_value(0), hi.scaled_value(0)
    ratio_f = float(ratio_v)
    if ratio_v < _MAX_MILLI_VALUE and lo_v < _MAX_MILLI_VALUE and hi_v < _MAX_MILLI_VALUE:
        ratio_f = float(ratio.scaled_value(-3)) / 1000
        lo_v, hi_v = lo.scaled_value(-3), hi.scaled_value(-3)
    if lo_v == 0:
        return ratio_f, math.nan if hi_v == 0 else math.copysign(math.inf, hi_v)
    return ratio_f, float(hi_v) / float(lo_v)
