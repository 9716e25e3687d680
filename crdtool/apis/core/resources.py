"""A container's resources as core/validation checks them (validateResourceRequirements /
ValidateContainerResourceRequirements, ValidateResourceQuantityValue, validateResourceName,
validateContainerResourceName, validateResourceClaimNames; kubernetes
pkg/apis/core/validation/validation.go, 1.36). The pod-level resources reuse the requirements'
rules with their own resource names (apis.core.podresources).

A quantity's bad value is Quantity.String(), its canonical form (`0.5` is shown `500m`), as the
apiserver shows it: the decoder stores quantities canonical (model.quantity's Quantity.string()).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.model.quantity import Quantity, QuantityError, as_quantity, parse_quantity
from crdtool.schema.apimachinery.names import is_dns1123_label, is_qualified_name

_STANDARD_CONTAINER_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})
#: helper.standardResources: the names IsStandardResourceName knows (besides quota huge pages).
_STANDARD_RESOURCES = frozenset({
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
    "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
    "services.nodeports", "services.loadbalancers"})
_QOS_RESOURCES = frozenset({"cpu", "memory"})
IS_NEGATIVE = "must be greater than or equal to 0"


def _text(quantity: str | int | float) -> str:
    return quantity if isinstance(quantity, str) else str(quantity)


def is_huge_page(name: str) -> bool:
    """helper.IsHugePageResourceName."""
    return name.startswith("hugepages-")


def is_huge_page_value_divisible(name: str, quantity: Quantity) -> bool:
    """helper.IsHugePageResourceValueDivisible: the page size in the name (HugePageSizeFromResourceName)
    is positive and a whole number of bytes (its MilliValue), and the quantity's Value() a multiple of
    its Value() (a page size whose Value() overflows to zero panics in Go; here it divides nothing)."""
    try:
        size = parse_quantity(name.removeprefix("hugepages-"))
    except QuantityError:
        return False
    if size.sign() <= 0 or size.scaled_value(-3) % 1000 != 0 or size.scaled_value(0) == 0:
        return False
    return quantity.scaled_value(0) % size.scaled_value(0) == 0


def _huge_page_value(name: str, quantity: str | int | float, value: Quantity, path: Path) -> list[FieldError]:
    """validateResourceQuantityHugePageValue of a new object (AllowIndivisibleHugePagesValues off);
    `value` is the parsed `quantity`."""
    if not is_huge_page(name) or is_huge_page_value_divisible(name, value):
        return []
    return [FieldError.invalid(path, _text(quantity), f"{_text(quantity)} is not positive integer multiple of {name}")]


def is_native(name: str) -> bool:
    """helper.IsNativeResource: no domain, or a kubernetes.io one."""
    return "/" not in name or "kubernetes.io/" in name


def is_extended(name: str) -> bool:
    """helper.IsExtendedResourceName: a domain-qualified non-native name that, prefixed with
    `requests.`, is still a qualified name."""
    if is_native(name) or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name)


def is_overcommit_allowed(name: str) -> bool:
    """helper.IsOvercommitAllowed: native resources other than huge pages."""
    return is_native(name) and not is_huge_page(name)


def validate_resource_quantity_value(name: str, quantity: str | int | float, value: Quantity,
                                     path: Path) -> list[FieldError]:
    """ValidateResourceQuantityValue: not negative; whole for integer (extended) resources. `value` is
    the parsed `quantity` (the texts show it as decoded)."""
    errs = []
    if value.sign() < 0:
        errs.append(FieldError.invalid(path, _text(quantity), IS_NEGATIVE))
    if is_extended(name) and value.scaled_value(-3) % 1000 != 0:  # MilliValue() % 1000, Go's int64s
        errs.append(FieldError.invalid(path, TypedString(_text(quantity)), "must be an integer"))
    return errs


def validate_resource_name(name: str, path: Path) -> list[FieldError]:
    """validateResourceName: a qualified name (and nothing more when it is not); without a domain,
    a standard resource (helper.IsStandardResourceName, quota huge pages included)."""
    errs = [FieldError.invalid(path, TypedString(name), m) for m in is_qualified_name(name)]
    if errs:
        return errs
    standard = name in _STANDARD_RESOURCES or name.startswith(("hugepages-", "requests.hugepages-"))
    if "/" not in name and not standard:
        errs.append(FieldError.invalid(path, TypedString(name), "must be a standard resource type or fully qualified"))
    return errs


def validate_container_resource_name(name: str, path: Path) -> list[FieldError]:
    """validateContainerResourceName: validateResourceName; a standard container resource without a
    domain; an extended resource's form with one."""
    errs = validate_resource_name(name, path)
    if "/" not in name:
        if name not in _STANDARD_CONTAINER_RESOURCES and not is_huge_page(name):
            errs.append(FieldError.invalid(path, TypedString(name), "must be a standard resource for containers"))
    elif not is_native(name) and not is_extended(name):
        errs.append(FieldError.invalid(path, TypedString(name), "doesn't follow extended resource name standard"))
    return errs


