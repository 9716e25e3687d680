"""The renderer protocol: every format is one `render(results, context)` (report.registry maps the
`--format` names to them), and the RenderContext carries what formats need from the run."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol

from crdtool.model.record import Record

if TYPE_CHECKING:
    from crdtool.engine.results import Result

__all__ = ["RenderContext", "Renderer"]


class RenderContext(Record):
    """What a renderer needs besides the results: everything about the run that shapes the output.
    The streams are read when the context is made, so that a test's captured streams are used."""

    __slots__ = ("color", "quiet", "notes", "noun", "counted", "skipped", "command", "target", "roundtrip", "stdout",
                 "stderr")

    color: bool
    #: --quiet: only the findings, no `ok` lines and no counts.
    quiet: bool
    #: What crdtool says about the run (documents passed over with -v, rules it cannot evaluate).
    notes: list[str]
    #: What the closing line counts (`3 objects would be accepted`), or one count per (results,
    #: noun) group of `counted` (validate's CRDs, then its objects).
    noun: str
    counted: list[tuple[list[Result], str]]
    #: The documents not checked (engine.skipped): every format counts them.
    skipped: list[Any] | None
    #: The run's name, as a JUnit report names its root (`crdtool lint`).
    command: str
    #: `convert`: the version converted to (as given with --to), and whether a round trip was made.
    target: str
    roundtrip: bool
    stdout: IO[str]
    stderr: IO[str]

    def __init__(self, color: bool = False, quiet: bool = False, notes: list[str] | None = None, noun: str = "object",
                 counted: list[tuple[list[Result], str]] | None = None, skipped: list[Any] | None = None,
                 command: str = "crdtool", target: str = "", roundtrip: bool = False, stdout: IO[str] | None = None,
                 stderr: IO[str] | None = None) -> None:
        self.color = color
        self.quiet = quiet
        self.notes = [] if notes is None else notes
        self.noun = noun
        self.counted = [] if counted is None else counted
        self.skipped = skipped
        self.command = command
        self.target = target
        self.roundtrip = roundtrip
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr

    def groups(self, results: Sequence[Result]) -> list[tuple[list[Result], str]]:
        """The groups the closing line counts: `counted`, else all the results as `noun`s."""
        return self.counted or [(list(results), self.noun)]


class Renderer(Protocol):
    """One format's output of a run's results (Results, or convert's Conversions), written to the
    context's streams."""

    def __call__(self, results: Sequence[Any], context: RenderContext, /) -> None: ...
