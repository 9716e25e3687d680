"""`crdtool convert`: what `kubectl get <plural>.<version>.<group> -o yaml` would show for stored
objects read in another version of their CRD: converted by the CRD's strategy (None, or its
conversion webhook; or a local converter command), pruned with the target version's schema, then
checked as a create in that version would check it. With --roundtrip: what a trip to the target
version and back loses."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from crdtool.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    FINDINGS_FORMATS,
    allow_empty_option,
    console,
    guarded,
    nothing_checked,
    output_options,
    read_documents,
    resolve_quiet,
    resolve_verbose,
    verbose_option,
)


def _timeout_ns(value: str) -> int:
    from crdtool.model.gotime import go_duration_nanos

    text = value.strip()
    nanos = go_duration_nanos(text) if not text.replace(".", "", 1).isdigit() else int(float(text) * 10**9)
    if nanos is None or nanos <= 0:
        raise click.BadParameter(f"{value!r}: a duration such as 30s, 1.5s or 500ms", param_hint="'--timeout'")
    return nanos


@click.command("convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-c", "--crd", "crd_paths", multiple=True, type=click.Path(exists=True),
              help="CRD files or folders (repeatable); CRDs among the inputs are used too.")
@click.option("--to", "to", required=True, metavar="VERSION",
              help="The version to read the objects in: v1beta1, or group/v1beta1.")
@click.option("-o", "--output", type=click.Choice(["diff", "yaml", "json"]), default="diff", show_default=True,
              help="A colored diff against the input, or the converted objects.")
@click.option("--write", is_flag=True, help="Rewrite the input files in the new version (comments and order kept).")
@click.option("--roundtrip", is_flag=True, help="Convert to VERSION and back; report every field that did not survive.")
@click.option("--target-defaults", is_flag=True,
              help="Also apply the target version's defaults (the apiserver does not on a read; a create would).")
@click.option("--webhook-url", metavar="URL",
              help="Send ConversionReviews here instead of the CRD's clientConfig (needed when it names a service).")
@click.option("--converter", "converter_cmd", metavar="CMD",
              help="A local command that reads a ConversionReview on stdin and answers on stdout.")
@click.option("--ca-bundle", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="PEM CA certificates to trust instead of the CRD's caBundle.")
@click.option("--insecure-skip-tls-verify", is_flag=True, help="Do not verify the webhook's certificate.")
@click.option("--tls-server-name", metavar="NAME",
              help="Verify the webhook's certificate for NAME (e.g. a service's <name>.<namespace>.svc).")
@click.option("--timeout", "timeout", default="30s", show_default=True, metavar="DURATION",
              help="How long a webhook (or converter) may take, as the apiserver's 30s.")
@click.option("--skip-unknown-kinds", is_flag=True, help="Skip objects whose kind no CRD defines.")
@verbose_option("Also say which documents were skipped and how they were read.")
@allow_empty_option
@output_options
def command(paths, crd_paths, to, output, write, roundtrip, target_defaults, webhook_url, converter_cmd, ca_bundle,
            insecure_skip_tls_verify, tls_server_name, timeout, skip_unknown_kinds, allow_empty,
            output_format, no_color) -> None:
    """Read every custom resource in PATHS as the apiserver would serve it in another version of its
    CRD: the None strategy, the CRD's conversion webhook (or --webhook-url, or a --converter command),
    then pruning with the target version's schema. The result is validated as a create in that version.
    Exit 0 when all converted and valid, 1 on a conversion error, validation error or round-trip loss,
    2 on unreadable input or a usage error."""
    from crdtool.cli.common import resolve_output
    from crdtool.convert.review import parse_group_version

    fmt, color = resolve_output(output_format, no_color)
    if webhook_url and converter_cmd:
        raise click.UsageError("--webhook-url and --converter cannot be used together")
    target = parse_group_version(to)
    if target is None or not target[1]:
        raise click.BadParameter(f"{to!r}: a version (v1beta1) or group/version", param_hint="'--to'")
    timeout_ns = _timeout_ns(timeout)
    if webhook_url:
        from crdtool.convert.webhook import check_url

        try:
            check_url(webhook_url)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="'--webhook-url'") from None

    def run() -> int:
        from crdtool.convert.pipeline import ConvertRequest, convert_documents
        from crdtool.engine.registry import load_registry
        from crdtool.errors import InputError

        ca_override = None
        if ca_bundle:
            try:
                with open(ca_bundle, "rb") as f:
                    ca_override = f.read()
            except OSError as err:
                raise InputError(ca_bundle, f"cannot read the CA bundle: {err.strerror or err}") from None
        docs = read_documents(paths)
        registry = load_registry(read_documents(crd_paths) if crd_paths else [], docs)
        factory = _ConverterFactory(webhook_url, converter_cmd, ca_override, not insecure_skip_tls_verify,
                                    tls_server_name, timeout_ns)
        request = ConvertRequest(to=to, converter_for=factory, target_defaults=target_defaults, roundtrip=roundtrip,
                                 skip_unknown_kinds=skip_unknown_kinds)
        results, skipped, _ = convert_documents(docs, registry, request)
        if nothing_checked(bool(results), allow_empty, "custom resource", paths, skipped):
            return EXIT_INPUT
        notes = ([s.note() for s in skipped] + [f"{_label(c)}: {n}" for c in results for n in c.notes]
                 if resolve_verbose() else [])
        if fmt == "json":
            sys.stdout.write(_render_json(results, roundtrip, skipped))
        elif fmt == "kubectl":
            _print_kubectl(results)
        elif fmt in FINDINGS_FORMATS:
            from crdtool.cli.emit import emit

            emit(_findings(results), fmt, color, "object", notes, skipped=skipped)
        elif output in ("yaml", "json"):
            _print_objects(results, output)
        else:
            _print_text(results, color, notes, roundtrip, to, skipped)
        if write:
            _write(results)
        bad = any(not c.converted or c.errors or c.lost or c.back_status for c in results)
        return EXIT_FINDINGS if bad else EXIT_OK

    sys.exit(guarded(run))


# ---------------------------------------------------------------- converters

class _ConverterFactory:
    """The converter for a CRD: its strategy, or what the options put in place of its webhook."""

    def __init__(self, webhook_url: str | None, command: str | None, ca_override: bytes | None, verify: bool,
                 server_name: str | None, timeout_ns: int) -> None:
        self.webhook_url, self.command, self.ca_override = webhook_url, command, ca_override
        self.verify, self.server_name, self.timeout_ns = verify, server_name, timeout_ns

    def __call__(self, crd):
        from crdtool.convert.command import CommandClient
        from crdtool.convert.none import NoneConverter
        from crdtool.convert.review import SUPPORTED, ReviewConverter
        from crdtool.convert.webhook import WebhookClient
        from crdtool.errors import UsageError

        webhook = crd.webhook
        versions = webhook.review_versions if webhook is not None else SUPPORTED
        if self.command:
            return ReviewConverter(CommandClient(self.command, self.timeout_ns), versions)
        url = self.webhook_url
        if url is None:
            if crd.strategy != "Webhook":
                return NoneConverter()
            if webhook is None or not webhook.url:
                where = webhook.service_text() if webhook is not None else "(no clientConfig)"
                raise UsageError(
                    f"{crd.source}: the CustomResourceDefinition {crd.name} converts through the webhook service "
                    f"{where}, which crdtool cannot reach: give its address with --webhook-url URL (e.g. after "
                    "kubectl port-forward), or run a converter with --converter CMD")
            url = webhook.url
        ca = self.ca_override if self.ca_override is not None else (webhook.ca_bundle if webhook is not None else None)
        try:
            client = WebhookClient(url, ca_pem=ca, verify=self.verify, timeout_ns=self.timeout_ns,
                                   server_name=self.server_name)
        except ValueError as err:
            raise UsageError(str(err)) from None
        return ReviewConverter(client, versions)


# ---------------------------------------------------------------- output

def _label(c) -> str:
    doc = c.document
    return f"{doc.source}#{doc.index}" + (f" items[{doc.item}]" if doc.item is not None else "")


def _namespace(c) -> str | None:
    obj = c.object if c.object is not None else c.document.data
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    namespace = meta.get("namespace") if isinstance(meta, dict) else None
    return namespace if isinstance(namespace, str) else None


def _result_json(c, roundtrip: bool) -> dict[str, Any]:
    from crdtool.engine.results import Result
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


def _findings(results: list) -> list:
    """Results for the CI formats: the apiserver's conversion error, or the target version's findings,
    and a round trip's losses as errors of their own."""
    from crdtool.engine.results import Result
    from crdtool.model.errors import FieldError
    from crdtool.model.path import Path

    out = []
    for c in results:
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


