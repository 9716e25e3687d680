"""A pod's scheduling constraints as core/validation checks them (kubernetes
pkg/apis/core/validation/validation.go, 1.36): validateAffinity (node affinity with its node selector
terms, pod affinity and anti-affinity terms) and validateTopologySpreadConstraints.

Options for a new object (GetValidationOptionsFromPodSpecAndMeta): invalid label values are refused
in pod affinity selectors, in required node affinity and in topology spread selectors
(AllowInvalidLabelValueInSelector, AllowInvalidLabelValueInRequiredNodeAffinity and
AllowInvalidTopologySpreadConstraintLabelSelector are only set when the old object already had one).
"""

from __future__ import annotations

from typing import Any

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_name, validate_label_selector
from crdtool.schema.apimachinery.names import is_valid_label_value, name_is_dns_label, name_is_dns_subdomain

WEIGHT_RANGE = "must be in the range 1-100"
NOT_POSITIVE = "must be greater than zero"
NO_SELECTOR = "must not be specified when labelSelector is not set"
IN_BOTH_SELECTOR = "exists in both matchLabelKeys and labelSelector"


# ---------------------------------------------------------------- node selectors

def validate_node_selector_requirement(req: dict[str, Any], allow_invalid_value: bool, path: Path) -> list[FieldError]:
    """ValidateNodeSelectorRequirement: the values each operator takes, a label key, label values."""
    errs: list[FieldError] = []
    operator = req.get("operator") or ""
    values = req.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(FieldError.required(path.child("values"),
                                            "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(FieldError.forbidden(path.child("values"),
                                             "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(FieldError.required(path.child("values"),
                                            "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        errs.append(FieldError.invalid(path.child("operator"), TypedString(operator), "not a valid selector operator"))
    errs += validate_label_name(req.get("key") or "", path.child("key"))
    if not allow_invalid_value:
        for i, value in enumerate(values):
            errs += [FieldError.invalid(path.child("values").index(i), value or "", m)
                     for m in is_valid_label_value(value or "")]
    return errs


def validate_node_field_selector_requirement(req: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateNodeFieldSelectorRequirement: In or NotIn with one value, on `metadata.name` only."""
    errs: list[FieldError] = []
    operator = req.get("operator") or ""
    values = req.get("values") or []
    if operator in ("In", "NotIn"):
        if len(values) != 1:
            errs.append(FieldError.required(path.child("values"), "must be only one value when `operator` is "
                                            "'In' or 'NotIn' for node field selector"))
    else:
        errs.append(FieldError.invalid(path.child("operator"), TypedString(operator), "not a valid selector operator"))
    key = req.get("key") or ""
    if key != "metadata.name":
        errs.append(FieldError.invalid(path.child("key"), key, "not a valid field selector key"))
    else:
        for i, value in enumerate(values):
            errs += [FieldError.invalid(path.child("values").index(i), value or "", m)
                     for m in name_is_dns_subdomain(value or "", False)]
    return errs


def validate_node_selector_term(term: dict[str, Any], allow_invalid_value: bool, path: Path) -> list[FieldError]:
    """ValidateNodeSelectorTerm: each matchExpressions and matchFields requirement."""
    errs: list[FieldError] = []
    for j, req in enumerate(term.get("matchExpressions") or ()):
        errs += validate_node_selector_requirement(req or {}, allow_invalid_value,
                                                   path.child("matchExpressions").index(j))
    for j, req in enumerate(term.get("matchFields") or ()):
        errs += validate_node_field_selector_requirement(req or {}, path.child("matchFields").index(j))
    return errs


def validate_node_selector(selector: dict[str, Any], allow_invalid_value: bool, path: Path) -> list[FieldError]:
    """ValidateNodeSelector: at least one term, each valid."""
    terms_path = path.child("nodeSelectorTerms")
    terms = selector.get("nodeSelectorTerms") or []
    if not terms:
        return [FieldError.required(terms_path, "must have at least one node selector term")]
    errs: list[FieldError] = []
    for i, term in enumerate(terms):
        errs += validate_node_selector_term(term or {}, allow_invalid_value, terms_path.index(i))
    return errs


def _validate_node_affinity(affinity: dict[str, Any], path: Path) -> list[FieldError]:
    """validateNodeAffinity: the required node selector, the preferred terms' weights and terms
    (invalid label values always allowed in a preference)."""
    errs: list[FieldError] = []
    required = affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is not None:
        errs += validate_node_selector(required, False, path.child("requiredDuringSchedulingIgnoredDuringExecution"))
    preferred_path = path.child("preferredDuringSchedulingIgnoredDuringExecution")
    for i, term in enumerate(affinity.get("preferredDuringSchedulingIgnoredDuringExecution") or ()):
        term = term or {}
        weight = term.get("weight") or 0
        if not 0 < weight <= 100:
            errs.append(FieldError.invalid(preferred_path.index(i).child("weight"), weight, WEIGHT_RANGE))
        errs += validate_node_selector_term(term.get("preference") or {}, True,
                                            preferred_path.index(i).child("preference"))
    return errs


# ---------------------------------------------------------------- pod affinity

def _validate_pod_affinity_term(term: dict[str, Any], path: Path, merged_keys: set[str]) -> list[FieldError]:
    """validatePodAffinityTerm: the selectors, namespaces as namespace names (reported under the
    path `namespace`, sic), matchLabelKeys and mismatchLabelKeys, a topologyKey."""
    errs = validate_label_selector(term.get("labelSelector"), path.child("labelSelector"))
    errs += validate_label_selector(term.get("namespaceSelector"), path.child("namespaceSelector"))
    for name in term.get("namespaces") or ():
        errs += [FieldError.invalid(path.child("namespace"), name or "", m)
                 for m in name_is_dns_label(name or "", False)]
    errs += _validate_match_and_mismatch_label_keys(path, term, merged_keys)
    topology_key = term.get("topologyKey") or ""
    if not topology_key:
        errs.append(FieldError.required(path.child("topologyKey"), "can not be empty"))
    return errs + validate_label_name(topology_key, path.child("topologyKey"))


def _validate_match_and_mismatch_label_keys(path: Path, term: dict[str, Any],
                                            merged_keys: set[str]) -> list[FieldError]:
    """validateMatchLabelKeysAndMismatchLabelKeys: the keys are label names and need a labelSelector;
    a matchLabelKeys key is not in the labelSelector too; no key in both lists.

    For a Pod, the create strategy has already merged each matchLabelKeys and mismatchLabelKeys key
    whose label the pod carries into the labelSelector as one more expression (the
    MatchLabelKeysInPodAffinity feature, GA): `merged_keys` are the pod's label keys, so
    that a key the user also wrote in the selector is found twice, as the apiserver finds it."""
    match_keys = [k or "" for k in term.get("matchLabelKeys") or ()]
    mismatch_keys = [k or "" for k in term.get("mismatchLabelKeys") or ()]
    selector = term.get("labelSelector")
    errs = _validate_label_keys(path.child("matchLabelKeys"), match_keys, selector)
    errs += _validate_label_keys(path.child("mismatchLabelKeys"), mismatch_keys, selector)
    if selector is not None:
        index = {key: i for i, key in enumerate(match_keys)}
        seen = set((selector.get("matchLabels") or {}).keys())
        expressions = [(e or {}).get("key") or "" for e in selector.get("matchExpressions") or ()]
        expressions += [k for k in match_keys + mismatch_keys if k in merged_keys]
        for key in expressions:
            if key in index and key in seen:
                # (reported at fldPath.Index(i): the term's path with an index, as Go writes it)
                errs.append(FieldError.invalid(path.index(index[key]), key, IN_BOTH_SELECTOR))
            seen.add(key)
    mismatch = set(mismatch_keys)
    for i, key in enumerate(match_keys):
        if key in mismatch:
            errs.append(FieldError.invalid(path.child("matchLabelKeys").index(i), key,
                                           "exists in both matchLabelKeys and mismatchLabelKeys"))
    return errs


def _validate_label_keys(path: Path, keys: list[str], selector: dict[str, Any] | None) -> list[FieldError]:
    """validateLabelKeys."""
    if not keys:
        return []
    if selector is None:
        return [FieldError.forbidden(path, NO_SELECTOR)]
    errs: list[FieldError] = []
    for i, key in enumerate(keys):
        errs += validate_label_name(key, path.index(i))
    return errs


def _validate_pod_affinity(affinity: dict[str, Any], path: Path, merged_keys: set[str]) -> list[FieldError]:
    """validatePodAffinity and validatePodAntiAffinity (the same checks): required terms, weighted
    preferred terms."""
    errs: list[FieldError] = []
    required_path = path.child("requiredDuringSchedulingIgnoredDuringExecution")
    for i, term in enumerate(affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or ()):
        errs += _validate_pod_affinity_term(term or {}, required_path.index(i), merged_keys)
    preferred_path = path.child("preferredDuringSchedulingIgnoredDuringExecution")
    for j, weighted in enumerate(affinity.get("preferredDuringSchedulingIgnoredDuringExecution") or ()):
        weighted = weighted or {}
        weight = weighted.get("weight") or 0
        if not 0 < weight <= 100:
            errs.append(FieldError.invalid(preferred_path.index(j).child("weight"), weight, WEIGHT_RANGE))
        errs += _validate_pod_affinity_term(weighted.get("podAffinityTerm") or {},
                                            preferred_path.index(j).child("podAffinityTerm"), merged_keys)
    return errs


def validate_affinity(affinity: dict[str, Any] | None, path: Path,
                      pod_labels: dict[str, str] | None = None) -> list[FieldError]:
    """validateAffinity. `pod_labels` is a Pod's labels (None for a pod template), which the Pod
    create strategy uses to merge matchLabelKeys into the terms' selectors."""
    if affinity is None:
        return []
    merged = set(pod_labels or {})
    errs: list[FieldError] = []
    if affinity.get("nodeAffinity") is not None:
        errs += _validate_node_affinity(affinity["nodeAffinity"], path.child("nodeAffinity"))
    if affinity.get("podAffinity") is not None:
        errs += _validate_pod_affinity(affinity["podAffinity"], path.child("podAffinity"), merged)
    if affinity.get("podAntiAffinity") is not None:
        errs += _validate_pod_affinity(affinity["podAntiAffinity"], path.child("podAntiAffinity"), merged)
    return errs


# ---------------------------------------------------------------- topology spread

_SCHEDULE_ACTIONS = ("DoNotSchedule", "ScheduleAnyway")
_NODE_INCLUSION_POLICIES = ("Honor", "Ignore")


def validate_topology_spread_constraints(constraints: list[Any] | None, path: Path,
                                         pod_labels: dict[str, str] | None = None) -> list[FieldError]:
    """validateTopologySpreadConstraints: maxSkew, topologyKey, whenUnsatisfiable, no two
    constraints with the same {topologyKey, whenUnsatisfiable}, minDomains, the node inclusion
    policies, matchLabelKeys and the labelSelector (invalid label values refused).

    matchLabelKeys are checked as 1.36 checks them with MatchLabelKeysInPodTopologySpread and
    MatchLabelKeysInPodTopologySpreadSelectorMerge on (both beta, on by default since 1.27 and
    1.34): by validateMatchLabelKeysAndMismatchLabelKeys, after the Pod create strategy has merged
    each key the pod carries into the labelSelector (`pod_labels`: a new Pod's labels, None for a
    template or an update), so that a key also in the selector is found twice."""
    constraints = [c or {} for c in constraints or ()]
    merged = set(pod_labels or {})
    errs: list[FieldError] = []
    for i, constraint in enumerate(constraints):
        at = path.index(i)
        max_skew = constraint.get("maxSkew") or 0
        if max_skew <= 0:
            errs.append(FieldError.invalid(at.child("maxSkew"), max_skew, NOT_POSITIVE))
        topology_key = constraint.get("topologyKey") or ""
        if not topology_key:
            errs.append(FieldError.required(at.child("topologyKey"), "can not be empty"))
        action = constraint.get("whenUnsatisfiable") or ""
        if action not in _SCHEDULE_ACTIONS:
            errs.append(FieldError.not_supported(at.child("whenUnsatisfiable"), TypedString(action), _SCHEDULE_ACTIONS))
        for rest in constraints[i + 1:]:
            if (rest.get("topologyKey") or "") == topology_key and (rest.get("whenUnsatisfiable") or "") == action:
                errs.append(FieldError.duplicate(at.child("{topologyKey, whenUnsatisfiable}"),
                                                 f"{{{topology_key}, {action}}}"))
                break
        errs += _validate_min_domains(at.child("minDomains"), constraint.get("minDomains"), action)
        for field in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            policy = constraint.get(field)
            if policy is not None and policy not in _NODE_INCLUSION_POLICIES:
                errs.append(FieldError.not_supported(at.child(field), TypedString(policy), _NODE_INCLUSION_POLICIES))
        keys = {"matchLabelKeys": constraint.get("matchLabelKeys"), "labelSelector": constraint.get("labelSelector")}
        errs += _validate_match_and_mismatch_label_keys(at, keys, merged)
        errs += validate_label_selector(constraint.get("labelSelector"), at.child("labelSelector"))
    return errs


def _validate_min_domains(path: Path, min_domains: int | None, action: str) -> list[FieldError]:
    """validateMinDomains: positive, and only with DoNotSchedule."""
    if min_domains is None:
        return []
    errs: list[FieldError] = []
    if min_domains <= 0:
        errs.append(FieldError.invalid(path, min_domains, NOT_POSITIVE))
    if action != "DoNotSchedule":
        errs.append(FieldError.invalid(path, min_domains,
                                       f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
    return errs
