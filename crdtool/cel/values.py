"""JSON values as a rule sees them: shaped by the node's CEL type, as the apiserver's unstructured values are.

Numbers in `number` fields are doubles even when integral, strings of format date/date-time are
timestamps, duration durations, byte bytes; object properties go by their escaped CEL names and only
declared properties are visible (the root's metadata shows just name and generateName).
"""

from __future__ import annotations

import base64
import binascii

from crdtool.cel.types import DeclType
from crdtool.model.gotime import GoTime, TimeParseError, parse_rfc3339
from crdtool.schema.values.formats import is_date, parse_duration

__all__ = ["to_cel"]

#: The range of google.protobuf.Timestamp (years 1 to 9999), as CEL's timestamps have it.
_MIN_SECONDS, _MAX_SECONDS = -62135596800, 253402300799


def to_cel(value, t: DeclType | None):
    """`value` (decoded JSON) converted for evaluation as a value of type `t`."""
    if value is None or t is None:
        return value
    kind = t.kind
    if kind == "object":
        if not isinstance(value, dict):
            return value
        out = {}
        for f in t.fields.values():
            # A property set to null is absent for rules (has() is false), as in the apiserver.
            if value.get(f.json_name) is not None:
                out[f.name] = to_cel(value[f.json_name], f.type)
        return out
    if kind == "map":
        return {k: to_cel(v, t.elem_type) for k, v in value.items()} if isinstance(value, dict) else value
    if kind == "list":
        return [to_cel(v, t.elem_type) for v in value] if isinstance(value, list) else value
    if kind == "double":
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if kind == "timestamp" and isinstance(value, str):
        return _timestamp(value)
    if kind == "duration" and isinstance(value, str):
        nanos = parse_duration(value)
        if nanos is None:
            return value
        seconds = abs(nanos) // 1_000_000_000 * (1 if nanos >= 0 else -1)
        from google.protobuf import duration_pb2

        return duration_pb2.Duration(seconds=seconds, nanos=nanos - seconds * 1_000_000_000)
    if kind == "bytes" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return value
    return value


def _timestamp(value: str):
    """A `date` or `date-time` string as the timestamp the apiserver's UnstructuredToVal makes of it:
    time.Parse("2006-01-02") for a date, strfmt.ParseDateTime for a date-time (RFC 3339 with any
    fraction, or ISO 8601 local time read as UTC; the empty string is Go's zero time). A string neither
    reads is left as it is."""
    if len(value) == 10 and is_date(value):
        parsed = GoTime(int(value[:4]), int(value[5:7]), int(value[8:]), 0, 0, 0, 0, 0)
    elif not value:
        parsed = GoTime(1, 1, 1, 0, 0, 0, 0, 0)
    else:
        try:
            parsed = parse_rfc3339(value)
        except TimeParseError:
            try:
                parsed = parse_rfc3339(value + "Z")  # strfmt's ISO8601LocalTime layout
            except TimeParseError:
                return value
    seconds = parsed.unix_seconds()
    if not _MIN_SECONDS <= seconds <= _MAX_SECONDS:
        return value
    from google.protobuf import timestamp_pb2

    return timestamp_pb2.Timestamp(seconds=seconds, nanos=parsed.nanosecond)
