"""`crdtool default`: what the apiserver's defaulting adds to custom resources."""

from __future__ import annotations

from crdtool.cli.change import change_command

command = change_command(
    "default",
    "Show what the OpenAPI defaults of their CRD add to every custom resource in PATHS, print the "
    "defaulted objects (-o yaml|json), or write the defaults into the files (--write).",
)