NameCheck = Callable[[str, Path], list[FieldError]]


def validate_container_resource_requirements(requirements: dict[str, Any] | None, claim_names: set[str],
                                             path: Path,
                                             name_check: NameCheck = validate_container_resource_name,
                                             ) -> list[FieldError]:
    """validateResourceRequirements: names (`name_check`: the container's or the pod's resource
    names) and quantities of limits and requests; a request at most its limit (equal to it for
    resources that cannot be overcommitted, which need a limit); huge pages in whole pages of their
    size, and beside cpu or memory;
    claims named in pod.spec.resourceClaims."""
    requirements = requirements or {}
    limits: dict[str, Any] = requirements.get("limits") or {}
    requests: dict[str, Any] = requirements.get("requests") or {}
    lim_path, req_path = path.child("limits"), path.child("requests")
    errs: list[FieldError] = []
    cpu_or_memory = huge_pages = False
    limit_values = {name: as_quantity(quantity) for name, quantity in limits.items()}
    for name, quantity in limits.items():
        at = lim_path.key(name)
        errs += name_check(name, at)
        errs += validate_resource_quantity_value(name, quantity, limit_values[name], at)
        errs += _huge_page_value(name, quantity, limit_values[name], at)
        huge_pages |= is_huge_page(name)
        cpu_or_memory |= name in _QOS_RESOURCES
    for name, quantity in requests.items():
        at = req_path.key(name)
        value = as_quantity(quantity)
        errs += name_check(name, at)
        errs += validate_resource_quantity_value(name, quantity, value, at)
        if name in limits:
            limit = limits[name]
            request_value, limit_value = value.amount, limit_values[name].amount  # Cmp: by value
            if request_value != limit_value and not is_overcommit_allowed(name):
                errs.append(FieldError.invalid(req_path, _text(quantity),
                                               f"must be equal to {name} limit of {_text(limit)}"))
            elif request_value > limit_value:
                errs.append(FieldError.invalid(req_path, _text(quantity),
                                               f"must be less than or equal to {name} limit of {_text(limit)}"))
        elif not is_overcommit_allowed(name):
            errs.append(FieldError.required(lim_path, "Limit must be set for non overcommitable resources"))
        errs += _huge_page_value(name, quantity, value, at)
        huge_pages |= is_huge_page(name)
        cpu_or_memory |= name in _QOS_RESOURCES
    if huge_pages and not cpu_or_memory:
        errs.append(FieldError.forbidden(path, "HugePages require cpu or memory"))
    errs += _validate_claim_names(requirements.get("claims"), claim_names, path.child("claims"))
    return errs


def _validate_claim_names(claims: list[Any] | None, pod_claims: set[str], path: Path) -> list[FieldError]:
    """validateResourceClaimNames: each claim named, one of pod.spec.resourceClaims, referenced
    once (a claim as a whole, or each of its requests once, not both)."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, claim in enumerate(claims or ()):
        claim = claim or {}
        name, request = claim.get("name") or "", claim.get("request") or ""
        at = path.index(i)
        if not name:
            errs.append(FieldError.required(at))
            continue
        if name in seen:
            errs.append(FieldError.duplicate(at, name))
        else:
            key = name
            if request:
                errs += [FieldError.invalid(at.child("request"), request, m) for m in is_dns1123_label(request)]
                key += "/" + request
            if key in seen:
                errs.append(FieldError.duplicate(at, key))
            elif not request:
                # Go walks a set here: one error per request of this claim referenced before
                errs += [FieldError.duplicate(at, name) for k in sorted(seen) if k.startswith(name + "/")]
            seen.add(key)
        if name not in pod_claims:
            detail = "must be one of the names in pod.spec.resourceClaims"
            detail += " which is empty" if not pod_claims else ": " + ", ".join(sorted(pod_claims))
            errs.append(FieldError(FieldError.not_found(at, name).type, at, name, detail))
    return errs
