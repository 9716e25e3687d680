"""crdtool's errors: one base, each kind carrying its exit code and how it is shown, and the one
place where an exception that ends a run becomes an exit code and a message (`outcome`).

Only errors the user must act on derive from `CrdtoolError`: input that cannot be read or a file
that cannot be written (`InputError`), a settings file that cannot be used (`SettingsError`),
options that ask for what crdtool cannot do (`UsageError`), and the machine's limits
(`RunEnvironmentError`). The apiserver's own failures are not exceptions that reach the user: a
value that does not parse (a time, a URL, a GroupVersion, a metadata block) is caught where the
apiserver turns it into a field error or a status, and becomes part of a Result.

Exit codes: 0 accepted, 1 refused, 2 everything that stopped crdtool from answering (input,
usage, settings, limits, and crdtool's own bugs, which say so).
"""

from __future__ import annotations

import errno
import io
from typing import ClassVar, NamedTuple

__all__ = [
    "EXIT_FINDINGS", "EXIT_INPUT", "EXIT_OK", "CrdtoolError", "InputError", "RunEnvironmentError", "SettingsError",
    "UsageError", "Outcome", "cannot_write", "outcome",
]

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2

class CrdtoolError(Exception):
    """An error that ends the run and that the user can act on (not a crdtool bug): it carries its
    exit code, and `show()` is the text for standard error."""

    exit_code: ClassVar[int] = EXIT_INPUT

    def show(self) -> str:
        return f"crdtool: error: {self}"


class InputError(CrdtoolError):
    """Input crdtool cannot read, or a file it cannot write, with the place it is about: shown as a
    compiler's error (`file:line:column: error: message`) so that editors can jump to it."""

    def __init__(self, source: str, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: error: {self.message}"

    def show(self) -> str:
        return str(self)


class SettingsError(InputError):
    """A settings file (.crdtool.yaml, pyproject.toml's [tool.crdtool]) that cannot be used: an
    unknown or ill-typed key fails the run rather than being ignored."""


class UsageError(CrdtoolError):
    """Options that ask for something crdtool cannot do. With `option`, the error is the option's
    value, shown in click's usage style as a bad option is; without, as crdtool's own error."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.option = option

    def show(self) -> str:
        if self.option is None:
            return super().show()
        import click

        ctx = click.get_current_context(silent=True)
        text = io.StringIO()
        click.BadParameter(self.message, ctx, param_hint=f"'{self.option}'").show(text)
        return text.getvalue().rstrip("\n")


class RunEnvironmentError(CrdtoolError):
    """The machine, not the input, stopped the run (memory, processes): worth retrying with fewer
    workers or more resources, and not a crdtool bug."""


#: A write that found no room: the machine's state, not a crdtool bug.
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})

#: Python's own limits met by input too large or too deep to process: input errors, not bugs.
_LIMITS: tuple[tuple[type[BaseException], str], ...] = (
    (RecursionError, "crdtool: error: input nested too deeply to process"),
    (MemoryError, "crdtool: error: input too large to process"),
)


class Outcome(NamedTuple):
    """How a run that an exception ended is reported: its exit code, the text for standard error,
    and whether it is a crdtool bug (whose traceback CRDTOOL_DEBUG=1 prints)."""

    exit_code: int
    message: str
    bug: bool = False


def cannot_write(err: OSError) -> str:
    """The message of a write the system refused (the output, a file)."""
    return f"crdtool: error: cannot write: {err.strerror or err}"


def outcome(exc: Exception) -> Outcome:
    """How an exception that ended a run is reported: crdtool's errors say what they are; Python's
    recursion and memory limits are the input's size; anything else is a crdtool bug, named as one."""
    if isinstance(exc, CrdtoolError):
        return Outcome(exc.exit_code, exc.show())
    for kind, message in _LIMITS:
        if isinstance(exc, kind):
            return Outcome(EXIT_INPUT, message)
    if isinstance(exc, OSError) and exc.errno in _FULL:  # writing the output, or a file (--write)
        return Outcome(EXIT_INPUT, cannot_write(exc))
    bug = f"crdtool: internal error: {type(exc).__name__}: {exc} (set CRDTOOL_DEBUG=1 for details)"
    return Outcome(EXIT_INPUT, bug, bug=True)
