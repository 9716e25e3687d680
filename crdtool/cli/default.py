"""`crdtool default`: what the apiserver's defaulting adds to custom resources."""

from __future__ import annotations

from crdtool.cli.change import change_command


def _default(obj, structural) -> list[str]:
    from crdtool.schema.defaulting import apply_defaults

    return apply_defaults(obj, structural) if structural is not None else []


command = change_command(
    "default",
    "Show what the OpenAPI defaults of their CRD add to every custom resource in PATHS, print the "
    "defaulted objects (-o yaml|json), or write the defaults into the files (--write).",
    _default,
)
