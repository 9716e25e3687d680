"""`crdtool lint` end to end: through click's CliRunner and one real subprocess."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from imported import imported_by

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CRONTAB = str(FIXTURES / "crontab" / "crd.yaml")
WRONG_NAME = str(FIXTURES / "broken" / "wrong-name.yaml")


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_the_crontab_crd_is_accepted() -> None:
    res = run("lint", "--no-color", CRONTAB)
    assert res.exit_code == 0, res.output
    assert "ok " in res.output and "1 CustomResourceDefinition would be accepted" in res.output


def test_a_broken_crd_is_rejected_with_positions_and_kubectl_text() -> None:
    res = run("lint", "--no-color", WRONG_NAME)
    assert res.exit_code == 1
    assert (f'{WRONG_NAME}:5:3: error: metadata.name: Invalid value: "crontab.stable.example.com": '
            'must be spec.names.plural+"."+spec.group') in res.output
    assert f'{WRONG_NAME}:8:3: error: spec.scope: Unsupported value: "Namespace"' in res.output
    assert "kubectl would print:" in res.output


def test_kubectl_format_prints_exactly_what_kubectl_prints() -> None:
    res = run("lint", "--format", "kubectl", WRONG_NAME)
    assert res.exit_code == 1
    assert res.stderr == (
        'The CustomResourceDefinition "crontab.stable.example.com" is invalid: \n'
        '* metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group\n'
        '* spec.scope: Unsupported value: "Namespace": supported values: "Cluster", "Namespaced"\n')
    ok = run("lint", "--format", "kubectl", CRONTAB)
    assert ok.stdout == ("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com "
                         "created (server dry run)\n")


def test_json_format_follows_the_contract() -> None:
    res = run("--format", "json", "lint", WRONG_NAME)
    out = json.loads(res.stdout)["results"][0]
    assert out["valid"] is False and out["kind"] == "CustomResourceDefinition"
    assert out["status"].startswith(
        'CustomResourceDefinition.apiextensions.k8s.io "crontab.stable.example.com" is invalid: [')
    fields = [(e["field"], e["line"], e["column"]) for e in out["errors"]]
    assert fields == [("metadata.name", 5, 3), ("spec.scope", 8, 3)]


def test_folders_and_stdin() -> None:
    res = run("lint", "--format", "json", str(FIXTURES))
    names = {(Path(r["file"]).name, r["valid"]) for r in json.loads(res.stdout)["results"]}
    assert ("crd.yaml", True) in names and ("wrong-name.yaml", False) in names
    assert res.exit_code == 1
    piped = run("lint", "--format", "json", "-", stdin=Path(CRONTAB).read_text())
    assert json.loads(piped.stdout)["results"][0]["file"] == "<stdin>" and piped.exit_code == 0


def test_an_update_over_a_stored_crd(tmp_path) -> None:
    new = tmp_path / "new.yaml"
    new.write_text(Path(CRONTAB).read_text().replace("group: stable.example.com", "group: other.example.com")
                   .replace("name: crontabs.stable.example.com", "name: crontabs.other.example.com"))
    res = run("lint", "--format", "kubectl", "--old", CRONTAB, str(new))
    assert res.exit_code == 1
    assert "spec.group: Invalid value: \"other.example.com\": field is immutable" in res.stderr


def test_field_validation_modes(tmp_path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(Path(CRONTAB).read_text().replace("  scope: Namespaced", "  scope: Namespaced\n  colour: blue"))
    strict = run("lint", "--format", "kubectl", str(crd))
    assert strict.exit_code == 1 and 'strict decoding error: unknown field "spec.colour"' in strict.stderr
    warn = run("lint", "--format", "kubectl", "--field-validation", "Warn", str(crd))
    assert warn.exit_code == 0 and warn.stderr == 'Warning: unknown field "spec.colour"\n'
    assert run("lint", "--field-validation", "Ignore", str(crd)).exit_code == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("a: [1, 2\n", "YAML syntax error"),
        ("", "no objects found"),
        (b"kind: caf\xe9\n", "not valid UTF-8"),
        ("- a\n- b\n", "must be a mapping"),
        ("a: " + "[" * 12000 + "]" * 12000 + "\n", "nesting deeper than 10000 levels"),
    ],
    ids=["syntax", "empty", "latin1", "list", "deep"],
)
def test_unreadable_input_exits_2_naming_the_file(tmp_path, content, message) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    res = run("lint", str(bad))
    assert res.exit_code == 2
    assert str(bad) in res.stderr and message in res.stderr
    assert "Traceback" not in res.output


def test_alias_bomb_exits_2() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    res = run("lint", "-", stdin="\n".join(lines) + "\n")
    assert res.exit_code == 2 and "excessive aliasing" in res.stderr


def test_a_real_process_and_help_without_heavy_imports() -> None:
    proc = subprocess.run([sys.executable, "-m", "crdtool", "lint", "--format", "kubectl", WRONG_NAME],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert proc.stderr.startswith('The CustomResourceDefinition "crontab.stable.example.com"')
    assert imported_by(["--help"], ("jsonschema", "cel_expr_python", "rich", "yaml")).modules == []


def test_text_output_that_is_not_a_terminal_is_written_without_rich() -> None:
    """Pre-commit and CI capture the output: the text format writes its lines as they are, and rich (a
    tenth of a one-file run to load) is not imported. FORCE_COLOR asks rich for colors, and gets them."""
    args = ["--no-cache", "validate", str(FIXTURES / "crontab-validated")]
    plain = imported_by(args, ("rich",), env={k: v for k, v in os.environ.items() if k != "FORCE_COLOR"})
    assert plain.code == 1 and plain.modules == []
    assert "\n2 of 2 objects would be rejected\n" in plain.output and "\x1b[" not in plain.output
    colored = imported_by(args, ("rich",), env={**os.environ, "FORCE_COLOR": "1"})
    assert colored.code == 1 and "rich.console" in colored.modules
    assert "\x1b[" in colored.output
    assert re.sub("\x1b\\[[0-9;]*m", "", colored.output) == plain.output


def test_the_cel_runtime_loads_only_for_a_crd_with_rules() -> None:
    without = imported_by(["--no-cache", "lint", "-q", str(FIXTURES / "crontab" / "crd.yaml")], ("cel_expr_python",))
    assert without.code == 0 and without.modules == []
    with_rules = imported_by(["--no-cache", "lint", "-q", str(FIXTURES / "crontab-cel" / "crd.yaml")],
                             ("cel_expr_python",))
    assert with_rules.code == 0 and with_rules.modules != []


def test_verbose_names_the_documents_passed_over() -> None:
    folder = str(FIXTURES / "crontab")
    quiet = run("lint", "--no-color", folder)
    verbose = run("lint", "--no-color", "-v", folder)
    assert quiet.exit_code == verbose.exit_code == 0
    assert "Kind=CronTab: not a CustomResourceDefinition" not in quiet.output
    assert "my-crontab.yaml#0: skipped stable.example.com/v1, Kind=CronTab: not a CustomResourceDefinition" \
        in verbose.output


def test_global_options_work_before_and_after_the_subcommand() -> None:
    target = str(FIXTURES / "crontab")
    for args in (["-v", "lint", target], ["lint", "-v", target], ["-q", "-v", "lint", target]):
        res = run(*args)
        assert res.exit_code == 0, args
        assert "my-crontab.yaml#0: skipped stable.example.com/v1, Kind=CronTab: not a CustomResourceDefinition" \
            in res.output, args


def test_a_fifo_in_a_folder_is_skipped_and_reported_not_waited_on(tmp_path) -> None:
    folder = tmp_path / "crds"
    folder.mkdir()
    (folder / "crd.yaml").write_text(Path(CRONTAB).read_text())
    os.mkfifo(folder / "pipe.yaml")
    res = subprocess.run([sys.executable, "-m", "crdtool", "lint", "--no-color", str(folder)], capture_output=True,
                         text=True, timeout=120)  # before: blocked on opening the FIFO for ever
    assert res.returncode == 0, res.stderr
    assert res.stderr == f"{folder / 'pipe.yaml'}: warning: skipped: not a regular file (a FIFO)\n"
    assert "1 CustomResourceDefinition would be accepted" in res.stdout


def test_a_fifo_named_on_the_command_line_is_read_like_stdin(tmp_path) -> None:
    pipe = tmp_path / "crd.yaml"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "w") as f:
            f.write(Path(CRONTAB).read_text())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    res = run("lint", "--no-color", str(pipe))
    writer.join(timeout=60)
    assert res.exit_code == 0 and "1 CustomResourceDefinition would be accepted" in res.output
    assert res.stderr == ""


def test_an_unreadable_subfolder_is_reported(tmp_path, monkeypatch) -> None:
    """chmod 000 does not stop root, so the folder's listing fails as it would for another user."""
    (tmp_path / "a.yaml").write_text(Path(CRONTAB).read_text())
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.yaml").write_text(Path(WRONG_NAME).read_text())
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    res = run("lint", "--no-color", str(tmp_path))
    assert res.exit_code == 0 and "1 CustomResourceDefinition would be accepted" in res.output
    assert res.stderr == f"{locked}: warning: skipped: the folder cannot be read (Permission denied)\n"
    named = run("lint", str(locked))
    assert named.exit_code == 2
    assert named.stderr == f"{locked}: error: cannot read the folder: Permission denied\n"


