"""`--format text` (the default): findings a person reads, each at its file:line:col with
the source line and a caret, then the text kubectl would print for the refused object.

Colors come from rich and are dropped when NO_COLOR is set, with --no-color, or when
the output is not a terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from crdtool.engine.results import Result
from crdtool.report import kubectl

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "note": "bold cyan"}


def _where(result: Result, position: tuple[int, int] | None) -> str:
    where = result.document.source
    if position is not None:
        where += f":{position[0]}:{position[1]}"
    return where


def _snippet(result: Result, position: tuple[int, int] | None) -> list[str]:
    """The offending source line with a caret under the column."""
    if position is None or not result.document.text:
        return []
    line, column = position
    lines = result.document.text.splitlines()
    if not 1 <= line <= len(lines):
        return []
    source = lines[line - 1].rstrip()
    if len(source) > 200:
        start = max(0, column - 100)
        source = ("…" if start else "") + source[start:start + 200]
        column = column - start + (1 if start else 0)
    gutter = f"{line:>5} | "
    return [gutter + source, " " * (len(gutter) + column - 1) + "^"]


def _finding(console: Console, severity: str, where: str, message: str, snippet: list[str]) -> None:
    style = SEVERITY_STYLE[severity]
    console.print(f"[bold]{escape(where)}[/]: [{style}]{severity}[/]: {escape(message)}", soft_wrap=True)
    for line in snippet:
        console.print(f"[dim]{escape(line)}[/]", soft_wrap=True, highlight=False)


def render_result(console: Console, result: Result, kubectl_stderr: Callable[[Result], str]) -> None:
    """All findings of one document, then kubectl's text if the apiserver would refuse it."""
    doc_position = result.document.locate(())
    for w in result.strict_findings:
        severity = "error" if result.field_validation == "Strict" else "warning"
        position = result.strict_position(w)
        _finding(console, severity, _where(result, position), f"strict decoding: {w}", _snippet(result, position))
    if result.reason not in (None, "Invalid"):
        _finding(console, "error", _where(result, doc_position), result.status or "", [])
    for error in result.errors:
        position = result.position(error)
        _finding(console, "error", _where(result, position), str(error), _snippet(result, position))
    for w in result.warnings:
        _finding(console, "warning", _where(result, doc_position), w, [])
    for note in result.notes:
        position = result.position(note)
        _finding(console, "note", _where(result, position), f"{note.path}: {note.message}", _snippet(result, position))
    text = kubectl_stderr(result)
    if text:
        console.print("[dim]kubectl would print:[/]", highlight=False)
        for line in text.rstrip("\n").split("\n"):
            console.print("  " + escape(line), soft_wrap=True, highlight=False)


def render(console: Console, results: list[Result], label: Callable[[Result], str]) -> None:
    """Every result; accepted documents get one line saying so."""
    for result in results:
        if result.valid and not result.warnings and not result.strict_findings and not result.notes:
            console.print(f"[green]ok[/] {escape(label(result))}", highlight=False)
            continue
        render_result(console, result, kubectl.error_text)


def summary(console: Console, results: list[Result], noun: str) -> None:
    """One closing line: how many documents the apiserver would accept."""
    refused = sum(not r.valid for r in results)
    total = len(results)
    if total == 0:
        console.print(f"no {noun} found", style="yellow", highlight=False)
        return
    plural = noun if total == 1 else noun + "s"
    if refused:
        console.print(f"[bold red]{refused} of {total} {plural} would be rejected[/]", highlight=False)
    else:
        console.print(f"[bold green]{total} {plural} would be accepted[/]", highlight=False)
