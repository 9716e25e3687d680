"""crdtool's errors: each kind's exit code and message (crdtool.errors.outcome), and through the
command line, input problems that must end as an input error naming the file and line (exit 2),
never as `crdtool: internal error`."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.cli.common import guarded
from crdtool.convert.command import CommandError
from crdtool.engine.parallel import WorkerError
from crdtool.errors import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    CrdtoolError,
    InputError,
    RunEnvironmentError,
    SettingsError,
    UsageError,
    outcome,
)

REPO = Path(__file__).resolve().parents[2]
OLD_CRD = REPO / "fixtures" / "upgrade" / "old.yaml"
CRONTAB_CRD = str(REPO / "fixtures" / "crontab" / "crd.yaml")
CRONTAB = str(REPO / "fixtures" / "crontab" / "my-crontab.yaml")
PIZZA_CRD = str(REPO / "fixtures" / "pizza" / "crd.yaml")
MARGHERITA = str(REPO / "fixtures" / "pizza" / "margherita.yaml")
SPEC_5 = ('CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: '
          "cannot unmarshal number into Go struct field CustomResourceDefinition.spec of type "
          "v1.CustomResourceDefinitionSpec")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------- the mapping

def test_exit_codes() -> None:
    assert (EXIT_OK, EXIT_FINDINGS, EXIT_INPUT) == (0, 1, 2)


@pytest.mark.parametrize(("error", "message"), [
    (InputError("crd.yaml", "no such file or directory"), "crd.yaml: error: no such file or directory"),
    (InputError("crd.yaml", "bad", 3), "crd.yaml:3: error: bad"),
    (InputError("crd.yaml", "bad", 3, 7), "crd.yaml:3:7: error: bad"),
    (SettingsError(".crdtool.yaml", 'unknown setting "formats"', 1, 1),
     '.crdtool.yaml:1:1: error: unknown setting "formats"'),
    (UsageError("the CRD converts through a service crdtool cannot reach"),
     "crdtool: error: the CRD converts through a service crdtool cannot reach"),
    (RunEnvironmentError("cannot start 4 worker processes"), "crdtool: error: cannot start 4 worker processes"),
    (WorkerError("a worker process ended without an answer"),
     "crdtool: error: a worker process ended without an answer"),
    (RecursionError("maximum recursion depth exceeded"), "crdtool: error: input nested too deeply to process"),
    (MemoryError(), "crdtool: error: input too large to process"),
    (OSError(errno.ENOSPC, "No space left on device"), "crdtool: error: cannot write: No space left on device"),
])
def test_each_kind_is_exit_2_with_its_message(error: Exception, message: str) -> None:
    assert outcome(error) == (EXIT_INPUT, message, False)


def test_anything_else_is_a_bug_named_as_one() -> None:
    assert outcome(KeyError("x")) == (
        EXIT_INPUT, "crdtool: internal error: KeyError: 'x' (set CRDTOOL_DEBUG=1 for details)", True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["lint", CRONTAB_CRD], ["lint", str(REPO / "fixtures" / "broken")]])
def test_output_that_finds_no_room_is_exit_2_with_a_message(args: list[str]) -> None:
    """The command, as its entry point runs, writing into a full device (a small output is written
    as the process ends, a larger one while the run goes on): exit 2, the system's words."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "crdtool", "--no-config", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (2, "crdtool: error: cannot write: No space left on device\n")


def test_a_usage_error_of_an_option_is_shown_as_click_shows_a_bad_option() -> None:
    command = click.Command("convert", params=[click.Option(["--converter"])])
    with click.Context(command, info_name="convert") as ctx:
        shown = outcome(UsageError("cannot run it", option="--converter")).message
        mine = UsageError("cannot run it", option="--converter")
        theirs = click.BadParameter("cannot run it", ctx, param_hint="'--converter'")
        assert mine.show() == shown
        assert shown.splitlines()[0] == ctx.get_usage()
        assert shown.splitlines()[-1] == f"Error: {theirs.format_message()}"


def test_user_facing_errors_share_the_base_and_value_signals_do_not() -> None:
    from crdtool.model.gotime import TimeParseError
    from crdtool.model.gourl import URLError
    from crdtool.model.groupversion import GroupVersionError

    for kind in (InputError, SettingsError, UsageError, RunEnvironmentError, CommandError, WorkerError):
        assert issubclass(kind, CrdtoolError) and kind.exit_code == EXIT_INPUT
    for kind in (TimeParseError, URLError, GroupVersionError):  # become field errors, never reach the user
        assert issubclass(kind, ValueError) and not issubclass(kind, CrdtoolError)


def test_guarded_prints_the_message_and_returns_the_code(capsys) -> None:
    def run() -> int:
        raise InputError("a.yaml", "bad", 2, 1)

    assert guarded(run) == EXIT_INPUT
    assert capsys.readouterr().err == "a.yaml:2:1: error: bad\n"
    assert guarded(lambda: EXIT_FINDINGS) == EXIT_FINDINGS


