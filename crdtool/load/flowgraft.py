"""Block YAML documents holding deeply nested JSON values (`metadata: {"a": {"a": ...`), or YAML flow
values made of what load.jsonflow reads (plain words and numbers, one-line quoted scalars: `{a: [{'b': 1`),
composed in time linear in the text.

libyaml's scanner does work proportional to the flow depth for every token it reads, so a JSON value
thousands of levels deep inside a block document costs depth × tokens, as a stream of such JSON does
(load.jsonflow reads that one). Here each deep JSON value that is a block mapping's value, a block
sequence's item or a document's root is blanked out of the text as a double-quoted scalar of the same
length, libyaml composes the shallow text that is left, and each placeholder's node is replaced by the
value's node composed by load.jsonflow at its place in the original text: libyaml's very nodes and marks.

What is not certainly such a value is not grafted (None: libyaml reads the whole text): a placeholder
libyaml does not compose as a scalar at that very place (the brackets were inside a comment, a block
scalar or a quoted string), one used as a key, a value with a tag or an anchor, text that is not JSON,
and any text whose shallow rest libyaml refuses (libyaml then says why, of the text as written).
"""

from __future__ import annotations

import re
from bisect import bisect_right, insort
from collections.abc import Callable
from typing import Any, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from crdtool.load.jsonflow import FlowValue, TooDeep, compose_json_collection

#: What matters to find the bracket that closes a flow collection: brackets and quoted strings.
_BRACKET_OR_STRING = re.compile(r'[\[\]{}]|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*(?:\'\'[^\'\n]*)*\'')
_NOT_LINE_BREAK = re.compile(r"[^\r\n]")
#: Line breaks libyaml counts beyond JSON's blanks (not in a grafted value, but they shift lines before it).
_OTHER_LINE_BREAK = re.compile("[\x85\u2028\u2029]")



def compose_with_grafts(text: str, min_depth: int, max_depth: int,
                        compose: Callable[[str], list[Node | None] | None]) -> list[Node | None] | None:
    """The root node of every document of `text`, with its JSON values nested deeper than `min_depth`
    composed by load.jsonflow and the rest by `compose` (libyaml; None where it refuses the text); None
    if there is no such value or one of them cannot be grafted with certainty (then libyaml reads all
    of the text, and says why where it refuses it).

    Raises load.jsonflow's TooDeep where a grafted value nests past `max_depth` (counted from its
    document's root), where crdtool's event composer refuses it."""
    if _OTHER_LINE_BREAK.search(text) is not None:
        return None
    found = _deep_values(text, min_depth)
    if not found:
        return None
    roots = compose(_blanked(text, found))
    if roots is None:
        return None
    places = _placeholders(roots, {value.node.start_mark.index for value in found})
    for value in found:
        place = places.get(value.node.start_mark.index)
        if place is None or place.node.end_mark.index != value.end or (
                (place.node.start_mark.line, place.node.start_mark.column) !=
                (value.node.start_mark.line, value.node.start_mark.column)):
            return None
        if place.depth + len(value.levels) > max_depth:
            raise TooDeep(value.levels[max_depth - place.depth])
    for value in found:
        places[value.node.start_mark.index].put(value.node)
    return roots


def _deep_values(text: str, min_depth: int) -> list[FlowValue]:
    """The outermost bracketed values nesting deeper than `min_depth` that load.jsonflow composes, each
    where a value may stand (first on its line, or after `: `, `- `, `,` or `[`; where it stands in
    truth, libyaml's placeholder tells). A value that is not composed is looked into: a deep value inside
    it may be, unless it holds the place where that one stopped being readable."""
    found: list[FlowValue] = []
    stops: list[int] = []  # where composing stopped, sorted
    resume = line = scanned = line_start = 0
    for start, end, height in _bracket_spans(text):
        if start < resume or height <= min_depth or not _may_be_a_value(text, start):
            continue
        later_stop = bisect_right(stops, start)
        if later_stop < len(stops) and stops[later_stop] < end:
            continue  # it would stop there too
        line += text.count("\n", scanned, start) + text.count("\r", scanned, start) - text.count("\r\n", scanned, start)
        line_start = max(line_start, text.rfind("\n", scanned, start) + 1, text.rfind("\r", scanned, start) + 1)
        scanned = start
        composed = compose_json_collection(text, start, line, line_start)
        if isinstance(composed, FlowValue):
            if composed.end != end:
                return []  # brackets counted otherwise than read: leave all of it to libyaml
            found.append(composed)
            resume = end
        else:
            insort(stops, composed)
    return found


