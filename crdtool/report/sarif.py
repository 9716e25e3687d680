"""`--format sarif`: a SARIF 2.1.0 log for code scanning (GitHub's upload-sarif and others).

One run; one rule per kind of finding (each field.ErrorType, strict decoding, each refusal
reason, warnings, crdtool's notes, each finding code), listed in the order first met; one result
per finding, in document order, with the apiserver's message and the file (as given, relative to
%SRCROOT%) with line and column.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from crdtool import KUBE_VERSION, __version__
from crdtool.engine.results import Result
from crdtool.report.context import RenderContext
from crdtool.report.issues import Issue, issues
from crdtool.report.paths import relative_to_root

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_FIELD_ERRORS = "https://pkg.go.dev/k8s.io/apimachinery/pkg/util/validation/field#ErrorType"
_FIELD_VALIDATION = "https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation"
_WARNINGS = "https://kubernetes.io/blog/2020/09/03/warnings/"

_DEFAULT_LEVEL = {"field": "error", "strict": "error", "status": "error", "warning": "warning", "note": "note",
                  "typecheck": "warning"}


def artifact_location(source: str) -> dict[str, str]:
    """A file inside the repository (relative_to_root) is a URI reference under %SRCROOT%; one outside,
    an absolute file: URI."""
    path = relative_to_root(source)
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    while path.startswith("./"):
        path = path[2:]
    return {"uri": quote(path, safe="/"), "uriBaseId": SRCROOT}


def _description(issue: Issue) -> str:
    if issue.category == "field":
        return f"The apiserver refuses a field: {issue.title}"
    if issue.category == "strict":
        return "An unknown or duplicate field: the apiserver's strict decoding refuses it (kubectl's default)"
    if issue.category == "status":
        return f"The apiserver refuses the request before validating its fields ({issue.rule})"
    if issue.category == "warning":
        return "A warning the apiserver returns with its answer"
    if issue.category == "note":
        return "Not checked by crdtool (the apiserver would check it)"
    if issue.category == "typecheck":
        return ("A type-checking warning the apiserver writes to the ValidatingAdmissionPolicy's "
                "status.typeChecking after storing it")
    return f"crdtool's own check {issue.rule} (not an apiserver answer)"


def _rule(issue: Issue) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": issue.rule,
        "name": issue.rule,
        "shortDescription": {"text": _description(issue)},
        "defaultConfiguration": {"level": _DEFAULT_LEVEL.get(issue.category, issue.level)},
    }
    help_uri = {"field": _FIELD_ERRORS, "strict": _FIELD_VALIDATION, "warning": _WARNINGS}.get(issue.category)
    if help_uri:
        rule["helpUri"] = help_uri
    return rule


def _result(issue: Issue, rule_index: int) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(issue.source)}
    if issue.position is not None:
        physical["region"] = {"startLine": issue.position[0], "startColumn": issue.position[1]}
    return {
        "ruleId": issue.rule,
        "ruleIndex": rule_index,
        "level": issue.level,
        "message": {"text": issue.message},
        "locations": [{"physicalLocation": physical}],
    }


def log(results: list[Result], notes: list[str] | None = None, skipped: list | None = None) -> dict[str, Any]:
    """The SARIF log as JSON data; `notes` (what crdtool says about the run) become tool notifications,
    and the documents not checked (`skipped`) one more, with their counts in the run's properties."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    sarif_results = []
    for result in results:
        for issue in issues(result):
            if issue.rule not in index:
                index[issue.rule] = len(rules)
                rules.append(_rule(issue))
            sarif_results.append(_result(issue, index[issue.rule]))
    invocation: dict[str, Any] = {"executionSuccessful": True}
    notifications = [{"level": "note", "message": {"text": n}} for n in notes or []]
    from crdtool.report.issues import partly_checked

    partly = partly_checked(results)
    if partly:
        notifications.append({"level": "warning", "message": {"text": partly}})
    if skipped:
        from crdtool.engine.skipped import counts, summary

        notifications.append({"level": "warning", "message": {"text": summary(skipped)}})
        invocation["properties"] = {"skipped": counts(skipped)}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    driver = {
        "name": "crdtool",
        "version": __version__,
        "fullName": f"crdtool {__version__} (Kubernetes {KUBE_VERSION})",
        "rules": rules,
    }
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": sarif_results,
        }],
    }


def report(results: list[Result], notes: list[str] | None = None, skipped: list | None = None) -> str:
    """The SARIF log, as its file holds it."""
    return json.dumps(log(results, notes, skipped), indent=2, ensure_ascii=False) + "\n"


def render(results: list[Result], context: RenderContext) -> None:
    """`--format sarif`."""
    context.stdout.write(report(results, context.notes, context.skipped))
