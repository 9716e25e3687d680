"""How deeply an expression nests, as cel-go's parser counts it.

cel-go stops parsing when its grammar's `expr` rule is entered more than 250 levels deep (every
parenthesis, call argument list, index, list or map literal opens a level) and reports
`expression recursion limit exceeded: 250` at no source location. crdtool's CEL runtime parses
only 32 levels, so the depth is counted here, from the text, to give the apiserver's error for
rules beyond cel-go's limit and to say which rules nest too deep to be checked here.
"""

from __future__ import annotations

MAX_RECURSION_DEPTH = 250  # cel-go's default parser recursion limit, which the apiserver keeps
RECURSION_ERROR = f"ERROR: <input>:-1:0: expression recursion limit exceeded: {MAX_RECURSION_DEPTH}"

_OPEN, _CLOSE = "([{", ")]}"


def nesting_depth(source: str) -> int:
    """The deepest bracket nesting outside string and bytes literals (1 for an expression with none)."""
    depth = deepest = 0
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch in "'\"":
            i = _skip_string(source, i)
            continue
        if ch in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        i += 1
    return deepest + 1


def _skip_string(source: str, start: int) -> int:
    """The index after the string literal opening at `start` (raw-ness does not change where it ends,
    except that a backslash escapes nothing in a raw string)."""
    quote = source[start]
    raw = start > 0 and source[start - 1] in "rR"
    triple = source.startswith(quote * 3, start)
    delimiter = quote * 3 if triple else quote
    i = start + len(delimiter)
    while i < len(source):
        if source.startswith(delimiter, i):
            return i + len(delimiter)
        if source[i] == "\\" and not raw:
            i += 2
            continue
        if source[i] == "\n" and not triple:
            return i
        i += 1
    return i
