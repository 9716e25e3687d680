"""What the subcommands share: output options, reading inputs, exit codes, error reporting."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click

# The exit codes are decided in crdtool.errors; the subcommands import them from here with the rest.
from crdtool.errors import EXIT_FINDINGS as EXIT_FINDINGS
from crdtool.errors import EXIT_INPUT as EXIT_INPUT
from crdtool.errors import EXIT_OK as EXIT_OK
from crdtool.errors import outcome
from crdtool.load import Document, load_inputs, read_source
from crdtool.report.registry import FINDINGS_FORMATS, FORMAT_NAMES

#: Commands whose output is not a list of findings, so they offer none of FINDINGS_FORMATS.
_NO_FINDINGS = frozenset({"columns"})
_QUIET = "crdtool.quiet"  # the group's -q (crdtool/cli/__init__.py) sets it too
_VERBOSE = "crdtool.verbose"  # and its -v


def set_quiet(ctx: click.Context, _param: click.Parameter | None, value: bool) -> None:
    """--quiet/-q, before or after the subcommand: remembered for the whole run (ctx.meta is shared)."""
    if value:
        ctx.meta[_QUIET] = True


def set_verbose(ctx: click.Context, _param: click.Parameter | None, value: bool) -> None:
    """-v/--verbose, before or after the subcommand: remembered for the whole run."""
    if value:
        ctx.meta[_VERBOSE] = True


def verbose_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """-v/--verbose on a subcommand (it may also be given before it); `what` says what it adds."""
    return click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=set_verbose, help=what)


def resolve_verbose() -> bool:
    """Whether -v/--verbose was given (before or after the subcommand)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(_VERBOSE))


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--format, --no-color and --quiet on a subcommand (they may also be given before it)."""
    func = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=set_quiet,
                        help="Only the findings: no `ok` lines and no summary.")(func)
    func = click.option("--no-color", is_flag=True, default=False, help="Plain text without colors.")(func)
    func = click.option("--format", "output_format", type=click.Choice(FORMAT_NAMES), default=None,
                        help="text (default), json (for machines), kubectl (exactly what kubectl prints), "
                             "or for CI: sarif (code scanning), github (workflow annotations), junit (test "
                             "reports).")(func)
    return func


def resolve_output(output_format: str | None, no_color: bool) -> tuple[str, bool]:
    """The effective format and whether to color, from the subcommand, the group, and NO_COLOR
    (sarif, github and junit are never colored)."""
    ctx = click.get_current_context()
    group = ctx.find_root().obj or {}
    fmt = output_format or group.get("format") or _settings_format(ctx) or "text"
    if fmt in FINDINGS_FORMATS and ctx.command.name in _NO_FINDINGS:
        raise click.UsageError(f"--format {fmt} is for commands that report findings; "
                               f"{ctx.command.name} offers text, json and kubectl.", ctx)
    plain = no_color or group.get("no_color", False) or "NO_COLOR" in os.environ or fmt in FINDINGS_FORMATS
    return fmt, not plain


def _settings_format(ctx: click.Context) -> str | None:
    """The settings file's format, where the command offers it (columns has no findings formats)."""
    from crdtool.cli.settings import current_settings

    fmt = current_settings().format
    return None if fmt in FINDINGS_FORMATS and ctx.command.name in _NO_FINDINGS else fmt


def resolve_quiet() -> bool:
    """Whether --quiet/-q was given (before or after the subcommand)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(_QUIET))


def console(color: bool, stderr: bool = False):
    """A rich console honouring --no-color and non-terminal output (report.text's)."""
    from crdtool.report.text import console as text_console

    return text_console(color, stderr)


def allow_empty_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """--allow-empty: inputs that hold nothing to check pass (without it, that is exit 2)."""
    return click.option("--allow-empty", is_flag=True,
                        help="Exit 0 when the inputs hold nothing this command checks (default: exit 2, since "
                             "a run that checked nothing proves nothing).")(func)


def nothing_checked(checked: bool, allow_empty: bool, what: str, inputs: tuple[str, ...] | list[str],
                    skipped: list) -> bool:
    """Whether the run must end with exit 2 because it checked nothing (the error is printed here)."""
    if checked or allow_empty:
        return False
    from crdtool.engine.skipped import nothing_checked as message

    ctx = click.get_current_context(silent=True)
    click.echo(message(ctx.command.name if ctx else "check", what, inputs, skipped), err=True)
    return True


def read_documents(paths: tuple[str, ...] | list[str], jobs: int = 1, cached: bool = False,
                   keep_nodes: bool = False) -> list[Document]:
    """All documents of the inputs; unreadable input is an InputError, which `guarded` makes exit code 2.
    With `jobs` > 1 the files are read by that many worker processes; `cached` (CRD files) reads them
    through the run's cache (load.cached) unless it is off; `keep_nodes`: the files' node trees are kept
    with their documents (files to edit: load.sources.read_source)."""
    if jobs > 1:
        return read_in_workers([(paths, cached)], jobs)[0]
    if keep_nodes:
        return load_inputs(paths, read=lambda path: read_source(path, keep_nodes=True))
    if not cached:
        return load_inputs(paths)
    from crdtool.cli.settings import current_cache
    from crdtool.load.cached import cached_reader

    return load_inputs(paths, read=cached_reader(current_cache()))


def read_in_workers(inputs: list[tuple[tuple[str, ...] | list[str], bool]], jobs: int) -> list[list[Document]]:
    """read_documents of each (paths, cached) with the files of all read by one set of `jobs` worker
    processes (files the cache holds are not read: their documents come from it, here)."""
    from crdtool.engine.parallel import run_tasks
    from crdtool.load.sources import load_in_workers

    known = None
    if any(cached for _, cached in inputs):
        from crdtool.cli.settings import current_cache
        from crdtool.load.cached import CachedFiles

        known = CachedFiles(current_cache())
    return load_in_workers([(paths, known if cached else None) for paths, cached in inputs],
                           lambda items, work: run_tasks(items, work, jobs))


def report(exc: Exception) -> int:
    """Print what ended the run (`crdtool.errors.outcome` decides the message and the exit code) and
    return its exit code; a crdtool bug's traceback is printed too under CRDTOOL_DEBUG."""
    reported = outcome(exc)
    if reported.bug and os.environ.get("CRDTOOL_DEBUG"):
        import traceback  # here: only a crdtool bug, with CRDTOOL_DEBUG set, prints one

        traceback.print_exception(exc)
    click.echo(reported.message, err=True)
    return reported.exit_code


def guarded(run: Callable[[], int]) -> int:
    """Run a subcommand's body: its exit code, or the one of the error that ended it (never a traceback)."""
    try:
        return run()
    except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
        raise  # click shows its own errors, in its usage style
    except Exception as exc:
        return report(exc)


def read_ca_bundle(path: str | None) -> bytes | None:
    """The PEM bytes of a --ca-bundle file (None when not given); unreadable is an input error."""
    if not path:
        return None
    from crdtool.errors import InputError

    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as err:
        raise InputError(path, f"cannot read the CA bundle: {err.strerror or err}") from None
