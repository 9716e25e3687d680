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
import shlex
import signal
import subprocess

from crdtool.convert import review
from crdtool.convert.webhook import DEFAULT_TIMEOUT_NS, go_duration
from crdtool.model.gofmt import go_quote, go_trim_space

__all__ = ["CommandClient", "CommandError"]


class CommandError(Exception):
    """The converter command cannot be run at all (a usage error: exit code 2)."""


class CommandClient:
    """Runs one converter command per ConversionReview."""

    def __init__(self, command: str, timeout_ns: int = DEFAULT_TIMEOUT_NS) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as err:
            raise CommandError(f"--converter {command!r}: {err}") from None
        if not self.argv:
            raise CommandError("--converter: the command is empty")
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
        """The program's standard output, or review.CallError when it fails or takes too long."""
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            raise CommandError(f"--converter {go_quote(self.command)}: cannot run it: "
                               f"{err.strerror or err}") from None
        try:
            out, err = proc.communicate(body, timeout=self.timeout_ns / 1e9)
        except subprocess.TimeoutExpired:
            self._kill(proc)
            try:
                proc.communicate(timeout=2)
            except subprocess.TimeoutExpired:  # children kept the pipes open: leave them
                for pipe in (proc.stdin, proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
            raise review.CallError(f"converter {go_quote(self.command)} did not answer within "
                                   f"{go_duration(self.timeout_ns)} (killed)") from None
        if proc.returncode != 0:
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
