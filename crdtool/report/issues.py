"""A Result's findings as one flat list, the one walk every findings format makes (text, sarif,
github, junit): each with a rule id, a level, the apiserver's message and where it points, in the
order of the document."""

from __future__ import annotations

from crdtool.engine.results import Result
from crdtool.model.record import FrozenRecord

#: Rule ids beside the field errors' own (`FieldValueInvalid`, ...) and the findings' codes.
STRICT = "StrictDecodingError"
WARNING = "Warning"
NOTE = "NotChecked"
TYPE_CHECKING = "TypeChecking"

#: crdtool's finding severities as SARIF levels (which the github and junit formats share).
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


class Issue(FrozenRecord):
    """One finding: `rule` its id, `level` error, warning or note, `message` the apiserver's words
    (or crdtool's, for notes and findings), `position` 1-based (line, column) or None."""

    __slots__ = ("rule", "level", "message", "source", "position", "category", "title", "severity", "detail")

    rule: str
    level: str
    message: str
    source: str
    position: tuple[int, int] | None
    #: What the rule is: "field" (a field.Error), "strict", "status", "warning", "note", "finding" or
    #: "typecheck" (a policy's status.typeChecking warning).
    category: str
    #: The field.ErrorType's text (`Invalid value`) for a field error, else "".
    title: str
    #: crdtool's severity (error, warning, info or note): the level, with a finding's `info` kept.
    severity: str
    #: A strict-decoding finding's own words (`unknown field "spec.x"`), which each format prefixes its way.
    detail: str

    def __init__(self, rule: str, level: str, message: str, source: str, position: tuple[int, int] | None,
                 category: str, title: str = "", severity: str = "", detail: str = "") -> None:
        self.rule = rule
        self.level = level
        self.message = message
        self.source = source
        self.position = position
        self.category = category
        self.title = title
        self.severity = severity
        self.detail = detail


def issues(result: Result) -> list[Issue]:
    """Every finding of one document, in the order of the document (by line and column; findings at
    one place in this order: strict decoding, a refusal before validation, field errors, warnings,
    a policy's type-checking warnings, crdtool's own findings and its notes)."""
    found = _issues(result)
    return sorted(found, key=lambda issue: issue.position or (0, 0))


def _issues(result: Result) -> list[Issue]:
    source = result.document.source
    out: list[Issue] = []
    strict = result.field_validation == "Strict"
    level = "error" if strict else "warning"
    for w in result.strict_findings:
        out.append(Issue(STRICT, level, f"strict decoding error: {w}" if strict else w, source,
                         result.strict_position(w), "strict", severity=level, detail=w))
    if result.status is not None and (result.reason not in (None, "Invalid") or not result.errors):
        out.append(Issue(result.reason or "Invalid", "error", result.status, source, result.document.locate(()),
                         "status", severity="error"))
    for e in result.errors:
        out.append(Issue(e.type.code, "error", str(e), source, result.position(e), "field", e.type.text, "error"))
    for w in result.warnings:
        out.append(Issue(WARNING, "warning", w, source, result.document.locate(()), "warning", severity="warning"))
    for t in result.type_checking or ():
        out.append(Issue(TYPE_CHECKING, "warning", f"{t.field_ref}: {t.warning.rstrip()}", source, result.position(t),
                         "typecheck", severity="warning"))
    for f in result.findings:
        out.append(Issue(f.code, LEVELS.get(f.severity, "warning"), f"{f.path}: {f.message}", source,
                         result.position(f), "finding", severity=f.severity))
    for n in result.notes:
        out.append(Issue(NOTE, "note", f"{n.path}: {n.message}", source, result.position(n), "note", severity="note"))
    return out


def where(issue: Issue) -> str:
    """`file:line:col` (or just the file when the position is unknown)."""
    if issue.position is None:
        return issue.source
    return f"{issue.source}:{issue.position[0]}:{issue.position[1]}"


def line(issue: Issue) -> str:
    """The finding as the text format prints it, without the snippet: `file:line:col: level: message`."""
    return f"{where(issue)}: {issue.level}: {issue.message}"


def document_label(result: Result) -> str:
    """`Kind name` for a document, or `document N` (0-based, as --format json's `document`) without them."""
    doc = result.document
    item = f" items[{doc.item}]" if doc.item is not None else ""
    if result.kind and result.name:
        return f"{result.kind} {result.name}"
    return f"document {doc.index}{item}"


def partly_checked(results: list[Result]) -> str:
    """What the results do not cover of the apiserver's checks ('' when nothing): never a silent pass."""
    partly = sum(r.partly_checked for r in results)
    if not partly:
        return ""
    objects = "built-in object" if partly == 1 else "built-in objects"
    return (f"{partly} {objects} checked for decoding, defaults and metadata only (their kinds' own validation "
            "is not reproduced)")


def summary(results: list[Result], noun: str, skipped: list | None = None) -> str:
    """The closing words for one group of results, uncolored, with what was not checked
    (`4 of 5 objects would be rejected; 2 built-in objects not checked`)."""
    from crdtool.engine.skipped import summary as not_checked

    refused = sum(not r.valid for r in results)
    total = len(results)
    plural = noun if total == 1 else noun + "s"
    if total == 0:
        words = f"no {noun} found"
    elif refused:
        words = f"{refused} of {total} {plural} would be rejected"
    else:
        words = f"{total} {plural} would be accepted"
    partly = partly_checked(results)
    if partly:
        words += f"; {partly}"
    passed = not_checked(skipped or [])
    return f"{words}; {passed}" if passed else words
