"""cel-go's strings extension at version 2 (ext.Strings(ext.StringsVersion(2)), the base env since 1.29).

Written here rather than taken from cel-expr-python's ExtStrings because that extension owns the
names indexOf and lastIndexOf, which Kubernetes' list library overloads for lists; cel-expr-python
refuses a second declaration of either name. Version 2: charAt, indexOf, lastIndexOf, lowerAscii,
upperAscii, replace, split, substring, trim, join, format and strings.quote (not reverse, version 3).
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.lists import index_of, last_index_of
from crdtool.model.gofmt import go_float_f, go_float_g, x_text_float_e, x_text_float_f

__all__ = ["library"]

T = cel.Type
#: Go declares list(A).indexOf(A) (overload list_a_index_of_int). cel-expr-python has no type parameters for
#: Python functions and does not dispatch a bare `dyn` argument at runtime, so the list overloads take a
#: `list(dyn)` receiver and one argument type per runtime kind.
_ELEMENT_KINDS = {"int": T.INT, "uint": T.UINT, "double": T.DOUBLE, "bool": T.BOOL, "string": T.STRING,
                  "bytes": T.BYTES, "timestamp": T.TIMESTAMP, "duration": T.DURATION, "null": T.NULL,
                  "list": T.List(T.DYN), "map": T.Map(T.DYN, T.DYN)}


def _out_of_range(i: int) -> ValueError:
    return ValueError(f"index out of range: {i}")


def _char_at(s: str, i: int) -> str:
    if i < 0 or i > len(s):
        raise _out_of_range(i)
    return s[i:i + 1]


def _index_of(s: Any, sub: Any, offset: int = 0) -> int:
    if isinstance(s, list):
        return index_of(s, sub)
    if offset < 0 or offset > len(s):
        raise _out_of_range(offset)
    return s.find(sub, offset)


def _last_index_of(s: Any, sub: Any, offset: int | None = None) -> int:
    if isinstance(s, list):
        return last_index_of(s, sub)
    if offset is None:
        offset = len(s)
    elif offset < 0 or offset > len(s):
        raise _out_of_range(offset)
    return s.rfind(sub, 0, offset + len(sub))


def _ascii_lower(s: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def _ascii_upper(s: str) -> str:
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in s)


def _replace(s: str, old: str, new: str, n: int = -1) -> str:
    if old == "" and n != 0:
        # Go's strings.Replace with an empty old inserts `new` around every rune, at most n times.
        pieces, count = [], 0
        for c in s:
            if n < 0 or count < n:
                pieces.append(new)
                count += 1
            pieces.append(c)
        if n < 0 or count < n:
            pieces.append(new)
        return "".join(pieces)
    return s.replace(old, new, n if n >= 0 else -1)


def _split(s: str, sep: str, n: int = -1) -> list[str]:
    if n == 0:
        return []
    if sep == "":
        chars = list(s)
        if 0 < n < len(chars):
            return chars[:n - 1] + ["".join(chars[n - 1:])]
        return chars
    return s.split(sep, n - 1 if n > 0 else -1)


def _substring(s: str, start: int, end: int | None = None) -> str:
    if end is None:
        if start < 0 or start > len(s):
            raise _out_of_range(start)
        return s[start:]
    if start < 0 or start > len(s):
        raise _out_of_range(start)
    if end < 0 or end > len(s):
        raise _out_of_range(end)
    if start > end:
        raise ValueError(f"invalid substring range. start: {start}, end: {end}")
    return s[start:end]


def _trim(s: str) -> str:
    return s.strip(" \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                   "\u200a\u2028\u2029\u202f\u205f\u3000")


def _join(items: list[str], sep: str = "") -> str:
    return sep.join(items)


def _quote(s: str) -> str:
    out = ['"']
    for c in s:
        code = ord(c)
        if c in "\"\\":
            out.append("\\" + c)
        elif c in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                        "\v": "\\v"}[c])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _as_string(value: Any, nested: bool = False) -> str:
    """The %s rendering of a value, as cel-go's string formatter writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value) if nested else value
    if isinstance(value, bytes):
        return _quote(value.decode("utf-8", "replace")) if nested else value.decode("utf-8", "replace")
    if isinstance(value, float):
        if not nested:
            return go_float_g(value)  # the double converted to a string: fmt's %g
        # in a list or map, cel-go's clause for a double: %.6f, quoted where it is no number literal
        return go_float_f(value, 6) if math.isfinite(value) else _quote(go_float_g(value))
    if isinstance(value, list):
        return "[" + ", ".join(_as_string(v, True) for v in value) + "]"
    if isinstance(value, dict):
        entries = sorted((_as_string(k, True), _as_string(v, True)) for k, v in value.items())
        return "{" + ", ".join(f"{k}: {v}" for k, v in entries) + "}"
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S") + (
            f".{value.microsecond:06d}".rstrip("0") if value.microsecond else "") + "Z"
    if isinstance(value, datetime.timedelta):
        return go_float_f(value.total_seconds()) + "s"  # cel-go: FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
    return str(value)


