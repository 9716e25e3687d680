"""The node trees of a stream of JSON documents, composed in time linear in the text.

libyaml's scanner walks one entry per open flow collection for every token it reads (its check
for stale simple keys), so JSON nested thousands of levels deep costs depth × tokens: a 4 MB
stream of 3,000-deep documents took 15 s to compose. JSON is YAML, so for a stream that is strict
JSON (documents separated by `---` lines) this module builds, in one pass of a regular expression,
the very nodes libyaml's composer builds for it: the same classes, tags, values, styles and marks
(index, line and column: `--write` edits the text at them).

What libyaml would read differently from JSON, or refuse, is not composed here (`compose_json_stream`
gives None and libyaml reads the text): any character YAML does not allow in a stream or takes for a
line break (`\\x85`, U+2028, U+2029), an escaped surrogate, a tab outside a root collection, a key
whose `:` is on a later line or more than 1,024 characters on (libyaml no longer sees a key
there), and any text that is not JSON.
"""

from __future__ import annotations

import functools
import re
from json.decoder import scanstring as _scanstring  # type: ignore[attr-defined]
from typing import NamedTuple

from yaml._yaml import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

PLAIN_TAG = "!plain"  # an untagged plain scalar: typed later, by go-yaml's rules
STR_TAG = "tag:yaml.org,2002:str"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"

#: The name libyaml's marks carry for text given as a str.
_STREAM_NAME = "<unicode string>"
#: libyaml forgets a possible simple key once the scanner is this many characters past its start.
_SIMPLE_KEY_REACH = 1024

_STR = r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"'
#: A plain scalar of the kind YAML flow and JSON share (words, numbers): libyaml ends it where this ends,
#: when a blank, a line break, `,`, `]` or `}` follows (anything else: not read here).
_PLAIN_TEXT = r"-?[0-9A-Za-z_][0-9A-Za-z_.+-]*"
#: A single-quoted scalar on one line (YAML flow).
_SINGLE_QUOTED = r"'[^'\r\n]*(?:''[^'\r\n]*)*'"
#: A key: a JSON string, or (YAML flow) a single-quoted one or plain text whose `:` is followed by a blank.
_KEY_TEXT = rf"{_STR}|{_SINGLE_QUOTED}|{_PLAIN_TEXT}(?=[ \t]*:(?:[ \t\r\n]|\Z))"
_JSON_LITERAL = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null"
_STRING, _KEY, _OPEN_MAP, _OPEN_MAP_KEY, _OPEN_SEQ, _CLOSE, _COMMA, _COMMA_KEY, _PLAIN, _BREAK, _SEPARATOR, _END = (
    1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14)
#: One token with the blanks before it; a key is one token with its `:` (on its line, as libyaml needs),
#: and so are `{` and `,` with the key after them on their line, and a run of closing brackets.
_TOKEN = rf"""
    [ \t]*
    (?:
        ({_KEY_TEXT})(?:[ \t]*(:))?                                    # 1: a string; 2: a key
      | (\{{)(?:[ \t]*({_KEY_TEXT})[ \t]*(:))?                         # 3: `{{`; 4, 5: with its first key
      | (\[)                                                           # 6
      | ([}}\]]+)                                                      # 7: closing brackets
      | (,)(?:[ \t]*({_KEY_TEXT})[ \t]*(:))?                           # 8: `,`; 9, 10: with the next key
      | ({_PLAIN_TEXT})(?![^ \t\r\n,\]}}])                              # 11: a plain scalar
      | (\r\n|\r|\n)                                                   # 12: a line break
      | ^(---)[ ]*(?=[\r\n]|\Z)                                        # 13: a document separator line
      | (\Z)                                                           # 14: the end of the text
      | .                                                              # anything else: not JSON as read here
    )"""
#: Characters YAML does not allow in a stream, or reads as a line break where JSON does not.
_NOT_PLAIN_JSON = ("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
                   r"|\\u[dD][89a-fA-F]")


class _Patterns(NamedTuple):
    """The patterns above compiled, at the first text composed here: most runs compose none (deeply
    nested text is rare), and compiling them is some 5 ms of every run's start otherwise."""

    token: re.Pattern[str]
    json_literal: re.Pattern[str]
    not_plain_json: re.Pattern[str]


@functools.cache
def _patterns() -> _Patterns:
    return _Patterns(re.compile(_TOKEN, re.X | re.M | re.S), re.compile(_JSON_LITERAL), re.compile(_NOT_PLAIN_JSON))


# what the composer expects next
_ROOT, _AFTER_ROOT, _VALUE, _FIRST_VALUE, _KEY_NEXT, _FIRST_KEY, _NEXT = range(7)


class TooDeep(Exception):
    """The stream is JSON, and a collection in it opens more than `max_depth` levels deep (the first
    such, as libyaml's events meet it)."""

    def __init__(self, mark: Mark) -> None:
        super().__init__(f"nesting deeper than allowed at line {mark.line + 1}, column {mark.column + 1}")
        self.mark = mark


