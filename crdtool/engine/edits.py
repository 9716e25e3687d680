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
    from crdtool.schema.defaulting import apply_defaults

    if result.object is not None:
        result.defaulted = apply_defaults(result.object, result.crd_version.structural)


def file_edit(result: Result, op: Operation) -> Any:
    """The input as the diff and --write change it: only what `op` removes or adds, to the document
    as written; None when that is nothing. (The apiserver's object, `result.object`, is also
    decoded: `default` prunes it first, and ObjectMeta's round trip rewrites metadata, e.g. an
    ownerReference's missing uid written as "": not edits to make in a user's file.)"""
    if result.object is None:
        return None
    from crdtool.model.jsonvalue import deep_equal, json_copy
    from crdtool.schema.defaulting import apply_defaults
    from crdtool.schema.pruning import prune

    edited = json_copy(result.document.data)
    if op == "prune":
        prune(edited, result.crd_version.structural)
    else:
        apply_defaults(edited, result.crd_version.structural)
    return None if deep_equal(edited, result.document.data) else edited
