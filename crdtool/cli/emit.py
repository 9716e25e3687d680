"""Printing results in the chosen format; shared by the subcommands."""

from __future__ import annotations

import sys
from collections.abc import Callable

from crdtool.cli.common import console
from crdtool.engine.results import Result


def emit(results: list[Result], fmt: str, color: bool, resource_of: Callable[[Result], str], noun: str,
         notes: list[str] | None = None, counted: list[tuple[list[Result], str]] | None = None) -> None:
    """Print results as text (default), JSON, or exactly what kubectl prints. The text ends with a
    count of accepted `noun`s, or one count per (results, noun) of `counted`."""
    if fmt == "json":
        from crdtool.report import jsonout

        sys.stdout.write(jsonout.render(results))
        return
    if fmt == "kubectl":
        from crdtool.report import kubectl

        for r in results:
            if r.field_validation == "Warn":
                r.warnings = [*r.strict_findings, *r.warnings]
            sys.stderr.write(kubectl.warnings_text(r))
            if r.valid:
                sys.stdout.write(kubectl.success_text(r, resource_of(r)))
            else:
                sys.stderr.write(kubectl.error_text(r))
        return
    from rich.markup import escape

    from crdtool.report import text

    out = console(color)
    for note in notes or []:
        out.print(f"[cyan]note[/]: {escape(note)}", highlight=False, markup=True)
    text.render(out, results, lambda r: f"{r.document.source}: {r.kind} {r.name}")
    for group, group_noun in counted or [(results, noun)]:
        text.summary(out, group, group_noun)
