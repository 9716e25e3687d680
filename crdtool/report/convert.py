"""`crdtool convert`'s output: its text (a diff per object, then what the target version prunes or
refuses and what a round trip loses), its JSON, what `kubectl get -o yaml` prints, and its
conversions as Results for the CI formats. Each renderer takes convert.pipeline's conversions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from crdtool.engine.results import Result
from crdtool.report.context import RenderContext


def label(c) -> str:
    """`FILE#N` (and ` items[I]`): one document of the input, as convert's messages name it."""
    doc = c.document
    return f"{doc.source}#{doc.index}" + (f" items[{doc.item}]" if doc.item is not None else "")


def _namespace(c) -> str | None:
    obj = c.object if c.object is not None else c.document.data
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    namespace = meta.get("namespace") if isinstance(meta, dict) else None
    return namespace if isinstance(namespace, str) else None


def _result_json(c, roundtrip: bool) -> dict[str, Any]:
    from crdtool.model.gofmt import go_json_data
    from crdtool.report.jsonout import result_json

    doc = c.document
    v = c.validation
    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                    namespace=_namespace(c), version=c.target_version, errors=v.errors if v else [],
                    status=c.status, reason=c.reason, warnings=v.warnings if v else [], object=c.object,
                    pruned=c.pruned, defaulted=c.defaulted, status_kind=doc.kind)
    out = result_json(result)
    out["valid"] = c.converted and not c.errors
    out.update({
        "conversionStrategy": c.strategy,
        "storedVersion": c.stored_version,
        "storageVersion": c.crd.storage_version if c.crd else None,
        "prunedByTarget": c.pruned_target,
        "validationStatus": v.status if v else None,
    })
    if roundtrip:
        out["lost"] = [loss.as_json() for loss in c.lost] if c.lost is not None else None
        out["roundTrip"] = go_json_data(c.back)
        out["roundTripStatus"] = c.back_status
    if c.notes:
        out["notes"] = [{"field": "", "message": n, "line": None, "column": None} for n in c.notes]
    return out


def render_json(conversions: list, context: RenderContext) -> None:
    """`--format json`: one result per object, with the conversion's own fields."""
    import json

    from crdtool.report.jsonout import envelope

    context.stdout.write(envelope([json.dumps(_result_json(c, context.roundtrip), ensure_ascii=False)
                                   for c in conversions],
                                  context.skipped or [], context.notes))


def as_results(conversions: Sequence[Any]) -> list[Result]:
    """Results for the CI formats: the apiserver's conversion error, or the target version's findings,
    and a round trip's losses as errors of their own."""
    from crdtool.model.errors import FieldError
    from crdtool.model.path import Path

    out = []
    for c in conversions:
        doc = c.document
        if not c.converted or c.validation is None:
            out.append(Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                              status=c.status, reason=c.reason or "InternalError", status_kind=doc.kind))
            continue
        result = c.validation
        losses = [FieldError.invalid(Path(loss.segments, "".join("i" if isinstance(s, int) else "f"
                                                                 for s in loss.segments)),
                                     loss.before, "lost in the round trip") for loss in c.lost or []]
        if losses:
            result.errors = [*result.errors, *losses]
            result.status = result.status or f"{len(losses)} value(s) lost in the round trip"
            result.reason = result.reason or "Invalid"
        out.append(result)
    return out


def render_kubectl(conversions: list, context: RenderContext) -> None:
    """What `kubectl get ... -o yaml` prints: each object (keys sorted, as kubectl writes them), and
    the apiserver's error for the ones it could not serve."""
    import yaml

    from crdtool.model.gofmt import go_json_data

    first = True
    for c in conversions:
        if c.converted:
            if not first:
                context.stdout.write("---\n")
            first = False
            context.stdout.write(yaml.safe_dump(go_json_data(c.object), sort_keys=True, default_flow_style=False,
                                                allow_unicode=True, width=10_000))
        elif c.crd is None:
            context.stderr.write(f"error: {c.status}\n")
        elif c.reason:
            context.stderr.write(f"Error from server ({c.reason}): {c.status}\n")
        else:
            context.stderr.write(f"Error from server: {c.status}\n")