def _bracket_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, end, height) of every bracketed span, by start: brackets matched outside quoted strings
    (for JSON and the YAML flow load.jsonflow reads, exactly), height the levels of brackets it spans."""
    spans: list[list[int]] = []  # [start, end, height], by start; end 0 while open
    open_spans: list[list[int]] = []
    for token in _BRACKET_OR_STRING.finditer(text):
        bracket = token.group()
        if bracket == "[" or bracket == "{":
            span = [token.start(), 0, 1]
            spans.append(span)
            open_spans.append(span)
        elif (bracket == "]" or bracket == "}") and open_spans:
            span = open_spans.pop()
            span[1] = token.end()
            if open_spans and open_spans[-1][2] <= span[2]:
                open_spans[-1][2] = span[2] + 1
    return [(start, end, height) for start, end, height in spans if end]


def _may_be_a_value(text: str, start: int) -> bool:
    """Whether the bracket at `start` may open a value: first on its line, or after `: `, `- `, `:`, `,`
    or `[` (not a tag, an anchor or the first key of a flow mapping)."""
    before = start - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    if before < 0 or text[before] in "\r\n:,[":
        return True
    return text[before] == "-" and before < start - 1


def _blanked(text: str, values: list[FlowValue]) -> str:
    """The text with each value a double-quoted scalar of the same length (its line breaks kept, so
    that every mark after it stays where it was)."""
    pieces: list[str] = []
    position = 0
    for value in values:
        start, end = value.node.start_mark.index, value.end
        inner = _NOT_LINE_BREAK.sub(" ", text[start + 1:end - 1])
        pieces.extend((text[position:start], '"', inner, '"'))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


class _Place(NamedTuple):
    """Where a placeholder sits: its node, the collections around it, and how to put a node there."""

    node: ScalarNode
    depth: int
    put: Callable[[Node], None]


def _placeholders(roots: list[Node | None], starts: set[int]) -> dict[int, _Place]:
    """The double-quoted scalars starting at `starts` that are a document's root, a mapping's value or
    a sequence's item, by start index (a scalar at such a start used as a key is not listed)."""
    found: dict[int, _Place] = {}

    def consider(node: Node, depth: int, put: Callable[[Node], None]) -> None:
        if isinstance(node, ScalarNode) and node.style == '"' and node.start_mark.index in starts:
            found[node.start_mark.index] = _Place(node, depth, put)

    def setter(container: list[Any], index: int, key: Node | None = None) -> Callable[[Node], None]:
        def put(node: Node) -> None:
            container[index] = node if key is None else (key, node)
        return put

    # In document order, so that a node reached again through an alias is counted at its own depth.
    seen: set[int] = set()
    stack: list[tuple[Node, int]] = []
    for i, root in reversed(list(enumerate(roots))):
        if root is not None:
            consider(root, 0, setter(roots, i))
            stack.append((root, 0))
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        children: list[Node] = []
        if isinstance(node, MappingNode):
            for i, (key, value) in enumerate(node.value):
                consider(value, depth + 1, setter(node.value, i, key))
                children.extend((key, value))
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                consider(item, depth + 1, setter(node.value, i))
                children.append(item)
        stack.extend((child, depth + 1) for child in reversed(children))
    return found
