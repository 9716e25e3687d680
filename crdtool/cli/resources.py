"""What `validate`, `prune` and `default` share: their options, reading CRDs and objects,
and running each object through the engine."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from crdtool.cli.common import allow_empty_option, output_options, read_documents, verbose_option
from crdtool.cli.settings import current_settings
from crdtool.config import FIELD_VALIDATION
from crdtool.load.document import Document

if TYPE_CHECKING:
    from crdtool.engine.registry import Registry

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


@dataclass
class Outcome:
    """The results of a run: CRD lint results, object results, and notes for --verbose."""

    crd_results: list
    results: list
    notes: list[str]
    #: Documents not checked, each with its reason (engine.skipped).
    skipped: list = field(default_factory=list)
    #: CRDs named with -c (not among the inputs) that the apiserver would refuse.
    refused_crds: list = field(default_factory=list)
    #: What crdtool could not check in the CRDs named with -c (rules it cannot evaluate), always shown.
    crd_notes: list[str] = field(default_factory=list)


def run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds,
                old_paths=(), op: str = "validate", jobs: int = 1) -> Outcome:
    """Read CRDs and objects and run every custom resource through the engine's `op` (over `jobs`
    processes when there are enough objects to share)."""
    from crdtool.engine.builtin import builtin_lookup, no_kind_match
    from crdtool.engine.lint import is_crd
    from crdtool.engine.skipped import Skipped
    from crdtool.engine.validate import Request

    docs = read_documents(paths)
    crds = unique_crds(read_documents(crd_paths) if crd_paths else [], docs)
    olds = read_documents(old_paths) if old_paths else []
    request = Request(version=version, namespace=namespace, field_validation=field_validation)
    skipped: list[Skipped] = []
    objects: list[Document] = []
    unmapped: list = []  # kubectl's no-matches answers for built-in groups' kinds 1.36 does not serve
    settings = current_settings()
    for doc in docs:
        if is_crd(doc):
            continue
        builtin = builtin_lookup(doc)
        if settings.skips(doc.kind, doc.api_version):
            skipped.append(Skipped(doc.source, doc.index, doc.api_version, doc.kind, "skip-kinds",
                                   f"skip-kinds in {settings.source}"))
        elif builtin is None:
            objects.append(doc)
        elif builtin.no_match:
            unmapped.append(no_kind_match(doc, builtin))
        else:
            skipped.append(Skipped(doc.source, doc.index, doc.api_version, doc.kind, "built-in", "a built-in kind"))

    def check(doc: Document, registry: Registry):
        return _check_object(doc, registry, request, skip_unknown_kinds, olds, op)

    with _progress(len(objects)) as advance:
        if jobs > 1 and len(objects) > 1:
            outputs, lint_results = _check_in_parallel(crds, objects, check, jobs, advance)
        else:
            registry = registry_of(crds)
            outputs = []
            for doc in objects:
                outputs.append(check(doc, registry))
                advance(1)
            lint_results = registry.lint_results
    results = list(unmapped)
    for result, passed in outputs:
        if passed is not None:
            skipped.append(passed)
        if result is not None:
            results.append(result)
    order = {id(d): n for n, d in enumerate(docs)}
    results.sort(key=lambda r: order.get(id(r.document), 0))
    skipped.sort(key=lambda s: (s.source, s.index))
    inputs = {os.path.realpath(d.source) for d in docs}
    crd_results = [r for r in lint_results if os.path.realpath(r.document.source) in inputs]
    # A CRD named with -c that the apiserver would refuse: shown too, to say why.
    refused = [r for r in lint_results if not r.valid and r not in crd_results]
    for r in [*crd_results, *refused]:
        r.field_validation = field_validation
    crd_notes = [_note_text(r, n) for r in lint_results if r not in crd_results for n in r.notes]
    return Outcome(crd_results, results, [s.note() for s in skipped], skipped, refused, crd_notes)


def _check_object(doc: Document, registry: Registry, request, skip_unknown_kinds: bool, olds: list[Document],
                  op: str) -> tuple[Any, Any]:
    """One object's result, or (None, Skipped) when it is skipped."""
    from crdtool.engine.skipped import Skipped
    from crdtool.engine.validate import find_version, process, unknown_kind

    served = find_version(registry, doc, request)
    if served is not None:
        return process(doc, served, request, old=_matching_old(olds, doc), op=op), None
    if skip_unknown_kinds:
        if doc.kind:
            why = Skipped(doc.source, doc.index, doc.api_version, doc.kind, "unknown-kind",
                          "no CustomResourceDefinition")
        else:
            why = Skipped(doc.source, doc.index, doc.api_version, doc.kind, "not-an-object",
                          "not a Kubernetes object (no kind)")
        return None, why
    return unknown_kind(doc, registry), None


