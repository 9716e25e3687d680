"""Go's `time.ParseDuration` (Go 1.26): the one Go duration parser, for the apiserver's `duration`
format, CEL's duration() and `--timeout`."""

from __future__ import annotations

__all__ = ["go_duration_nanos"]

_DIGITS = frozenset("0123456789")
_GO_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000, "s": 10**9,
             "m": 60 * 10**9, "h": 3600 * 10**9}

def go_duration_nanos(s: str) -> int | None:
    """time.ParseDuration: [-+]?([0-9]*(\\.[0-9]*)?unit)+ in nanoseconds, or None (malformed, or beyond int64)."""
    neg = s[:1] in ("-", "+")
    rest = s[1:] if neg else s
    if rest == "0":
        return 0
    if rest == "":
        return None
    total = 0
    while rest:
        i = 0
        while i < len(rest) and rest[i] in _DIGITS:
            i += 1
        whole, rest = rest[:i], rest[i:]
        frac = ""
        if rest[:1] == ".":
            j = 1
            while j < len(rest) and rest[j] in _DIGITS:
                j += 1
            frac, rest = rest[1:j], rest[j:]
            if not whole and not frac:
                return None
        elif not whole:
            return None
        k = 0
        while k < len(rest) and rest[k] != "." and rest[k] not in _DIGITS:
            k += 1
        unit = _GO_UNITS.get(rest[:k])
        if unit is None:
            return None
        rest = rest[k:]
        value = int(whole or "0")
        if value > (1 << 63) // unit:
            return None
        total += value * unit + (int(frac) * unit // 10 ** len(frac) if frac.strip("0") else 0)
        if total > 1 << 63:
            return None
    if total > (1 << 63) - (0 if s[:1] == "-" else 1):
        return None
    return -total if s[:1] == "-" else total
