"""Kubernetes' format library (library/format.go): named string formats and their validation.

`format.named(name)` returns an optional format and `<format>.validate(s)` an optional list of error
messages, and cel-expr-python can neither return nor declare an optional from a Python function. So
the compiler rewrites both calls (`rewrite`) into expressions that build the optional in CEL around
functions that need none: `format.named(N)` into `(__formatKnown(N) ? optional.of(__formatNamed(N)) :
optional.none())`, and `F.validate(S)` into an optional over `__formatErrors(F, S)`. The calls are
found in the expression's syntax tree (crdtool.cel.depth), so any receiver and argument is rewritten,
never a word inside a string.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.model.gourl import URLError, parse_request_uri
from crdtool.schema.apimachinery import names

if TYPE_CHECKING:
    from crdtool.cel.depth import SyntaxNode
    from crdtool.cel.sourcemap import SourceMap

__all__ = ["ERRORS_FUNCTION", "KNOWN_FUNCTION", "NAMED_FUNCTION", "library", "rewrite"]

NAMED_FORMAT = "kubernetes.NamedFormat"
ERRORS_FUNCTION = "__formatErrors"
KNOWN_FUNCTION = "__formatKnown"
NAMED_FUNCTION = "__formatNamed"
_MAY_CALL = re.compile(r"\b(?:named|validate)\s*\(")


def _uri(value: str) -> list[str]:
    """url.ParseRequestURI's error, as the library returns it."""
    try:
        parse_request_uri(value)
    except URLError as err:
        return [str(err)]
    return []


def _strfmt(name: str, message: str) -> Callable[[str], list[str]]:
    """A check of kube-openapi's strfmt registry (the one the schema's `format` uses) with its message
    (the registry is imported when a rule first validates such a format)."""
    def check(value: str) -> list[str]:
        from crdtool.schema.values.formats import format_checker

        checker = format_checker(name)
        assert checker is not None, name
        return [] if checker(value) else [message]
    return check


FORMATS = {
    "dns1123Label": names.is_dns1123_label, "dns1123Subdomain": names.is_dns1123_subdomain,
    "dns1035Label": names.is_dns1035_label, "qualifiedName": names.is_qualified_name,
    "dns1123LabelPrefix": lambda v: names.name_is_dns_label(v, True),
    "dns1123SubdomainPrefix": lambda v: names.name_is_dns_subdomain(v, True),
    "dns1035LabelPrefix": lambda v: names.name_is_dns1035_label(v, True), "labelValue": names.is_valid_label_value,
    "uri": _uri, "uuid": _strfmt("uuid", "does not match the UUID format"), "byte": _strfmt("byte", "invalid base64"),
    "date": _strfmt("date", "invalid date"), "datetime": _strfmt("datetime", "invalid datetime"),
}


def rewrite(source: str) -> SourceMap:
    """`source` with its `format.named(N)` and `F.validate(S)` calls built from functions cel-expr-python
    can run (see the module's docstring), with where each part came from (errors are reported at the calls
    as written); unchanged when it has none or does not parse (the engine then reports its errors)."""
    from crdtool.cel.sourcemap import SourceMap  # compiling only: a run whose rules are cached needs none

    rewritten = SourceMap.identity(source)
    if not _MAY_CALL.search(source):
        return rewritten
    for _ in range(source.count("named") + source.count("validate")):  # each pass rewrites one call
        once = _rewrite_innermost(rewritten)
        if once is None:
            break
        rewritten = once
    return rewritten


#: The functions the rewrites call, by the function written (None: its errors are __formatKnown's twins).
_WRITTEN = {KNOWN_FUNCTION: "format.named", NAMED_FUNCTION: None, ERRORS_FUNCTION: "validate"}


def _rewrite_innermost(rewritten: SourceMap) -> SourceMap | None:
    """One call rewritten, one that holds no other call to rewrite (None: there is none)."""
    from crdtool.cel.depth import syntax_nodes  # a parser of its own, only for rules that call these

    source = rewritten.text
    nodes = syntax_nodes(source)
    if not nodes:
        return None
    calls = [c for c in (_format_call(source, nodes, n) for n in nodes) if c is not None]
    for start, end, paren, kind, parts in calls:
        if any(start <= s and e <= end and (s, e) != (start, end) for s, e, _, _, _ in calls):
            continue  # it holds another: that one first
        pieces: list[str | tuple[int, int]]
        if kind == "named":
            (name,) = parts
            pieces = [f"({KNOWN_FUNCTION}(", name, f") ? optional.of({NAMED_FUNCTION}(", name,
                      ")) : optional.none())"]
        else:
            receiver, argument = parts
            errors: list[str | tuple[int, int]] = [f"{ERRORS_FUNCTION}(", receiver, ", ", argument, ")"]
            pieces = ["(", *errors, ".size() == 0 ? optional.none() : optional.of(", *errors, "))"]
        return rewritten.replaced(start, end, pieces, paren, _WRITTEN)
    return None


def _format_call(source: str, nodes: list[SyntaxNode], call: SyntaxNode
                 ) -> tuple[int, int, int, str, list[tuple[int, int]]] | None:
    """A member call node that is `format.named(N)` or `F.validate(S)` (one argument): its span, its
    opening parenthesis, which, and the spans of its receiver (validate) and argument."""
    from crdtool.cel.depth import member_call

    parts = member_call(source, nodes, call) if call.name in ("named", "validate") else None
    if parts is None or len(parts.arguments) != 1:
        return None
    receiver, (argument,) = (parts.receiver.start, parts.receiver.end), parts.arguments
    if call.name == "named":
        if source[receiver[0]:receiver[1]] != "format":
            return None
        return call.start, call.end, parts.paren, "named", [(argument.start, argument.end)]
    return call.start, call.end, parts.paren, "validate", [receiver, (argument.start, argument.end)]


def library(lib: Library) -> None:
    f, s = cel_type(NAMED_FORMAT), cel.Type.STRING
    for name in FORMATS:
        lib.function(f"format.{name}", f"format_{name}", f, [], lambda name=name: make(NAMED_FORMAT, name))
    lib.function(ERRORS_FUNCTION, "format_errors_string", cel.Type.List(s), [f, s],
                 lambda fmt, value: FORMATS[fmt.value](value))
    lib.function(KNOWN_FUNCTION, "format_known_string", cel.Type.BOOL, [s], lambda name: name in FORMATS)
    lib.function(NAMED_FUNCTION, "format_named_string", f, [s], lambda name: make(NAMED_FORMAT, name))
