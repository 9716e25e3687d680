"""`crdtool prune` and `crdtool default`: one change to custom resources, shown as a diff,
printed as objects, or written back into the files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from crdtool.cli import leave_to_exit
from crdtool.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    FINDINGS_FORMATS,
    console,
    guarded,
    nothing_checked,
    resolve_output,
    resolve_quiet,
    resolve_verbose,
)
from crdtool.cli.resources import resource_options, run_objects
from crdtool.errors import InputError
from crdtool.load.document import Document


def change_command(name: str, summary: str, objects_help: str) -> click.Command:
    """The subcommand running the engine's step `name` ("prune" or "default") on each object."""

    @click.command(name, help=summary)
    @resource_options
    @click.option("-o", "--output", type=click.Choice(["diff", "yaml", "json"]), default="diff", show_default=True,
                  help="diff: the change --write makes to each file, as `git diff` shows it (the file's own "
                       f"lines and line numbers). yaml|json: {objects_help}")
    @click.option("--write", is_flag=True, help="Rewrite the input files in place: only the changed lines (comments, "
                  "order, quoting, line endings and encoding kept).")
    def command(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds, jobs,
                output_format, no_color, allow_empty, output, write) -> None:
        fmt, color = resolve_output(output_format, no_color)

        def run() -> int:
            report = fmt in ("json", *FINDINGS_FORMATS)
            # `default -o yaml|json` prints objects as stored: the apiserver decodes (prunes) them first;
            # the report (--format) stays the engine's step alone, as the conformance cases define it
            stored = name == "default" and not report and output in ("yaml", "json")
            shows_diff = not report and output == "diff"
            outcome = run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds,
                                  op=name, jobs=jobs, stored=stored, edits=shows_diff or write,
                                  fmt=fmt if report else None)
            if nothing_checked(bool(outcome.results), allow_empty, "custom resource", paths, outcome.skipped):
                return EXIT_INPUT
            files = plan_files([(r.document, r.edit) for r in outcome.results]) if shows_diff or write else []
            leave_to_exit(outcome, files)
            if report:
                from crdtool.cli.emit import emit

                emit(outcome.results, fmt, color, "object", outcome.notes if resolve_verbose() else [],
                     skipped=outcome.skipped)
            elif output in ("yaml", "json"):
                from crdtool.report.objects import print_objects

                print_objects([r.object for r in outcome.results if r.object is not None], output, sys.stdout)
            else:
                _print_diffs(outcome.results, files, color, outcome.notes if resolve_verbose() else [],
                             outcome.skipped)
            if write:
                _write(files)
            refused = any(r.reason in ("NotFound", "BadRequest") for r in outcome.results)
            return EXIT_FINDINGS if refused else EXIT_OK

        sys.exit(guarded(run))

    return command


@dataclass(frozen=True, slots=True)
class FileChange:
    """One input file: its text as read, and as --write writes it (the same text when nothing changes),
    with the stretches of the old text that changed (old start, old end, new start, new end)."""

    path: str
    old: str
    new: str
    changes: tuple[tuple[int, int, int, int], ...] = ()


def plan_files(changes: list[tuple[Document, Any]]) -> list[FileChange]:
    """Each file holding one of the documents, in order, with its new text: the documents changed to
    their new values (None: unchanged). The one place a file's new text is made, for the diff and
    for --write alike."""
    from crdtool.load.edit import EditError, edit_file

    texts: dict[str, str] = {}
    nodes: dict[str, Callable[[], Any] | None] = {}
    targets: dict[str, dict[int | tuple[int, int], tuple[Any, Any]]] = {}
    for doc, after in changes:
        texts.setdefault(doc.source, doc.text)
        nodes.setdefault(doc.source, doc.stream_nodes)
        file_targets = targets.setdefault(doc.source, {})
        if after is not None:
            file_targets[doc.index if doc.item is None else (doc.index, doc.item)] = (doc.data, after)
    files = []
    for path, text in texts.items():
        stream_nodes = nodes[path]
        try:
            new, changes = (edit_file(text, targets[path], stream_nodes() if stream_nodes else None)
                            if targets[path] else (text, []))
        except EditError as err:
            raise InputError(path, f"cannot write the change into the file: {err}") from None
        files.append(FileChange(path, text, new, tuple(changes)))
    return files


def _print_diffs(results: list, files: list[FileChange], color: bool, notes: list[str], skipped: list) -> None:
    """Each file's errors, then its diff; then what was not checked."""
    from crdtool.engine.skipped import summary
    from crdtool.report import kubectl
    from crdtool.report.diff import file_diff, print_diff

    out = console(color)
    for note in notes:
        out.print(f"note: {note}", highlight=False, markup=False)
    failed: dict[str, list] = {}
    for r in results:
        if r.object is None:
            failed.setdefault(r.document.source, []).append(r)
    for file in files:
        for r in failed.get(file.path, []):
            doc = r.document
            label = f"{doc.source}#{doc.index}" + (f" items[{doc.item}]" if doc.item is not None else "")
            text = kubectl.error_text(r).strip()  # kubectl's own `error: ...` lines say it already
            out.print(f"{label}: {text}" if text.startswith("error: ") else f"{label}: error: {text}",
                      highlight=False, markup=False)
        lines = file_diff(file.path, file.old, file.new, file.changes)
        if lines:
            print_diff(out, lines)
        elif not resolve_quiet():
            out.print(f"{file.path}: no change", style="dim", highlight=False)
    if skipped and not resolve_quiet():
        out.print(summary(skipped), style="yellow", highlight=False, markup=False)


def _write(files: list[FileChange]) -> None:
    from crdtool.load.rewrite import write_text

    for file in files:
        try:
            changed = write_text(file.path, file.old, file.new)
        except OSError as err:
            raise InputError(file.path, f"cannot rewrite the file (left as it was): {err.strerror or err}") from err
        if changed:
            click.echo(f"rewrote {file.path}", err=True)


#: Public name for the commands that reuse it (`convert`): rewrite input files (`plan_files`, then `write_files`).
write_files = _write
