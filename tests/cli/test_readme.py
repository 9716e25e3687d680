"""The README's shell examples, run as a user pastes them: from the repository's top, with the
installed `crdtool`, in order within each block. Each must run and give a verdict (exit 0 or 1;
`explain` and `columns` exit 0), never a usage error, an unreadable input or a traceback (exit 2)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
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


#: A server the README starts (`--serve PORT`), and the places its port is named.
SERVE = re.compile(r"--serve (\d+)\b")


def _free_port() -> int:
    """A port no one listens on now (bound to 0, then released for the server to take)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _own_ports(text: str, ports: dict[str, int]) -> str:
    """`text` with each of the README's fixed ports replaced by this run's own."""
    for fixed, free in ports.items():
        text = re.sub(rf"(?<=--serve ){fixed}\b|(?<=127\.0\.0\.1:){fixed}\b", str(free), text)
    return text


def _run_block(commands: list[str]) -> list[tuple[str, int, str]]:
    """Run one block's commands in order; a block that starts a server (`&`) runs as one script.

    Runs of the tests at the same time must not meet: each block's `/tmp/` files are in a folder of its
    own, and a block with servers runs them on free ports, from a copy of the fixtures naming those
    ports (the pizza CRD's webhook URL) where the README names its fixed ones."""
    env = _environment()
    with tempfile.TemporaryDirectory(prefix="crdtool-readme-") as tmp:
        commands = [c.replace("/tmp/", f"{tmp}/") for c in commands]
        if any(c.endswith("&") for c in commands):
            ports = {port: _free_port() for c in commands for port in SERVE.findall(c)}
            shutil.copytree(ROOT / "fixtures", Path(tmp) / "fixtures")
            for path in (Path(tmp) / "fixtures").rglob("*"):
                if path.is_file() and path.suffix in (".yaml", ".py"):
                    text = path.read_text(encoding="utf-8")
                    if _own_ports(text, ports) != text:
                        path.write_text(_own_ports(text, ports), encoding="utf-8")
            commands = [_own_ports(c, ports) for c in commands]
            script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n" + "\n".join(
                f"{c}\nsleep 1" if c.endswith("&") else c for c in commands[:-1]) + f"\n{commands[-1]}\n"
            done = subprocess.run(["bash", "-c", script], cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=120)
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


@pytest.mark.skipif(shutil.which("crdtool", path=os.path.dirname(sys.executable)) is None
                    or shutil.which("openssl") is None, reason="needs crdtool installed and openssl")
def test_readme_servers_run_while_another_run_holds_the_readmes_ports() -> None:
    blocks = [b for b in _blocks() if any(c.endswith("&") for c in b)]
    ports = {int(port) for block in blocks for c in block for port in SERVE.findall(c)}
    assert blocks and ports  # the webhook examples serve on fixed ports
    held = []
    for port in ports:  # as another run of these tests would (a port taken already is taken all the same)
        sock = socket.socket()
        try:
            sock.bind(("127.0.0.1", port))
            sock.listen()
            held.append(sock)
        except OSError:
            sock.close()
    try:
        with ThreadPoolExecutor(len(blocks)) as pool:
            runs = [run for block_runs in pool.map(_run_block, blocks) for run in block_runs]
    finally:
        for sock in held:
            sock.close()
    for command, code, output in runs:
        assert code in (0, 1), f"{command}\nexit {code}\n{output}"
        assert "Traceback" not in output, output
