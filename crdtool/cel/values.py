"""JSON values as a rule sees them: shaped by the node's CEL type, as the apiserver's unstructured values are.

Numbers in `number` fields are doubles even when integral, strings of format date/date-time are
timestamps, duration durations, byte bytes; object properties go by their escaped CEL names and only
declared properties are visible (the root's metadata shows just name and generateName).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re

from google.protobuf import duration_pb2, timestamp_pb2

from crdtool.cel.types import DeclType
from crdtool.model.gotime import go_duration_nanos

__all__ = ["to_cel"]

_FRACTION = re.compile(r"(\.\d{6})\d+")
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


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
        nanos = go_duration_nanos(value)
        if nanos is None:
            return value
        seconds = abs(nanos) // 1_000_000_000 * (1 if nanos >= 0 else -1)
        return duration_pb2.Duration(seconds=seconds, nanos=nanos - seconds * 1_000_000_000)
    if kind == "bytes" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return value
    return value


def _timestamp(value: str):
    text = _FRACTION.sub(r"\1", value.strip())
    try:
        if len(text) == 10:
            parsed = datetime.datetime.strptime(text, "%Y-%m-%d")
        else:
            parsed = datetime.datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return value
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    delta = parsed - _EPOCH
    m = re.search(r"\.(\d+)", value)
    nanos = int((m.group(1) + "000000000")[:9]) if m and len(value) > 10 else delta.microseconds * 1000
    return timestamp_pb2.Timestamp(seconds=delta.days * 86400 + delta.seconds, nanos=nanos)
