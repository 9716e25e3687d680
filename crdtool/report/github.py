"""`--format github`: GitHub Actions workflow commands, one annotation per finding
(`::error file=F,line=L,col=C,title=T::MESSAGE`, `::warning`, `::notice`), then one summary line.

Escaping is the Actions toolkit's (packages/core/src/command.ts): in property values `%`, CR, LF,
`:` and `,`; in the message `%`, CR and LF. Properties without a value are left out, as there.
"""

from __future__ import annotations

from crdtool.engine.results import Result
from crdtool.report.context import RenderContext
from crdtool.report.issues import Issue, issues, summary
from crdtool.report.paths import relative_to_root

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(s: str) -> str:
    """A command's message, escaped as the toolkit's escapeData."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    """A property value, escaped as the toolkit's escapeProperty."""
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def command(name: str, properties: dict[str, object], message: str) -> str:
    """One workflow command line: `::name key=value,key=value::message`."""
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items() if v not in (None, ""))
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def annotation(issue: Issue) -> str:
    """One finding's annotation, its file relative to the repository root (GitHub ignores others)."""
    line, col = issue.position if issue.position is not None else (None, None)
    return command(COMMANDS[issue.level], {"file": relative_to_root(issue.source), "line": line, "col": col,
                                           "title": issue.rule}, issue.message)


def report(results: list[Result], notes: list[str] | None = None,
           counted: list[tuple[list[Result], str]] | None = None, skipped: list | None = None) -> str:
    """The annotations, then (unless `counted` is None) one line with the text format's counts."""
    lines = [command("notice", {}, n) for n in notes or []]
    lines += [annotation(issue) for result in results for issue in issues(result)]
    if counted is not None:
        last = len(counted) - 1
        lines.append("crdtool: " + ", ".join(summary(group, noun, skipped if n == last else None)
                                             for n, (group, noun) in enumerate(counted)))
    return "".join(line + "\n" for line in lines)


def render(results: list[Result], context: RenderContext) -> None:
    """`--format github`: the counts close the annotations unless --quiet."""
    counted = None if context.quiet else context.groups(results)
    context.stdout.write(report(results, context.notes, counted, context.skipped))
