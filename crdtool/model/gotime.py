"""Go's `time.Parse(time.RFC3339, s)`, as metav1.Time decodes every timestamp the apiserver reads,
with the time package's own error texts (`parsing time "X" as "2006-01-02T15:04:05Z07:00": cannot
parse "Y" as "Z"`, `...: hour out of range`, `...: extra text: "Y"`).

Go tries a strict fast path first and, when it fails, the general layout parser, which decides both
what else is accepted (a one-digit hour, a fraction the layout lacks, a `+24:00` or `-00:60` offset)
and the error. The general parser is what is reproduced here: the fast path accepts nothing it refuses.
The value is read as bytes (a string that was not UTF-8 keeps its bytes through surrogateescape).

Also the time package's durations: time.ParseDuration and Duration.String.
"""

from __future__ import annotations

import datetime
from typing import NamedTuple

__all__ = ["RFC3339", "DurationError", "GoTime", "TimeParseError", "go_duration", "go_duration_nanos", "parse_duration",
           "parse_rfc3339"]

RFC3339 = "2006-01-02T15:04:05Z07:00"
_LAYOUT = RFC3339.encode()
#: The layout's chunks: (literal prefix, standard element)
_CHUNKS = ((b"", b"2006"), (b"-", b"01"), (b"-", b"02"), (b"T", b"15"), (b":", b"04"), (b":", b"05"),
           (b"", b"Z07:00"))
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_RANGES = {b"01": ("month", 1, 12), b"15": ("hour", 0, 23), b"04": ("minute", 0, 59), b"05": ("second", 0, 59)}


class TimeParseError(ValueError):
    """time.ParseError; str() is Go's text."""


class GoTime(NamedTuple):
    """A parsed time: its fields as written, and the zone offset in seconds east of UTC."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    nanosecond: int
    offset: int

    def _utc_fields(self) -> tuple[int, int, int, int, int, int]:
        days, rest = divmod(self.unix_seconds(), 86400)
        year, month, day = _civil_from_days(days)
        return year, month, day, rest // 3600, rest // 60 % 60, rest % 60

    def unix_seconds(self) -> int:
        """Seconds since 1970-01-01T00:00:00Z (t.Unix())."""
        return (_days_from_civil(self.year, self.month, self.day) * 86400 + self.hour * 3600 + self.minute * 60
                + self.second - self.offset)

    def utc_rfc3339(self) -> str:
        """t.UTC().Format(time.RFC3339), as metav1.Time's MarshalJSON writes it back (the fraction dropped)."""
        year, month, day, hour, minute, second = self._utc_fields()
        sign = "-" if year < 0 else ""
        return f"{sign}{abs(year):04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"

    def to_datetime(self) -> datetime.datetime:
        """The moment as an aware UTC datetime (to the microsecond); ValueError outside years 1 to 9999."""
        year, month, day, hour, minute, second = self._utc_fields()
        return datetime.datetime(year, month, day, hour, minute, second, self.nanosecond // 1000, tzinfo=datetime.UTC)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, 0 and negative ones too)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def _quote(b: bytes) -> str:
    """The time package's quote(): bytes outside printable ASCII (and every byte of a non-ASCII
    character) as \\x escapes, `"` and `\\` backslashed."""
    out = ['"']
    for c in b:
        if c >= 0x80 or c < 0x20:
            out.append(f"\\x{c:02x}")
        else:
            if c in (0x22, 0x5C):
                out.append("\\")
            out.append(chr(c))
    out.append('"')
    return "".join(out)


def _getnum(b: bytes, fixed: bool) -> tuple[int, bytes] | None:
    """time.getnum: one or two leading digits (exactly two when fixed), or None (errBad)."""
    if not b[:1].isdigit():
        return None
    if not b[1:2].isdigit():
        return None if fixed else (b[0] - 48, b[1:])
    return (b[0] - 48) * 10 + b[1] - 48, b[2:]


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def parse_rfc3339(text: str) -> GoTime:
    """time.Parse(time.RFC3339, text), or TimeParseError with Go's text."""
    whole = text.encode("utf-8", "surrogateescape")

    def cannot_parse(elem: bytes, layout_elem: bytes) -> TimeParseError:
        return TimeParseError(f"parsing time {_quote(whole)} as {_quote(_LAYOUT)}: cannot parse {_quote(elem)} "
                              f"as {_quote(layout_elem)}")

    def failed(message: str) -> TimeParseError:
        return TimeParseError(f"parsing time {_quote(whole)}: {message}")

    value = whole
    fields: dict[bytes, int] = {}
    nanos = offset = 0
    for prefix, std in _CHUNKS:
        if prefix:
            if value[:1] != prefix:
                raise cannot_parse(value, prefix)
            value = value[1:]
        hold = value
        out_of_range = ""
        got: tuple[int, bytes] | None
        if std == b"2006":  # four bytes, read with atoi: four digits
            got = (int(value[:4]), value[4:]) if len(value) >= 4 and value[:4].isdigit() else None
        elif std == b"Z07:00":
            got, out_of_range, offset = _zone(value)
        else:
            got = _getnum(value, std != b"15")  # the hour may have one digit
            if got is not None and std in _RANGES:
                name, low, high = _RANGES[std]
                out_of_range = name if not low <= got[0] <= high else ""
            if got is not None and std == b"05" and not out_of_range:
                got, nanos = _fraction(got)
        if out_of_range:
            raise failed(f"{out_of_range} out of range")
        if got is None:
            raise cannot_parse(hold, std)
        fields[std] = got[0]
        value = got[1]
    if value:
        raise failed(f"extra text: {_quote(value)}")
    year, month, day = fields[b"2006"], fields[b"01"], fields[b"02"]
    if day < 1 or day > _DAYS[month - 1] + (month == 2 and _is_leap(year)):
        raise failed("day out of range")
    return GoTime(year, month, day, fields[b"15"], fields[b"04"], fields[b"05"], nanos, offset)


def _fraction(got: tuple[int, bytes]) -> tuple[tuple[int, bytes], int]:
    """A fractional second the layout does not have: `.` or `,` and digits, read to the nanosecond."""
    second, rest = got
    if len(rest) < 2 or rest[:1] not in (b".", b",") or not rest[1:2].isdigit():
        return got, 0
    end = 2
    while rest[end:end + 1].isdigit():
        end += 1
    digits = rest[1:min(end, 10)]
    return (second, rest[end:]), int(digits) * 10 ** (9 - len(digits))


def _zone(value: bytes) -> tuple[tuple[int, bytes] | None, str, int]:
    """The Z07:00 element: (parsed or None, the range error, the offset in seconds).

    Go reads sign, hours and minutes at fixed places, checks the range (> 24 hours, > 60 minutes)
    before it looks at the sign or whether the minutes were digits."""
    if value[:1] == b"Z":
        return (0, value[1:]), "", 0
    if len(value) < 6 or value[3:4] != b":":
        return None, "", 0
    hours = _getnum(value[1:3], True)
    minutes = _getnum(value[4:6], True) if hours is not None else None
    out_of_range = ""
    if hours is not None and hours[0] > 24:
        out_of_range = "time zone offset hour"
    if minutes is not None and minutes[0] > 60:
        out_of_range = "time zone offset minute"
    if hours is None or minutes is None or value[:1] not in (b"+", b"-"):
        return None, out_of_range, 0
    offset = (hours[0] * 60 + minutes[0]) * 60
    return (0, value[6:]), out_of_range, -offset if value[:1] == b"-" else offset


# ---------------------------------------------------------------- time.Duration
_DIGITS = frozenset("0123456789")
_GO_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000, "s": 10**9,
             "m": 60 * 10**9, "h": 3600 * 10**9}


