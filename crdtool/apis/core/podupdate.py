"""What a Pod update may change, as ValidatePodUpdate checks it (kubernetes
pkg/apis/core/validation/validation.go, 1.36): container images, activeDeadlineSeconds (set, or
lowered), tolerations (only added, or a tolerationSeconds changed), scheduling gates (only removed),
terminationGracePeriodSeconds (from negative to 1), and for a pod still gated by scheduling gates,
additions to its nodeSelector and node affinity. Anything else is the apiserver's "pod updates may
not change fields other than ..." error.

That error ends with go-cmp's diff of the two specs, whose layout go-cmp randomizes on purpose (it
must not be parsed): the message up to the line break is the apiserver's, the diff after it is
crdtool's rendering in go-cmp's shape (`-` the stored value, `+` the new one, per changed field).
Spec equality is apiequality.Semantic.DeepEqual's: an absent field, null and an empty list, map or
string are the same (Go's zero values after decoding)."""

from __future__ import annotations

import copy
from typing import Any

from crdtool.apis.core.podannotations import APPARMOR_CONTAINER, MIRROR
from crdtool.apis.core.pods import validate_tolerations
from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_json
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import inclusive_range_error

_SPEC = Path.root("spec")
_MAX_INT32 = 2**31 - 1
UPDATABLE_FIELDS = (
    "`spec.containers[*].image`",
    "`spec.initContainers[*].image`",
    "`spec.activeDeadlineSeconds`",
    "`spec.tolerations` (only additions to existing tolerations)",
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
)


