"""`crdtool lint`: would kube-apiserver accept these CustomResourceDefinitions?"""

from __future__ import annotations

import sys

import click

from crdtool.cli.common import EXIT_FINDINGS, EXIT_OK, guarded, output_options, read_documents, resolve_output
from crdtool.cli.emit import emit


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--old", "old_paths", multiple=True, type=click.Path(exists=True),
              help="The stored CRD(s): lint as an update over them, like `kubectl apply` over an existing CRD.")
@click.option("--field-validation", type=click.Choice(["Strict", "Warn", "Ignore"]), default="Strict",
              show_default=True, help="How unknown and duplicate fields count, as kubectl's --validate.")
@click.option("--costs", is_flag=True,
              help="List every CEL rule's estimated cost against the apiserver's per-rule and per-CRD budgets.")
@output_options
def command(paths: tuple[str, ...], old_paths: tuple[str, ...], field_validation: str, costs: bool,
            output_format: str | None, no_color: bool) -> None:
    """Lint every CustomResourceDefinition in PATHS (files, folders, or - for stdin) as the
    apiserver validates a create (or, with --old, an update). Exit 0 when all would be
    accepted, 1 when any would be rejected, 2 on unreadable input."""
    fmt, color = resolve_output(output_format, no_color)

    def run() -> int:
        from crdtool.engine.lint import lint

        docs = read_documents(paths)
        old_docs = read_documents(old_paths) if old_paths else None
        results = lint(docs, old_docs, costs=costs)
        for r in results:
            r.field_validation = field_validation
        emit(results, fmt, color, lambda r: "customresourcedefinition.apiextensions.k8s.io",
             "CustomResourceDefinition")
        if costs and fmt == "text":
            from crdtool.report.costs import render_costs
            click.echo(render_costs(results), nl=False)
        return EXIT_FINDINGS if any(not r.valid for r in results) else EXIT_OK

    sys.exit(guarded(run))