def _render_json(results: list, roundtrip: bool, skipped: list) -> str:
    from crdtool.engine.skipped import counts

    items = ",\n".join(json.dumps(_result_json(c, roundtrip), ensure_ascii=False) for c in results)
    body = '{"results": [\n' + items + "\n]" if items else '{"results": []'
    return body + ', "skipped": ' + json.dumps(counts(skipped)) + "}\n"


def _print_kubectl(results: list) -> None:
    """What `kubectl get ... -o yaml` prints: each object (keys sorted, as kubectl writes them), and
    the apiserver's error for the ones it could not serve."""
    import yaml

    from crdtool.model.gofmt import go_json_data

    first = True
    for c in results:
        if c.converted:
            if not first:
                sys.stdout.write("---\n")
            first = False
            sys.stdout.write(yaml.safe_dump(go_json_data(c.object), sort_keys=True, default_flow_style=False,
                                            allow_unicode=True, width=10_000))
        elif c.crd is None:
            sys.stderr.write(f"error: {c.status}\n")
        elif c.reason:
            sys.stderr.write(f"Error from server ({c.reason}): {c.status}\n")
        else:
            sys.stderr.write(f"Error from server: {c.status}\n")


def _print_objects(results: list, output: str) -> None:
    """The converted objects on stdout; what went wrong on stderr."""
    from crdtool.cli.change import print_objects

    for c in results:
        if not c.converted:
            click.echo(f"{_label(c)}: error: {c.status}", err=True)
            continue
        for error in c.errors:
            click.echo(f"{_label(c)}: error: {error}", err=True)
        if c.back_status is not None:
            click.echo(f"{_label(c)}: error: the way back to {c.stored_version} failed: {c.back_status}", err=True)
        for loss in c.lost or []:
            now = "gone" if loss.vanished else f"now {_short(loss.after)}"
            click.echo(f"{_label(c)}: error: {loss.path}: lost in the round trip: was {_short(loss.before)}, {now}",
                       err=True)
    objects = [c.object for c in results if c.converted]
    if objects:
        print_objects(objects, output)


