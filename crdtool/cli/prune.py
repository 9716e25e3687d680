"""`crdtool prune`: what the apiserver's pruning removes from custom resources."""

from __future__ import annotations

from crdtool.cli.change import change_command

command = change_command(
    "prune",
    "Show what pruning removes from every custom resource in PATHS (fields their CRD's schema does not "
    "know), print the pruned objects (-o yaml|json), or remove them from the files (--write).",
    "the objects as the apiserver decodes them: unknown fields pruned, nothing defaulted (`default -o yaml` "
    "shows them as stored).",
)