def compose_json_stream(text: str, max_depth: int) -> list[Node | None] | None:
    """The root node of every document of `text`, as libyaml's composer gives them, if the text is
    a stream of strict JSON documents separated by `---` lines that libyaml reads as JSON reads it;
    None otherwise (libyaml is then left to read it, or to say why it cannot).

    Raises TooDeep where nesting passes `max_depth`, as crdtool's event composer does (only once the
    whole text is known to be such a stream: before, libyaml could have refused something else first).
    """
    if _patterns().not_plain_json.search(text) is not None:
        return None
    try:
        roots, _, levels = _compose(text, 0, 0, 0, in_yaml=False)
    except _NotJSON:
        return None
    if len(levels) > max_depth:
        raise TooDeep(levels[max_depth])
    return roots


class FlowValue(NamedTuple):
    """A JSON collection composed inside other text: its node, where it ends, and the mark of the first
    collection opened at each level of it (its first, its own): as many as it nests deep."""

    node: Node
    end: int
    levels: list[Mark]


def compose_json_collection(text: str, start: int, line: int, line_start: int) -> FlowValue | int:
    """The node of the flow collection opening at `text[start]` inside YAML text (JSON, and YAML flow's
    plain words and numbers and one-line single-quoted scalars; `line` is libyaml's line number of
    `start`, `line_start` the index its column counts from), as libyaml composes it there; else the
    index where the text stops being what is read here (the collection is not composed).

    Its nesting is not limited here: where it is placed decides how deep it may go (`FlowValue.levels`).
    """
    try:
        roots, end, levels = _compose(text, start, line, line_start, in_yaml=True)
    except _NotJSON as err:
        return err.index
    found = _patterns().not_plain_json.search(text, start, end)
    if found is not None:
        return found.start()
    node = roots[0]
    assert node is not None, "a collection was composed"
    return FlowValue(node, end, levels)


