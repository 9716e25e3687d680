"""apimachinery's HumanDuration: the Age kubectl shows (`16m`, `4h3m`, `3d5h`, `6y327d`)."""

from __future__ import annotations

from datetime import timedelta


def human_duration(d: timedelta) -> str:
    """~2-3 significant figures of a duration; up to 2 s into the future counts as now."""
    nanos = (d.days * 86_400 + d.seconds) * 1_000_000_000 + d.microseconds * 1_000
    seconds = int(nanos / 1_000_000_000)  # Go's int() truncates toward zero
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    if seconds < 60 * 2:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes < 10:
        s = seconds % 60
        return f"{minutes}m" if s == 0 else f"{minutes}m{s}s"
    if minutes < 60 * 3:
        return f"{minutes}m"
    hours = seconds // 3600
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if dy == 0 else f"{hours // 24 // 365}y{dy}d"
    return f"{hours // 24 // 365}y"
