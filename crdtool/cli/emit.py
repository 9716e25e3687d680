"""Printing results in the chosen format; shared by the subcommands."""

from __future__ import annotations

import sys

import click

from crdtool.cli.common import console, resolve_quiet
from crdtool.engine.results import Result


def emit(results: list[Result], fmt: str, color: bool, noun: str,
         notes: list[str] | None = None, counted: list[tuple[list[Result], str]] | None = None,
         quiet: bool | None = None, skipped: list | None = None) -> None:
    """Print results as text (default), JSON, exactly what kubectl prints, or for CI as SARIF, GitHub
    annotations or JUnit XML. The text (and the github format) ends with a count of accepted `noun`s,
    or one count per (results, noun) of `counted`; `quiet` (default: --quiet) leaves out the counts
    and the text's `ok` lines. `skipped` (engine.skipped) are the documents not checked: every
    format counts them."""
    quiet = resolve_quiet() if quiet is None else quiet
    counted = counted or [(results, noun)]
    if fmt == "json":
        from crdtool.report import jsonout

        sys.stdout.write(jsonout.render(results, skipped))
        return
    if fmt == "sarif":
        from crdtool.report import sarif

        sys.stdout.write(sarif.render(results, notes, skipped))
        return
    if fmt == "github":
        from crdtool.report import github

        sys.stdout.write(github.render(results, notes, None if quiet else counted, skipped))
        return
    if fmt == "junit":
        from crdtool.report import junit

        for note in notes or []:  # the report holds documents only: the run's notes go to the log
            click.echo(f"note: {note}", err=True)
        ctx = click.get_current_context(silent=True)
        sys.stdout.write(junit.render(results, f"crdtool {ctx.command.name}" if ctx else "crdtool", skipped))
        return
    if fmt == "kubectl":
        from crdtool.report import kubectl

        for r in results:
            sys.stderr.write(kubectl.warnings_text(r))
            if r.valid:
                sys.stdout.write(kubectl.success_text(r))
            else:
                sys.stderr.write(kubectl.error_text(r))
        return
    from rich.markup import escape

    from crdtool.report import text

    out = console(color)
    for note in notes or []:
        out.print(f"[cyan]note[/]: {escape(note)}", highlight=False, markup=True)
    text.render(out, results, lambda r: f"{r.document.source}: {r.kind} {r.name}", quiet=quiet)
    if quiet:
        return
    for n, (group, group_noun) in enumerate(counted):
        text.summary(out, group, group_noun, skipped if n == len(counted) - 1 else None)
