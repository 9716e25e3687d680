"""The annotations a Pod, or a pod template, carries for the kubelet and the scheduler, as
ValidatePodSpecificAnnotations checks them (kubernetes pkg/apis/core/validation/validation.go, 1.36):
the mirror pod annotation, the tolerations annotation, the deletion cost, the seccomp annotations and
the AppArmor annotations, in that order.

Go walks the annotations map in random order where it looks for seccomp and AppArmor keys; crdtool
reports them in the order the document lists them, so that its output is stable.
"""

from __future__ import annotations

import json
import re
from typing import Any

from crdtool.apis.core.security import visit_containers
from crdtool.model import gounmarshal as gu
from crdtool.model.errors import FieldError
from crdtool.model.gofmt import go_quote
from crdtool.model.gojson import syntax_error
from crdtool.model.path import Path

MIRROR = "kubernetes.io/config.mirror"
TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations"
DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/"
APPARMOR_CONTAINER = "container.apparmor.security.beta.kubernetes.io/"
LOCALHOST = "localhost/"

_SECCOMP_NAMED = ("runtime/default", "docker/default", "unconfined")
_APPARMOR_NAMED = ("", "runtime/default", "unconfined")
#: GetDeletionCostFromPodAnnotations: validFirstDigit (no `+`, no leading zero) and ParseInt's syntax.
_DELETION_COST = re.compile(r"(?:-[0-9]+|0|[1-9][0-9]*)\Z")
_INT32 = range(-(2**31), 2**31)


def _tolerations_type() -> gu.GoType:
    """[]core.Toleration as helper.GetTolerationsFromPodAnnotations decodes it (the internal type:
    its names are the ones encoding/json's errors print)."""
    toleration = gu.struct("core.Toleration")
    gu.define(toleration, {"key": gu.STRING, "operator": gu.string_type("core.TolerationOperator"),
                           "value": gu.STRING, "effect": gu.string_type("core.TaintEffect"),
                           "tolerationSeconds": gu.INT64}, pointers="tolerationSeconds")
    return gu.slice_of(toleration)


_TOLERATIONS_TYPE = _tolerations_type()


def validate_pod_specific_annotations(annotations: dict[str, str] | None, spec: dict[str, Any], path: Path,
                                      allow_invalid_deletion_cost: bool = False) -> list[FieldError]:
    """ValidatePodSpecificAnnotations. `path` is the annotations' (`metadata.annotations`,
    `spec.template.metadata.annotations`); `allow_invalid_deletion_cost` is
    PodValidationOptions.AllowInvalidPodDeletionCost (an update of a pod whose cost was invalid)."""
    annotations = annotations or {}
    errs: list[FieldError] = []
    if MIRROR in annotations and not spec.get("nodeName"):
        errs.append(FieldError.invalid(path.key(MIRROR), annotations[MIRROR],
                                       "must set spec.nodeName if mirror pod annotation is set"))
    if annotations.get(TOLERATIONS):
        errs += validate_tolerations_in_pod_annotations(annotations[TOLERATIONS], path)
    if not allow_invalid_deletion_cost and not is_valid_deletion_cost(annotations):
        errs.append(FieldError.invalid(path.key(DELETION_COST), annotations[DELETION_COST], "must be a 32bit integer"))
    errs += validate_seccomp_pod_annotations(annotations, path)
    return errs + validate_apparmor_pod_annotations(annotations, spec, path)


def is_valid_deletion_cost(annotations: dict[str, str]) -> bool:
    """helper.GetDeletionCostFromPodAnnotations succeeds: no cost, or a base-10 int32 without a plus
    sign or leading zeros."""
    if DELETION_COST not in annotations:
        return True
    text = annotations[DELETION_COST]
    return _DELETION_COST.match(text) is not None and int(text) in _INT32


class _Number(float):
    """A JSON number that remembers its text: encoding/json decodes an integer field from the text and
    quotes it in its error (`number 1.5`)."""

    text: str

    def __new__(cls, text: str) -> _Number:
        number = super().__new__(cls, float(text))
        number.text = text
        return number


def decode_tolerations(text: str) -> tuple[list[dict[str, Any]], str | None]:
    """GetTolerationsFromPodAnnotations: json.Unmarshal of the annotation into []core.Toleration with
    the standard library's decoder (struct fields matched regardless of case, unknown ones dropped).
    Returns the tolerations (json names, absent fields left out) and encoding/json's error text."""
    error = syntax_error(text.encode("utf-8", "surrogateescape"))
    if error is not None:
        return [], error
    value = json.loads(text, parse_int=_Number, parse_float=_Number)
    decoded = gu.unmarshal(value, _TOLERATIONS_TYPE, fold_case=True, number_text=lambda n: n.text)
    if decoded.error is not None:
        return [], str(decoded.error)
    return decoded.value or [], None


def validate_tolerations_in_pod_annotations(text: str, path: Path) -> list[FieldError]:
    """ValidateTolerationsInPodAnnotations: the annotation decodes (else one error at the annotations'
    path, the key as its value), then ValidateTolerations at `<path>.<key>[i]`, as Go's Child names it."""
    from crdtool.apis.core.pods import validate_tolerations

    tolerations, error = decode_tolerations(text)
    if error is not None:
        return [FieldError.invalid(path, TOLERATIONS, error)]
    return validate_tolerations(tolerations, path.child(TOLERATIONS)) if tolerations else []


def validate_seccomp_pod_annotations(annotations: dict[str, str], path: Path) -> list[FieldError]:
    """ValidateSeccompPodAnnotations: the pod's profile, then each container's, at `<path>.<key>`
    (Go's Child, not Key)."""
    errs: list[FieldError] = []
    if SECCOMP_POD in annotations:
        errs += validate_seccomp_profile(annotations[SECCOMP_POD], path.child(SECCOMP_POD))
    for key, profile in annotations.items():
        if key.startswith(SECCOMP_CONTAINER):
            errs += validate_seccomp_profile(profile, path.child(key))
    return errs


def validate_seccomp_profile(profile: str, path: Path) -> list[FieldError]:
    """ValidateSeccompProfile: a named profile, or `localhost/` and a relative path without `..`."""
    from crdtool.apis.core.volumes import validate_local_descending_path

    if profile in _SECCOMP_NAMED:
        return []
    if profile.startswith(LOCALHOST):
        return validate_local_descending_path(profile.removeprefix(LOCALHOST), path)
    return [FieldError.invalid(path, profile, "must be a valid seccomp profile")]


def validate_apparmor_pod_annotations(annotations: dict[str, str], spec: dict[str, Any],
                                      path: Path) -> list[FieldError]:
    """ValidateAppArmorPodAnnotations: each AppArmor annotation names a container of the pod (init,
    regular or ephemeral) and a profile of the annotation's format."""
    names = {c.get("name") or "" for c, _ in visit_containers(spec, Path.root("spec"))}
    errs: list[FieldError] = []
    for key, profile in annotations.items():
        if not key.startswith(APPARMOR_CONTAINER):
            continue
        container = key.removeprefix(APPARMOR_CONTAINER)
        if container not in names:
            errs.append(FieldError.invalid(path.key(key), container, "container not found"))
        if profile not in _APPARMOR_NAMED and not profile.startswith(LOCALHOST):
            errs.append(FieldError.invalid(path.key(key), profile,
                                           f"invalid AppArmor profile name: {go_quote(profile)}"))
    return errs
