"""Where the text of an expression as compiled came from in the expression as written.

Some calls are compiled rewritten, as the engine can run them (cel.library.format: `format.named(n)`,
`f.validate(s)`), while cel-go reports a compile error at its position in the expression as written,
naming the function as written. A SourceMap takes an error in the compiled text back there: a stretch
copied from the expression to where it was copied from, the text a rewrite put in to the call it stands
for (the call's opening parenthesis, where cel-go places a call's errors), and the functions the
rewrite calls to the function written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from crdtool.cel.errors import CompileIssue, source_location, source_offset

__all__ = ["SourceMap"]

_QUOTED_FUNCTION = re.compile(r"'(__\w+)'")


@dataclass(frozen=True)
class SourceMap:
    """The compiled `text`, and for each of its code points the offset in the written expression it
    stands for (`origin`, as long as `text` plus one for its end)."""

    text: str
    origin: tuple[int, ...]
    #: The functions a rewrite calls, by the function written (None: an error about it is another's twin).
    functions: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def identity(cls, source: str) -> SourceMap:
        return cls(source, tuple(range(len(source) + 1)))

    @property
    def rewritten(self) -> bool:
        return bool(self.functions)

    def replaced(self, start: int, end: int, pieces: list[str | tuple[int, int]], at: int,
                 functions: dict[str, str | None]) -> SourceMap:
        """This text with [start, end) replaced by `pieces`, each new text (standing for offset `at` of this
        text) or a (from, to) stretch of this text copied; `functions` are the rewrite's own."""
        text, origin = [self.text[:start]], list(self.origin[:start])
        for piece in pieces:
            if isinstance(piece, str):
                text.append(piece)
                origin += [self.origin[at]] * len(piece)
            else:
                text.append(self.text[piece[0]:piece[1]])
                origin += self.origin[piece[0]:piece[1]]
        text.append(self.text[end:])
        origin += self.origin[end:]
        return SourceMap("".join(text), tuple(origin), {**self.functions, **functions})

    def in_source(self, issues: list[CompileIssue], source: str) -> list[CompileIssue]:
        """`issues` at positions of the compiled text, at those of `source` and naming the functions
        written; twins (one error met in both copies a rewrite made of a stretch) once."""
        out: list[CompileIssue] = []
        seen: set[tuple[int, int, str]] = set()
        for issue in issues:
            message, dropped = self._written(issue.message)
            if dropped:
                continue
            offset = self.origin[source_offset(self.text, issue.line, issue.column)]
            line, column = source_location(source, offset)
            if (line, column, message) not in seen:
                seen.add((line, column, message))
                out.append(CompileIssue(line, column, message))
        return out

    def _written(self, message: str) -> tuple[str, bool]:
        """The message naming the functions written, and whether it is about a twin (to leave out)."""
        dropped = False

        def name(m: re.Match[str]) -> str:
            nonlocal dropped
            if m.group(1) not in self.functions:
                return m.group(0)
            written = self.functions[m.group(1)]
            dropped = dropped or written is None
            return f"'{written or m.group(1)}'"

        return _QUOTED_FUNCTION.sub(name, message), dropped

