"""Go's encoding/json as the apiserver meets a webhook's answer: its syntax errors, word for word,
and where a raw value sits in the bytes.

The apiserver decodes a ConversionReview with Go's JSON decoder, which first checks the whole body
(`checkValid`) and reports the first bad byte with its scanner's context (`invalid character 't'
looking for beginning of object key string`), or `unexpected end of JSON input`. Python's json
module words these differently, so the body is checked here first; values are then read with
Python's json. `raw_items` finds the bytes of a list's items: the apiserver quotes a converted
object's raw JSON in some errors (`Object 'Kind' is missing in '...'`).
"""

from __future__ import annotations

import json

from crdtool.model.gofmt import go_quote

__all__ = ["END_OF_INPUT", "MAX_DEPTH_ERROR", "quote_char", "raw_items", "raw_member", "syntax_error"]

END_OF_INPUT = "unexpected end of JSON input"
MAX_DEPTH_ERROR = "exceeded max depth"
_SPACE = b" \t\r\n"
_DIGITS = b"0123456789"
_LITERALS = {ord("t"): b"true", ord("f"): b"false", ord("n"): b"null"}
_ESCAPES = b'"\\/bfnrt'
_HEX = b"0123456789abcdefABCDEF"
_MAX_DEPTH = 10000


def quote_char(c: int) -> str:
    """encoding/json's quoteChar: a byte as the scanner names it in an error."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    return "'" + go_quote(chr(c))[1:-1] + "'"




class _Syntax(Exception):
    pass


def _invalid(c: int, context: str) -> _Syntax:
    return _Syntax(f"invalid character {quote_char(c)} {context}")


def _skip_space(data: bytes, i: int) -> int:
    n = len(data)
    while i < n and data[i] in _SPACE:
        i += 1
    return i


def _string(data: bytes, i: int) -> int:
    """The end of the string starting at data[i] == '"'."""
    n = len(data)
    i += 1
    while i < n:
        c = data[i]
        if c == 0x22:
            return i + 1
        if c == 0x5C:
            i += 1
            if i >= n:
                break
            if data[i] == ord("u"):
                for k in range(1, 5):
                    if i + k >= n:
                        raise _Syntax(END_OF_INPUT)
                    if data[i + k] not in _HEX:
                        raise _invalid(data[i + k], "in \\u hexadecimal character escape")
                i += 5
                continue
            if data[i] not in _ESCAPES:
                raise _invalid(data[i], "in string escape code")
            i += 1
            continue
        if c < 0x20:
            raise _invalid(c, "in string literal")
        i += 1
    raise _Syntax(END_OF_INPUT)


def _number(data: bytes, i: int) -> int:
    """The end of the number starting at data[i] ('-' or a digit)."""
    n = len(data)
    if data[i] == ord("-"):
        i += 1
        if i >= n:
            raise _Syntax(END_OF_INPUT)
        if data[i] not in _DIGITS:
            raise _invalid(data[i], "in numeric literal")
    if data[i] == ord("0"):
        i += 1
    else:
        while i < n and data[i] in _DIGITS:
            i += 1
    if i < n and data[i] == ord("."):
        i += 1
        if i >= n:
            raise _Syntax(END_OF_INPUT)
        if data[i] not in _DIGITS:
            raise _invalid(data[i], "after decimal point in numeric literal")
        while i < n and data[i] in _DIGITS:
            i += 1
    if i < n and data[i] in b"eE":
        i += 1
        if i < n and data[i] in b"+-":
            i += 1
        if i >= n:
            raise _Syntax(END_OF_INPUT)
        if data[i] not in _DIGITS:
            raise _invalid(data[i], "in exponent of numeric literal")
        while i < n and data[i] in _DIGITS:
            i += 1
    return i


def _literal(data: bytes, i: int) -> int:
    word = _LITERALS[data[i]]
    name = word.decode()
    for k in range(1, len(word)):
        if i + k >= len(data):
            raise _Syntax(END_OF_INPUT)
        if data[i + k] != word[k]:
            raise _invalid(data[i + k], f"in literal {name} (expecting {quote_char(word[k])})")
    return i + len(word)


def _scalar_or_open(data: bytes, i: int) -> tuple[int, int | None]:
    """Read a value starting at i (whitespace skipped): (end, None) for a scalar, (i + 1, opener) for
    '{' or '['."""
    i = _skip_space(data, i)
    if i >= len(data):
        raise _Syntax(END_OF_INPUT)
    c = data[i]
    if c in b"{[":
        return i + 1, c
    if c == 0x22:
        return _string(data, i), None
    if c == ord("-") or c in _DIGITS:
        return _number(data, i), None
    if c in _LITERALS:
        return _literal(data, i), None
    raise _invalid(c, "looking for beginning of value")


def _check(data: bytes) -> None:
    """encoding/json's checkValid, without recursion."""
    stack: list[int] = []  # the open containers: ord('{') or ord('[')
    i, opener = _scalar_or_open(data, 0)
    n = len(data)
    while True:
        if opener is not None:  # just opened a container: a key, a value, or its end
            if len(stack) >= _MAX_DEPTH:
                raise _Syntax(MAX_DEPTH_ERROR)
            stack.append(opener)
            i = _skip_space(data, i)
            if i >= n:
                raise _Syntax(END_OF_INPUT)
            if opener == ord("{"):
                if data[i] == ord("}"):
                    stack.pop()
                    i += 1
                else:
                    i, opener = _member(data, i, "looking for beginning of object key string")
                    continue
            elif data[i] == ord("]"):
                stack.pop()
                i += 1
            else:
                i, opener = _scalar_or_open(data, i)
                continue
        # a value just ended: what follows it in its container
        i = _skip_space(data, i)
        if not stack:
            if i < n:
                raise _invalid(data[i], "after top-level value")
            return
        if i >= n:
            raise _Syntax(END_OF_INPUT)
        c = data[i]
        if stack[-1] == ord("{"):
            if c == ord(","):
                i, opener = _member(data, _skip_space(data, i + 1), "looking for beginning of object key string")
                continue
            if c != ord("}"):
                raise _invalid(c, "after object key:value pair")
        else:
            if c == ord(","):
                i, opener = _scalar_or_open(data, i + 1)
                continue
            if c != ord("]"):
                raise _invalid(c, "after array element")
        stack.pop()
        i += 1
        opener = None


