"""cel-go's strings extension at version 2 (ext.Strings(ext.StringsVersion(2)), the base env since 1.29).

Written here rather than taken from cel-expr-python's ExtStrings because that extension owns the
names indexOf and lastIndexOf, which Kubernetes' list library overloads for lists; cel-expr-python
refuses a second declaration of either name. Version 2: charAt, indexOf, lastIndexOf, lowerAscii,
upperAscii, replace, split, substring, trim, join, format and strings.quote (not reverse, version 3).
"""

from __future__ import annotations

from typing import Any

from cel_expr_python import cel

from crdtool.cel.library.formatting import format_string
from crdtool.cel.library.functions import Library
from crdtool.cel.library.lists import index_of, last_index_of

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
    """indexOfOffset: an empty `sub` is found at `offset` whatever it is; past the end nothing is found."""
    if isinstance(s, list):
        return index_of(s, sub)
    if sub == "":
        return offset
    if offset < 0:
        raise _out_of_range(offset)
    return s.find(sub, offset)


def _last_index_of(s: Any, sub: Any, offset: int | None = None) -> int:
    """lastIndexOfOffset: an empty `sub` is found at `offset` whatever it is; an offset at or past the
    end finds nothing (without an offset the search starts from the end)."""
    if isinstance(s, list):
        return last_index_of(s, sub)
    if offset is None:
        return s.rfind(sub)
    if sub == "":
        return offset
    if offset < 0:
        raise _out_of_range(offset)
    if offset >= len(s):
        return -1
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
    if start > end:
        raise ValueError(f"invalid substring range. start: {start}, end: {end}")
    if start < 0 or start > len(s):
        raise _out_of_range(start)
    if end < 0 or end > len(s):
        raise _out_of_range(end)
    return s[start:end]


def _trim(s: str) -> str:
    return s.strip(" \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                   "\u200a\u2028\u2029\u202f\u205f\u3000")


def _join(items: list[str], sep: str = "") -> str:
    return sep.join(items)


_QUOTE_ESCAPES = str.maketrans({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                                "\t": "\\t", "\v": "\\v", "\\": "\\\\", '"': '\\"'})


def _quote(s: str) -> str:
    """strings.quote: CEL's escape sequences escaped, every other character (controls too) as it is."""
    return '"' + s.translate(_QUOTE_ESCAPES) + '"'


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
    lib.member("format", "string_format", s, [s, T.List(T.DYN)], format_string)
    lib.function("strings.quote", "strings_quote", s, [s], _quote)