def _format(template: str, args: list[Any]) -> str:
    out, i, arg = [], 0, 0
    while i < len(template):
        c = template[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        i += 1
        if i < len(template) and template[i] == "%":
            out.append("%")
            i += 1
            continue
        precision = None
        if i < len(template) and template[i] == ".":
            j = i + 1
            while j < len(template) and template[j].isdigit():
                j += 1
            precision = int(template[i + 1:j] or 0)
            i = j
        if i >= len(template):
            raise ValueError("could not parse formatting clause: unexpected end of string")
        verb = template[i]
        i += 1
        if arg >= len(args):
            raise ValueError(f"index {arg} out of range")
        out.append(_clause(verb, args[arg], precision))
        arg += 1
    return "".join(out)


def _clause(verb: str, value: Any, precision: int | None) -> str:
    if verb == "s":
        return _as_string(value)
    if verb == "d":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("error during formatting: decimal clause can only be used on integers, was given "
                             + _kind(value))
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                return go_float_g(value)
            raise ValueError("error during formatting: decimal clause can only be used on integers, was given double")
        return str(value)
    if verb in "fe":
        # cel-go's stringFormatter (strings versions below 4) prints through x/text's en_US printer: `%.<p>f`,
        # and for `%.<p>e` the verb `%<p>e` (p a width there, the precision staying 6)
        if value in ("NaN", "Infinity", "-Infinity"):
            value = float(value)
        if not isinstance(value, float):
            clause = "fixed-point" if verb == "f" else "scientific"
            raise ValueError(f"error during formatting: {clause} clause can only be used on doubles, was given "
                             + _kind(value))
        p = 6 if precision is None else precision
        return x_text_float_f(value, p) if verb == "f" else x_text_float_e(value, p)
    if verb in "boxX":
        if isinstance(value, bool) or not isinstance(value, (int, str, bytes)):
            name = "binary" if verb == "b" else "octal" if verb == "o" else "hex"
            raise ValueError(f"error during formatting: only integers, byte buffers, and strings can be formatted as "
                             f"{name}, was given {_kind(value)}")
        if isinstance(value, (str, bytes)):
            if verb in "bo":
                raise ValueError(f"error during formatting: only integers can be formatted as "
                                 f"{'binary' if verb == 'b' else 'octal'}, was given {_kind(value)}")
            data = value.encode() if isinstance(value, str) else value
            return data.hex() if verb == "x" else data.hex().upper()
        return format(value, verb)
    raise ValueError(f"could not parse formatting clause: unrecognized formatting clause \"{verb}\"")


def _kind(value: Any) -> str:
    for t, name in ((bool, "bool"), (int, "int"), (float, "double"), (str, "string"), (bytes, "bytes"),
                    (list, "list"), (dict, "map"), (datetime.datetime, "google.protobuf.Timestamp"),
                    (datetime.timedelta, "google.protobuf.Duration")):
        if isinstance(value, t):
            return name
    return "null_type" if value is None else type(value).__name__


def library(lib: Library) -> None:
    """Declare the version-2 string extension functions (plus the list overloads of indexOf/lastIndexOf)."""
    s, i = T.STRING, T.INT
    lib.member("charAt", "string_char_at_int", s, [s, i], _char_at)
    lib.member("indexOf", "string_index_of_string", i, [s, s], _index_of)
    lib.member("indexOf", "string_index_of_string_int", i, [s, s, i], _index_of)
    for kind, t in _ELEMENT_KINDS.items():
        lib.member("indexOf", f"list_a_index_of_int_{kind}", i, [T.List(T.DYN), t], _index_of)
    lib.member("lastIndexOf", "string_last_index_of_string", i, [s, s], _last_index_of)
    lib.member("lastIndexOf", "string_last_index_of_string_int", i, [s, s, i], _last_index_of)
    for kind, t in _ELEMENT_KINDS.items():
        lib.member("lastIndexOf", f"list_a_last_index_of_int_{kind}", i, [T.List(T.DYN), t], _last_index_of)
    lib.member("lowerAscii", "string_lower_ascii", s, [s], _ascii_lower)
    lib.member("upperAscii", "string_upper_ascii", s, [s], _ascii_upper)
    lib.member("replace", "string_replace_string_string", s, [s, s, s], _replace)
    lib.member("replace", "string_replace_string_string_int", s, [s, s, s, i], _replace)
    lib.member("split", "string_split_string", T.List(s), [s, s], _split)
    lib.member("split", "string_split_string_int", T.List(s), [s, s, i], _split)
    lib.member("substring", "string_substring_int", s, [s, i], _substring)
    lib.member("substring", "string_substring_int_int", s, [s, i, i], _substring)
    lib.member("trim", "string_trim", s, [s], _trim)
    lib.member("join", "list_join", s, [T.List(s)], _join)
    lib.member("join", "list_join_string", s, [T.List(s), s], _join)
    lib.member("format", "string_format", s, [s, T.List(T.DYN)], _format)
    lib.function("strings.quote", "strings_quote", s, [s], _quote)
