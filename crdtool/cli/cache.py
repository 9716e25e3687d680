"""`crdtool cache`: where the persistent cache of CRD verdicts and decoded CRD files is, and emptying it."""

from __future__ import annotations

import click


@click.group("cache")
def command() -> None:
    """The cache of CRD verdicts and decoded CRD files (crdtool reuses them when a CRD has not changed)."""


@command.command("dir")
def cache_dir() -> None:
    """Print the cache's folder (CRDTOOL_CACHE_DIR, else the platform's cache folder)."""
    from crdtool.cache import cache_directory

    click.echo(str(cache_directory()))


@command.command("clean")
def cache_clean() -> None:
    """Remove every entry of the cache."""
    from crdtool.cache import clean
    from crdtool.cli.common import EXIT_INPUT

    try:
        root, freed = clean()
    except OSError as err:
        click.echo(f"crdtool: cannot clean the cache {err.filename or ''}: {err.strerror or err}", err=True)
        raise click.exceptions.Exit(EXIT_INPUT) from None
    click.echo(f"removed {_size(freed)} from {root}")


def _size(n: int) -> str:
    """A byte count as people read it."""
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f} KiB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MiB"