def _check_in_parallel(crds: list[Document], objects: list[Document], check, jobs: int, advance):
    """The objects' outputs and the CRDs' lint results, as one process would give them, from `jobs`."""
    from crdtool.cli.parallel import plan_tasks, run_tasks

    registries: dict[tuple[int, ...], Registry] = {}  # per worker: a group's registry serves its next slice

    def work(task):
        registry = registries.get(task.crds)
        if registry is None:
            registry = registries[task.crds] = registry_of([crds[i] for i in task.crds])
        outputs = [check(objects[i], registry) for i in task.objects]
        for result, _ in outputs:
            if result is not None:
                result.document = None  # put back by the parent: it has the documents
        lints = list(registry.lint_results)
        for result in lints:
            result.document = None
        return outputs, lints

    tasks = plan_tasks(crds, objects)
    outputs: list = [None] * len(objects)
    lint_results: list = [None] * len(crds)
    for task, (task_outputs, lints) in zip(tasks, run_tasks(tasks, work, jobs, advance), strict=True):
        for i, output in zip(task.objects, task_outputs, strict=True):
            if output[0] is not None:
                output[0].document = objects[i]
            outputs[i] = output
        for i, result in zip(task.crds, lints, strict=True):
            result.document = crds[i]
            lint_results[i] = result
    return outputs, lint_results


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr for long runs on a terminal (never when stderr is not one)."""
    if total < PROGRESS_AT or not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("objects", total=total)
        yield lambda n: bar.advance(task, n)


def _note_text(result, note) -> str:
    position = result.position(note)
    where = f"{result.document.source}:{position[0]}:{position[1]}" if position else result.document.source
    return f"{where}: {note.path}: {note.message}"


def unique_crds(named: list, docs: list) -> list[Document]:
    """The CRDs named with -c and those among the inputs, each once (a file both named and among
    the inputs is read once)."""
    from crdtool.engine.lint import is_crd

    seen: set[tuple[str, int, int | None]] = set()
    out = []
    for doc in [*named, *docs]:
        key = (os.path.realpath(doc.source), doc.index, doc.item)
        if is_crd(doc) and key not in seen:
            seen.add(key)
            out.append(doc)
    return out


def load_registry(named: list, docs: list, serve_rejected: bool = False) -> Registry:
    """The registry of the CRDs named with -c and those among the inputs; `serve_rejected` serves
    CRDs the apiserver would refuse too."""
    return registry_of(unique_crds(named, docs), serve_rejected)


def registry_of(crds: list[Document], serve_rejected: bool = False) -> Registry:
    """A registry of these CRDs, each linted once."""
    from crdtool.engine.registry import Registry

    registry = Registry()
    for doc in crds:
        registry.add(doc, serve_rejected=serve_rejected)
    return registry


def _matching_old(olds, doc):
    """The stored object an update replaces: same kind, namespace and name (or the only one)."""
    same = [o for o in olds if o.kind == doc.kind and o.name == doc.name]
    if same:
        return same[0]
    return olds[0] if len(olds) == 1 else None
