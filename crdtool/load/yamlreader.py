"""A fast YAML reader that keeps positions: libyaml (PyYAML's C parser) composes nodes,
and a small iterative constructor turns them into JSON-like values with go-yaml's typing.

`--write` (load/rewrite.py) edits the file's text at the positions these nodes carry, so reading
and rewriting share one parser.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import accumulate
from typing import Any

import yaml
import yaml._yaml
from yaml._yaml import CParser
from yaml.composer import ComposerError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from crdtool.load.document import DuplicateKey, Locator
from crdtool.load.gotyping import (
    INT64_MAX,
    INT64_MIN,
    MERGE,
    go_float,
    json_number,
    key_string,
    resolve_plain,
    resolve_tagged,
)
from crdtool.load.jsonflow import MAP_TAG, SEQ_TAG, STR_TAG, TooDeep, compose_json_stream
from crdtool.load.jsonflow import PLAIN_TAG as PLAIN_TAG  # the tag of untagged plain scalars, for readers of nodes
from crdtool.model.gounmarshal import UnmarshalTypeError
from crdtool.model.path import Segment

MAX_DEPTH = 10000
DEPTH_MESSAGE = f"nesting deeper than {MAX_DEPTH} levels"
#: Nesting that libyaml's recursive composer is known to handle; deeper text is composed from events.
_RECURSION_SAFE_DEPTH = MAX_DEPTH // 3
#: libyaml's nesting limit while crdtool reads: beyond MAX_DEPTH by more than its scanner looks
#: ahead (a simple key stays possible for 1,024 characters), so crdtool's own check speaks first.
_LIBYAML_NESTING = MAX_DEPTH + 2048
#: Text that cannot nest this deep before libyaml's error has a syntax error; deeper, it may be libyaml's own limit.
_PARSER_LIMIT_FLOOR = 100
#: Flow nesting from which JSON is composed by the linear composer rather than libyaml, whose scanner's
#: work for each token grows with the depth (measured: even at about 300 levels for one composition; a
#: stream whose positions are asked for is composed twice by libyaml, once by the linear composer).
_LINEAR_FLOW_DEPTH = 200
_PLAIN = PLAIN_TAG
_STR = STR_TAG
_MAP = MAP_TAG
_SEQ = SEQ_TAG
#: A compact run of block indicators, `- - - -` (`?` too), as one pattern per first character: a pattern
#: that starts with a literal is searched for many times faster than one that starts with a class.
_COMPACT_RUNS = tuple(re.compile(first + r"[ \t]+[-?][ \t]+[-?][ \t]+[-?]") for first in ("-", r"\?"))
_DOC_SEPARATOR = re.compile(r"^---", re.M)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_QUOTED = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_NESTING_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class YAMLInputError(Exception):
    """A document that cannot be read; line and column are 1-based within the file. It names no file:
    its readers turn it into the InputError (crdtool.errors) that reaches the user."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class _Composer(CParser):
    """libyaml's composer with go-yaml's resolution: untagged plain scalars are typed later."""

    def descend_resolver(self, parent: Any, index: Any) -> None:
        """Path-based resolvers are not used."""

    def ascend_resolver(self) -> None:
        """Path-based resolvers are not used."""

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        """Untagged plain scalars get a marker tag; their type is decided by go-yaml's rules later."""
        if kind is ScalarNode:
            return _PLAIN if implicit[0] else _STR
        return _SEQ if kind is SequenceNode else _MAP


def _may_nest_deeper_than(text: str, depth: int) -> bool:
    """A cheap bound: False only if no document of the text can nest deeper than about `depth`.

    Flow collections need a bracket per level within one document (a `---` line ends any flow
    collection: counted per document, a stream of many documents stays on the fast path), block
    collections an indentation column per level (or a compact `- - -` run).
    """
    return (_brackets(text) >= depth and any(_brackets(doc) >= depth for doc in _DOC_SEPARATOR.split(text))
            or ("\n" + " " * depth) in text or any(run.search(text) is not None for run in _COMPACT_RUNS))


