"""YAML and JSON text for values that `--write` puts into a file.

Only new or changed values are rendered (the rest of the file is kept as written), so these
fragments are small: a key and its value to insert, or a value to put in place of another.
Every string is written so that crdtool's reader (go-yaml's typing) reads it back as that same
string: plain when that is safe, else double-quoted with YAML's escapes.
"""

from __future__ import annotations

import functools
import io
import json
import math
from dataclasses import dataclass
from typing import Any

from yaml.emitter import Emitter

from crdtool.load.gotyping import resolve_plain

_ESCAPES = {"\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
            "\r": "\\r", "\x1b": "\\e", '"': '\\"', "\\": "\\\\", "\x85": "\\N", "\xa0": "\\_",
            "\u2028": "\\L", "\u2029": "\\P"}


#: PyYAML's emitter, used only for its analysis of where a plain scalar is allowed.
_EMITTER = Emitter(io.StringIO(), allow_unicode=True)


def _printable(ch: str) -> bool:
    """libyaml's printable characters: anything else in a stream is refused, so it is escaped."""
    code = ord(ch)
    return (0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD and code != 0xFEFF
            or 0x10000 <= code <= 0x10FFFF)


def double_quoted(text: str) -> str:
    """A YAML double-quoted scalar for any string libyaml can represent."""
    out = ['"']
    for ch in text:
        escape = _ESCAPES.get(ch)
        if escape is not None:
            out.append(escape)
        elif _printable(ch):
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _plain_allowed(text: str, flow: bool) -> bool:
    """Whether `text` may be written plain (a file's inserted values repeat: each is analyzed once)."""
    if not text or "\n" in text:
        return False
    analysis = _EMITTER.analyze_scalar(text)
    if analysis.multiline or not (analysis.allow_flow_plain if flow else analysis.allow_block_plain):
        return False
    return resolve_plain(text) == text and type(resolve_plain(text)) is str


def scalar(value: Any, flow: bool = False) -> str:
    """A scalar as YAML (in a flow collection when `flow`) that reads back as `value`."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if value != value else ".inf" if value > 0 else "-.inf"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    return text if _plain_allowed(text, flow) else double_quoted(text)


def flow(value: Any) -> str:
    """A value as one line of YAML flow style (`{a: 1, b: [x, y]}`)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k, True)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, True)


@dataclass(frozen=True)
class Style:
    """How a file indents: a nested mapping's step, and where a block sequence's dash goes under
    its key (0: `key:\\n- a`, 2: `key:\\n  - a`). New lines follow it."""

    step: int = 2
    dash: int = 0


def entry_lines(key: str, value: Any, style: Style) -> list[str]:
    """`key: value` as block YAML lines, indented relative to the key."""
    if isinstance(value, (dict, list)) and value:
        return [f"{scalar(key)}:", *nested_lines(value, style)]
    return [f"{scalar(key)}: {flow(value)}"]


def nested_lines(value: Any, style: Style) -> list[str]:
    """A non-empty mapping or sequence as the block YAML lines under a key, indented relative to it."""
    indent = " " * (style.step if isinstance(value, dict) else style.dash)
    return [indent + line for line in block_lines(value, style)]


def block_lines(value: Any, style: Style) -> list[str]:
    """A non-empty mapping or sequence as block YAML lines, starting at column 0."""
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in entry_lines(key, item, style)]
    lines: list[str] = []
    for item in value:
        if isinstance(item, (dict, list)) and item:
            inner = block_lines(item, style)
            lines.append("- " + inner[0])
            lines.extend("  " + line for line in inner[1:])
        else:
            lines.append("- " + flow(item))
    return lines


def json_text(value: Any, indent: int | None) -> str:
    """A value as JSON (one line when `indent` is None)."""
    return json.dumps(value, ensure_ascii=False, indent=indent)
