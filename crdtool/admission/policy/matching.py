"""Which requests a policy or binding applies to: k8s.io/apiserver pkg/admission/plugin/policy/matching
(Matches, matchesResourceRules) over the webhook predicates (rules.Matcher, the namespace and object
selector matchers), and metav1.LabelSelectorAsSelector (crdtool.schema.apimachinery.labelselector).

A request is anything with admission's attributes (crdtool.admission's `Attributes`): operation,
object, old_object, resource (group, version, kind, resource, subresource), name, namespace,
namespace_object (the Namespace, when the inputs have it) and equivalents (the resource's other
served versions, for matchPolicy Equivalent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.admission.rules import rule_matches
from crdtool.schema.apimachinery import labelselector

__all__ = ["Match", "NamespaceUnknown", "labels_match", "match_resources"]


@dataclass(frozen=True)
class Match:
    """A match: the resource's version and kind the request is seen as (the equivalent one that a
    rule named, under matchPolicy Equivalent)."""

    version: str
    kind: str


class NamespaceUnknown(Exception):
    """The namespaceSelector needs the labels of a namespace the inputs do not hold."""


class SelectorError(ValueError):
    """LabelSelectorAsSelector's refusal of a selector."""


def labels_match(selector: dict[str, Any] | None, labels: dict[str, Any] | None) -> bool:
    """Whether `labels` satisfy a metav1.LabelSelector (an empty one matches everything). Raises
    SelectorError, with LabelSelectorAsSelector's text, for a selector that does not convert."""
    if not selector:
        return True
    if not labelselector.converts(selector):
        raise SelectorError(_conversion_error(selector))
    return labelselector.matches(selector, labels if isinstance(labels, dict) else {})


def _conversion_error(selector: dict[str, Any]) -> str:
    """The error of LabelSelectorAsSelector (labels.NewRequirement's texts for its operators)."""
    for expr in selector.get("matchExpressions") or []:
        op, values = (expr or {}).get("operator"), (expr or {}).get("values") or []
        if op in ("In", "NotIn") and not values:
            return "for 'in', 'notin' operators, values set can't be empty"
        if op in ("Exists", "DoesNotExist") and values:
            return "values set must be empty for exists and does not exist"
        if op not in ("In", "NotIn", "Exists", "DoesNotExist"):
            return f'"{op}" is not a valid label selector operator'
    return "invalid label selector"


def _selector_empty(selector: Any) -> bool:
    return not selector or labelselector.is_empty(selector)


def _rule_matches(rule: dict[str, Any], request: Any, resource: tuple[str, str, str]) -> bool:
    """rules.Matcher.Matches for the request with `resource` (its own or an equivalent one)."""
    group, version, plural = resource
    return rule_matches(rule, request.operation, request.namespace, group, version, plural,
                        request.resource.subresource)


def _rules_match(rules: list[dict[str, Any]], policy: str, request: Any) -> Match | None:
    """matchesResourceRules: the request's own resource first, then (matchPolicy Equivalent) the
    equivalent versions of it."""
    res = request.resource
    own = (res.group, res.version, res.resource)
    for rule in rules:
        if _rule_matches(rule, request, own) and _named(rule, request):
            return Match(res.version, res.kind)
    if policy != "Equivalent":
        return None
    for rule in rules:
        for version, kind in request.equivalents:
            if version == res.version:
                continue
            if _rule_matches(rule, request, (res.group, version, res.resource)) and _named(rule, request):
                return Match(version, kind)
    return None


def _named(rule: dict[str, Any], request: Any) -> bool:
    names = rule.get("resourceNames") or []
    return not names or request.name in names


def match_resources(match: dict[str, Any], request: Any, namespace_labels: dict[str, Any] | None,
                    require_rules: bool = True) -> Match | None:
    """matching.Matcher.Matches of a MatchResources: namespace and object selectors, excluded rules,
    then resource rules (none: everything matches). Raises SelectorError (the apiserver's internal
    error for a selector it cannot parse) and NamespaceUnknown."""
    ns_error: Exception | None = None
    try:
        if not _namespace_matches(match.get("namespaceSelector"), request, namespace_labels):
            return None
    except (SelectorError, NamespaceUnknown) as err:
        ns_error = err
    selector = match.get("objectSelector")
    obj_error: SelectorError | None = None
    try:
        if not _selector_empty(selector) and not any(
                isinstance(o, dict) and labels_match(selector, (o.get("metadata") or {}).get("labels"))
                for o in (request.object, request.old_object) if o is not None):
            return None
    except SelectorError as err:
        obj_error = err
    policy = match.get("matchPolicy") or "Equivalent"
    if _rules_match(match.get("excludeResourceRules") or [], policy, request) is not None:
        return None
    rules = match.get("resourceRules") or []
    found = _rules_match(rules, policy, request) if rules else Match(request.resource.version, request.resource.kind)
    if found is None:
        return None
    if ns_error is not None:
        raise ns_error
    if obj_error is not None:
        raise obj_error
    return found


def _namespace_matches(selector: Any, request: Any, namespace_labels: dict[str, Any] | None) -> bool:
    """MatchNamespaceSelector: cluster-scoped requests (but namespaces themselves) always match; a
    Namespace being created or updated is matched by its own labels."""
    res = request.resource
    if not request.namespace and res.resource != "namespaces":
        return True
    if _selector_empty(selector):
        return True
    if res.resource == "namespaces" and not res.subresource and request.operation in ("CREATE", "UPDATE"):
        labels = ((request.object or {}).get("metadata") or {}).get("labels")
        return labels_match(selector, labels)
    if namespace_labels is None:
        raise NamespaceUnknown(request.namespace)
    return labels_match(selector, namespace_labels)
