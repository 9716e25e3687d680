"""What a run of crdtool imports: the command run as its entry point runs it, in a fresh interpreter,
and the modules it left imported (lazy imports keep `--help` and small runs fast)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

_PROBE = """import json, sys
from crdtool.cli import run_command
prefixes = json.loads(sys.argv[1])
sys.argv = ["crdtool", *sys.argv[2:]]
code = run_command()
sys.stdout.flush()
modules = sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in prefixes))
print("\\n" + json.dumps([modules, code]))
"""


class Imported(NamedTuple):
    """The run's output (stdout), the modules it imported of those asked about, and its exit code."""

    output: str
    modules: list[str]
    code: int


def imported_by(args: list[str], packages: tuple[str, ...], env: Mapping[str, str] | None = None,
                cwd: Path | str | None = None) -> Imported:
    """`crdtool ARGS` in a fresh interpreter: which modules of `packages` (each a module or package
    name, its submodules included) it imported."""
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(packages), *args], capture_output=True,
                          text=True, env=None if env is None else dict(env), cwd=cwd, timeout=120, check=False)
    output, _, last = done.stdout.rstrip("\n").rpartition("\n")
    assert done.returncode == 0 and last.startswith("[["), done.stdout + done.stderr
    modules, code = json.loads(last)
    return Imported(output, modules, code)
