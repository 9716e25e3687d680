"""crdtool run in-process on hostile input, and the verdict on how it ended.

Bad input must end in exit code 0, 1 or 2 with a message: never a traceback, never
`crdtool: internal error`, never a hang. The command runs as `crdtool` runs it (a thread
with a large stack, see `crdtool.cli.main`) under click's CliRunner, with CRDTOOL_DEBUG=1
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

#: As `crdtool.cli.main`: deep documents are reported, not a crash of the interpreter.
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
KNOWN_CRASHES: tuple[KnownCrash, ...] = (
    KnownCrash("apiversion-kind-not-string",
               "issue 15 case 1: a non-string apiVersion or kind reaches the skip-kinds check (rpartition)",
               re.compile(r"^AttributeError: '\w+' object has no attribute 'rpartition'")),
    KnownCrash("columns-metadata-not-mapping",
               "issue 15 case 2: `crdtool columns` on an object whose metadata is not a mapping",
               re.compile(r"^AttributeError: '\w+' object has no attribute 'get'"),
               "crdtool/columns/view.py:build_view"),
    KnownCrash("lone-surrogate",
               "issue 15 case 3: a lone surrogate (a JSON \\udc00 escape) reaches UTF-8 encoding",
               re.compile(r"^UnicodeEncodeError: .*surrogates not allowed")),
    KnownCrash("integer-over-4300-digits",
               "issue 15 case 4: Python's int-string conversion limit on integer literals of over 4,300 digits",
               re.compile(r"^ValueError: Exceeds the limit \(4300 digits\) for integer string conversion")),
    KnownCrash("huge-number-limit",
               "issue 15 case 5: 1e400-sized or 400-digit numbers (limits, values) converted to float",
               re.compile(r"^OverflowError: int too large to convert to float")),
    KnownCrash("notfound-name-not-string",
               "found by benchmarks/fuzz.py: an object of no known kind (apiVersion a mapping) whose metadata.name "
               "is a number reaches kubectl's NotFound text (go_quote of a float)",
               re.compile(r"^TypeError: '\w+' object is not iterable"), "crdtool/model/gofmt.py:go_quote"),
    KnownCrash("validation-rule-null",
               "found by benchmarks/fuzz.py: `validate` with a CRD among its inputs whose x-kubernetes-validations "
               "holds a null entry compiles the rules anyway (lint refuses the CRD: rule is not specified)",
               re.compile(r"^AttributeError: 'NoneType' object has no attribute 'get'"),
               "crdtool/cel/compiler.py:_compile_rule"),
)


@dataclass(frozen=True)
class KnownHang:
    """A class of inputs that take super-linear time, found and not yet fixed: its cases are not run."""

    name: str
    reason: str


KNOWN_HANGS: tuple[KnownHang, ...] = (
    KnownHang("findings-quadratic",
              "found by benchmarks/fuzz.py: every finding costs time in proportion to its mapping and to its "
              "document: its position is looked up by scanning every key of the mapping (yamlreader.node_locator) "
              "and the text report splits the whole document into lines for its snippet (report/text._snippet); "
              "N unknown fields in one mapping take O(N^2): 5,000 take 38 s, 10,000 125 s, 20,000 436 s"),
)


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
        return Outcome(args, None, "", seconds, traceback=str(box["error"]))
    result = box["result"]
    trace = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(*result.exc_info))
    return Outcome(args, result.exit_code, result.output, seconds, traceback=trace)


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