def _member(data: bytes, i: int, context: str) -> tuple[int, int | None]:
    """A `"key": value` member from i (at the key); returns like _scalar_or_open for its value."""
    if i >= len(data):
        raise _Syntax(END_OF_INPUT)
    if data[i] != 0x22:
        raise _invalid(data[i], context)
    i = _skip_space(data, _string(data, i))
    if i >= len(data):
        raise _Syntax(END_OF_INPUT)
    if data[i] != ord(":"):
        raise _invalid(data[i], "after object key")
    return _scalar_or_open(data, i + 1)


def syntax_error(data: bytes) -> str | None:
    """Go's error for JSON it cannot read (`invalid character ...`), or None for valid JSON."""
    try:
        _check(data)
    except _Syntax as err:
        return str(err)
    return None


# ---------------------------------------------------------------- raw values (valid JSON only)

def _value_end(data: bytes, i: int) -> int:
    """The end of the valid JSON value starting at i (whitespace skipped)."""
    i = _skip_space(data, i)
    c = data[i]
    if c == 0x22:
        return _string(data, i)
    if c not in b"{[":
        end, _ = _scalar_or_open(data, i)
        return end
    depth = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x22:
            i = _string(data, i)
            continue
        if c in b"{[":
            depth += 1
        elif c in b"}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def raw_member(data: bytes, start: int, key: str) -> tuple[int, int] | None:
    """(start, end) of the value of `key` in the object at data[start] (the last one, as Go keeps the
    last of duplicate keys), or None."""
    i = _skip_space(data, start)
    if i >= len(data) or data[i] != ord("{"):
        return None
    found = None
    i = _skip_space(data, i + 1)
    want = key.encode()
    while i < len(data) and data[i] != ord("}"):
        key_end = _string(data, i)
        name = json.loads(data[i:key_end])
        value_start = _skip_space(data, _skip_space(data, key_end) + 1)
        value_end = _value_end(data, value_start)
        if name.encode() == want:
            found = (value_start, value_end)
        i = _skip_space(data, value_end)
        if i < len(data) and data[i] == ord(","):
            i = _skip_space(data, i + 1)
    return found


def raw_items(data: bytes, start: int) -> list[bytes]:
    """The raw bytes of each item of the list at data[start] ([] if it is not a list)."""
    i = _skip_space(data, start)
    if i >= len(data) or data[i] != ord("["):
        return []
    out = []
    i = _skip_space(data, i + 1)
    while i < len(data) and data[i] != ord("]"):
        end = _value_end(data, i)
        out.append(data[i:end])
        i = _skip_space(data, end)
        if i < len(data) and data[i] == ord(","):
            i = _skip_space(data, i + 1)
    return out