def test_concatenated_files_point_at_the_first_repeated_key() -> None:
    """`cat cr.yaml crd.yaml | crdtool lint -`: one document whose keys repeat; the last value of each
    is read (as kubectl reads it) and the strict-decoding finding points at the first repeated key."""
    cr = (FIXTURES / "crontab" / "my-crontab.yaml").read_text()
    res = run("lint", "--no-color", "-", stdin=cr + Path(CRONTAB).read_text())
    assert res.exit_code == 1
    first_repeat = len(cr.splitlines()) + 3  # the CRD's two comment lines, then its apiVersion
    assert f'<stdin>:{first_repeat}:1: error: strict decoding: yaml: unmarshal errors:\n  line {first_repeat}: key ' \
           '"apiVersion" already set in map\n' in res.output
    sarif = json.loads(run("lint", "--format", "sarif", "-", stdin=cr + Path(CRONTAB).read_text()).stdout)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (first_repeat, 1)


def test_a_repeated_nested_key_is_pointed_at(tmp_path) -> None:
    crd = tmp_path / "crd.yaml"
    repeated = "  scope: Namespaced\n  scope: Cluster\n"
    crd.write_text(Path(CRONTAB).read_text().replace("  scope: Namespaced\n", repeated))
    res = run("lint", "--no-color", str(crd))
    line = Path(crd).read_text().splitlines().index("  scope: Cluster") + 1
    assert res.exit_code == 1
    assert f'{crd}:{line}:3: error: strict decoding: yaml: unmarshal errors:\n  line {line}: key "scope" already ' \
           'set in map' in res.output


