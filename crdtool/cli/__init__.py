"""The `crdtool` command: a click group whose subcommands are imported only when run,
so that `crdtool --help` stays fast and loads neither the CEL engine nor jsonschema.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
import threading
from typing import NoReturn

import click

from crdtool import KUBE_VERSION, __version__
from crdtool.report.registry import FORMAT_NAMES

#: The cyclic collector's thresholds for a run. Nearly everything a run makes lives until its end
#: (documents, compiled schemas and rules, results) and holds no cycle, so the default young
#: collection every 700 allocations only rescans survivors: measured, a validate of the corpus spends
#: a sixth of its time in it. One every 100,000 allocations keeps the collector for the cycles that
#: do occur, with the same peak memory.
GC_THRESHOLDS = (100_000, 20, 20)

#: name -> (module, one-line help). Only subcommands that exist are listed.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "lint": ("crdtool.cli.lint", "Would kube-apiserver accept these CustomResourceDefinitions?"),
    "validate": ("crdtool.cli.validate",
                 "Would kube-apiserver accept these objects? (a dry-run create, admission included)"),
    "prune": ("crdtool.cli.prune", "Show (or write) what pruning removes from these custom resources."),
    "default": ("crdtool.cli.default", "Show (or write) what defaulting adds to these custom resources."),
    "columns": ("crdtool.cli.columns", "Print custom resources as `kubectl get` does (additionalPrinterColumns)."),
    "explain": ("crdtool.cli.explain",
                "Describe a resource's fields as `kubectl explain` does (CRDs, built-in kinds)."),
    "convert": ("crdtool.cli.convert", "Read custom resources in another version of their CRD (None, webhooks)."),
    "cache": ("crdtool.cli.cache", "Show where crdtool's cache is, or empty it."),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = SUBCOMMANDS.get(cmd_name)
        if entry is None:
            return None
        return importlib.import_module(entry[0]).command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", message=f"crdtool %(version)s (Kubernetes {KUBE_VERSION})")
@click.option("--format", "output_format",
              type=click.Choice(FORMAT_NAMES), default=None,
              help="Output format (default: text); sarif, github and junit are for CI.")
@click.option("--no-color", is_flag=True, default=False, help="Plain text without colors (NO_COLOR works too).")
@click.option("-q", "--quiet", is_flag=True, default=False, help="Only the findings: no `ok` lines and no summary.")
@click.option("-v", "--verbose", is_flag=True, default=False,
              help="Also say which documents were passed over, and why.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Settings file (default: .crdtool.yaml or pyproject.toml's [tool.crdtool], found upward from "
                   "the working directory).")
@click.option("--no-config", is_flag=True, default=False, help="Ignore settings files.")
@click.option("--no-cache", is_flag=True, default=False,
              help="Neither read nor write the cache of CRD verdicts and decoded CRD files.")
@click.option("--kube-version", default=None, metavar="VERSION",
              help=f"The Kubernetes version to check against (only {KUBE_VERSION} is known).")
@click.pass_context
def cli(ctx: click.Context, output_format: str | None, no_color: bool, quiet: bool, verbose: bool,
        config_path: str | None, no_config: bool, no_cache: bool, kube_version: str | None) -> None:
    """What kube-apiserver would do with your CustomResourceDefinitions and custom
    resources, in its own words, without a cluster."""
    from crdtool.cli.settings import apply_settings

    ctx.obj = {"format": output_format, "no_color": no_color, "no_cache": no_cache}
    if quiet:
        ctx.meta["crdtool.quiet"] = True
    if verbose:
        ctx.meta["crdtool.verbose"] = True
    apply_settings(ctx, None if no_config else config_path, search=not no_config, kube_version=kube_version)


def _run() -> int:
    try:
        # Without standalone mode click returns, rather than raises, the code of a `ctx.exit(code)`.
        code = cli.main(standalone_mode=False, prog_name="crdtool")
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        return 130
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:  # raised outside a subcommand's body (which `guarded` reports)
        from crdtool.cli.common import report

        return report(exc)
    return code if isinstance(code, int) else 0


#: What a run leaves to the end of the process, when `main` ends it at once; None where the process
#: goes on (a test's CliRunner runs many commands in one process: each one's objects are freed).
_LEFT_TO_EXIT: list[tuple[object, ...]] | None = None


def leave_to_exit(*objects: object) -> None:
    """Keep a run's documents and results until the process ends at once (`main`): freeing a large
    run's objects one by one as the command returns took a quarter of a second for a 10 MB file."""
    if _LEFT_TO_EXIT is not None:
        _LEFT_TO_EXIT.append(objects)


def main() -> NoReturn:
    """The `crdtool` command (and `python -m crdtool`): `run_command()`, then the process ends."""
    global _LEFT_TO_EXIT
    _LEFT_TO_EXIT = []
    _end(run_command())


def run_command() -> int:
    """The command line's run, its exit code returned. Runs in a thread with a large stack so that
    deeply nested input is reported, not a crash: the checks recurse along the document."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 60_000))
    gc.set_threshold(*GC_THRESHOLDS)
    threading.stack_size(512 * 1024 * 1024)
    outcome: list[int] = [1]

    def target() -> None:
        outcome[0] = _run()

    worker = threading.Thread(target=target, name="crdtool", daemon=True)
    worker.start()
    threading.stack_size(0)  # only this thread recurses along documents: others get the default
    try:
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        return 130
    return outcome[0]


def _end(code: int) -> NoReturn:
    """Flush the output and end the process at once. Nothing is left to do (files are written in
    place, worker processes stopped), and freeing a large run's objects one by one at interpreter
    exit takes a tenth of a second and more. An output that cannot be written is exit code 2; a
    reader that stopped reading (`| head`) leaves the run's own code."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    except OSError as err:
        from crdtool.errors import EXIT_INPUT, cannot_write

        code = EXIT_INPUT
        with contextlib.suppress(OSError):
            sys.stderr.write(cannot_write(err) + "\n")
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)