class _NotJSON(Exception):
    """The text stops being JSON (as libyaml reads it) at `index`."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def _compose(text: str, pos: int, line: int, line_start: int, in_yaml: bool
             ) -> tuple[list[Node | None], int, list[Mark]]:
    """The roots composed from `text[pos:]`, the index after the last one, and the mark of the first
    collection opened at each level. `in_yaml`: compose the one collection opening at `pos` inside YAML
    text, where YAML flow's plain words and numbers and its one-line single-quoted scalars are read too
    (as values and keys), and stop after its closing bracket; else a stream of JSON documents. Raises
    _NotJSON."""

    def key_at(span: tuple[int, int]) -> ScalarNode:
        if text[span[0]] == '"':
            return _string(text, span, line, line_start)
        if not in_yaml:
            raise _NotJSON(span[0])
        return _plain(text, span, line, line_start) if text[span[0]] != "'" else _single(text, span, line, line_start)

    roots: list[Node | None] = []
    parents: list[tuple[Node | None, bool, Node | None]] = []  # the collections around `top`, as kept below
    top: Node | None = None  # the innermost open collection (None: at a document's root)
    top_map = False  # whether it is a mapping
    key: Node | None = None  # the mapping's key awaiting its value
    state = _ROOT
    explicit = False  # the current document began at a `---` line
    levels: list[Mark] = []
    name = _STREAM_NAME
    patterns = _patterns()
    json_literal = patterns.json_literal
    for m in patterns.token.finditer(text, pos):
        kind = m.lastindex
        if top is None and ("\t" in m.group() or in_yaml and m.start() != pos):
            raise _NotJSON(m.start())  # libyaml takes a tab at the start of a block-context line for content
        node: Node
        if kind in (_STRING, _KEY):
            node = key_at(m.span(1))
            if kind == _KEY:
                if state != _KEY_NEXT and state != _FIRST_KEY or m.start(2) - m.start(1) > _SIMPLE_KEY_REACH:
                    raise _NotJSON(m.start())  # not JSON; or a `:` libyaml no longer takes for a key's
                key = node
                state = _VALUE
                continue
        elif kind in (_OPEN_MAP, _OPEN_MAP_KEY, _OPEN_SEQ):
            start = m.start(kind if kind != _OPEN_MAP_KEY else _OPEN_MAP)
            mark = Mark(name, start, line, start - line_start, None, None)
            if len(parents) == len(levels):
                levels.append(mark)
            node = (SequenceNode(SEQ_TAG, [], mark, None, flow_style=True) if kind == _OPEN_SEQ  # type: ignore[arg-type]
                    else MappingNode(MAP_TAG, [], mark, None, flow_style=True))  # type: ignore[arg-type]
        elif kind == _CLOSE:
            for end in range(m.start(kind) + 1, m.end() + 1):
                closes_map = text[end - 1] == "}"
                if top is None or top_map != closes_map or not (
                        state == _NEXT or state == (_FIRST_KEY if top_map else _FIRST_VALUE)):
                    raise _NotJSON(end - 1)
                top.end_mark = Mark(name, end, line, end - line_start, None, None)
                top, top_map, key = parents.pop()
                state = _NEXT if top is not None else _AFTER_ROOT
                if in_yaml and top is None:
                    return roots, end, levels
            continue
        elif kind in (_COMMA, _COMMA_KEY):
            if state != _NEXT:
                raise _NotJSON(m.start())
            if kind == _COMMA:
                state = _KEY_NEXT if top_map else _VALUE
                continue
            if not top_map or m.start(_COMMA_KEY) - m.start(_COMMA_KEY - 1) > _SIMPLE_KEY_REACH:
                raise _NotJSON(m.start())
            key = key_at(m.span(_COMMA_KEY - 1))
            state = _VALUE
            continue
        elif kind == _PLAIN:
            if not in_yaml and json_literal.fullmatch(m.group(kind)) is None:
                raise _NotJSON(m.start(kind))
            node = _plain(text, m.span(kind), line, line_start)
        elif kind == _BREAK:
            line += 1
            line_start = m.end()
            continue
        elif kind in (_SEPARATOR, _END) and not in_yaml:
            if state == _ROOT and explicit:  # an empty document: libyaml's empty plain scalar at the next token
                start = m.start(kind)
                mark = _end_mark(start, line, line_start) if kind == _END else Mark(name, start, line, 0, None, None)
                roots.append(ScalarNode(PLAIN_TAG, "", mark, mark, style=""))  # type: ignore[arg-type]
            elif state != _ROOT and state != _AFTER_ROOT:
                raise _NotJSON(m.start())
            if kind == _END:
                break
            state, explicit = _ROOT, True
            continue
        else:
            raise _NotJSON(m.start())
        # a value: a scalar, or a collection just opened
        if top is None:
            if state != _ROOT:
                raise _NotJSON(m.start())
            roots.append(node)
        elif state in (_VALUE, _FIRST_VALUE):
            if top_map:
                top.value.append((key, node))
                key = None
            else:
                top.value.append(node)
        else:
            raise _NotJSON(m.start())
        if kind == _OPEN_MAP_KEY:
            parents.append((top, top_map, key))
            top, top_map = node, True
            if m.start(_OPEN_MAP_KEY) - m.start(_OPEN_MAP_KEY - 1) > _SIMPLE_KEY_REACH:
                raise _NotJSON(m.start())
            key = key_at(m.span(_OPEN_MAP_KEY - 1))
            state = _VALUE
        elif kind in (_OPEN_MAP, _OPEN_SEQ):
            parents.append((top, top_map, key))
            top, top_map, key = node, kind == _OPEN_MAP, None
            state = _FIRST_KEY if top_map else _FIRST_VALUE
        else:
            state = _NEXT if top is not None else _AFTER_ROOT
    if in_yaml:
        raise _NotJSON(len(text))  # the collection never closes
    return roots, len(text), levels


def _string(text: str, span: tuple[int, int], line: int, line_start: int) -> ScalarNode:
    """The node of a JSON string at `span` of a line: YAML's double-quoted escapes are JSON's (escaped
    surrogates aside, which are not composed here)."""
    start, end = span
    value = text[start + 1:end - 1]
    if "\\" in value:
        value = _scanstring(text, start + 1)[0]
    column = start - line_start
    return ScalarNode(STR_TAG, value, Mark(_STREAM_NAME, start, line, column, None, None),  # type: ignore[arg-type]
                      Mark(_STREAM_NAME, end, line, column + end - start, None, None), style='"')  # type: ignore[arg-type]


def _single(text: str, span: tuple[int, int], line: int, line_start: int) -> ScalarNode:
    """The node of a single-quoted scalar on one line (`''` is a quote)."""
    start, end = span
    column = start - line_start
    return ScalarNode(STR_TAG, text[start + 1:end - 1].replace("''", "'"),
                      Mark(_STREAM_NAME, start, line, column, None, None),  # type: ignore[arg-type]
                      Mark(_STREAM_NAME, end, line, column + end - start, None, None), style="'")  # type: ignore[arg-type]


def _plain(text: str, span: tuple[int, int], line: int, line_start: int) -> ScalarNode:
    """The node of a plain scalar at `span` of a line (its type is decided later, by go-yaml's rules)."""
    start, end = span
    column = start - line_start
    return ScalarNode(PLAIN_TAG, text[start:end], Mark(_STREAM_NAME, start, line, column, None, None),  # type: ignore[arg-type]
                      Mark(_STREAM_NAME, end, line, column + end - start, None, None), style="")  # type: ignore[arg-type]


def _end_mark(index: int, line: int, line_start: int) -> Mark:
    """libyaml's mark of the end of the stream: at the start of a line (a new one if the text does
    not end with a line break)."""
    return Mark(_STREAM_NAME, index, line if index == line_start else line + 1, 0, None, None)
