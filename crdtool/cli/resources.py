"""What `validate`, `prune` and `default` share: their options, reading CRDs and objects,
and running each object through the engine."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from crdtool.cli.common import output_options, read_documents
from crdtool.cli.settings import current_settings

if TYPE_CHECKING:
    from crdtool.engine.registry import Registry


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
        click.option("--field-validation", type=click.Choice(["Strict", "Warn", "Ignore"]), default="Strict",
                     show_default=True, help="Unknown and duplicate fields: errors, warnings, or ignored."),
        click.option("--skip-unknown-kinds", is_flag=True, help="Skip objects whose kind no CRD defines."),
        click.option("-v", "--verbose", is_flag=True, help="Also say which documents were skipped and why."),
    ]
    for option in reversed(options):
        func = option(func)
    return output_options(func)


@dataclass
class Outcome:
    """The results of a run: CRD lint results, object results, and notes for --verbose."""

    crd_results: list
    results: list
    notes: list[str]
    #: CRDs named with -c (not among the inputs) that the apiserver would refuse.
    refused_crds: list = field(default_factory=list)
    #: What crdtool could not check in the CRDs named with -c (rules it cannot evaluate), always shown.
    crd_notes: list[str] = field(default_factory=list)


def run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds,
                old_paths=(), op: str = "validate") -> Outcome:
    """Read CRDs and objects and run every custom resource through the engine's `op`."""
    from crdtool.engine.builtin import is_builtin
    from crdtool.engine.lint import is_crd
    from crdtool.engine.validate import Request, find_version, process, unknown_kind

    docs = read_documents(paths)
    registry = load_registry(read_documents(crd_paths) if crd_paths else [], docs)
    olds = read_documents(old_paths) if old_paths else []
    request = Request(version=version, namespace=namespace, field_validation=field_validation)
    results, notes = [], []
    settings = current_settings()
    for doc in docs:
        if is_crd(doc):
            continue
        where = f"{doc.source}#{doc.index}"
        if settings.skips(doc.kind, doc.api_version):
            notes.append(f"{where}: skipped {doc.api_version}, Kind={doc.kind}: skip-kinds in {settings.source}")
            continue
        if is_builtin(doc.api_version):
            notes.append(f"{where}: skipped {doc.api_version}, Kind={doc.kind}: a built-in kind")
            continue
        served = find_version(registry, doc, request)
        if served is None:
            if skip_unknown_kinds:
                what = (f"{doc.api_version}, Kind={doc.kind}: no CustomResourceDefinition" if doc.kind
                        else "not a Kubernetes object (no kind)")
                notes.append(f"{where}: skipped {what}")
            else:
                results.append(unknown_kind(doc, registry))
            continue
        old = _matching_old(olds, doc)
        results.append(process(doc, served, request, old=old, op=op))
    inputs = {os.path.realpath(d.source) for d in docs}
    crd_results = [r for r in registry.lint_results if os.path.realpath(r.document.source) in inputs]
    # A CRD named with -c that the apiserver would refuse: shown too, to say why.
    refused = [r for r in registry.lint_results if not r.valid and r not in crd_results]
    for r in [*crd_results, *refused]:
        r.field_validation = field_validation
    crd_notes = [_note_text(r, n) for r in registry.lint_results if r not in crd_results for n in r.notes]
    return Outcome(crd_results, results, notes, refused, crd_notes)


def _note_text(result, note) -> str:
    position = result.position(note)
    where = f"{result.document.source}:{position[0]}:{position[1]}" if position else result.document.source
    return f"{where}: {note.path}: {note.message}"


def load_registry(named: list, docs: list, serve_rejected: bool = False) -> Registry:
    """The registry of the CRDs named with -c and those among the inputs (a file both named and among
    the inputs is read once); `serve_rejected` serves CRDs the apiserver would refuse too."""
    from crdtool.engine.lint import is_crd
    from crdtool.engine.registry import Registry

    registry = Registry()
    seen: set[tuple[str, int, int | None]] = set()
    for doc in [*named, *docs]:
        key = (os.path.realpath(doc.source), doc.index, doc.item)
        if is_crd(doc) and key not in seen:
            seen.add(key)
            registry.add(doc, serve_rejected=serve_rejected)
    return registry


def _matching_old(olds, doc):
    """The stored object an update replaces: same kind, namespace and name (or the only one)."""
    same = [o for o in olds if o.kind == doc.kind and o.name == doc.name]
    if same:
        return same[0]
    return olds[0] if len(olds) == 1 else None
