"""`crdtool columns`: what `kubectl get` would show for these custom resources."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import click

from crdtool.cli.common import EXIT_FINDINGS, EXIT_OK, guarded, output_options, read_documents, resolve_output


def _parse_now(ctx: click.Context, param: click.Parameter, value: str | None) -> datetime:
    if value is None:
        return datetime.now(UTC)
    from crdtool.columns.table import parse_time

    parsed = parse_time(value)
    if parsed is None:
        raise click.BadParameter(f"{value!r} is not an RFC 3339 time such as 2026-01-01T00:00:00Z")
    return parsed


@click.command("columns")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-c", "--crd", "crd_paths", multiple=True, type=click.Path(exists=True),
              help="CRD files or folders (repeatable); CRDs among the inputs are used too.")
@click.option("-o", "--output", "output", type=click.Choice(["wide"]), default=None,
              help="wide: also the columns of priority > 0.")
@click.option("-n", "--namespace", default=None, help="List this namespace (default: default).")
@click.option("-A", "--all-namespaces", is_flag=True, help="List every namespace, with a NAMESPACE column.")
@click.option("--no-headers", is_flag=True, help="No header line.")
@click.option("--api-version", default=None,
              help="Read the objects in this version of their CRD (GROUP/VERSION), with its columns "
                   "(default: each object's own apiVersion).")
@click.option("--now", callback=_parse_now, default=None, metavar="RFC3339",
              help="The time ages are computed from (default: the current time), for reproducible output.")
@output_options
def command(paths, crd_paths, output, namespace, all_namespaces, no_headers, api_version, now, output_format,
            no_color) -> None:
    """Print the custom resources in PATHS as `kubectl get` prints them: NAME, then the
    additionalPrinterColumns of their CRD version (or AGE), each cell computed as the
    apiserver computes it. Namespaced objects without a namespace are in `default`; like
    kubectl, only `default` is listed unless -n or -A says otherwise. With --format json,
    the apiserver's Table (cells as JSON, null for an empty cell) of every object given
    (of -n's namespace only, when given). Exit 0, 1 when an object's kind has no CRD or
    the apiserver could not decode it, 2 on unreadable input."""
    fmt, _ = resolve_output(output_format, no_color)

    def run() -> int:
        from crdtool.cli.settings import current_cache
        from crdtool.columns.printer import PrintOptions, render
        from crdtool.columns.view import Listing, build_view
        from crdtool.engine.registry import load_registry

        docs = read_documents(paths)
        crds = read_documents(crd_paths, cached=True) if crd_paths else []
        registry = load_registry(crds, docs, serve_rejected=True, store=current_cache())
        for result in registry.lint_results:
            if result.status is not None:
                click.echo(f"warning: {result.document.source}: {result.status}", err=True)
        # The Table (JSON) is of every object given unless -n names a namespace; kubectl's listing is of one.
        listed = namespace if fmt == "json" else (None if all_namespaces else namespace or "default")
        view = build_view(docs, registry, Listing(listed, api_version), now)
        for doc, reason in view.refused:
            click.echo(f"error: {doc.source}#{doc.index}: {reason}", err=True)
        if fmt == "json":
            _emit_json(view.tables)
        else:
            kinds = {(t.group, t.kind) for t in view.tables}
            options = PrintOptions(wide=output == "wide", no_headers=no_headers, all_namespaces=all_namespaces,
                                   with_kind=len(kinds) > 1)
            text = render(view.tables, options)
            sys.stdout.write(text)
            if not text and not view.refused:
                # Cluster-scoped objects are listed whatever the namespace: an empty listing is a namespace's.
                click.echo("No resources found" if all_namespaces else f"No resources found in {listed} namespace.",
                           err=True)
        return EXIT_FINDINGS if view.refused else EXIT_OK

    sys.exit(guarded(run))


def _emit_json(tables) -> None:
    import json

    from crdtool.model.gofmt import go_json_data

    if len(tables) == 1:
        out = tables[0].as_json()
    else:
        out = {"apiVersion": "v1", "kind": "List", "items": [t.as_json() for t in tables]}
    sys.stdout.write(json.dumps(go_json_data(out), indent=2, ensure_ascii=False) + "\n")
