"""`--converter CMD`: the webhook's exchange with a local program instead of an HTTPS server.

The program gets the ConversionReview the apiserver would POST on its standard input and answers
on its standard output; the answer is then read exactly as a webhook's HTTP 200 JSON answer would
be, so a converter can be tested, every check of the apiserver included, without TLS or a server.
The program runs in its own process group and is killed with it when the timeout passes, so a
converter that hangs (or leaves children behind) never hangs crdtool. Failures of the program
itself have no apiserver equivalent; they are said in crdtool's words.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import time

from crdtool.convert import review
from crdtool.convert.webhook import DEFAULT_TIMEOUT_NS, answer_limit, too_large
from crdtool.errors import UsageError
from crdtool.model.gofmt import go_quote, go_trim_space
from crdtool.model.gotime import go_duration

__all__ = ["CommandClient", "CommandError"]


class CommandError(UsageError):
    """The converter command cannot be run at all: a bad --converter value (exit code 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, option="--converter")


class CommandClient:
    """Runs one converter command per ConversionReview."""

    def __init__(self, command: str, timeout_ns: int = DEFAULT_TIMEOUT_NS) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as err:
            raise CommandError(f"{command!r}: {err}") from None
        if not self.argv:
            raise CommandError("the command is empty")
        self.command = command
        self.timeout_ns = timeout_ns

    def _kill(self, proc: subprocess.Popen) -> None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - not POSIX
                proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def run(self, body: bytes) -> bytes:
        """The program's standard output, or review.CallError when it fails, takes too long, or
        answers more than a webhook's answer may hold (webhook.answer_limit)."""
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            raise CommandError(f"{go_quote(self.command)}: cannot run it: "
                               f"{err.strerror or err}") from None
        limit = answer_limit(body)
        try:
            out, err = _exchange(proc, body, time.monotonic() + self.timeout_ns / 1e9, limit)
        except TimeoutError:
            self._kill(proc)
            raise review.CallError(f"converter {go_quote(self.command)} did not answer within "
                                   f"{go_duration(self.timeout_ns)} (killed)") from None
        except _Overflow:
            self._kill(proc)
            raise review.CallError(f"converter {go_quote(self.command)}: {too_large(limit)} (killed)") from None
        finally:
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None and not pipe.closed:
                    pipe.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:  # closed its output but lives on: it is not waited for
            self._kill(proc)
        if proc.returncode is not None and proc.returncode != 0:
            detail = go_trim_space(err.decode("utf-8", "replace"))
            last = detail.splitlines()[-1] if detail else ""
            status = (f"signal {-proc.returncode}" if proc.returncode < 0 else f"status {proc.returncode}")
            raise review.CallError(f"converter {go_quote(self.command)} exited with {status}"
                                   + (f": {last}" if last else ""))
        return out

    def exchange(self, body: bytes, version: str) -> review.Review:
        """The program's answer read as a webhook's 200 application/json answer."""
        out = self.run(body)
        if not out:
            raise review.CallError("0-length response with status code: 200 and content type: application/json")
        return review.decode_review(out, version)


class _Overflow(Exception):
    """The program wrote more than an answer may hold."""


#: What is kept of the program's standard error: its end (the last line is quoted on failure).
_STDERR_KEPT = 64 * 1024


def _exchange(proc: subprocess.Popen, body: bytes, deadline: float, limit: int) -> tuple[bytes, bytes]:
    """Write `body` to the program and read its output until both output pipes close: TimeoutError
    past `deadline`, _Overflow past `limit` bytes of standard output (standard error keeps its end)."""
    out, err = bytearray(), bytearray()
    pending = memoryview(body)
    with selectors.DefaultSelector() as selector:
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(pipe.fileno(), False)
        if pending:
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        selector.register(proc.stdout, selectors.EVENT_READ, out)
        selector.register(proc.stderr, selectors.EVENT_READ, err)
        while len(selector.get_map()):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            for key, _ in selector.select(left):
                if key.fileobj is proc.stdin:
                    try:
                        written = os.write(key.fd, pending[:65536])
                    except BrokenPipeError:  # it stopped reading: its answer decides
                        written = len(pending)
                    pending = pending[written:]
                    if not pending:
                        selector.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                key.data.extend(chunk)
                if key.data is out and len(out) > limit:
                    raise _Overflow
                if key.data is err and len(err) > 2 * _STDERR_KEPT:
                    del err[:-_STDERR_KEPT]
    return bytes(out), bytes(err)