def validate_pod_specific_annotation_updates(new: dict[str, Any], old: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidatePodSpecificAnnotationUpdates' checks of changes (the annotations' own checks follow
    it in the caller): AppArmor and mirror pod annotations are neither added, changed nor removed."""
    new_ann = (new.get("metadata") or {}).get("annotations") or {}
    old_ann = (old.get("metadata") or {}).get("annotations") or {}
    errs: list[FieldError] = []
    for key, value in old_ann.items():
        if key in new_ann and new_ann[key] == value:
            continue
        if key.startswith(APPARMOR_CONTAINER):
            errs.append(FieldError.forbidden(path.key(key), "may not remove or update AppArmor annotations"))
        if key == MIRROR:
            errs.append(FieldError.forbidden(path.key(key), "may not remove or update mirror pod annotation"))
    for key in new_ann:
        if key in old_ann:
            continue
        if key.startswith(APPARMOR_CONTAINER):
            errs.append(FieldError.forbidden(path.key(key), "may not add AppArmor annotations"))
        if key == MIRROR:
            errs.append(FieldError.forbidden(path.key(key), "may not add mirror pod annotation"))
    return errs


def validate_pod_spec_update(new_spec: dict[str, Any], old_spec: dict[str, Any]) -> list[FieldError]:
    """ValidatePodUpdate's checks of the spec, after the new pod's own validation."""
    errs: list[FieldError] = []
    for field in ("containers", "initContainers"):
        own, stop = _container_updates(new_spec.get(field) or [], old_spec.get(field) or [], _SPEC.child(field))
        errs += own
        if stop:
            return errs
    deadline, old_deadline = new_spec.get("activeDeadlineSeconds"), old_spec.get("activeDeadlineSeconds")
    at = _SPEC.child("activeDeadlineSeconds")
    if deadline is not None:
        if not 0 <= deadline <= _MAX_INT32:
            return errs + [FieldError.invalid(at, deadline, inclusive_range_error(0, _MAX_INT32))]
        if old_deadline is not None and old_deadline < deadline:
            return errs + [FieldError.invalid(at, deadline, "must be less than or equal to previous value")]
    elif old_deadline is not None:
        errs.append(FieldError.invalid(at, None, "must not update from a positive integer to nil value"))
    errs += _only_added_tolerations(new_spec.get("tolerations") or [], old_spec.get("tolerations") or [],
                                    _SPEC.child("tolerations"))
    errs += _only_deleted_scheduling_gates(new_spec.get("schedulingGates") or [],
                                           old_spec.get("schedulingGates") or [], _SPEC.child("schedulingGates"))
    if semantic_equal(new_spec, old_spec):
        return errs
    munged = _munge(new_spec, old_spec)
    if old_spec.get("schedulingGates"):
        errs += _gated_pod_mutations(munged, old_spec)
    if not semantic_equal(munged, old_spec):
        message = "pod updates may not change fields other than " + ",".join(UPDATABLE_FIELDS)
        errs.append(FieldError.forbidden(_SPEC, f"{message}\n{spec_diff(old_spec, munged)}"))
    return errs


def _container_updates(new: list[Any], old: list[Any], path: Path) -> tuple[list[FieldError], bool]:
    """ValidateContainerUpdates: as many containers as before (else stop), each with an image
    without surrounding whitespace."""
    if len(new) != len(old):
        return [FieldError.forbidden(path, "pod updates may not add or remove containers")], True
    errs: list[FieldError] = []
    for i, c in enumerate(new):
        image = (c or {}).get("image") or ""
        if not image:
            errs.append(FieldError.required(path.index(i).child("image")))
        if image.strip(" \t\n\v\f\r\x85\xa0") != image:
            errs.append(FieldError.invalid(path.index(i).child("image"), image,
                                           "must not have leading or trailing whitespace"))
    return errs, False


def _only_added_tolerations(new: list[Any], old: list[Any], path: Path) -> list[FieldError]:
    """validateOnlyAddedTolerations: each old toleration is still there (its tolerationSeconds may
    change); then the new ones are valid."""
    for previous in old:
        previous = {k: v for k, v in (previous or {}).items() if k != "tolerationSeconds"}
        if not any(semantic_equal(previous, {k: v for k, v in (t or {}).items() if k != "tolerationSeconds"})
                   for t in new):
            return [FieldError.forbidden(path, "existing toleration can not be modified except its tolerationSeconds")]
    return validate_tolerations(new, path)


def _only_deleted_scheduling_gates(new: list[Any], old: list[Any], path: Path) -> list[FieldError]:
    """validateOnlyDeletedSchedulingGates: no gate that the stored pod did not have (Go walks a map:
    document order here)."""
    old_names = {(g or {}).get("name") or "" for g in old}
    added: dict[str, int] = {}
    for i, gate in enumerate(new):
        added[(gate or {}).get("name") or ""] = i
    return [FieldError.forbidden(path.index(i).child("name"),
                                 f"only deletion is allowed, but found new scheduling gate '{name}'")
            for name, i in added.items() if name not in old_names]


def _munge(new_spec: dict[str, Any], old_spec: dict[str, Any]) -> dict[str, Any]:
    """The new spec with what may change taken from the stored one."""
    munged = copy.deepcopy(new_spec)
    for field in ("containers", "initContainers"):
        for c, previous in zip(munged.get(field) or [], old_spec.get(field) or [], strict=False):
            if isinstance(c, dict):
                c["image"] = (previous or {}).get("image")
    for field in ("activeDeadlineSeconds", "schedulingGates", "tolerations"):
        munged.pop(field, None)
        if field in old_spec:
            munged[field] = copy.deepcopy(old_spec[field])
    old_grace = old_spec.get("terminationGracePeriodSeconds")
    if old_grace is not None and old_grace < 0 and munged.get("terminationGracePeriodSeconds") == 1:
        munged["terminationGracePeriodSeconds"] = old_grace
    return munged


def _gated_pod_mutations(munged: dict[str, Any], old_spec: dict[str, Any]) -> list[FieldError]:
    """A gated pod's allowed changes: nodeSelector additions and node affinity additions, checked and
    then taken from the stored spec in `munged`."""
    errs: list[FieldError] = []
    new_selector, old_selector = munged.get("nodeSelector") or {}, old_spec.get("nodeSelector") or {}
    if not semantic_equal(new_selector, old_selector):
        if any(k not in new_selector or new_selector[k] != v for k, v in old_selector.items()):
            errs.append(FieldError.invalid(
                _SPEC.child("nodeSelector"), new_selector,
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)"))
        _restore(munged, old_spec, "nodeSelector")
    old_affinity = (old_spec.get("affinity") or {}).get("nodeAffinity")
    new_affinity = (munged.get("affinity") or {}).get("nodeAffinity")
    if not semantic_equal(old_affinity, new_affinity):
        errs += _node_affinity_mutation(_SPEC.child("affinity", "nodeAffinity"), new_affinity, old_affinity)
        affinity = munged.get("affinity")
        if affinity is None:
            if old_affinity is not None:
                munged["affinity"] = {"nodeAffinity": copy.deepcopy(old_affinity)}
        elif old_spec.get("affinity") is None and not affinity.get("podAffinity") and \
                not affinity.get("podAntiAffinity"):
            munged.pop("affinity")
        else:
            affinity.pop("nodeAffinity", None)
            if old_affinity is not None:
                affinity["nodeAffinity"] = copy.deepcopy(old_affinity)
    return errs


def _restore(munged: dict[str, Any], old_spec: dict[str, Any], field: str) -> None:
    munged.pop(field, None)
    if field in old_spec:
        munged[field] = copy.deepcopy(old_spec[field])


def _node_affinity_mutation(path: Path, new: dict[str, Any] | None, old: dict[str, Any] | None) -> list[FieldError]:
    """validateNodeAffinityMutation: a non-empty required term list keeps its length, and each term
    only gains requirements."""
    old_required = (old or {}).get("requiredDuringSchedulingIgnoredDuringExecution")
    if old_required is None:
        return []
    old_terms = old_required.get("nodeSelectorTerms") or []
    new_terms = ((new or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or {}).get("nodeSelectorTerms") or []
    terms_path = path.child("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
    if old_terms and len(old_terms) != len(new_terms):
        return [FieldError.invalid(terms_path, _terms_struct(new_terms),
                                   "no additions/deletions to non-empty NodeSelectorTerms list are allowed")]
    return [FieldError.invalid(terms_path.index(i), _term_struct(new_terms[i]),
                               "only additions are allowed (no mutations or deletions)")
            for i in range(len(old_terms)) if not _only_additions(new_terms[i] or {}, old_terms[i] or {})]


def _only_additions(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """validateNodeSelectorTermHasOnlyAdditions."""
    old_exprs, old_fields = old.get("matchExpressions") or [], old.get("matchFields") or []
    new_exprs, new_fields = new.get("matchExpressions") or [], new.get("matchFields") or []
    if not old_exprs and not old_fields and (new_exprs or new_fields):
        return False
    for old_list, new_list in ((old_exprs, new_exprs), (old_fields, new_fields)):
        if old_list and (len(new_list) < len(old_list) or not semantic_equal(new_list[:len(old_list)], old_list)):
            return False
    return True


def _terms_struct(terms: list[Any]) -> list[Any]:
    return [_term_struct(t) for t in terms]


def _term_struct(term: dict[str, Any] | None) -> Any:
    """An internal core.NodeSelectorTerm as json.Marshal writes it (Go field names, every field)."""
    from crdtool.model.gofmt import GoStruct

    term = term or {}

    def requirements(items: list[Any] | None) -> Any:
        if items is None:
            return None
        return [GoStruct(Key=(r or {}).get("key") or "", Operator=(r or {}).get("operator") or "",
                         Values=(r or {}).get("values")) for r in items]
    return GoStruct(MatchExpressions=requirements(term.get("matchExpressions")),
                    MatchFields=requirements(term.get("matchFields")))


# ---------------------------------------------------------------- equality and diff

def _normal(value: Any) -> Any:
    """A decoded JSON value with Go's zero values (null, "", [], {}) dropped from objects."""
    if isinstance(value, dict):
        out = {k: _normal(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def semantic_equal(a: Any, b: Any) -> bool:
    """apiequality.Semantic.DeepEqual of two decoded values (zero values and absence alike)."""
    from crdtool.model.jsonvalue import deep_equal

    return deep_equal(_normal(a), _normal(b))


_GO_NAMES = {"dnsPolicy": "DNSPolicy", "dnsConfig": "DNSConfig", "os": "OS"}


def spec_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The changed top-level fields of a pod spec in go-cmp's diff shape."""
    old_n, new_n = _normal(old), _normal(new)
    lines = ["  core.PodSpec{"]
    for field in sorted(set(old_n) | set(new_n), key=lambda f: (f not in old_n, f)):
        if semantic_equal(old_n.get(field), new_n.get(field)):
            continue
        name = _GO_NAMES.get(field, field[:1].upper() + field[1:])
        if field in old_n:
            lines.append(f"- \t{name}: {go_json(old_n[field])},")
        if field in new_n:
            lines.append(f"+ \t{name}: {go_json(new_n[field])},")
    lines.append("  }")
    return "\n".join(lines) + "\n"