class DurationError(ValueError):
    """time.ParseDuration's error, with its text."""


def parse_duration(s: str) -> int:
    """time.ParseDuration: [-+]?([0-9]*(\\.[0-9]*)?unit)+ in nanoseconds; DurationError with Go's text
    (`time: invalid duration "x"`, `time: missing unit in duration ...`, `time: unknown unit ...`)."""
    invalid = DurationError("time: invalid duration " + _quote(s.encode("utf-8", "surrogateescape")))
    neg = s[:1] in ("-", "+")
    rest = s[1:] if neg else s
    if rest == "0":
        return 0
    if rest == "":
        raise invalid
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
                raise invalid
        elif not whole:
            raise invalid
        k = 0
        while k < len(rest) and rest[k] != "." and rest[k] not in _DIGITS:
            k += 1
        if k == 0:
            raise DurationError("time: missing unit in duration " + _quote(s.encode("utf-8", "surrogateescape")))
        unit = _GO_UNITS.get(rest[:k])
        if unit is None:
            raise DurationError("time: unknown unit " + _quote(rest[:k].encode("utf-8", "surrogateescape"))
                                + " in duration " + _quote(s.encode("utf-8", "surrogateescape")))
        rest = rest[k:]
        value = int(whole or "0")
        if value > (1 << 63) // unit:
            raise invalid
        total += value * unit + (int(frac) * unit // 10 ** len(frac) if frac.strip("0") else 0)
        if total > 1 << 63:
            raise invalid
    if total > (1 << 63) - (0 if s[:1] == "-" else 1):
        raise invalid
    return -total if s[:1] == "-" else total


def go_duration_nanos(s: str) -> int | None:
    """time.ParseDuration in nanoseconds, or None (malformed, or beyond int64)."""
    try:
        return parse_duration(s)
    except DurationError:
        return None


def go_duration(ns: int) -> str:
    """time.Duration.String(): `30s`, `1m30s`, `1.5s`, `500ms`."""
    if ns == 0:
        return "0s"
    sign, u = ("-" if ns < 0 else ""), abs(ns)

    def fraction(value: int, unit: int) -> str:
        whole, rest = divmod(value, unit)
        digits = len(str(unit)) - 1
        return str(whole) + ("." + f"{rest:0{digits}d}".rstrip("0") if rest else "")

    if u < 1000:
        return f"{sign}{u}ns"
    if u < 10**6:
        return f"{sign}{fraction(u, 1000)}\u00b5s"
    if u < 10**9:
        return f"{sign}{fraction(u, 10**6)}ms"
    seconds, nanos = divmod(u, 10**9)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = fraction(secs * 10**9 + nanos, 10**9) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{text}"
    if minutes:
        return f"{sign}{minutes}m{text}"
    return sign + text
