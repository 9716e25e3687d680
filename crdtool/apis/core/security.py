"""A container's security context as core/validation checks it (ValidateSecurityContext,
kubernetes pkg/apis/core/validation/validation.go, 1.36).

Reproduced: the user and group IDs' range (IsValidUserID, IsValidGroupID) and the procMount type
(ValidateProcMountType). Not reproduced yet: `privileged` against the cluster's policy, procMount
`Unmasked` with host users, allowPrivilegeEscalation beside privileged or CAP_SYS_ADMIN, and the
seccomp, Windows and AppArmor options."""

from __future__ import annotations

from crdtool.model.errors import FieldError
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import inclusive_range_error

#: apimachinery util/validation: minUserID, maxUserID (and the same for groups).
_MIN_ID, _MAX_ID = 0, 2**31 - 1
#: core.DefaultProcMount, core.UnmaskedProcMount.
_PROC_MOUNTS = ("Default", "Unmasked")


def validate_security_context(sc: dict | None, path: Path) -> list[FieldError]:
    """ValidateSecurityContext's checks of IDs and procMount (see the module's docstring)."""
    if sc is None:
        return []
    errs: list[FieldError] = []
    for field in ("runAsUser", "runAsGroup"):
        value = sc.get(field)
        if isinstance(value, int) and not _MIN_ID <= value <= _MAX_ID:
            errs.append(FieldError.invalid(path.child(field), value, inclusive_range_error(_MIN_ID, _MAX_ID)))
    proc_mount = sc.get("procMount")
    if proc_mount is not None and proc_mount not in _PROC_MOUNTS:
        errs.append(FieldError.not_supported(path.child("procMount"), proc_mount, list(_PROC_MOUNTS)))
    return errs
