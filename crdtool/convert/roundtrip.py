"""`--roundtrip`: what did not survive a conversion to the target version and back.

An object read in its own version is compared with the same object after it went to the target
version (converted, pruned) and came back (stored there, read, converted back, pruned, defaulted):
every path whose value changed or vanished is data a client of the target version would lose by
writing the object back. Paths are rendered as the apiserver renders pruned paths (`spec.x`,
`spec.list[0].y`). apiVersion is expected to differ on the way and is not compared; a list whose
items changed is compared item by item, so a reordering shows at each moved item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Loss", "losses"]

@dataclass(frozen=True)
class Loss:
    """One path that did not survive: its value before, and after (`vanished` when it is gone).
    `segments` are the JSON steps of the path (for the line and column in the input)."""

    segments: tuple[str | int, ...]
    before: Any
    after: Any = None
    vanished: bool = False

    @property
    def path(self) -> str:
        out = ""
        for step in self.segments:
            out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
        return out

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "before": self.before}
        if self.vanished:
            out["vanished"] = True
        else:
            out["after"] = self.after
        return out


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 and 1.0 are one number, true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _walk(before: Any, after: Any, path: tuple, out: list[Loss]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for key, value in before.items():
            if key not in after:
                out.append(Loss((*path, key), value, vanished=True))
            else:
                _walk(value, after[key], (*path, key), out)
        return
    if isinstance(before, list) and isinstance(after, list):
        for i, value in enumerate(before):
            if i >= len(after):
                out.append(Loss((*path, i), value, vanished=True))
            else:
                _walk(value, after[i], (*path, i), out)
        return
    if not _same(before, after):
        out.append(Loss(path, before, after))


def losses(before: dict, after: dict) -> list[Loss]:
    """Every path of `before` whose value `after` changed or lost (apiVersion aside), in document order."""
    out: list[Loss] = []
    for key, value in before.items():
        if key == "apiVersion":
            continue
        if key not in after:
            out.append(Loss((key,), value, vanished=True))
        else:
            _walk(value, after[key], (key,), out)
    return out
