"""The per-kind validation registry: (group, kind) -> the port of the kind's `Validate<Kind>`
(create) and `Validate<Kind>Update` (update) of kubernetes pkg/apis/<group>/validation, 1.36.

A validator takes the decoded, defaulted object and, on an update, the stored one decoded and
defaulted the same way (None on a create), and returns the kind's own field errors: ObjectMeta's
checks (ValidateObjectMeta with the kind's name rule, apis.names) are the handler's, so a
validator reports what its Go function adds beside them. The group modules register themselves
when first asked for (a run without built-in objects imports none of them).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from crdtool.model.errors import FieldError

Validator = Callable[[dict, "dict | None"], list[FieldError]]
_REGISTRY: dict[tuple[str, str], Validator] = {}
#: The groups whose kinds have a validator, by the module that registers them.
_MODULES = {
    "networking.k8s.io": "crdtool.apis.networking.validation",
    "rbac.authorization.k8s.io": "crdtool.apis.rbac.validation",
    "autoscaling": "crdtool.apis.autoscaling.validation",
    "policy": "crdtool.apis.policy.validation",
    "scheduling.k8s.io": "crdtool.apis.scheduling.validation",
    "storage.k8s.io": "crdtool.apis.storage.validation",
}


def register(group: str, *kinds: str) -> Callable[[Validator], Validator]:
    """Mark a function as the validation of these kinds of `group`."""
    def add(fn: Validator) -> Validator:
        for kind in kinds:
            _REGISTRY[(group, kind)] = fn
        return fn
    return add


def validator(group: str, kind: str) -> Validator | None:
    """The kind's validation, or None where crdtool does not reproduce it."""
    module = _MODULES.get(group)
    if module is not None:
        import_module(module)
    return _REGISTRY.get((group, kind))
