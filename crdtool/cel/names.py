"""Property names as CEL sees them: the apiserver's escaping of names that are not CEL identifiers.

`x-foo` is `x__dash__foo`, `a.b` is `a__dot__b`, `a/b` is `a__slash__b`, `a__b` is `a__underscores__b`
and a CEL reserved word such as `namespace` is `__namespace__`. Names that start with a digit or hold
any other character are not accessible from rules at all.
"""

from __future__ import annotations

import re

__all__ = ["escape", "unescape"]

_RESERVED = frozenset({
    "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",
    "import", "let", "loop", "package", "namespace", "return", "var", "void", "while",
})
_EXPAND = re.compile(r"__|[-./]|[^a-zA-Z0-9\-./_]")
_REPLACEMENTS = {"__": "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__"}
_UNESCAPE = re.compile(r"__(underscores|dot|dash|slash)__")
_UNESCAPED = {"underscores": "__", "dot": ".", "dash": "-", "slash": "/"}


def escape(name: str) -> str | None:
    """The CEL name of a property, or None if rules cannot refer to it."""
    if not name or "0" <= name[0] <= "9":
        return None
    if name in _RESERVED:
        return f"__{name}__"
    if _EXPAND.search(name) is None:
        return name
    parts: list[str] = []
    pos = 0
    for m in _EXPAND.finditer(name):
        replacement = _REPLACEMENTS.get(m.group())
        if replacement is None:
            return None
        parts += [name[pos:m.start()], replacement]
        pos = m.end()
    parts.append(name[pos:])
    return "".join(parts)


def unescape(name: str) -> str:
    """The property name behind a CEL name (the inverse of `escape` for the names it returns)."""
    if len(name) > 4 and name.startswith("__") and name.endswith("__") and name[2:-2] in _RESERVED:
        return name[2:-2]
    return _UNESCAPE.sub(lambda m: _UNESCAPED[m.group(1)], name)
