"""Go's encoding/json reading of string escapes, where it differs from Python's json module.

A `\\uXXXX` escape of a UTF-16 surrogate that is not half of a valid pair (a high surrogate
directly followed by a low one) is read by Go as U+FFFD (encoding/json's unquote: "Invalid
surrogate; fall back to replacement rune"); Python's json keeps it as a lone surrogate, a str
that cannot be encoded as UTF-8. Rewriting those escapes to `\\ufffd` in the JSON text before
Python parses it gives Go's strings, keeps every offset in the text (the escapes have the same
length), and lets duplicate-key detection see the keys Go sees.
"""

from __future__ import annotations

import re

__all__ = ["replace_lone_surrogate_escapes"]

#: Any escape: `\uXXXX` (group 1: its hex digits) or a backslash and one character (`\\`, `\"`, ...),
#: so that an escaped backslash followed by `u` is never taken for an escape.
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|.)", re.S)
#: A quick test: no surrogate escape at all (the usual case) leaves the text untouched.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89A-Fa-f]")
_REPLACEMENT = "\\ufffd"


def _surrogate(match: re.Match[str]) -> tuple[bool, bool]:
    """(high, low): whether the escape is a high (D800-DBFF) or low (DC00-DFFF) surrogate."""
    digits = match.group(1)
    if digits is None:
        return False, False
    code = int(digits, 16)
    return 0xD800 <= code <= 0xDBFF, 0xDC00 <= code <= 0xDFFF


def replace_lone_surrogate_escapes(text: str, keep_pairs: bool = True) -> str:
    """`text` with every lone surrogate escape written `\\ufffd` (valid pairs kept, unless not
    `keep_pairs`: a YAML reader refuses any surrogate escape, and positions need only the structure)."""
    if not _SURROGATE_ESCAPE.search(text):
        return text
    lone: list[re.Match[str]] = []
    high: re.Match[str] | None = None  # a high surrogate escape waiting for its low half
    for match in _ESCAPE.finditer(text):
        is_high, is_low = _surrogate(match)
        if high is not None:
            if is_low and match.start() == high.end() and keep_pairs:
                high = None
                continue
            lone.append(high)
            high = None
        if is_high:
            high = match
        elif is_low:
            lone.append(match)
    if high is not None:
        lone.append(high)
    if not lone:
        return text
    out, last = [], 0
    for match in lone:
        out.append(text[last:match.start()])
        out.append(_REPLACEMENT)
        last = match.end()
    out.append(text[last:])
    return "".join(out)