def test_guarded_traceback_only_for_bugs_and_only_with_crdtool_debug(capsys, monkeypatch) -> None:
    def bug() -> int:
        raise KeyError("x")

    def deep() -> int:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.delenv("CRDTOOL_DEBUG", raising=False)
    guarded(bug)
    assert "Traceback" not in capsys.readouterr().err
    monkeypatch.setenv("CRDTOOL_DEBUG", "1")
    guarded(bug)
    assert "Traceback" in capsys.readouterr().err
    guarded(deep)
    assert capsys.readouterr().err == "crdtool: error: input nested too deeply to process\n"


def test_guarded_leaves_click_errors_to_click() -> None:
    def run() -> int:
        raise click.UsageError("--old and --against cannot be used together")

    with pytest.raises(click.UsageError):
        guarded(run)


def test_an_error_outside_a_subcommand_body_is_reported_too(run_main, monkeypatch) -> None:
    import crdtool.cli.settings

    def broken(*_args, **_kwargs) -> None:
        raise KeyError("settings")

    monkeypatch.setattr(crdtool.cli.settings, "apply_settings", broken)
    res = run_main("lint", str(OLD_CRD))
    assert res.exit_code == 2
    assert res.stderr == "crdtool: internal error: KeyError: 'settings' (set CRDTOOL_DEBUG=1 for details)\n"


# ---------------------------------------------------------------- undecodable stored objects

def _undecodable_old(tmp_path: Path, prefix: str = "") -> Path:
    text = OLD_CRD.read_text()
    start = text.index("spec:")
    old = tmp_path / "old.yaml"
    old.write_text(prefix + text[:start] + "spec: 5\n")
    return old


@pytest.mark.parametrize("option", ["--old", "--against"])
def test_lint_over_an_old_crd_that_cannot_be_decoded(tmp_path: Path, option: str) -> None:
    old = _undecodable_old(tmp_path)
    res = run("lint", option, str(old), str(OLD_CRD))
    assert res.exit_code == 2 and "internal error" not in res.output
    assert res.stderr == f"{old}:2:1: error: the old CustomResourceDefinition widgets.example.com cannot be " \
                         f"decoded: {SPEC_5}\n"


def test_lint_old_names_the_line_of_the_document_in_its_file(tmp_path: Path) -> None:
    old = _undecodable_old(tmp_path, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n")
    res = run("lint", "--old", str(old), str(OLD_CRD))
    assert res.exit_code == 2 and res.stderr.startswith(f"{old}:6:1: error: the old CustomResourceDefinition ")


def test_lint_old_with_a_list_where_a_map_is_expected(tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(OLD_CRD.read_text().replace("  names:\n", "  names: [a, b]\n  x:\n"))
    res = run("lint", "--old", str(old), str(OLD_CRD))
    assert res.exit_code == 2 and "internal error" not in res.output
    assert res.stderr.startswith(f"{old}:2:1: error: the old CustomResourceDefinition widgets.example.com cannot be "
                                 "decoded: ")
    assert "cannot unmarshal array into Go struct field CustomResourceDefinitionSpec.spec.names" in res.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_old_object_that_cannot_be_decoded(tmp_path: Path, jobs: str) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(Path(CRONTAB).read_text().replace("metadata:", "metadata: 5\nx:", 1))
    res = run("validate", "-c", CRONTAB_CRD, "--old", str(old), CRONTAB, "-j", jobs)
    assert res.exit_code == 2 and "internal error" not in res.output
    assert res.stderr.startswith(f"{old}:1:1: error: the stored object cannot be decoded: ")


# ---------------------------------------------------------------- options that take a file or a command

@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs a file that exists but cannot be read")
def test_convert_ca_bundle_that_cannot_be_read() -> None:
    res = run("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--webhook-url", "https://127.0.0.1:1/",
              "--ca-bundle", "/proc/self/mem")
    assert res.exit_code == 2 and "internal error" not in res.output
    assert res.stderr.startswith("/proc/self/mem: error: cannot read the CA bundle: ")


@pytest.mark.parametrize(("command", "problem"), [
    ('"unclosed', "'\"unclosed': "),
    ("/nonexistent/converter", '"/nonexistent/converter": cannot run it: '),
])
def test_converter_that_cannot_run_is_a_bad_option(command: str, problem: str) -> None:
    res = run("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", command)
    click_own = run("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "a/b/c")  # a bad option, as click says it
    assert res.exit_code == click_own.exit_code == 2
    assert res.stderr.splitlines()[:3] == click_own.stderr.splitlines()[:3]  # usage, help hint, blank line
    assert "'--converter'" in res.stderr and problem in res.stderr