def _brackets(text: str) -> int:
    return text.count("[") + text.count("{")


def _flow_deeper_than(text: str, depth: int) -> bool:
    """Whether JSON text nests deeper than `depth` (for other text, a guess: it is only a choice of reader)."""
    if _brackets(text) <= depth:
        return False
    brackets = _NOT_BRACKETS.sub("", _QUOTED.sub("", text))
    return max(accumulate(map(_NESTING_STEP.__getitem__, brackets)), default=0) > depth


#: The last deeply nested text composed (by the linear JSON composer, or from libyaml's events) and its
#: nodes, kept for the one next call with that very text: a stream's positions are composed again
#: (load.sources) after its values, and composing deep text is what costs.
_last_deep: tuple[str, list[Node | None]] | None = None


def _kept(text: str) -> list[Node | None] | None:
    """The nodes kept for `text` (once), else None."""
    global _last_deep
    if _last_deep is not None and _last_deep[0] is text:
        nodes = _last_deep[1]
        _last_deep = None
        return nodes
    return None


def _keep(text: str, nodes: list[Node | None]) -> list[Node | None]:
    global _last_deep
    _last_deep = (text, nodes)
    return list(nodes)


def _compose_linear(text: str) -> list[Node | None] | None:
    """The nodes of a stream of deeply nested JSON documents in linear time (None if the text is
    not such a stream: libyaml reads it)."""
    try:
        found = compose_json_stream(text, MAX_DEPTH)
    except TooDeep as err:
        raise _too_deep(err.mark) from None
    return None if found is None else _keep(text, found)


def _text_through_error(text: str, err: yaml.YAMLError) -> str:
    """The text up to the end of the line where a parser stopped (all of it if no place is known)."""
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    if mark is None:
        return text
    end = -1
    for _ in range(mark.line + 1):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end]


def _too_deep(mark: Any) -> YAMLInputError:
    return YAMLInputError(DEPTH_MESSAGE, mark.line + 1, mark.column + 1)


def _compose_events(events: Iterable[yaml.Event]) -> list[Node | None]:
    """The root node of every document, built from parser events without recursion.

    The nodes are those libyaml's composer makes (tags resolved by `_Composer.resolve`,
    aliases as the anchored node itself); nesting deeper than MAX_DEPTH is refused in
    crdtool's own words, whatever limit the parser has.
    """
    roots: list[Node | None] = []
    anchors: dict[str, Node] = {}
    root: Node | None = None
    open_nodes: list[Node] = []
    pending_keys: list[Node | None] = []  # per open collection: a mapping's key awaiting its value

    def add(node: Node) -> None:
        nonlocal root
        if not open_nodes:
            root = node
        elif isinstance(open_nodes[-1], SequenceNode):
            open_nodes[-1].value.append(node)
        elif pending_keys[-1] is None:
            pending_keys[-1] = node
        else:
            open_nodes[-1].value.append((pending_keys[-1], node))
            pending_keys[-1] = None

    def remember(anchor: str | None, node: Node) -> None:
        if anchor is not None:
            anchors[anchor] = node

    for event in events:
        if isinstance(event, yaml.ScalarEvent):
            node: Node = _scalar_node(event)
            remember(event.anchor, node)
            add(node)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(open_nodes) >= MAX_DEPTH:
                raise _too_deep(event.start_mark)
            node = _collection_node(event)
            remember(event.anchor, node)
            add(node)
            open_nodes.append(node)
            pending_keys.append(None)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            open_nodes.pop().end_mark = event.end_mark
            pending_keys.pop()
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in anchors:
                raise ComposerError(None, None, _UNDEFINED_ALIAS,  # libyaml composer's words
                                    event.start_mark)  # type: ignore[arg-type]  # libyaml's Mark, as above
            add(anchors[event.anchor])
        elif isinstance(event, yaml.DocumentStartEvent):
            anchors, root = {}, None
        elif isinstance(event, yaml.DocumentEndEvent):
            roots.append(root)
    return roots


