"""The README's shell examples, run as a user pastes them: from the repository's top, with the
installed `crdtool`, in order within each block. Each must run and give a verdict (exit 0 or 1;
`explain` and `columns` exit 0), never a usage error, an unreadable input or a traceback (exit 2)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
#: Lines not run: the test command itself (it would run these tests), and shell set-up for completion.
NOT_RUN = ("pip install -e", "eval ", "_CRDTOOL_COMPLETE=")


def _blocks() -> list[list[str]]:
    """Every ```sh block of the README as its commands (continuation lines joined, comments dropped)."""
    blocks = []
    for body in BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        commands = []
        for line in body.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#") and not line.startswith(NOT_RUN):
                commands.append(line)
        if commands:
            blocks.append(commands)
    return blocks


def _environment() -> dict[str, str]:
    """The user's shell: the `crdtool` installed beside this interpreter first on PATH, no settings."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("GITHUB_WORKSPACE", None)
    return env


def _run_block(commands: list[str]) -> list[tuple[str, int, str]]:
    """Run one block's commands in order; a block that starts a server (`&`) runs as one script."""
    env = _environment()
    if any(c.endswith("&") for c in commands):
        script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n" + "\n".join(
            f"{c}\nsleep 1" if c.endswith("&") else c for c in commands[:-1]) + f"\n{commands[-1]}\n"
        done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        return [(commands[-1], done.returncode, done.stdout + done.stderr)]
    out = []
    for command in commands:
        command = command.removeprefix("pip install . && ")
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
        out.append((command, done.returncode, done.stdout + done.stderr))
    return out


def test_the_readme_has_examples_for_every_subcommand() -> None:
    commands = " ".join(c for block in _blocks() for c in block)
    for sub in ("lint", "validate", "prune", "default", "columns", "explain", "convert"):
        assert f"crdtool {sub} " in commands or f"crdtool -q {sub} " in commands, sub


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    readme = [c for block in BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
              for c in block.splitlines() if c.startswith("pip install -e")]
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line.startswith("pip install -e")]
    assert len(readme) == 1 and ci == readme, (readme, ci)
    assert " mypy " in readme[0]  # the type check is part of the test command


@pytest.mark.skipif(shutil.which("crdtool", path=os.path.dirname(sys.executable)) is None,
                    reason="crdtool is not installed beside this interpreter: pip install -e '.[test]'")
def test_every_readme_example_runs_and_gives_a_verdict() -> None:
    blocks = _blocks()
    if shutil.which("openssl") is None:  # the webhook example makes its certificate with openssl
        blocks = [b for b in blocks if not any(c.startswith("openssl ") for c in b)]
    with ThreadPoolExecutor(4) as pool:
        runs = [run for block_runs in pool.map(_run_block, blocks) for run in block_runs]
    assert len(runs) >= 30
    for command, code, output in runs:
        allowed = (0,) if re.search(r"crdtool (explain|columns) ", command) else (0, 1)
        assert code in allowed, f"{command}\nexit {code}\n{output}"
        assert "Traceback" not in output and "internal error" not in output, f"{command}\n{output}"
