"""A CronJob's schedule and time zone as the apiserver reads them: robfig/cron v3.0.1's
`ParseStandard` (parser.go: five fields or a descriptor, an optional `TZ=`/`CRON_TZ=` prefix) with
its error texts, and Go's `time.LoadLocation` against the IANA database (Python's zoneinfo: the
system's database, or the tzdata package where installed; the apiserver embeds Go's time/tzdata).
Where Python finds no database at all, a time zone is not refused: crdtool cannot tell.
"""

from __future__ import annotations

import functools

from crdtool.model.gofmt import go_is_space, go_trim_space
from crdtool.model.gotime import DurationError, parse_duration
from crdtool.model.strconv import atoi


class CronError(ValueError):
    """The parser's error, with its text."""


#: (min, max, names) of each field, seconds first (spec.go's bounds).
_MONTHS = {name: i + 1 for i, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_DOW = {name: i for i, name in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))}
_BOUNDS: tuple[tuple[int, int, dict[str, int] | None], ...] = (
    (0, 59, None), (0, 59, None), (0, 23, None), (1, 31, None), (1, 12, _MONTHS), (0, 6, _DOW))
_DESCRIPTORS = frozenset({"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"})


@functools.cache
def _zones() -> frozenset[str]:
    import zoneinfo

    return frozenset(zoneinfo.available_timezones())


def load_location_error(name: str) -> str | None:
    """time.LoadLocation's error for a name, None when it loads ("", "UTC" and "Local" always do)."""
    if name in ("", "UTC", "Local"):
        return None
    if ".." in name or name[0] in "/\\":
        return "time: invalid location name"
    zones = _zones()
    return None if not zones or name in zones else f"unknown time zone {name}"


def _fields(s: str) -> list[str]:
    """strings.Fields: split around runs of Go's white space."""
    out: list[str] = []
    word: list[str] = []
    for ch in s:
        if go_is_space(ch):
            if word:
                out.append("".join(word))
                word = []
        else:
            word.append(ch)
    if word:
        out.append("".join(word))
    return out


def _must_parse_int(expr: str) -> int:
    """mustParseInt: a non-negative decimal int."""
    try:
        n = atoi(expr)
    except ValueError as e:
        raise CronError(f"failed to parse int from {expr}: {e}") from None
    if n < 0:
        raise CronError(f"negative number ({n}) not allowed: {expr}")
    return n


def _int_or_name(expr: str, names: dict[str, int] | None) -> int:
    """parseIntOrName: a month or day name (any case), else an int."""
    if names is not None and expr.lower() in names:
        return names[expr.lower()]
    return _must_parse_int(expr)


def _range(expr: str, low: int, high: int, names: dict[str, int] | None) -> None:
    """getRange: `*`/`?`, a number or name, or `a-b`, each with an optional `/step`."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    if low_and_high[0] in ("*", "?"):
        start, end = low, high
    else:
        start = _int_or_name(low_and_high[0], names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _int_or_name(low_and_high[1], names)
        else:
            raise CronError(f"too many hyphens: {expr}")
    step = 1
    if len(range_and_step) == 2:
        step = _must_parse_int(range_and_step[1])
        if len(low_and_high) == 1:
            end = high
    elif len(range_and_step) > 2:
        raise CronError(f"too many slashes: {expr}")
    if start < low:
        raise CronError(f"beginning of range ({start}) below minimum ({low}): {expr}")
    if end > high:
        raise CronError(f"end of range ({end}) above maximum ({high}): {expr}")
    if start > end:
        raise CronError(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise CronError(f"step of range should be a positive number: {expr}")


def _descriptor(spec: str) -> None:
    """parseDescriptor: the named schedules and `@every <duration>`."""
    if spec in _DESCRIPTORS:
        return
    if spec.startswith("@every "):
        try:
            parse_duration(spec[len("@every "):])
        except DurationError as e:
            raise CronError(f"failed to parse duration {spec}: {e}") from None
        return
    raise CronError(f"unrecognized descriptor: {spec}")


def parse_standard(spec: str) -> None:
    """cron.ParseStandard: CronError with the parser's text when the schedule does not parse.

    A `TZ=` prefix with no space after it makes Go slice out of range (a panic, not an error): it
    is taken here as a prefix naming the rest of the spec, which is then empty."""
    if not spec:
        raise CronError("empty spec string")
    if spec.startswith(("TZ=", "CRON_TZ=")):
        space = spec.find(" ")
        name = spec[spec.index("=") + 1:space if space >= 0 else len(spec)]
        err = load_location_error(name)
        if err is not None:
            raise CronError(f"provided bad location {name}: {err}")
        spec = go_trim_space(spec[space:]) if space >= 0 else ""
    if spec.startswith("@"):
        _descriptor(spec)
        return
    fields = _fields(spec)
    if len(fields) != 5:
        raise CronError(f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]")
    for field, (low, high, names) in zip(["0", *fields], _BOUNDS, strict=True):
        for expr in (part for part in field.split(",") if part):
            _range(expr, low, high, names)