def _scalar_node(event: yaml.ScalarEvent) -> ScalarNode:
    """The composer's node of a scalar, its tag resolved later (`!` and no tag: plain or str)."""
    if event.style == '"' and _SURROGATE.search(event.value):
        # PyYAML's pure parser decodes `\ud800`; libyaml and go-yaml refuse such an escape
        # (libyaml's events carry yaml._yaml.Mark, which types-PyYAML's errors and nodes do not name:
        # it has the same line and column, all that is read of a mark)
        raise yaml.scanner.ScannerError("while parsing a quoted scalar", event.start_mark,  # type: ignore[arg-type]
                                        "found invalid Unicode character escape code",
                                        event.start_mark)  # type: ignore[arg-type]
    tag = event.tag
    if tag is None or tag == "!":
        tag = _PLAIN if event.implicit[0] else _STR
    return ScalarNode(tag, event.value, event.start_mark, event.end_mark,  # type: ignore[arg-type]
                      style=event.style)  # (libyaml's Mark, as above)


def _collection_node(event: yaml.SequenceStartEvent | yaml.MappingStartEvent) -> Node:
    """The composer's empty sequence or mapping node for a start event (its end mark set at its end)."""
    sequence = isinstance(event, yaml.SequenceStartEvent)
    tag = event.tag if event.tag not in (None, "!") else (_SEQ if sequence else _MAP)
    return (SequenceNode if sequence else MappingNode)(tag, [], event.start_mark,  # type: ignore[arg-type]
                                                       None, flow_style=event.flow_style)  # (libyaml's Mark)


def _syntax_error(err: yaml.YAMLError, text: str) -> YAMLInputError:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    problem = getattr(err, "problem", None) or str(err)
    context = getattr(err, "context", None)
    if problem == _UNDEFINED_ALIAS and mark is not None:
        problem += _alias_name_at(text, mark.line, mark.column)
    message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    if mark is None:
        return YAMLInputError(message)
    return YAMLInputError(message, mark.line + 1, mark.column + 1)


#: libyaml's composer's words for an alias without its anchor (which, unlike PyYAML's own, it does not name).
_UNDEFINED_ALIAS = "found undefined alias"
_ALIAS_AT = re.compile(r"\*([^\s,\[\]{}]+)")


def _alias_name_at(text: str, line: int, column: int) -> str:
    """` 'name'`: the alias at a mark (zero-based line and column), named as PyYAML's composer names it."""
    lines = text.splitlines()
    found = _ALIAS_AT.match(lines[line], column) if line < len(lines) else None
    return f" {found.group(1)!r}" if found else ""


def _compose_with_libyaml(text: str) -> list[Node | None]:
    parser = _Composer(text)
    nodes: list[Node | None] = []
    try:
        while parser.check_node():
            nodes.append(parser.get_node())
    finally:
        parser.dispose()
    return nodes


@contextmanager
def _libyaml_nesting_allowed(levels: int) -> Iterator[bool]:
    """libyaml's own nesting limit raised to `levels` while crdtool parses, where libyaml has one
    and PyYAML lets it be set (the setting is process-wide; the old value is put back). Yields
    whether libyaml is known to allow `levels` (raised, or no limit at all)."""
    get = getattr(yaml._yaml, "_get_max_nest_level", None)
    set_ = getattr(yaml._yaml, "_set_max_nest_level", None)
    old = get() if get is not None and set_ is not None else None
    if set_ is None or old is None or old < 0 or old >= levels:  # -1: no limit in this libyaml
        yield old is not None
        return
    set_(levels)
    try:
        yield True
    finally:
        set_(old)