def render_objects(conversions: list, output: str, context: RenderContext) -> None:
    """`-o yaml|json`: the converted objects on stdout; what went wrong on stderr."""
    from crdtool.report.objects import print_objects

    for c in conversions:
        if not c.converted:
            context.stderr.write(f"{label(c)}: error: {c.status}\n")
            continue
        for error in c.errors:
            context.stderr.write(f"{label(c)}: error: {error}\n")
        if c.back_status is not None:
            context.stderr.write(f"{label(c)}: error: the way back to {c.stored_version} failed: {c.back_status}\n")
        for loss in c.lost or []:
            now = "gone" if loss.vanished else f"now {_short(loss.after)}"
            context.stderr.write(f"{label(c)}: error: {loss.path}: lost in the round trip: "
                                 f"was {_short(loss.before)}, {now}\n")
    objects = [c.object for c in conversions if c.converted]
    if objects:
        print_objects(objects, output, context.stdout)


def _finding(out, severity: str, where: str, message: str) -> None:
    from rich.markup import escape

    from crdtool.report.text import SEVERITY_STYLE

    out.print(f"[bold]{escape(where)}[/]: [{SEVERITY_STYLE[severity]}]{severity}[/]: {escape(message)}",
              soft_wrap=True, highlight=False)


def _where(c, segments: tuple = ()) -> str:
    position = c.document.locate(segments)
    source: str = c.document.source
    return source + (f":{position[0]}:{position[1]}" if position else "")


def _segments(path: str) -> tuple:
    """The JSON steps of a pruned path (`spec.list[0].x`), for its line and column in the input."""
    return tuple(int(index) if index else name for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path))


def _short(value: Any) -> str:
    from crdtool.model.gofmt import go_json

    text = go_json(value)
    return text if len(text) <= 80 else text[:77] + "..."


def render_text(conversions: list, context: RenderContext) -> None:
    """`--format text`: the run's notes, each object's diff and findings, then (unless --quiet) the counts."""
    from crdtool.report.text import console

    out = console(context.color, file=context.stdout)
    for note in context.notes:
        out.print(f"note: {note}", highlight=False, markup=False)
    for c in conversions:
        _text_of(out, c, context.quiet)
    if not context.quiet:
        _summary(out, conversions, context.roundtrip, context.target, context.skipped or [])


def _text_of(out, c, quiet: bool) -> None:
    """One object: its diff (or `no change`), then what the target version prunes or refuses, and
    what the round trip loses."""
    from crdtool.convert.pipeline import manifest_view
    from crdtool.report import kubectl, text
    from crdtool.report.diff import print_diff, unified

    if not c.converted:
        _finding(out, "error", _where(c), c.status or "")
        return
    target = f"{c.crd.group}/{c.target_version}"
    stored = c.stored_version or ""
    lines = unified(c.document.data, manifest_view(c.object, c.document.data), label(c))
    if lines:
        print_diff(out, lines)
    elif not quiet:
        out.print(f"{label(c)}: no change", style="dim", highlight=False)
    for path in c.pruned_target:
        _finding(out, "warning", _where(c, _segments(path)),
                 f"{path}: not in the schema of {target}: pruned, its value is lost")
    if c.validation is not None and not c.validation.valid:
        text.render_result(out, c.validation, kubectl.error_text)
    if c.back_status is not None:
        _finding(out, "error", _where(c), f"the way back to {stored} failed: {c.back_status}")
    for loss in c.lost or []:
        way = f"{stored} -> {c.target_version} -> {stored}"
        now = "gone" if loss.vanished else f"now {_short(loss.after)}"
        _finding(out, "error", _where(c, loss.segments),
                 f"{loss.path}: lost in the round trip {way}: was {_short(loss.before)}, {now}")


def _summary(out, conversions: list, roundtrip: bool, to: str, skipped: list) -> None:
    from crdtool.engine.skipped import summary

    passed = summary(skipped)
    total = len(conversions)
    if total == 0:
        out.print("no custom resources found" + (f"; {passed}" if passed else ""), style="yellow", highlight=False)
        return
    noun = "object" if total == 1 else "objects"
    failed = sum(not c.converted for c in conversions)
    invalid = sum(bool(c.converted and c.errors) for c in conversions)
    lossy = sum(bool(c.lost or c.back_status) for c in conversions)
    parts = []
    if failed:
        parts.append(f"[bold red]{failed} of {total} {noun} could not be converted to {to}[/]")
    else:
        parts.append(f"[bold green]{total} {noun} converted to {to}[/]")
    if invalid:
        parts.append(f"[bold red]{invalid} of them would be rejected in {to}[/]")
    if roundtrip and failed < total:
        parts.append(f"[bold red]{lossy} of them lose{'s' if lossy == 1 else ''} data in the round trip[/]" if lossy
                     else "[bold green]nothing lost in the round trip[/]")
    if passed:
        parts.append(f"[yellow]{passed}[/]")
    out.print("; ".join(parts), highlight=False)
