"""`crdtool default`: what the apiserver's defaulting adds to custom resources."""

from __future__ import annotations

from crdtool.cli.change import change_command

command = change_command(
    "default",
    "Show what the OpenAPI defaults of their CRD add to every custom resource in PATHS, print the "
    "objects as the apiserver would store them (-o yaml|json), or write the defaults into the files (--write).",
    "the objects as the apiserver would store them: unknown fields pruned, then defaults applied "
    "(the diff and --write only add the defaults: removing unknown fields is `prune`'s).",
)