def compose_documents(text: str) -> list[Node | None]:
    """The root node of every document in a YAML stream.

    libyaml's composer is fast but recursive, and libyaml releases differ in a nesting
    limit of their own (0.2.6 refuses 1,000 levels, in its own words) where go-yaml
    allows 10,000. So libyaml's limit is raised beyond crdtool's where PyYAML allows it,
    text that may nest deeply is composed from events without recursion, and an error
    libyaml raises where the text may already nest deeply is decided again by the pure-Python
    parser (slower, no nesting limit of its own) when libyaml's limit is not known to allow
    crdtool's: the depth limit and its message are crdtool's, whatever the parser and its
    version. Only then: that parser's time grows with the square of the depth in flow sequences
    (a 20 KB `[[[...` with a syntax error at its end took 14 s).

    A stream of JSON documents nested more deeply than libyaml reads in good time is composed by
    load.jsonflow instead, to the same nodes, in time linear in the text. Deeply nested text is composed
    once: its nodes are kept for the next call with that very text (its positions, after its values).
    """
    known = _kept(text)
    if known is not None:
        return known
    if _flow_deeper_than(text, _LINEAR_FLOW_DEPTH):
        linear = _compose_linear(text)
        if linear is None:
            linear = _compose_grafted(text)
        return linear if linear is not None else _keep(text, _compose_with_parsers(text))
    return _compose_with_parsers(text)


def _compose_with_parsers(text: str) -> list[Node | None]:
    """The nodes of the text composed by libyaml (from its events where the text may nest deeply, by the
    pure-Python parser where libyaml's own limit may be what refused it); raises YAMLInputError."""
    allowed = False
    try:
        with _libyaml_nesting_allowed(_LIBYAML_NESTING) as allowed:
            if _may_nest_deeper_than(text, _RECURSION_SAFE_DEPTH):
                return _compose_events(yaml.parse(text, Loader=yaml.CSafeLoader))
            return _compose_with_libyaml(text)
    except yaml.YAMLError as err:
        error = err
    if not allowed and _may_nest_deeper_than(_text_through_error(text, error), _PARSER_LIMIT_FLOOR):
        try:
            return _compose_events(yaml.parse(text, Loader=yaml.SafeLoader))
        except yaml.YAMLError as err:
            error = err
    raise _syntax_error(error, text) from None


def _compose_grafted(text: str) -> list[Node | None] | None:
    """The nodes of block text whose deep values are JSON, composed in linear time (load.flowgraft);
    None where that is not certain (libyaml reads the text)."""
    from crdtool.load.flowgraft import compose_with_grafts  # here: only text with deep flow values needs it

    def shallow(blanked: str) -> list[Node | None] | None:
        try:
            return _compose_with_parsers(blanked)
        except YAMLInputError:
            return None

    try:
        found = compose_with_grafts(text, _LINEAR_FLOW_DEPTH, MAX_DEPTH, shallow)
    except TooDeep as err:
        raise _too_deep(err.mark) from None
    return None if found is None else _keep(text, found)


class _AliasBudget:
    """go-yaml's guard against alias bombs: too many values decoded through aliases."""

    def __init__(self) -> None:
        self.decoded = 0
        self.aliased = 0

    def check(self, node: Node) -> None:
        if self.aliased > 100 and self.decoded > 1000:
            low, high = 400_000, 4_000_000
            if self.decoded <= low:
                allowed = 0.99
            elif self.decoded >= high:
                allowed = 0.10
            else:
                allowed = 0.99 - 0.89 * (self.decoded - low) / (high - low)
            if self.aliased / self.decoded > allowed:
                mark = node.start_mark
                raise YAMLInputError("document contains excessive aliasing (a YAML alias bomb?)",
                                     mark.line + 1, mark.column + 1)


def scalar_value(node: ScalarNode) -> Any:
    """A scalar node's value, typed as go-yaml types it (plain scalars by its resolution rules)."""
    if node.tag == _PLAIN:
        return resolve_plain(node.value)
    if node.tag == _STR:
        return node.value
    return resolve_tagged(node.tag, node.value)


