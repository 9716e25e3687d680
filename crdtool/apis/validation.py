"""Which built-in kinds have their own validation (kubernetes pkg/apis/<group>/validation) reproduced,
and where: a registry by (group, kind), filled by convention so that each group adds its kinds
without touching this module.

A group's validation lives in `crdtool/apis/<package>/validation.py`, where <package> is `core` for
the core group ("") and the group's first DNS label otherwise (`apps`, `batch`, `networking` for
networking.k8s.io, `rbac` for rbac.authorization.k8s.io, ...). That module exposes
`VALIDATORS: dict[str, KindValidation]` keyed by kind. The module is imported only when an object
of its group is checked.

The handler (apis.handler) runs the metadata checks every kind shares (ValidateObjectMeta, or
ValidateObjectMetaUpdate on an update, with the kind's name rule) and then the kind's own functions:
`create(obj)` for what Validate<Kind> checks beyond its metadata, `update(new, old)` for what
Validate<Kind>Update checks beyond ValidateObjectMetaUpdate (None: the kind's update runs `create`
on the new object, as most Validate<Kind>Update functions do after their immutability checks).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crdtool.model.errors import FieldError

#: Validate<Kind> beyond ObjectMeta: the decoded, defaulted object in, its field errors out.
CreateValidator = Callable[[dict[str, Any]], list[FieldError]]
#: Validate<Kind>Update beyond ObjectMetaUpdate: (new, old) in, field errors out.
UpdateValidator = Callable[[dict[str, Any], dict[str, Any]], list[FieldError]]


@dataclass(frozen=True, slots=True)
class KindValidation:
    """One kind's validation functions."""

    create: CreateValidator
    update: UpdateValidator | None = None


def package_of(group: str) -> str:
    """The crdtool.apis package of an API group: `core` for "", else the group's first label."""
    return "core" if not group else group.split(".", 1)[0]


def validation_for(group: str, kind: str) -> KindValidation | None:
    """The kind's validation, None when only decoding, defaulting and metadata are reproduced."""
    try:
        module = importlib.import_module(f"crdtool.apis.{package_of(group)}.validation")
    except ModuleNotFoundError as e:
        if e.name is not None and e.name.startswith("crdtool.apis."):
            return None
        raise
    validators: dict[str, KindValidation] = getattr(module, "VALIDATORS", {})
    return validators.get(kind)
