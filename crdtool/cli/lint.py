"""`crdtool lint`: would kube-apiserver accept these CustomResourceDefinitions and admission configurations?"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from crdtool.cli import leave_to_exit
from crdtool.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    allow_empty_option,
    guarded,
    nothing_checked,
    output_options,
    read_documents,
    resolve_output,
    resolve_quiet,
    resolve_verbose,
    verbose_option,
)
from crdtool.cli.emit import emit
from crdtool.cli.settings import current_cache, current_settings, with_severities
from crdtool.config import FIELD_VALIDATION

if TYPE_CHECKING:
    from crdtool.engine.results import Result
    from crdtool.load.document import Document


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--old", "old_paths", multiple=True, type=click.Path(exists=True),
              help="The stored CRD(s) or admission configuration(s): lint as an update over them, like "
                   "`kubectl apply` over an existing object.")
@click.option("--against", "against", multiple=True, metavar="OLD",
              help="Upgrade safety: the old CRD file(s), folder, or REV:path in git (e.g. origin/main:crds/). "
                   "Each CRD is linted as an update over the old one of the same name, plus findings for what "
                   "the upgrade breaks for stored objects and clients. CRDs only: admission configurations "
                   "are passed over.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default="error", show_default=True,
              help="The least severe --against finding that makes the exit code 1.")
@click.option("--field-validation", type=click.Choice(FIELD_VALIDATION), default="Strict",
              show_default=True, help="How unknown and duplicate fields count, as kubectl's --validate.")
@click.option("--costs", is_flag=True,
              help="List every CRD CEL rule's estimated cost against the apiserver's per-rule and per-CRD budgets.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes: the files are read and the CRDs linted by N processes (the results "
                   "and their order are those of one process).")
@verbose_option("Also say which documents were passed over (neither CRDs nor admission configurations).")
@allow_empty_option
@output_options
def command(paths: tuple[str, ...], old_paths: tuple[str, ...], against: tuple[str, ...], fail_on: str,
            field_validation: str, costs: bool, jobs: int, output_format: str | None, no_color: bool,
            allow_empty: bool) -> None:
    """Lint every CustomResourceDefinition in PATHS (files, folders, or - for stdin) as the
    apiserver validates a create (or, with --old or --against, an update), and every admission
    policy, policy binding and webhook configuration (admissionregistration.k8s.io) as the apiserver
    validates its create (or, with --old, its update). Exit 0 when all would be accepted, 1 when any
    would be rejected (or an --against finding reaches --fail-on), 2 on unreadable input."""
    fmt, color = resolve_output(output_format, no_color)
    if old_paths and against:
        raise click.UsageError("--old and --against cannot be used together", click.get_current_context())

    def run() -> int:
        from crdtool.engine.lint import is_crd, lint
        from crdtool.engine.lint_admission import NOUN, is_admission_configuration, lint_configurations
        from crdtool.engine.skipped import Skipped

        docs = read_documents(paths, jobs, cached=True)
        checks_admission = not against  # --against compares CRDs with their old versions, nothing else
        skipped = [Skipped(d.source, d.index, d.api_version, d.kind, "not-a-crd", "not a CustomResourceDefinition")
                   for d in docs if not is_crd(d) and not (checks_admission and is_admission_configuration(d))]
        what = "CustomResourceDefinition" if against else "CustomResourceDefinition or admission configuration"
        if nothing_checked(len(skipped) < len(docs), allow_empty, what, paths, skipped):
            return EXIT_INPUT
        notes: list[str] = [s.note() for s in skipped] if resolve_verbose() else []
        old_docs = read_documents(old_paths, cached=True) if old_paths else None
        if against:
            from crdtool.upgrade.check import lint_against
            from crdtool.upgrade.pairing import read_against

            store = current_cache()
            comparison = lint_against(docs, read_against(against, store), costs=costs, store=store)
            results = comparison.results
            with_severities(results, current_settings())
            if comparison.unmatched:
                names = ", ".join(sorted(d.name or "" for d in comparison.unmatched))
                notes.append(f"not compared (no new CRD of the same name): {names}")
        else:
            store = current_cache()
            results = (lint(docs, old_docs, costs=costs, store=store) if jobs == 1
                       else _lint_in_workers(docs, old_docs, costs, jobs, store))
        leave_to_exit(docs, results)
        for r in results:
            r.field_validation = field_validation
        counted = None
        if checks_admission and any(is_admission_configuration(d) for d in docs):
            configurations = lint_configurations(docs, old_docs, field_validation)
            counted = [(results, "CustomResourceDefinition")] if results else []
            counted.append((configurations, NOUN))
            results = _in_input_order(docs, [*results, *configurations])
        emit(results, fmt, color, "CustomResourceDefinition", notes=notes, counted=counted, skipped=skipped)
        if against and fmt == "text" and not resolve_quiet():
            from crdtool.report.text import findings_summary
            click.echo(findings_summary(results) if comparison.compared else
                       "no CRD compared: none of --against has the metadata.name of a new CRD\n", nl=False)
        if costs and fmt == "text":
            from crdtool.report.costs import render_costs
            click.echo(render_costs(results), nl=False)
        if any(not r.valid for r in results):
            return EXIT_FINDINGS
        if against:
            from crdtool.upgrade.rules import at_least
            if any(at_least(f.severity, fail_on) for r in results for f in r.findings):
                return EXIT_FINDINGS
        return EXIT_OK

    sys.exit(guarded(run))


def _in_input_order(docs: list[Document], results: list[Result]) -> list[Result]:
    """The results in the order of their documents among the inputs (a file with a CRD and a policy
    is reported top to bottom)."""
    position = {id(doc): n for n, doc in enumerate(docs)}
    return sorted(results, key=lambda r: position.get(id(r.document), len(docs)))


#: CRDs per task of `lint --jobs`: a task's set-up is small, and small tasks keep the workers busy to the end.
LINT_CHUNK = 4


def _lint_in_workers(docs: list, old_docs: list | None, costs: bool, jobs: int, store: Any) -> list:
    """engine.lint.lint's results over `jobs` worker processes, in the same order: the CRDs are shared
    out in small tasks; results come back without their documents, which are put back here."""
    from crdtool.engine.lint import is_crd, lint
    from crdtool.engine.parallel import run_tasks

    crds = [d for d in docs if is_crd(d)]
    tasks = [tuple(range(start, min(start + LINT_CHUNK, len(crds)))) for start in range(0, len(crds), LINT_CHUNK)]

    def work(task: tuple[int, ...]) -> list:
        results = lint([crds[i] for i in task], old_docs, costs=costs, store=store)
        for result in results:
            result.document = None
        return results

    results = []
    for task, task_results in zip(tasks, run_tasks(tasks, work, jobs), strict=True):
        for i, result in zip(task, task_results, strict=True):
            result.document = crds[i]
            results.append(result)
    return results
