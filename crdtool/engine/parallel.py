"""`validate --jobs N`: the objects shared out over N worker processes.

Each task is one group of CRDs (those of one group and kind) with their objects, or a slice of a
large group's objects: a worker builds the registry for a task's CRDs once (lint, structural schema,
CEL programs) and keeps it for the next slice of the same group. Workers are forked after the inputs
are read, so they find the documents already in memory; what comes back are the results without
their documents, which are put back by position. Results are then in input order, as with one process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from crdtool.errors import RunEnvironmentError
from crdtool.load.document import Document
from crdtool.model.groupversion import group_of

__all__ = ["PendingTasks", "Task", "WorkerError", "plan_tasks", "run_tasks"]

T = TypeVar("T")

#: Objects per task: small enough to share a large group between the workers and show progress,
#: large enough that a task's set-up is a small part of it.
CHUNK = 200

#: Tasks given to each worker at a time: the one it works on and the next, waiting in its pipe.
IN_FLIGHT = 2


@dataclass(frozen=True, slots=True)
class Task:
    """CRDs (positions in the CRD list) and the objects (positions in the object list) checked with them."""

    crds: tuple[int, ...]
    objects: tuple[int, ...]


def crd_key(doc: Document) -> tuple[str, str]:
    """The group and kind a CRD document defines, read as the registry will (v1beta1 has the same fields)."""
    spec = doc.data.get("spec") if isinstance(doc.data, dict) else None
    spec = spec if isinstance(spec, dict) else {}
    names = names if isinstance(names := spec.get("names"), dict) else {}
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


class WorkerError(RunEnvironmentError):
    """The worker processes could not be started, or one ended without answering (killed, out of
    memory): the run stops with this, never waits for an answer that will not come. The machine's
    limits, not a crdtool bug: exit code 2 with this message."""


# The work of the forked processes: set before they are forked, inherited by them.
_work: Callable[[Any], Any] | None = None


def _serve(conn: Connection) -> None:
    """A worker: run each task received until told to stop; send back its output, or what it raised."""
    assert _work is not None
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            reply: tuple[bool, Any] = (True, _work(task))
        except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
            reply = (False, exc)
        try:
            conn.send(reply)
        except Exception as exc:  # an exception (or output) that cannot be pickled
            conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


def run_tasks(tasks: Sequence[T], work: Callable[[T], Any], jobs: int,
              progress: Callable[[int], None] | None = None) -> list[Any]:
    """`work(task)` for every task over `jobs` forked processes; the outputs in the tasks' order.
    `progress(n)` is told of each Task's objects as it completes (tasks may be anything picklable
    and small, such as the names of the files that workers read). A worker that raises makes this
    raise the same; one that cannot start or ends without an answer is a WorkerError. No helper
    threads: the calling thread waits on the workers' pipes and process sentinels, so a dead worker
    is seen at once, and every worker is stopped before this returns or raises."""
    global _work
    _work = work
    workers: list[tuple[Any, Connection]] = []
    try:
        _start_workers(workers, max(1, min(jobs, len(tasks))), jobs)
        return _share_out(tasks, workers, jobs, progress)
    finally:
        _work = None
        _stop_workers(workers)


def _start_workers(workers: list[tuple[Any, Connection]], count: int, jobs: int) -> None:
    """Fork `count` workers into `workers` (each with the parent's end of its pipe)."""
    context = multiprocessing.get_context("fork")
    for _ in range(count):
        parent_end, child_end = context.Pipe()
        process = context.Process(target=_serve, args=(child_end,), daemon=True)
        try:
            process.start()
        except (OSError, RuntimeError) as err:
            raise WorkerError(f"cannot start {jobs} worker processes: {err}") from None
        finally:
            child_end.close()
        workers.append((process, parent_end))


def _share_out(tasks: Sequence[T], workers: list[tuple[Any, Connection]], jobs: int,
               progress: Callable[[int], None] | None) -> list[Any]:
    """Keep IN_FLIGHT tasks with each worker until all are answered; the outputs in the tasks' order.

    A worker that has its next task waiting in its pipe starts it at once instead of waiting for
    this process to take the answer and send another (which would leave it idle while this
    process, on the same cores, is busy). A task is sent only when its worker has just answered
    or is new, and tasks are small, so a send never waits on a worker that is itself sending."""
    outputs: list[Any] = [None] * len(tasks)
    pending = PendingTasks(tasks)
    busy: dict[Connection, tuple[Any, deque[int]]] = {}
    last_group: dict[Connection, tuple[int, ...]] = {}

    def hand_out(process: Any, conn: Connection, count: int) -> None:
        queued = busy.setdefault(conn, (process, deque()))[1]
        for _ in range(count):
            index = pending.take(last_group.get(conn))
            if index is None:
                break
            task = tasks[index]
            try:
                conn.send(task)
            except OSError:  # it ended while working on the task it has
                raise _lost(process, jobs) from None
            queued.append(index)
            if isinstance(task, Task):
                last_group[conn] = task.crds
        if not queued:
            del busy[conn]

    for process, conn in workers:
        hand_out(process, conn, IN_FLIGHT)
    while busy:
        sentinels: dict[int, Connection] = {process.sentinel: conn for conn, (process, _) in busy.items()}
        for ready in wait([*busy, *sentinels]):
            conn = sentinels[ready] if isinstance(ready, int) else cast(Connection, ready)
            if conn not in busy:
                continue
            process, queued = busy[conn]
            try:
                ok, payload = conn.recv()
            except (EOFError, OSError):
                raise _lost(process, jobs) from None
            if not ok:
                raise payload
            index = queued.popleft()
            outputs[index] = payload
            done = tasks[index]
            if progress is not None and isinstance(done, Task):
                progress(len(done.objects))
            hand_out(process, conn, 1)
    return outputs


class PendingTasks:
    """The tasks not handed out yet, in their order (largest first), with one preference: a worker is
    handed the next slice of the CRDs it was last given when there is one, because it has their
    registry built (lint, structural schema, CEL programs compiled), which another worker would
    have to build again. The order of everything else is kept, so the workers still finish together."""

    def __init__(self, tasks: Sequence[Any]) -> None:
        self._order = deque(range(len(tasks)))
        self._groups: dict[tuple[int, ...], deque[int]] = {}
        for index, task in enumerate(tasks):
            if isinstance(task, Task) and task.crds:
                self._groups.setdefault(task.crds, deque()).append(index)
        self._taken = [False] * len(tasks)

    def take(self, group: tuple[int, ...] | None) -> int | None:
        """The next task for a worker last given `group`'s CRDs (None: any); None when none is left."""
        queue = self._groups.get(group) if group else None
        for source in (queue, self._order):
            while source:
                index = source.popleft()
                if not self._taken[index]:
                    self._taken[index] = True
                    return index
        return None


def _lost(process: Any, jobs: int) -> WorkerError:
    """The error of a worker that ended without answering."""
    process.join(1)
    return WorkerError(f"a worker process (--jobs {jobs}) ended without an answer (exit code {process.exitcode}); "
                       "try --jobs 1")


def _stop_workers(workers: list[tuple[Any, Connection]]) -> None:
    """Tell every worker to stop; one still busy (the run raised) is killed."""
    for _, conn in workers:
        with contextlib.suppress(OSError):
            conn.send(None)
        conn.close()
    for process, _ in workers:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()
