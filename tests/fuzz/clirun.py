"""crdtool run in-process on hostile input, and the verdict on how it ended.

Bad input must end in exit code 0, 1 or 2 with a message: never a traceback, never
`crdtool: internal error`, never a hang. The command runs as `crdtool` runs it (a thread
with a large stack, see `crdtool.cli.run_command`) under click's CliRunner, with CRDTOOL_DEBUG=1
so that a crash brings its traceback, and a watchdog bounds its time.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass

from click.testing import CliRunner

from crdtool.cli import cli

#: As `crdtool.cli.run_command`: deep documents are reported, not a crash of the interpreter.
STACK_SIZE = 512 * 1024 * 1024
RECURSION_LIMIT = 60_000
EXIT_CODES = (0, 1, 2)
INTERNAL_ERROR = "crdtool: internal error:"
_FRAME = re.compile(r'File "(?:[^"]*/)?(crdtool/[^"]+\.py)", line \d+,? in (\S+)')
_EXCEPTION_LINE = re.compile(r"^crdtool: internal error: (.*?) \(set CRDTOOL_DEBUG=1", re.M | re.S)


@dataclass(frozen=True)
class KnownCrash:
    """A crash class already reported and being fixed: tolerated, by name and reason, until the fix lands."""

    name: str
    reason: str
    exception: re.Pattern[str]
    site: str | None = None  # the innermost crdtool frame, where the exception alone would say too little


#: Remove an entry as soon as its fix is merged: the fuzz tests then hold the line for it.
KNOWN_CRASHES: tuple[KnownCrash, ...] = ()


@dataclass(frozen=True)
class KnownHang:
    """A class of inputs that take super-linear time, found and not yet fixed: its cases are not run."""

    name: str
    reason: str


KNOWN_HANGS: tuple[KnownHang, ...] = ()


@dataclass
class Outcome:
    """How one command ended."""

    args: list[str]
    exit_code: int | None
    output: str
    seconds: float
    hung: bool = False
    traceback: str = ""

    @property
    def exception(self) -> str:
        """`Type: message` of the crash, if there was one."""
        found = _EXCEPTION_LINE.search(self.output)
        if found:
            return found.group(1)
        lines = [line for line in self.traceback.splitlines() if line and not line.startswith(" ")]
        return lines[-1] if lines else ""

    @property
    def crashed(self) -> bool:
        return bool(self.traceback) or INTERNAL_ERROR in self.output or "Traceback (most recent call last)" in \
            self.output

    @property
    def site(self) -> str:
        """The innermost crdtool frame of the crash (`crdtool/x.py:function`), which names its class."""
        frames = _FRAME.findall(self.traceback or self.output)
        return f"{frames[-1][0]}:{frames[-1][1]}" if frames else "?"

    @property
    def signature(self) -> str:
        """The crash class: exception type and where it was raised (messages vary with the input)."""
        return f"{self.exception.split(':', 1)[0] or '?'} at {self.site}"

    def known(self) -> KnownCrash | None:
        """The known crash class this is, if any."""
        for known in KNOWN_CRASHES:
            if known.exception.search(self.exception) and known.site in (None, self.site):
                return known
        return None

    def problem(self) -> str | None:
        """What is wrong with this outcome (None: it ended as it should)."""
        if self.hung:
            return f"no answer within {self.seconds:.0f} s"
        if self.crashed:
            return f"crash: {self.exception}"
        if self.exit_code not in EXIT_CODES:
            return f"exit code {self.exit_code}"
        return None


def hang_site(dump: str) -> str:
    """Where a hung run was (`crdtool/x.py:function`), from faulthandler's dump of every thread's stack.

    faulthandler lists the innermost call first; the thread that was running crdtool is the one
    with crdtool frames in it.
    """
    for block in re.split(r"^(?:Thread|Current thread) 0x", dump, flags=re.M):
        frames = _FRAME.findall(block)
        if frames:
            return f"{frames[0][0]}:{frames[0][1]}"
    return "?"


def invoke(args: list[str], timeout: float) -> Outcome:
    """Run `crdtool ARGS` in-process; after `timeout` seconds it counts as hung (its thread is left behind)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["result"] = CliRunner().invoke(cli, args, env={"CRDTOOL_DEBUG": "1", "NO_COLOR": "1"})
        except BaseException as exc:  # CliRunner itself failing is a finding too
            box["error"] = "".join(traceback.format_exception(exc))

    previous = threading.stack_size(STACK_SIZE)
    try:
        worker = threading.Thread(target=target, name="crdtool-fuzz", daemon=True)
        started = time.perf_counter()
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join(timeout)
    seconds = time.perf_counter() - started
    if worker.is_alive():
        return Outcome(args, None, "", seconds, hung=True)
    if "error" in box:
        if _RUNNER_FRAME.search(str(box["error"])) and timeout > seconds:
            # click's CliRunner itself gave out after the command (it keeps all output in memory: a
            # MemoryError while growing a BytesIO leaves it reading as closed); the command is judged
            # as a user meets it, in a process of its own.
            return _in_a_process(args, timeout - seconds)
        return Outcome(args, None, "", seconds, traceback=str(box["error"]))
    result = box["result"]
    trace = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(*result.exc_info))
    return Outcome(args, result.exit_code, result.output, seconds, traceback=trace)


#: The innermost frame of a failure of CliRunner itself, after the command returned.
_RUNNER_FRAME = re.compile(r'File "[^"]*/click/testing\.py", line \d+, in invoke\n[^\n]*\n(?:[ ^~]*\n)?'
                           r'\w+Error: [^\n]*\n?\Z')
#: How much of a run's standard output is kept to judge it (a traceback goes to standard error).
_OUTPUT_TAIL = 1 << 20


def _in_a_process(args: list[str], timeout: float) -> Outcome:
    """`crdtool ARGS` as a process of its own; its output goes to a file, of which the end is kept."""
    import subprocess

    env = {**os.environ, "CRDTOOL_DEBUG": "1", "NO_COLOR": "1"}
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            code: int | None = subprocess.run([sys.executable, "-m", "crdtool", *args], stdout=out, stderr=err,
                                              env=env, timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            code = None
        seconds = time.perf_counter() - started
        out.seek(max(0, out.seek(0, os.SEEK_END) - _OUTPUT_TAIL))
        err.seek(0)
        text = err.read().decode("utf-8", "replace") + out.read().decode("utf-8", "replace")
    return Outcome(args, code, text, seconds, hung=code is None)


def assert_survives(outcome: Outcome, what: str) -> KnownCrash | None:
    """Fail unless the command ended as bad input must; a known crash class is let through (and returned)."""
    problem = outcome.problem()
    if problem is None:
        return None
    known = outcome.known()
    if known is not None and not outcome.hung:
        return known
    detail = (outcome.traceback or outcome.output)[-4000:]
    raise AssertionError(f"{problem}\n  command: crdtool {' '.join(outcome.args)}\n  input: {what}\n{detail}")


def invoke_on_files(prefix: list[str], files: dict[str, bytes], timeout: float) -> Outcome:
    """`crdtool PREFIX FOLDER` over a temporary folder holding `files` (name -> content)."""
    with tempfile.TemporaryDirectory(prefix="crdtool-fuzz-") as folder:
        for name, data in files.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        return invoke([*prefix, folder], timeout)
