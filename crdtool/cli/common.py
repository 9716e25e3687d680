"""What the subcommands share: output options, reading inputs, exit codes, error reporting."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

import click

from crdtool.load import Document, InputError, load_inputs

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--format and --no-color on a subcommand (they may also be given before it)."""
    func = click.option("--no-color", is_flag=True, default=False, help="Plain text without colors.")(func)
    func = click.option("--format", "output_format", type=click.Choice(["text", "json", "kubectl"]), default=None,
                        help="text (default), json (for machines) or kubectl (exactly what kubectl prints).")(func)
    return func


def resolve_output(output_format: str | None, no_color: bool) -> tuple[str, bool]:
    """The effective format and whether to color, from the subcommand, the group, and NO_COLOR."""
    group = click.get_current_context().find_root().obj or {}
    fmt = output_format or group.get("format") or "text"
    plain = no_color or group.get("no_color", False) or "NO_COLOR" in os.environ
    return fmt, not plain


def console(color: bool, stderr: bool = False):
    """A rich console honouring --no-color and non-terminal output."""
    from rich.console import Console

    return Console(stderr=stderr, no_color=not color, color_system="auto" if color else None,
                   highlight=False, soft_wrap=True)


def read_documents(paths: tuple[str, ...] | list[str]) -> list[Document]:
    """All documents of the inputs; unreadable input ends the run with exit code 2."""
    try:
        return load_inputs(paths)
    except InputError as err:
        fail_input(str(err))
        raise AssertionError("unreachable") from None


def fail_input(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(EXIT_INPUT)


def guarded(run: Callable[[], int]) -> int:
    """Run a subcommand's body; bad input is exit 2 with its message, never a traceback."""
    try:
        return run()
    except InputError as err:
        click.echo(str(err), err=True)
        return EXIT_INPUT
    except RecursionError:
        click.echo("crdtool: error: input nested too deeply to process", err=True)
        return EXIT_INPUT
    except MemoryError:
        click.echo("crdtool: error: input too large to process", err=True)
        return EXIT_INPUT
    except (SystemExit, KeyboardInterrupt, click.exceptions.Exit):
        raise
    except Exception as exc:  # a crdtool bug: say so plainly, keep the traceback for CRDTOOL_DEBUG
        if os.environ.get("CRDTOOL_DEBUG"):
            traceback.print_exc()
        click.echo(f"crdtool: internal error: {type(exc).__name__}: {exc} (set CRDTOOL_DEBUG=1 for details)",
                   err=True)
        return EXIT_INPUT