def construct(root: Node, duplicates: list[DuplicateKey], line_offset: int = 0, merge_keys: bool = True,
              aliases: bool = True) -> Any:
    """The JSON-like value of a node tree, built without recursion.

    Aliased nodes are expanded into fresh values (objects are later mutated by pruning
    and defaulting) under go-yaml's alias budget. Duplicate keys keep the last value,
    as go-yaml does, and are recorded for strict decoding. `merge_keys`: whether the tree
    may hold a `<<` merge key (False when its text has no `<<`: no mapping is searched for one);
    `aliases`: whether it may hold an alias (False when its text has no `*`: no node is counted
    for the budget, since none is met twice).
    """
    budget = _AliasBudget()
    seen_ids: set[int] = set()
    merges: dict[int, list[tuple[Node, Node]]] = {}
    #: the JSON key of each plain key text met (a schema repeats `type`, `description`, ... thousands of times)
    plain_keys: dict[str, str] = {}
    result: list[Any] = [None]
    # stack of (node, container, slot, depth); slot is an index or key in container
    stack: list[tuple[Node, Any, Any, int]] = [(root, result, 0, 0)]
    while stack:
        node, container, slot, depth = stack.pop()
        if aliases:
            budget.decoded += 1
            node_id = id(node)
            if node_id in seen_ids:
                budget.aliased += 1
                budget.check(node)
            else:
                seen_ids.add(node_id)
        if depth > MAX_DEPTH:
            raise _too_deep(node.start_mark)
        if isinstance(node, ScalarNode):
            tag = node.tag
            value = resolve_plain(node.value) if tag == _PLAIN else node.value if tag == _STR else scalar_value(node)
            container[slot] = None if value is MERGE else value
        elif isinstance(node, SequenceNode):
            items: list[Any] = [None] * len(node.value)
            container[slot] = items
            for i in range(len(items) - 1, -1, -1):
                stack.append((node.value[i], items, i, depth + 1))
        else:
            assert isinstance(node, MappingNode)  # the composer makes no other node
            mapping: dict[str, Any] = {}
            container[slot] = mapping
            pending: list[tuple[Node, Any, Any, int]] = []
            for key_node, value_node in (_merged_pairs(node, merges) if merge_keys else node.value):
                plain = key_node.tag == _PLAIN and isinstance(key_node, ScalarNode)
                key = plain_keys.get(key_node.value) if plain else None
                if key is None:
                    key = key_string(scalar_value(key_node)) if isinstance(key_node, ScalarNode) else None
                    if key is None:
                        mark = key_node.start_mark
                        raise YAMLInputError("a mapping key must be a string, number or boolean",
                                             mark.line + 1, mark.column + 1)
                    if plain:
                        plain_keys[key_node.value] = key
                if key in mapping:  # go-yaml v2 names the line of the value that would be set
                    mark = key_node.start_mark
                    duplicates.append(DuplicateKey(value_node.start_mark.line + 1 - line_offset, key,
                                                   (mark.line + 1, mark.column + 1)))
                mapping[key] = None
                pending.append((value_node, mapping, key, depth + 1))
            stack.extend(reversed(pending))
    return result[0]


