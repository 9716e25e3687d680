"""`crdtool convert`: what `kubectl get <plural>.<version>.<group> -o yaml` would show for stored
objects read in another version of their CRD: converted by the CRD's strategy (None, or its
conversion webhook; or a local converter command), pruned with the target version's schema, then
checked as a create in that version would check it. With --roundtrip: what a trip to the target
version and back loses."""

from __future__ import annotations

import sys

import click

from crdtool.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    allow_empty_option,
    guarded,
    nothing_checked,
    output_options,
    read_ca_bundle,
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


def _check_options(to: str, webhook_url: str | None, converter_cmd: str | None, timeout: str) -> int:
    """Usage errors in --to, --webhook-url, --converter and --timeout (exit 2); the timeout in nanoseconds."""
    from crdtool.convert.review import parse_group_version

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
    return timeout_ns


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
    from crdtool.report.context import RenderContext
    from crdtool.report.convert import label, render_objects
    from crdtool.report.registry import render_conversions

    fmt, color = resolve_output(output_format, no_color)
    timeout_ns = _check_options(to, webhook_url, converter_cmd, timeout)

    def run() -> int:
        from crdtool.cli.settings import current_cache
        from crdtool.convert.pipeline import ConvertRequest, convert_documents
        from crdtool.engine.registry import load_registry

        ca_override = read_ca_bundle(ca_bundle)
        docs = read_documents(paths)
        crds = read_documents(crd_paths, cached=True) if crd_paths else []
        registry = load_registry(crds, docs, store=current_cache())
        factory = _ConverterFactory(webhook_url, converter_cmd, ca_override, not insecure_skip_tls_verify,
                                    tls_server_name, timeout_ns)
        request = ConvertRequest(to=to, converter_for=factory, target_defaults=target_defaults, roundtrip=roundtrip,
                                 skip_unknown_kinds=skip_unknown_kinds)
        results, skipped, _ = convert_documents(docs, registry, request)
        if nothing_checked(bool(results), allow_empty, "custom resource", paths, skipped):
            return EXIT_INPUT
        notes = ([s.note() for s in skipped] + [f"{label(c)}: {n}" for c in results for n in c.notes]
                 if resolve_verbose() else [])
        context = RenderContext(color=color, quiet=resolve_quiet(), notes=notes, skipped=skipped,
                                command="crdtool convert", target=to, roundtrip=roundtrip)
        if fmt == "text" and output in ("yaml", "json"):
            render_objects(results, output, context)
        else:
            render_conversions(fmt, results, context)
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


# ---------------------------------------------------------------- --write

def _write(results: list) -> None:
    from crdtool.cli.change import plan_files, write_files
    from crdtool.convert.pipeline import manifest_view
    from crdtool.report.convert import label

    changes = []
    for c in results:
        if not c.converted or c.errors:
            why = c.status if not c.converted else "it would be rejected in the new version"
            click.echo(f"{label(c)}: not rewritten: {why}", err=True)
            continue
        changes.append((c.document, manifest_view(c.object, c.document.data)))
    write_files(plan_files(changes))
