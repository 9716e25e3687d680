"""What `prune` and `default` change: the object as the apiserver stores it, and the edit made to
the user's file (which keeps everything the step does not change)."""

from __future__ import annotations

from typing import Any

from crdtool.engine.results import Result
from crdtool.engine.validate import Operation

__all__ = ["default_stored", "file_edit"]


def default_stored(result: Result) -> None:
    """Apply the defaults to the decoded (pruned) object, as the apiserver does before it stores one
    (the `default` step alone defaults the object as given)."""
    if result.object is not None:
        result.defaulted = _apply_defaults(result, result.object)


def _apply_defaults(result: Result, obj: Any) -> list[str]:
    """The defaults of the result's kind applied to `obj` in place: its CRD's, or a built-in kind's
    SetObjectDefaults; the paths set."""
    if result.crd_version is None:
        from crdtool.apis import set_defaults
        from crdtool.model.discovery import lookup_kind

        kind = lookup_kind(result.api_version or "", result.kind or "").builtin
        assert kind is not None, "a result without a CRD version is a served built-in kind's"
        return set_defaults(obj, kind)
    from crdtool.schema.defaulting.algorithm import apply_defaults

    return apply_defaults(obj, result.crd_version.structural)


def file_edit(result: Result, op: Operation, defaulted_as_given: bool = False) -> Any:
    """The input as the diff and --write change it: only what `op` removes or adds, to the document
    as written; None when that is nothing. (The apiserver's object, `result.object`, is also
    decoded: `default -o yaml` prunes it first, and ObjectMeta's round trip rewrites metadata, e.g.
    an ownerReference's missing uid written as "": not edits to make in a user's file.)
    `defaulted_as_given`: the result is the `default` step's own, whose object is a custom resource
    as written with its defaults (engine.validate): that is the edit, made once. A custom resource
    the `prune` step removed nothing from (no unknown field reported, no null to drop) has no edit,
    without pruning a copy again."""
    if result.object is None:
        return None
    if defaulted_as_given and result.crd_version is not None:
        return result.object if result.defaulted else None
    from crdtool.model.jsonvalue import deep_equal, holds_null, json_copy

    if op == "prune" and result.crd_version is not None and not result.pruned and not holds_null(result.document.data):
        return None  # pruning removes the unknown fields the step reported, and nulls where not nullable
    from crdtool.schema.pruning.algorithm import prune

    edited = json_copy(result.document.data)
    if op != "prune":
        _apply_defaults(result, edited)
    elif result.crd_version is None:  # a built-in object: what its Go type does not hold is dropped
        edited = json_copy(result.object)
    else:
        prune(edited, result.crd_version.structural)
    return None if deep_equal(edited, result.document.data) else edited
