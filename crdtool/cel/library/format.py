"""Kubernetes' format library (library/format.go): named string formats and their validation.

`<format>.validate(s)` returns an optional list of error messages. cel-expr-python cannot return an
optional from a Python function, so the compiler rewrites each `format.NAME().validate(ARG)` call into
an expression over `__formatErrors(format.NAME(), ARG)` (see `rewrite_validate_calls`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.model.gourl import URLError, parse_request_uri
from crdtool.schema.apimachinery import names
from crdtool.schema.values.formats import format_checker

__all__ = ["ERRORS_FUNCTION", "library", "rewrite_validate_calls"]

NAMED_FORMAT = "kubernetes.NamedFormat"
ERRORS_FUNCTION = "__formatErrors"
_CALL = re.compile(r"(?<![\w.])format\.(\w+)\(\)\s*\.\s*validate\(")


def _uri(value: str) -> list[str]:
    """url.ParseRequestURI's error, as the library returns it."""
    try:
        parse_request_uri(value)
    except URLError as err:
        return [str(err)]
    return []


def _strfmt(name: str, message: str) -> Callable[[str], list[str]]:
    """A check of kube-openapi's strfmt registry (the one the schema's `format` uses) with its message."""
    check = format_checker(name)
    assert check is not None, name
    return lambda value: [] if check(value) else [message]


FORMATS = {
    "dns1123Label": names.is_dns1123_label, "dns1123Subdomain": names.is_dns1123_subdomain,
    "dns1035Label": names.is_dns1035_label, "qualifiedName": names.is_qualified_name,
    "dns1123LabelPrefix": lambda v: names.name_is_dns_label(v, True),
    "dns1123SubdomainPrefix": lambda v: names.name_is_dns_subdomain(v, True),
    "dns1035LabelPrefix": lambda v: names.name_is_dns1035_label(v, True), "labelValue": names.is_valid_label_value,
    "uri": _uri, "uuid": _strfmt("uuid", "does not match the UUID format"), "byte": _strfmt("byte", "invalid base64"),
    "date": _strfmt("date", "invalid date"), "datetime": _strfmt("datetime", "invalid datetime"),
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
