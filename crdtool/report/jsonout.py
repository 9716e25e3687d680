"""`--format json`: the machine contract of DESIGN.md (the conformance scorer reads exactly this)."""

from __future__ import annotations

import json
from typing import Any

from crdtool.engine.results import Result
from crdtool.model.errors import FieldError
from crdtool.model.gofmt import GoStruct, go_json_data
from crdtool.report.context import RenderContext


def _plain(value: Any) -> Any:
    """A bad value as JSON data (Go structs become objects with their Go field names)."""
    if isinstance(value, GoStruct):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return go_json_data(value)
    return None


def error_json(result: Result, error: FieldError) -> dict[str, Any]:
    position = result.position(error)
    out: dict[str, Any] = {
        "type": error.type.code,
        "field": error.field,
        "badValue": None if error.value_omitted else _plain(error.bad_value),
        "detail": error.detail,
        "error": str(error),
        "line": position[0] if position else None,
        "column": position[1] if position else None,
    }
    if error.value_omitted:
        out["badValueOmitted"] = True
    return out


def result_json(result: Result) -> dict[str, Any]:
    doc = result.document
    return {
        "file": doc.source,
        "document": doc.index,
        **({"item": doc.item} if doc.item is not None else {}),
        "apiVersion": result.api_version,
        "kind": result.kind,
        "name": result.name,
        "namespace": result.namespace,
        "version": result.version,
        "valid": result.valid,
        "checks": result.checks,
        "errors": [error_json(result, e) for e in result.errors],
        "status": result.status,
        "warnings": result.server_warnings,
        "object": go_json_data(result.object),
        "pruned": result.pruned,
        "defaulted": result.defaulted,
        "strictDecodingErrors": result.strict_decoding_errors,
        "fieldValidationWarnings": result.field_validation_warnings,
        **({"ruleCosts": [rule_cost_json(result, c) for c in result.rule_costs]}
           if result.rule_costs is not None else {}),
        **({"notes": [note_json(result, n) for n in result.notes]} if result.notes else {}),
        **({"findings": [finding_json(result, f) for f in result.findings]} if result.findings else {}),
        # A stored ValidatingAdmissionPolicy's status.typeChecking, as its status controller writes it.
        **({"typeChecking": {"expressionWarnings": [expression_warning_json(result, w) for w in result.type_checking]}}
           if result.type_checking is not None else {}),
        # What admission would add to the request's audit event (never shown to the user by the apiserver
        # or kubectl, so only here): webhooks' answers (`WEBHOOK/KEY`), policies' (`POLICY/KEY`,
        # validation_failure), failed-open webhooks.
        **({"auditAnnotations": dict(sorted(result.audit_annotations.items()))} if result.audit_annotations else {}),
    }


def note_json(result: Result, note) -> dict[str, Any]:
    """crdtool's own note (engine.results.Note): what it could not check, and where."""
    position = result.position(note)
    return {"field": str(note.path), "message": note.message, "line": position[0] if position else None,
            "column": position[1] if position else None}


def expression_warning_json(result: Result, warning) -> dict[str, Any]:
    """One status.typeChecking.expressionWarnings entry (admission.policy.typecheck.ExpressionWarning),
    with where its field is in the document."""
    position = result.position(warning)
    return {"fieldRef": warning.field_ref, "warning": warning.warning, "line": position[0] if position else None,
            "column": position[1] if position else None}


def finding_json(result: Result, finding) -> dict[str, Any]:
    """crdtool's own finding (model.findings.Finding): a rule code and severity, where, and why."""
    position = result.position(finding)
    return {"code": finding.code, "severity": finding.severity, "field": str(finding.path),
            "message": finding.message, "line": position[0] if position else None,
            "column": position[1] if position else None}


def rule_cost_json(result: Result, cost) -> dict[str, Any]:
    """One rule's estimated cost (engine.costs.RuleCost) against the apiserver's budgets."""
    return {
        "field": str(cost.path), "expression": cost.expression, "maxCost": cost.max_cost,
        "maxCardinality": cost.cardinality, "cardinalityBounded": cost.bounded, "expressionCost": cost.cost,
        "percentOfRuleBudget": round(cost.rule_budget_percent, 4),
        "percentOfCRDBudget": round(cost.crd_budget_percent, 4),
        "largestSizePath": cost.largest_size_path,
    }


def result_text(result: Result) -> str:
    """One result's line of the report: compact, because json's indenting encoder is pure Python and
    quadratic in the nesting depth (minutes for a 9,000-deep object), the compact one is C. The run
    makes it where the result is made (report.registry.per_result), in parallel with --jobs."""
    return json.dumps(result_json(result), ensure_ascii=False)


def report(results: list[Result], skipped: list | None = None, notes: list[str] | None = None) -> str:
    """`{"results": [...]}` with `"skipped"` counting the documents not checked, by reason (engine.skipped),
    when `skipped` is given, and the run's notes when there are any."""
    return envelope([r.rendered if r.rendered is not None else result_text(r) for r in results], skipped, notes)


def envelope(lines: list[str], skipped: list | None, notes: list[str] | None = None) -> str:
    """`{"results": [...]}`, one result per line (`lines`, each a JSON object's text). With `skipped`
    (engine.skipped), `"skipped"` counts the documents not checked, by reason; `"notes"` are crdtool's
    notes on the run as a whole (what it could not do as the apiserver would: an admission
    configuration not used, a webhook not called), which every other format shows too."""
    body = ",\n".join(lines)
    out = '{"results": [\n' + body + "\n]" if body else '{"results": []'
    if skipped is not None:
        from crdtool.engine.skipped import counts

        out += ', "skipped": ' + json.dumps(counts(skipped))
    if notes:
        out += ', "notes": ' + json.dumps(notes, ensure_ascii=False)
    return out + "}\n"


def render(results: list[Result], context: RenderContext) -> None:
    """`--format json`."""
    context.stdout.write(report(results, context.skipped, context.notes))