def test_jobs_lint_in_workers_with_the_same_output_in_the_same_order() -> None:
    """`lint --jobs 2`: files read and CRDs linted by two processes; every format's output is one process's."""
    inputs = [str(FIXTURES / "broken"), str(FIXTURES / "crontab-cel"), str(FIXTURES / "pizza"), CRONTAB]
    for fmt in ("text", "json", "sarif"):
        one = run("--no-config", "lint", "--no-color", "--format", fmt, *inputs)
        two = run("--no-config", "lint", "--no-color", "--format", fmt, "--jobs", "2", *inputs)
        assert (two.exit_code, two.output) == (one.exit_code, one.output), fmt
        # without the cache, the workers read every file (none comes from the cache the first run filled)
        unread = run("--no-config", "--no-cache", "lint", "--no-color", "--format", fmt, "--jobs", "2", *inputs)
        assert (unread.exit_code, unread.output) == (one.exit_code, one.output), fmt
    assert one.exit_code == 1 and len(json.loads(run("lint", "--format", "json", *inputs).output)["results"]) >= 7
    old = run("--no-config", "lint", "--no-color", "--old", CRONTAB, CRONTAB, WRONG_NAME)
    assert run("--no-config", "lint", "--no-color", "-j", "2", "--old", CRONTAB, CRONTAB, WRONG_NAME).output == \
        old.output


def test_kubectl_words_a_crd_update_as_kubectl_replace_does(tmp_path) -> None:
    """`lint --old`: an update of the stored CRD, kubectl replace's `replaced` (a create says `created`)."""
    crd = Path(__file__).resolve().parents[2] / "fixtures" / "crontab" / "crd.yaml"
    res = CliRunner().invoke(cli, ["lint", "--format", "kubectl", "--old", str(crd), str(crd)])
    assert (res.exit_code, res.stdout) == (
        0, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com replaced (server dry run)\n")
    res = CliRunner().invoke(cli, ["lint", "--format", "kubectl", str(crd)])
    assert res.stdout.endswith(" created (server dry run)\n")
