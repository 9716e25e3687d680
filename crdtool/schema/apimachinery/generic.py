"""apimachinery's generic field checks (`pkg/api/validation/generic.go`) that every group's
validation uses."""

from __future__ import annotations

from crdtool.model.errors import FieldError
from crdtool.model.path import Path

#: IsNegativeErrorMsg.
IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"


def validate_nonnegative_field(value: int | None, path: Path) -> list[FieldError]:
    """ValidateNonnegativeField: `must be greater than or equal to 0` (an absent field is Go's 0)."""
    if value is None or value >= 0:
        return []
    return [FieldError.invalid(path, value, IS_NEGATIVE_ERROR_MSG)]