def _finding(out, severity: str, where: str, message: str) -> None:
    from rich.markup import escape

    from crdtool.report.text import SEVERITY_STYLE

    out.print(f"[bold]{escape(where)}[/]: [{SEVERITY_STYLE[severity]}]{severity}[/]: {escape(message)}",
              soft_wrap=True, highlight=False)


def _where(c, segments: tuple = ()) -> str:
    position = c.document.locate(segments)
    return c.document.source + (f":{position[0]}:{position[1]}" if position else "")


def _segments(path: str) -> tuple:
    """The JSON steps of a pruned path (`spec.list[0].x`), for its line and column in the input."""
    import re

    return tuple(int(index) if index else name for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path))


def _short(value: Any) -> str:
    from crdtool.model.gofmt import go_json

    text = go_json(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _print_text(results: list, color: bool, notes: list[str], roundtrip: bool, to: str, skipped: list) -> None:
    from crdtool.convert.pipeline import manifest_view
    from crdtool.report import kubectl, text
    from crdtool.report.diff import print_diff, unified

    out = console(color)
    for note in notes:
        out.print(f"note: {note}", highlight=False, markup=False)
    for c in results:
        label = _label(c)
        if not c.converted:
            _finding(out, "error", _where(c), c.status or "")
            continue
        target = f"{c.crd.group}/{c.target_version}"
        stored = c.stored_version or ""
        lines = unified(c.document.data, manifest_view(c.object, c.document.data), label)
        if lines:
            print_diff(out, lines)
        elif not resolve_quiet():
            out.print(f"{label}: no change", style="dim", highlight=False)
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
    if not resolve_quiet():
        _summary(out, results, roundtrip, to, skipped)


def _summary(out, results: list, roundtrip: bool, to: str, skipped: list) -> None:
    from crdtool.engine.skipped import summary

    passed = summary(skipped)
    total = len(results)
    if total == 0:
        out.print("no custom resources found" + (f"; {passed}" if passed else ""), style="yellow", highlight=False)
        return
    noun = "object" if total == 1 else "objects"
    failed = sum(not c.converted for c in results)
    invalid = sum(bool(c.converted and c.errors) for c in results)
    lossy = sum(bool(c.lost or c.back_status) for c in results)
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


def _write(results: list) -> None:
    from crdtool.cli.change import plan_files, write_files
    from crdtool.convert.pipeline import manifest_view

    changes = []
    for c in results:
        if not c.converted or c.errors:
            why = c.status if not c.converted else "it would be rejected in the new version"
            click.echo(f"{_label(c)}: not rewritten: {why}", err=True)
            continue
        changes.append((c.document, manifest_view(c.object, c.document.data)))
    write_files(plan_files(changes))
