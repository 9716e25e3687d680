"""The metadata rules core/validation adds to apimachinery's (kubernetes pkg/apis/core/validation,
1.36), which every built-in kind's ValidateObjectMeta and ValidateObjectMetaUpdate run."""

from __future__ import annotations

from typing import Any

from crdtool.model.errors import FieldError
from crdtool.model.path import Path

#: helper.IsStandardFinalizerName: FinalizerKubernetes, FinalizerOrphanDependents, FinalizerDeleteDependents.
STANDARD_FINALIZERS = frozenset({"kubernetes", "orphan", "foregroundDeletion"})


def validate_kube_finalizer_name(value: str, path: Path) -> list[FieldError]:
    """validateKubeFinalizerName: a finalizer without a '/' must be a standard one."""
    if "/" not in value and value not in STANDARD_FINALIZERS:
        return [FieldError.invalid(path, value, "name is neither a standard finalizer name nor is it fully qualified")]
    return []


def validate_kube_finalizer_names(finalizers: list[Any] | None, path: Path) -> list[FieldError]:
    """The loop ValidateObjectMeta and ValidateObjectMetaUpdate run over metadata.finalizers."""
    errs: list[FieldError] = []
    for i, name in enumerate(finalizers or ()):
        errs += validate_kube_finalizer_name(name or "", path.index(i))
    return errs
