"""`crdtool validate`: what would `kubectl apply` against a 1.36 cluster with these CRDs say?"""

from __future__ import annotations

import sys

import click

from crdtool.cli import leave_to_exit
from crdtool.cli.admission import admission_inputs, admission_options
from crdtool.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    guarded,
    nothing_checked,
    resolve_output,
    resolve_verbose,
)
from crdtool.cli.emit import emit
from crdtool.cli.resources import resource_options, run_objects


@click.command("validate")
@resource_options
@click.option("--old", "old_paths", multiple=True, type=click.Path(exists=True),
              help="The stored object(s): validate as an update over them (transition rules, ratcheting).")
@admission_options
def command(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds, jobs,
            output_format, no_color, allow_empty, old_paths, admission_paths, webhook_services, ca_bundle,
            namespace_labels) -> None:
    """Dry-run a create (or, with --old, an update) of every object in PATHS: custom resources
    (pruning, defaulting, metadata, schema, CEL, list types) and built-in kinds (decoding,
    defaulting, metadata and, for many kinds, their own validation), then admission (webhooks and
    policies among the inputs or --admission) — the apiserver's errors verbatim.
    Exit 0 when all would be accepted, 1 when any would be rejected, 2 on unreadable input."""
    fmt, color = resolve_output(output_format, no_color)

    def run() -> int:
        admission = admission_inputs(admission_paths, webhook_services, ca_bundle, namespace_labels)
        outcome = run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds, old_paths,
                              jobs=jobs, admission=admission, fmt=fmt)
        leave_to_exit(outcome)
        if nothing_checked(bool(outcome.results or outcome.crd_results), allow_empty,
                           "custom resource or CustomResourceDefinition", paths, outcome.skipped):
            return EXIT_INPUT
        # kubectl would print only what applying the inputs answers; the text also says why a -c CRD is refused.
        crds = outcome.crd_results if fmt == "kubectl" else [*outcome.crd_results, *outcome.refused_crds]
        results = [*crds, *outcome.results]
        counted = [(outcome.results, "object")]
        if crds:
            counted.insert(0, (crds, "CustomResourceDefinition"))
        notes = [*outcome.crd_notes, *outcome.admission_notes, *(outcome.notes if resolve_verbose() else [])]
        if fmt == "kubectl":  # kubectl's own output has no place for them: what admission could not do is never silent
            for note in outcome.admission_notes:
                click.echo(f"crdtool: note: {note}", err=True)
        emit(results, fmt, color, "object", notes, counted, skipped=outcome.skipped)
        return EXIT_FINDINGS if any(not r.valid for r in results) else EXIT_OK

    sys.exit(guarded(run))

