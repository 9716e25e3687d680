"""Kubernetes' format library (library/format.go): named string formats and their validation.

`<format>.validate(s)` returns an optional list of error messages. cel-expr-python cannot return an
optional from a Python function, so the compiler rewrites each `format.NAME().validate(ARG)` call into
an expression over `__formatErrors(format.NAME(), ARG)` (see `rewrite_validate_calls`).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re
import uuid

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.schema.apimachinery import names

__all__ = ["ERRORS_FUNCTION", "library", "rewrite_validate_calls"]

NAMED_FORMAT = "kubernetes.NamedFormat"
ERRORS_FUNCTION = "__formatErrors"
_CALL = re.compile(r"(?<![\w.])format\.(\w+)\(\)\s*\.\s*validate\(")


def _uri(value: str) -> list[str]:
    return [] if re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", value) or value.startswith("/") else \
        ["invalid URI"]


def _uuid(value: str) -> list[str]:
    try:
        uuid.UUID(value)
    except ValueError:
        return ["does not match the UUID format"]
    return []


def _byte(value: str) -> list[str]:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return ["invalid base64"]
    return []


def _date(value: str) -> list[str]:
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return ["invalid date"]
    return []


def _datetime(value: str) -> list[str]:
    try:
        datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return ["invalid datetime"]
    return []


FORMATS = {
    "dns1123Label": names.is_dns1123_label, "dns1123Subdomain": names.is_dns1123_subdomain,
    "dns1035Label": names.is_dns1035_label, "qualifiedName": names.is_qualified_name,
    "dns1123LabelPrefix": lambda v: names.name_is_dns_label(v, True),
    "dns1123SubdomainPrefix": lambda v: names.name_is_dns_subdomain(v, True),
    "dns1035LabelPrefix": lambda v: names.name_is_dns1035_label(v, True), "labelValue": names.is_valid_label_value,
    "uri": _uri, "uuid": _uuid, "byte": _byte, "date": _date, "datetime": _datetime,
}


def rewrite_validate_calls(source: str) -> str:
    """`format.NAME().validate(ARG)` as an optional built from the format's error list."""
    out, pos = [], 0
    for m in _CALL.finditer(source):
        if m.start() < pos:
            continue
        end = _closing_paren(source, m.end())
        if end is None:
            break
        arg = source[m.end():end]
        errors = f"{ERRORS_FUNCTION}(format.{m.group(1)}(), {arg})"
        out += [source[pos:m.start()], f"({errors}.size() == 0 ? optional.none() : optional.of({errors}))"]
        pos = end + 1
    out.append(source[pos:])
    return "".join(out)


def _closing_paren(source: str, start: int) -> int | None:
    depth, quote, i = 1, "", start
    while i < len(source):
        ch = source[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def library(lib: Library) -> None:
    f, s = cel_type(NAMED_FORMAT), cel.Type.STRING
    for name in FORMATS:
        lib.function(f"format.{name}", f"format_{name}", f, [], lambda name=name: make(NAMED_FORMAT, name))
    lib.function(ERRORS_FUNCTION, "format_errors_string", cel.Type.List(s), [f, s],
                 lambda fmt, value: FORMATS[fmt.value](value))
