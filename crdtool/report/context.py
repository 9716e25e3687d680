"""The renderer protocol: every format is one `render(results, context)` (report.registry maps the
`--format` names to them), and the RenderContext carries what formats need from the run."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from crdtool.engine.results import Result

__all__ = ["RenderContext", "Renderer"]


@dataclass
class RenderContext:
    """What a renderer needs besides the results: everything about the run that shapes the output.
    The streams are read when the context is made, so that a test's captured streams are used."""

    color: bool = False
    #: --quiet: only the findings, no `ok` lines and no counts.
    quiet: bool = False
    #: What crdtool says about the run (documents passed over with -v, rules it cannot evaluate).
    notes: list[str] = field(default_factory=list)
    #: What the closing line counts (`3 objects would be accepted`), or one count per (results,
    #: noun) group of `counted` (validate's CRDs, then its objects).
    noun: str = "object"
    counted: list[tuple[list[Result], str]] = field(default_factory=list)
    #: The documents not checked (engine.skipped): every format counts them.
    skipped: list[Any] | None = None
    #: The run's name, as a JUnit report names its root (`crdtool lint`).
    command: str = "crdtool"
    #: `convert`: the version converted to (as given with --to), and whether a round trip was made.
    target: str = ""
    roundtrip: bool = False
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)

    def groups(self, results: Sequence[Result]) -> list[tuple[list[Result], str]]:
        """The groups the closing line counts: `counted`, else all the results as `noun`s."""
        return self.counted or [(list(results), self.noun)]


class Renderer(Protocol):
    """One format's output of a run's results (Results, or convert's Conversions), written to the
    context's streams."""

    def __call__(self, results: Sequence[Any], context: RenderContext, /) -> None: ...
