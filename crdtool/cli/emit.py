"""Printing results in the chosen format; shared by the subcommands: the run's state (click's
context, --quiet) as a RenderContext, and the format's renderer from the registry."""

from __future__ import annotations

import click

from crdtool.cli.common import resolve_quiet
from crdtool.engine.results import Result
from crdtool.report.context import RenderContext
from crdtool.report.registry import render


def emit(results: list[Result], fmt: str, color: bool, noun: str,
         notes: list[str] | None = None, counted: list[tuple[list[Result], str]] | None = None,
         skipped: list | None = None) -> None:
    """Print results in the format `fmt` (report.registry). The text (and the github format) ends
    with a count of accepted `noun`s, or one count per (results, noun) of `counted`; --quiet leaves
    out the counts and the text's `ok` lines. `skipped` (engine.skipped) are the documents not
    checked: every format counts them."""
    ctx = click.get_current_context(silent=True)
    context = RenderContext(color=color, quiet=resolve_quiet(), notes=notes or [],
                            noun=noun, counted=counted or [], skipped=skipped,
                            command=f"crdtool {ctx.command.name}" if ctx else "crdtool")
    render(fmt, results, context)
