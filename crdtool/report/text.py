"""`--format text` (the default): findings a person reads, each at its file:line:col with
the source line and a caret, then the text kubectl would print for the refused object.

Colors come from rich and are dropped when NO_COLOR is set, with --no-color, or when
the output is not a terminal. Without colors, rich is not even imported (PlainOutput): the runs
whose output is not a terminal (pre-commit, CI) would spend a tenth of a one-file run loading it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import IO, TYPE_CHECKING

from crdtool.engine.results import Result
from crdtool.report.context import RenderContext
from crdtool.report.issues import issues, where

if TYPE_CHECKING:
    from rich.console import Console

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue", "note": "bold cyan"}


@lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    """A document's lines, split once for all its findings (str caches its hash, so the lookup is cheap)."""
    return text.splitlines()


def _snippet(result: Result, position: tuple[int, int] | None) -> list[str]:
    """The offending source line with a caret under the column."""
    if position is None or not result.document.text:
        return []
    line, column = position
    lines = _lines(result.document.text)
    if not 1 <= line <= len(lines):
        return []
    source = lines[line - 1].rstrip()
    if len(source) > 200:
        start = max(0, column - 100)
        source = ("…" if start else "") + source[start:start + 200]
        column = column - start + (1 if start else 0)
    gutter = f"{line:>5} | "
    return [gutter + source, " " * (len(gutter) + column - 1) + "^"]


class PlainOutput:
    """The output without colors: every line written as it is (what `_line` and the others write when
    the console has no colors), with no rich console behind it."""

    no_color = True
    color_system = None

    def __init__(self, file: IO[str]) -> None:
        self.file = file


def _line(console: Console | PlainOutput, plain: str, style: str | None = None) -> None:
    """One line of output. Without colors it is written as it is: rich's rendering adds nothing
    then but time (a run with 300,000 findings spent 25 s in it) and would read `:name:` in a
    message as an emoji code."""
    if console.no_color or console.color_system is None:
        console.file.write(plain + "\n")
        return
    from rich.markup import escape

    if style:
        console.print(f"[{style}]{escape(plain)}[/]", soft_wrap=True, highlight=False)
    else:
        console.print(escape(plain), soft_wrap=True, highlight=False)


def _ok(console: Console | PlainOutput, what: str) -> None:
    """The line of an accepted document (as `_line`, written as it is without colors)."""
    if console.no_color or console.color_system is None:
        console.file.write(f"ok {what}\n")
        return
    from rich.markup import escape

    console.print(f"[green]ok[/] {escape(what)}", highlight=False)


def _finding(console: Console | PlainOutput, severity: str, where: str, message: str, snippet: list[str],
             code: str | None = None) -> None:
    style = SEVERITY_STYLE[severity]
    label = f"{severity}[{code}]" if code else severity
    if console.no_color or console.color_system is None:
        _line(console, f"{where}: {label}: {message}")
    else:
        from rich.markup import escape

        console.print(f"[bold]{escape(where)}[/]: [{style}]{escape(label)}[/]: {escape(message)}", soft_wrap=True)
    for line in snippet:
        _line(console, line, "dim")


#: The findings shown with their source line: those about a field (not the document as a whole).
_WITH_SNIPPET = frozenset({"strict", "field", "finding", "note", "typecheck"})
#: The findings labelled with their rule (`warning[TypeChecking]`): crdtool's own, and a policy's
#: type-checking warnings, which its status holds (no answer to the request carries them).
_LABELLED = frozenset({"finding", "typecheck"})


def render_result(console: Console | PlainOutput, result: Result, kubectl_stderr: Callable[[Result], str]) -> None:
    """All findings of one document, then kubectl's text if the apiserver would refuse it."""
    for issue in issues(result):
        message = f"strict decoding: {issue.detail}" if issue.category == "strict" else issue.message
        snippet = _snippet(result, issue.position) if issue.category in _WITH_SNIPPET else []
        _finding(console, issue.severity, where(issue), message, snippet,
                 issue.rule if issue.category in _LABELLED else None)
    text = kubectl_stderr(result)
    if text:
        _line(console, "kubectl would print:", "dim")
        for line in text.rstrip("\n").split("\n"):
            _line(console, "  " + line)


def console(color: bool, stderr: bool = False, file: IO[str] | None = None) -> Console:
    """A rich console honouring --no-color and non-terminal output (emoji codes off: `:100:` in a
    message is a line and column, not a symbol)."""
    from rich.console import Console

    return Console(file=file, stderr=stderr, no_color=not color, color_system="auto" if color else None,
                   highlight=False, soft_wrap=True, emoji=False)


def _may_color(color: bool, file: IO[str]) -> bool:
    """Whether rich might color `file` (else its console would write plain lines, as PlainOutput does):
    colors allowed, and the file a terminal or an environment variable that rich reads to force one."""
    if not color:
        return False
    forced = any(name in os.environ for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"))
    try:
        return forced or file.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream: as rich decides
        return True


def _kubectl_error_text(result: Result) -> str:
    """kubectl's text for a refused object (report.kubectl is imported when a run has one)."""
    from crdtool.report import kubectl

    return kubectl.error_text(result)


def render_results(console: Console | PlainOutput, results: list[Result], quiet: bool = False) -> None:
    """Every result; accepted documents get one line saying so (none when `quiet`)."""
    for result in results:
        if (result.valid and not result.warnings and not result.strict_findings and not result.notes
                and not result.findings and not result.type_checking):
            if not quiet:
                _ok(console, f"{result.document.source}: {result.kind} {result.name}")
            continue
        render_result(console, result, _kubectl_error_text)


def render(results: list[Result], context: RenderContext) -> None:
    """`--format text`: the run's notes, every result, then (unless --quiet) the counts of each group."""
    out = (console(context.color, file=context.stdout) if _may_color(context.color, context.stdout)
           else PlainOutput(context.stdout))
    for note in context.notes:
        if isinstance(out, PlainOutput):
            _line(out, f"note: {note}")
        else:
            _note(out, note)
    render_results(out, results, quiet=context.quiet)
    if context.quiet:
        return
    groups = context.groups(results)
    for n, (group, noun) in enumerate(groups):
        summary(out, group, noun, context.skipped if n == len(groups) - 1 else None)


def _note(console: Console, note: str) -> None:
    from rich.markup import escape

    console.print(f"[cyan]note[/]: {escape(note)}", highlight=False, markup=True)


def summary(console: Console | PlainOutput, results: list[Result], noun: str, skipped: list | None = None) -> None:
    """One closing line: how many documents the apiserver would accept, and how many were not checked."""
    from crdtool.report.issues import summary as words

    line = words(results, noun, skipped)
    style = "yellow" if not results else "bold red" if any(not r.valid for r in results) else "bold green"
    _line(console, line, style)


def findings_summary(results: list[Result]) -> str:
    """One line counting crdtool's own findings (`lint --against`) by severity, most severe first."""
    counts: dict[str, int] = {}
    for result in results:
        for finding in result.findings:
            counts[finding.severity] = counts.get(finding.severity, 0) + 1
    if not counts:
        return "no upgrade findings\n"
    parts = [f"{counts[s]} {s if s == 'info' or counts[s] == 1 else s + 's'}"
             for s in ("error", "warning", "info") if s in counts]
    return "upgrade findings: " + ", ".join(parts) + "\n"
