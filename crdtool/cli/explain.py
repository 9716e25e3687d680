"""`crdtool explain`: what `kubectl explain` prints for a built-in kind or a custom resource, from
the vendored 1.36 types and the CRDs given."""

from __future__ import annotations

import sys

import click

from crdtool.cli.common import guarded, read_documents


@click.command("explain")
@click.argument("resource")
@click.option("-c", "--crd", "crd_paths", multiple=True, type=click.Path(allow_dash=True),
              help="CRD file or folder (repeatable): the CustomResourceDefinitions the apiserver serves "
                   "beside its built-in kinds.")
@click.option("--api-version", default=None,
              help="Explain this group/version of the resource instead of its preferred version.")
@click.option("--recursive", is_flag=True, help="Print the names and types of all fields, nested ones too.")
def command(resource: str, crd_paths: tuple[str, ...], api_version: str | None, recursive: bool) -> None:
    """Describe RESOURCE[.field.path] (plural, singular or short name, optionally plural.group) as
    `kubectl explain` does against a 1.36 apiserver with the CRDs installed: built-in kinds
    (`deployments.spec.strategy`, `svc`) and custom resources; same text, same errors, exit 1 on
    an unknown resource or field, 2 on unreadable input."""

    def run() -> int:
        from crdtool.explain import explain

        result = explain(read_documents(crd_paths, cached=True) if crd_paths else (), resource, api_version, recursive)
        sys.stdout.write(result.stdout)
        sys.stdout.flush()
        sys.stderr.write(result.stderr)
        return result.exit_code

    sys.exit(guarded(run))
