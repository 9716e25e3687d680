"""`validate --jobs N`: the objects shared out over N worker processes.

Each task is one group of CRDs (those of one group and kind) with their objects, or a slice of a
large group's objects: a worker builds the registry for a task's CRDs once (lint, structural schema,
CEL programs) and keeps it for the next slice of the same group. Workers are forked after the inputs
are read, so they find the documents already in memory; what comes back are the results without
their documents, which are put back by position. Results are then in input order, as with one process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crdtool.load.document import Document
from crdtool.model.groupversion import group_of

__all__ = ["Task", "plan_tasks", "run_tasks"]

#: Objects per task: small enough to share a large group between the workers and show progress,
#: large enough that a task's set-up is a small part of it.
CHUNK = 200


@dataclass(frozen=True, slots=True)
class Task:
    """CRDs (positions in the CRD list) and the objects (positions in the object list) checked with them."""

    crds: tuple[int, ...]
    objects: tuple[int, ...]


def crd_key(doc: Document) -> tuple[str, str]:
    """The group and kind a CRD document defines, read as the registry will (v1beta1 has the same fields)."""
    spec = doc.data.get("spec") if isinstance(doc.data, dict) else None
    spec = spec if isinstance(spec, dict) else {}
    names = spec.get("names") if isinstance(spec.get("names"), dict) else {}
    return str(spec.get("group") or ""), str(names.get("kind") or "")


def object_key(doc: Document) -> tuple[str, str]:
    return group_of(doc.api_version), str(doc.kind or "")


def plan_tasks(crds: list[Document], objects: list[Document]) -> list[Task]:
    """Tasks for every CRD and object, largest first (so the workers finish together)."""
    crds_by_key: dict[tuple[str, str], list[int]] = {}
    for i, doc in enumerate(crds):
        crds_by_key.setdefault(crd_key(doc), []).append(i)
    objects_by_key: dict[tuple[str, str], list[int]] = {}
    for i, doc in enumerate(objects):
        objects_by_key.setdefault(object_key(doc), []).append(i)
    tasks = []
    for key in dict.fromkeys([*crds_by_key, *objects_by_key]):
        group_crds = tuple(crds_by_key.get(key, ()))
        group_objects = objects_by_key.get(key, [])
        if not group_objects:
            tasks.append(Task(group_crds, ()))
        for start in range(0, len(group_objects), CHUNK):
            tasks.append(Task(group_crds, tuple(group_objects[start:start + CHUNK])))
    tasks.sort(key=lambda t: -len(t.objects))
    return tasks


# The work of the forked processes: set before the pool starts, inherited by the workers.
_work: Callable[[Task], Any] | None = None


def _run(task: Task) -> Any:
    assert _work is not None
    return _work(task)


def run_tasks(tasks: list[Task], work: Callable[[Task], Any], jobs: int,
              progress: Callable[[int], None] | None = None) -> list[Any]:
    """`work(task)` for every task over `jobs` forked processes; the outputs in the tasks' order.
    `progress(n)` is told of each task's objects as it completes."""
    global _work
    _work = work
    outputs: list[Any] = [None] * len(tasks)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = pool.imap_unordered(_indexed, list(enumerate(tasks)))
            for index, output in done:
                outputs[index] = output
                if progress is not None:
                    progress(len(tasks[index].objects))
    finally:
        _work = None
    return outputs


def _indexed(item: tuple[int, Task]) -> tuple[int, Any]:
    index, task = item
    return index, _run(task)
