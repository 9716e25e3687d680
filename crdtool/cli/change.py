"""`crdtool prune` and `crdtool default`: one change to custom resources, shown as a diff,
printed as objects, or written back into the files."""

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
    console,
    guarded,
    nothing_checked,
    resolve_output,
    resolve_quiet,
    resolve_verbose,
)
from crdtool.cli.resources import resource_options, run_objects
from crdtool.load.document import InputError


def change_command(name: str, summary: str) -> click.Command:
    """The subcommand running the engine's step `name` ("prune" or "default") on each object."""

    @click.command(name, help=summary)
    @resource_options
    @click.option("-o", "--output", type=click.Choice(["diff", "yaml", "json"]), default="diff", show_default=True,
                  help="A colored diff against the input, or the resulting objects.")
    @click.option("--write", is_flag=True, help="Rewrite the input files in place (comments and order kept).")
    def command(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds, jobs,
                output_format, no_color, allow_empty, output, write) -> None:
        fmt, color = resolve_output(output_format, no_color)

        def run() -> int:
            outcome = run_objects(paths, crd_paths, version, namespace, field_validation, skip_unknown_kinds,
                                  op=name, jobs=jobs)
            if nothing_checked(bool(outcome.results), allow_empty, "custom resource", paths, outcome.skipped):
                return EXIT_INPUT
            changes = [(r, _edited(name, r), r.pruned if name == "prune" else r.defaulted) for r in outcome.results]
            if fmt in ("json", *FINDINGS_FORMATS):
                from crdtool.cli.emit import emit

                emit(outcome.results, fmt, color, lambda r: "", "object", outcome.notes if resolve_verbose() else [],
                     skipped=outcome.skipped)
            elif output in ("yaml", "json"):
                _print_objects([r.object for r in outcome.results if r.object is not None], output)
            else:
                _print_diffs(changes, color, outcome.notes if resolve_verbose() else [], outcome.skipped)
            if write:
                _write(changes)
            refused = any(r.reason in ("NotFound", "BadRequest") for r, _, _ in changes)
            return EXIT_FINDINGS if refused else EXIT_OK

        sys.exit(guarded(run))

    return command


def _edited(name: str, result) -> Any:
    """The input as the diff and --write change it: only what the step removes or adds. (The
    apiserver's object, `result.object`, also has its metadata rewritten by ObjectMeta's round trip,
    e.g. an ownerReference's missing uid written as "": not an edit to make in a user's file.)"""
    if name != "prune" or result.object is None:
        return result.object
    from crdtool.schema.defaulting import json_copy
    from crdtool.schema.pruning import prune

    edited = json_copy(result.document.data)
    prune(edited, result.crd_version.structural)
    return edited


def _shallower_than(value: Any, limit: int) -> bool:
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > limit:
            return False
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else ())]
    return True


def _print_objects(objects: list, output: str) -> None:
    if output == "json":
        from crdtool.model.gofmt import go_json_data

        objects = go_json_data(objects)
        value = objects[0] if len(objects) == 1 else {"apiVersion": "v1", "kind": "List", "items": objects}
        # json's indenting encoder is pure Python and quadratic in the depth: deep objects come out compact
        indent = 2 if _shallower_than(value, 200) else None
        sys.stdout.write(json.dumps(value, indent=indent, ensure_ascii=False) + "\n")
        return
    from crdtool.report.diff import to_yaml

    sys.stdout.write("---\n".join(to_yaml(o) for o in objects))


def _print_diffs(changes, color: bool, notes: list[str], skipped: list) -> None:
    from crdtool.engine.skipped import summary
    from crdtool.report import kubectl
    from crdtool.report.diff import print_diff, unified

    out = console(color)
    for note in notes:
        out.print(f"note: {note}", highlight=False, markup=False)
    for r, after, _changed in changes:
        doc = r.document
        label = f"{doc.source}#{doc.index}" + (f" items[{doc.item}]" if doc.item is not None else "")
        if r.object is None:
            out.print(f"{label}: error: {kubectl.error_text(r).strip()}", highlight=False, markup=False)
            continue
        lines = unified(r.document.data, after, label)
        if lines:
            print_diff(out, lines)
        elif not resolve_quiet():
            out.print(f"{label}: no change", style="dim", highlight=False)
    if skipped and not resolve_quiet():
        out.print(summary(skipped), style="yellow", highlight=False, markup=False)


def _write(changes) -> None:
    from crdtool.load.rewrite import rewrite

    by_file: dict[str, dict[int | tuple[int, int], tuple[Any, Any]]] = {}
    for r, after, changed in changes:
        if changed:
            doc = r.document
            key = doc.index if doc.item is None else (doc.index, doc.item)
            by_file.setdefault(doc.source, {})[key] = (doc.data, after)
    for path, targets in by_file.items():
        try:
            changed = rewrite(path, targets)
        except OSError as err:
            raise InputError(path, f"cannot rewrite the file (left as it was): {err.strerror or err}") from err
        if changed:
            click.echo(f"rewrote {path}", err=True)


#: Public names for the commands that reuse these (`convert`): print objects as -o yaml|json does,
#: and rewrite input files atomically (`changes`: (result with .document, new value, changed) triples).
print_objects = _print_objects
write_changes = _write
