"""What `validate`, `prune` and `default` share: their options, and reading the inputs for the
engine's run (engine.run), with a progress bar for long runs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from crdtool.cli.common import allow_empty_option, output_options, read_documents, read_in_workers, verbose_option
from crdtool.cli.settings import current_cache, current_settings
from crdtool.config import FIELD_VALIDATION

if TYPE_CHECKING:
    from crdtool.engine.run import RunOutcome
    from crdtool.engine.validate import Operation

#: Objects from which a terminal shows a progress bar.
PROGRESS_AT = 300


def resource_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options of every command that processes custom resources."""
    options = [
        click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True)),
        click.option("-c", "--crd", "crd_paths", multiple=True, type=click.Path(exists=True),
                     help="CRD files or folders (repeatable); CRDs among the inputs are used too."),
        click.option("--version", "version", default=None,
                     help="Process objects as this version of their CRD (default: their apiVersion's)."),
        click.option("-n", "--namespace", default=None,
                     help="The request's namespace, as kubectl's: objects without one get it (default: "
                          "default), objects in another are refused."),
        click.option("--field-validation", type=click.Choice(FIELD_VALIDATION), default="Strict",
                     show_default=True, help="Unknown and duplicate fields: errors, warnings, or ignored."),
        click.option("--skip-unknown-kinds", is_flag=True, help="Skip objects whose kind no CRD defines."),
        verbose_option("Also say which documents were skipped and why."),
        click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
                     help="Worker processes: large inputs are shared out among them."),
    ]
    for option in reversed(options):
        func = option(func)
    return allow_empty_option(output_options(func))


def run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds,
                old_paths=(), op: Operation = "validate", jobs: int = 1, stored: bool = False,
                edits: bool = False, admission: Any = None, fmt: str | None = None) -> RunOutcome:
    """Read the inputs, CRDs and stored objects, and run the engine's `op` on them (engine.run); the
    results are rendered as they are made when the output format `fmt` can (report.registry.per_result)."""
    from crdtool.engine.run import RunRequest, run
    from crdtool.report.registry import per_result

    if jobs > 1 and not edits:
        docs, crds = read_in_workers([(paths, False), (crd_paths, True)], jobs)
    else:  # files to edit are read here: the edit places its changes with the nodes the reading kept
        docs = read_documents(paths, keep_nodes=edits)
        crds = read_documents(crd_paths, jobs, cached=True) if crd_paths else []
    olds = read_documents(old_paths) if old_paths else []
    with _ProgressBar() as progress:
        return run(RunRequest(
            documents=docs, crds=crds, olds=olds, version=version, namespace=namespace,
            field_validation=field_validation, skip_unknown_kinds=skip_unknown_kinds, op=op, jobs=jobs,
            skip_kinds=current_settings().skip_kinds_value, stored=stored, edits=edits, progress=progress,
            admission=admission, cache=current_cache(), render=per_result(fmt) if fmt else None))


class _ProgressBar:
    """A progress bar on stderr for long runs on a terminal (never when stderr is not one)."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _ProgressBar:
        return self

    def start(self, total: int) -> None:
        if total < PROGRESS_AT or not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._bar = Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                             console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task("objects", total=total)

    def advance(self, done: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, done)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