def _is_merge_key(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == _PLAIN and node.value == "<<"


def _merged_pairs(node: MappingNode, cache: dict[int, list[tuple[Node, Node]]],
                  active: frozenset[int] = frozenset()) -> list[tuple[Node, Node]]:
    """The pairs of a mapping with YAML merge keys (`<<: *base`) expanded; explicit keys win.

    `cache` holds the expansion of every mapping met (a mapping merged many times over, as
    in a merge bomb, is expanded once); `active` the mappings being expanded, so one that
    merges itself is an error rather than endless recursion.
    """
    known = cache.get(id(node))
    if known is not None:
        return known
    pairs: list[tuple[Node, Node]] = node.value
    if not any(_is_merge_key(k) for k, _ in pairs):
        return pairs
    own = [(k, v) for k, v in pairs if not _is_merge_key(k)]
    own_keys = {k.value for k, _ in own if isinstance(k, ScalarNode)}
    merged: list[tuple[Node, Node]] = []
    inside = active | {id(node)}
    for k, v in pairs:
        if not _is_merge_key(k):
            continue
        sources = v.value if isinstance(v, SequenceNode) else [v]
        for src in sources:
            mark = src.start_mark
            if not isinstance(src, MappingNode):
                raise YAMLInputError("map merge requires map or sequence of maps as the value",
                                     mark.line + 1, mark.column + 1)
            if id(src) in inside:
                raise YAMLInputError("a merge key merges the mapping that contains it (an anchor whose value "
                                     "contains itself)", mark.line + 1, mark.column + 1)
            for mk, mv in _merged_pairs(src, cache, inside):
                if isinstance(mk, ScalarNode) and mk.value not in own_keys:
                    own_keys.add(mk.value)
                    merged.append((mk, mv))
    cache[id(node)] = merged + own
    return cache[id(node)]


def node_locator(root: Node | None) -> Locator:
    """A function from JSON path segments to the 1-based (line, column) of the node there.

    A mapping entry is located at its key; a path that leaves the document stops at the
    nearest existing ancestor.
    """

    merges: dict[int, list[tuple[Node, Node]]] = {}
    #: each mapping's entries by key, built once: many findings in one large mapping stay linear
    entries: dict[int, dict[Any, tuple[Node, Node]]] = {}

    def entry(node: MappingNode, key: Any) -> tuple[Node, Node] | None:
        table = entries.get(id(node))
        if table is None:
            table = entries[id(node)] = {}
            for k, v in _merged_pairs(node, merges):
                if isinstance(k, ScalarNode):
                    table[key_string(scalar_value(k))] = (k, v)  # the last of repeated keys, as decoded
        return table.get(key)

    def locate(segments: tuple[Segment, ...]) -> tuple[int, int] | None:
        if root is None:
            return None
        node = root
        mark = node.start_mark
        for seg in segments:
            if isinstance(node, MappingNode):
                found = entry(node, seg)
                if found is None:
                    break
                mark = found[0].start_mark
                node = found[1]
            elif isinstance(node, SequenceNode) and isinstance(seg, int) and 0 <= seg < len(node.value):
                node = node.value[seg]
                mark = node.start_mark
            else:
                break
        return mark.line + 1, mark.column + 1

    return locate


def document_start_lines(text: str) -> list[int]:
    """0-based line numbers just after each `---` separator (where a document's own lines begin)."""
    starts = [0]
    line = scanned = 0
    for m in _DOC_SEPARATOR.finditer(text):
        line += text.count("\n", scanned, m.start())
        scanned = m.start()
        starts.append(line + 1)
    return starts


def read_yaml_stream(text: str) -> list[tuple[Any, Node | None, list[DuplicateKey]]]:
    """Every document of a stream: (value, root node, duplicate keys)."""
    nodes = compose_documents(text)
    starts = document_start_lines(text) if any(n is not None for n in nodes[1:]) else [0]
    out: list[tuple[Any, Node | None, list[DuplicateKey]]] = []
    merge_keys = "<<" in text  # a merge key is the plain scalar `<<`, written as it is
    aliases = "*" in text  # an alias is `*name`
    for node in nodes:
        duplicates: list[DuplicateKey] = []
        if node is None:
            out.append((None, None, duplicates))
            continue
        offset = starts[bisect_right(starts, node.start_mark.line) - 1]
        value = construct(node, duplicates, offset, merge_keys, aliases)
        duplicates.sort()
        out.append((value, node, duplicates))
    return out


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _JSONDuplicate(k)
        out[k] = v
    return out


class _JSONDuplicate(Exception):
    pass


class _JSONNumberOutOfRange(Exception):
    pass


def _go_float(text: str) -> float:
    value = go_float(text)
    if value is None:
        raise _JSONNumberOutOfRange(text)
    return value


def _json_float(text: str) -> int | float:
    return json_number(_go_float(text))


def _json_int(text: str) -> int | float:
    """sigs.k8s.io/json with PreserveInts: an int64 where the literal fits, else strconv.ParseFloat's float."""
    if len(text) <= 20:
        n = int(text)
        if INT64_MIN <= n <= INT64_MAX:
            return n
    return _go_float(text)


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


def _number_position(text: str, literal: str) -> tuple[int | None, int | None]:
    """1-based line and column of the first number token spelled `literal`."""
    m = re.search(r"(?<![\w.+-])" + re.escape(literal) + r"(?![\w.])", text)
    if m is None:
        return None, None
    line = text.count("\n", 0, m.start())
    return line + 1, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1


def _decode_json(text: str, pairs: Callable[[list[tuple[str, Any]]], dict[str, Any]]) -> Any:
    """The value of JSON text as Go's reader gives it: an escaped lone surrogate reads as U+FFFD."""
    if _SURROGATE_ESCAPE.search(text):
        from crdtool.model.gounquote import replace_lone_surrogate_escapes  # rare: imported when met

        text = replace_lone_surrogate_escapes(text)
    try:
        data = json.loads(text, parse_float=_json_float, parse_int=_json_int, parse_constant=_not_json,
                          object_pairs_hook=pairs)
    except RecursionError as err:
        raise ValueError(str(err)) from None
    except _JSONNumberOutOfRange as err:
        literal = str(err)
        error = UnmarshalTypeError("number " + literal, "float64")  # a JSON number into interface{}
        raise YAMLInputError(str(error), *_number_position(text, literal)) from None
    return data


def read_json(text: str) -> tuple[Any, list[DuplicateKey]]:
    """A JSON document with the apiserver's numbers, and its duplicate keys; raises ValueError if
    it is not plain JSON.

    Repeated keys keep the last value (Go's JSON reader) and are listed with the field paths
    its strict decoding names. A number beyond float64's range is refused as kubectl refuses
    it when it decodes the object (YAMLInputError with Go's text); NaN and Infinity are not
    JSON for Go, so such text is left to the YAML reader, as kubectl leaves it.
    """
    try:
        return _decode_json(text, _json_pairs), []
    except _JSONDuplicate:
        pass
    data = _decode_json(text, dict)
    try:
        roots = compose_documents(text)  # JSON is YAML: its nodes give the repeated keys' places
    except YAMLInputError as err:
        raise ValueError(err.message) from None
    return data, _json_duplicates(roots[0] if roots else None)


def _json_duplicates(root: Node | None) -> list[DuplicateKey]:
    """The repeated keys of a JSON document in the order Go's decoder meets them (a key, then its
    value, before the next key), each with the path sigs.k8s.io/json names: `a.b`, `e[0].f`."""
    found: list[DuplicateKey] = []
    stack: list[tuple[Iterator[Any], str, set[str] | None]] = []

    def enter(node: Node | None, path: str) -> None:
        if isinstance(node, MappingNode):
            stack.append((iter(node.value), path, set()))
        elif isinstance(node, SequenceNode):
            stack.append((iter(enumerate(node.value)), path, None))

    enter(root, "")
    while stack:
        entries, path, seen = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        if seen is None:
            index, value = entry
            enter(value, f"{path}[{index}]")
            continue
        key_node, value = entry
        key = str(key_node.value)
        child = f"{path}.{key}" if path else key
        if key in seen:
            mark = key_node.start_mark
            found.append(DuplicateKey(mark.line + 1, key, (mark.line + 1, mark.column + 1), child))
        seen.add(key)
        enter(value, child)
    return found
