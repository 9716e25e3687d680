"""A pod's own resources as core/validation checks them (kubernetes
pkg/apis/core/validation/validation.go, 1.36): its resource claims (validatePodResourceClaims,
dynamic resource allocation, GA in 1.34 and on in 1.36) and its pod-level resources
(validatePodResources with validatePodResourceRequirements and validatePodResourceConsistency,
feature PodLevelResources, on by default in 1.36).

Pod-level requests are checked against the containers' aggregate requests as
resourcehelper.AggregateContainerRequests computes them (regular containers and sidecars summed,
each init container's peak beside the sidecars started before it); a resource the pod does not
request is not compared (a Pod's missing pod-level requests are defaulted from its containers, see
apis.core.defaults). Quantities arrive decoded in their canonical form; an aggregate of several
containers is shown in that form too.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis.core.resources import (
    is_huge_page,
    validate_container_resource_requirements,
    validate_resource_name,
)
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.model.quantity import Quantity, as_quantity, quantity_value
from crdtool.schema.apimachinery.names import is_dns1123_label, name_is_dns_subdomain

#: resourcehelper.SupportedPodLevelResources(), sorted as sets.List gives them.
SUPPORTED_POD_LEVEL_RESOURCES = ("cpu", "hugepages-", "memory")


# ---------------------------------------------------------------- resource claims

def pod_claim_names(claims: list[Any] | None) -> set[str]:
    """gatherPodResourceClaimNames: the non-empty names, which containers may refer to."""
    return {name for c in claims or () if (name := (c or {}).get("name"))}


def validate_pod_resource_claims(claims: list[Any] | None, path: Path) -> list[FieldError]:
    """validatePodResourceClaims: each claim named by a unique DNS label, with exactly one of
    resourceClaimName and resourceClaimTemplateName, each a DNS subdomain (a ResourceClaim's or a
    ResourceClaimTemplate's name)."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, claim in enumerate(claims or ()):
        claim = claim or {}
        at = path.index(i)
        name = claim.get("name") or ""
        if not name:
            errs.append(FieldError.required(at.child("name")))
        elif name in seen:
            errs.append(FieldError.duplicate(at.child("name"), name))
        else:
            errs += [FieldError.invalid(at.child("name"), name, m) for m in is_dns1123_label(name)]
            seen.add(name)
        claim_name, template_name = claim.get("resourceClaimName"), claim.get("resourceClaimTemplateName")
        if claim_name is not None and template_name is not None:
            errs.append(FieldError.invalid(at, _claim_struct(claim), "at most one of `resourceClaimName` or "
                                                                      "`resourceClaimTemplateName` may be specified"))
        if claim_name is None and template_name is None:
            errs.append(FieldError.invalid(at, _claim_struct(claim), "must specify one of: `resourceClaimName`, "
                                                                      "`resourceClaimTemplateName`"))
        for field, value in (("resourceClaimName", claim_name), ("resourceClaimTemplateName", template_name)):
            if value is not None:
                errs += [FieldError.invalid(at.child(field), value, m) for m in name_is_dns_subdomain(value, False)]
    return errs


def _claim_struct(claim: dict[str, Any]) -> GoStruct:
    """The internal core.PodResourceClaim as json.Marshal writes it (Go field names; the two names
    are *string)."""
    def ptr(value: Any) -> Any:
        return TypedString(value) if isinstance(value, str) else value
    return GoStruct(Name=claim.get("name") or "", ResourceClaimName=ptr(claim.get("resourceClaimName")),
                    ResourceClaimTemplateName=ptr(claim.get("resourceClaimTemplateName")))


# ---------------------------------------------------------------- pod-level resources

def is_pod_level_resource(name: str) -> bool:
    """resourcehelper.IsSupportedPodLevelResource: cpu, memory and huge pages."""
    return name in ("cpu", "memory") or is_huge_page(name)


def validate_pod_resource_name(name: str, path: Path) -> list[FieldError]:
    """validatePodResourceName: validateResourceName, then one of the pod-level resources."""
    errs = validate_resource_name(name, path)
    if errs:
        return errs
    if is_pod_level_resource(name):
        return []
    return [FieldError.not_supported(path, TypedString(name), SUPPORTED_POD_LEVEL_RESOURCES)]


def validate_pod_resources(spec: dict[str, Any], claim_names: set[str], path: Path) -> list[FieldError]:
    """validatePodResources: no claims at pod level; the requirements' rules with pod-level resource
    names; then the containers' consistency with them. `path` is `spec.resources`."""
    resources = spec.get("resources")
    if resources is None:
        return []
    errs: list[FieldError] = []
    if resources.get("claims") is not None:
        errs.append(FieldError.forbidden(path.child("claims"), "claims cannot be set for Resources at pod-level"))
    errs += validate_container_resource_requirements(resources, claim_names, path, validate_pod_resource_name)
    return errs + _validate_consistency(spec, resources, path)


def _validate_consistency(spec: dict[str, Any], resources: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePodResourceConsistency: the pod requests at least what its containers request in
    aggregate; no container's limit above the pod's."""
    errs: list[FieldError] = []
    pod_requests: dict[str, Any] = resources.get("requests") or {}
    pod_limits: dict[str, Any] = resources.get("limits") or {}
    for name, total in aggregate_container_requests(spec).items():
        if name in pod_requests and total.amount > quantity_value(pod_requests[name]):
            errs.append(FieldError.invalid(path.child("requests").key(name), _text(pod_requests[name]),
                                           "must be greater than or equal to aggregate container requests of "
                                           + total.string()))
    for i, container in enumerate(spec.get("containers") or ()):
        for name, limit in (((container or {}).get("resources") or {}).get("limits") or {}).items():
            if name in pod_limits and quantity_value(limit) > quantity_value(pod_limits[name]):
                detail = f"must be less than or equal to pod limits of {_text(pod_limits[name])}"
                errs.append(FieldError.invalid(path.child("containers").index(i).key(name).child("limits"),
                                               _text(limit), detail))
    return errs


def _text(quantity: Any) -> str:
    return quantity if isinstance(quantity, str) else str(quantity)


def aggregate_container_requests(spec: dict[str, Any]) -> dict[str, Quantity]:
    """resourcehelper.AggregateContainerRequests from the spec alone: regular containers and
    sidecars (restartable init containers) add up; each other init container needs its request
    plus the sidecars started before it; the pod needs the larger of the sum and the init peak."""
    result: dict[str, Quantity] = {}
    for container in spec.get("containers") or ():
        _add(result, _requests(container))
    sidecars: dict[str, Quantity] = {}
    init_peak: dict[str, Quantity] = {}
    for container in spec.get("initContainers") or ():
        requests = _requests(container)
        if (container or {}).get("restartPolicy") == "Always":
            _add(result, requests)
            _add(sidecars, requests)
            needs = sidecars
        else:
            needs = dict(requests)
            _add(needs, sidecars)
        for name, total in needs.items():
            if name not in init_peak or total.cmp(init_peak[name]) > 0:
                init_peak[name] = total
    for name, total in init_peak.items():
        if name not in result or total.cmp(result[name]) > 0:
            result[name] = total
    return result


def _requests(container: dict[str, Any] | None) -> dict[str, Quantity]:
    requests = (((container or {}).get("resources") or {}).get("requests")) or {}
    return {name: as_quantity(q) for name, q in requests.items()}


def _add(into: dict[str, Quantity], more: dict[str, Quantity]) -> None:
    """addResourceList: Quantity.Add, the sum keeping the first quantity's format."""
    for name, quantity in more.items():
        into[name] = into[name].add(quantity) if name in into else quantity
