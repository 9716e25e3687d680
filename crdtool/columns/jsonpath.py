"""Kubernetes JSONPath: the client-go dialect that printer columns are written in.

`{.spec.replicas}`, `[n]`, `[start:end]`, `[*]`, `..` (recursive descent), `['key']`,
unions `[a,b]`, filters `[?(@.type=="Ready")]` (==, !=, <, >, <=, >= and existence),
`range`/`end`, quoted text. The apiserver parses a column's path once as `{<jsonPath>}`
with missing keys allowed, and takes the first value found; so does this module.

Evaluation follows client-go's rules where they show in a cell: a missing key yields
nothing; an index out of bounds, indexing a non-list, or a filter comparing values of
different types is an error (the cell is empty); a filter whose left side finds nothing
is an error too ("can only compare one element at a time"). Where Go iterates a map in
random order (wildcards, recursive descent), the document's order is used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from crdtool.model.gofmt import go_json, go_type_name, go_value


class JSONPathError(ValueError):
    """A path that does not parse, or an evaluation error (client-go's texts)."""


# ---------------------------------------------------------------- nodes
@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Field:
    name: str


@dataclass(frozen=True, slots=True)
class Wildcard:
    pass


@dataclass(frozen=True, slots=True)
class Recursive:
    pass


@dataclass(frozen=True, slots=True)
class Slice:
    """`[start:end:step]`; a plain index `[n]` is start n with the end derived as n+1."""

    start: int | None
    end: int | None
    step: int | None
    index: bool = False


@dataclass(frozen=True, slots=True)
class Union:
    branches: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True, slots=True)
class Filter:
    left: tuple[Any, ...]
    right: tuple[Any, ...]
    operator: str  # "exists" or a comparison


@dataclass(frozen=True, slots=True)
class Number:
    value: int | float


@dataclass(frozen=True, slots=True)
class Boolean:
    value: bool


@dataclass(frozen=True, slots=True)
class Identifier:
    name: str  # range / end


# ---------------------------------------------------------------- parsing
_DICT_KEY = re.compile(r"^'([^']*)'$")
_SLICE = re.compile(r"^(-?\d*)(:-?\d*)?(:-?\d*)?$")
_FILTER = re.compile(r"^([^!<>=]+)([!<>=]+)(.+?)$", re.S)
_TERMINATORS = frozenset(" \t\r\n.,[]$@{}")


def _is_alnum(ch: str) -> bool:
    return ch == "_" or ch.isalpha() or ch.isdigit()


class _Parser:
    """client-go's template parser: text outside `{...}`, actions inside."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.start = 0
        self.root: list[Any] = []  # items: Text or a list of nodes (one action)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def next(self) -> str:
        ch = self.peek()
        if ch:
            self.pos += 1
        return ch

    def consume(self) -> str:
        value = self.text[self.start:self.pos]
        self.start = self.pos
        return value

    def parse(self) -> list[Any]:
        while True:
            brace = self.text.find("{", self.pos)
            if brace < 0:
                if len(self.text) > self.start:
                    self.root.append(Text(self.text[self.start:]))
                return self.root
            self.pos = brace
            if self.pos > self.start:
                self.root.append(Text(self.consume()))
            self.pos += 1
            self.consume()
            action: list[Any] = []
            self.root.append(action)
            self._inside(action)

    def _inside(self, cur: list[Any]) -> None:
        while True:
            rest = self.text[self.pos:]
            if rest.startswith("}"):
                self.pos += 1
                self.consume()
                return
            if rest.startswith("[?("):
                self._filter(cur)
                continue
            if rest.startswith(".."):
                if cur and isinstance(cur[-1], Recursive):
                    raise JSONPathError("invalid multiple recursive descent")
                self.pos += 2
                self.consume()
                cur.append(Recursive())
                if _is_alnum(self.peek()):
                    self._field(cur)
                continue
            ch = self.next()
            if ch == "" or ch in "\r\n":
                raise JSONPathError("unclosed action")
            if ch in " @$":
                self.consume()
            elif ch == "[":
                self._array(cur)
            elif ch in "\"'":
                self._quote(cur, ch)
            elif ch == ".":
                self._field(cur)
            elif ch in "+-" or ch.isdigit():
                self.pos -= 1
                self._number(cur)
            elif _is_alnum(ch):
                self.pos -= 1
                self._identifier(cur)
            else:
                raise JSONPathError(f"unrecognized character in action: U+{ord(ch):04X} {ch!r}")

    def _field(self, cur: list[Any]) -> None:
        self.consume()
        while True:
            ch = self.peek()
            if ch == "\\":
                self.pos += 1
                self.next()
                continue
            if ch == "" or ch in _TERMINATORS:
                break
            self.pos += 1
        value = self.consume()
        cur.append(Wildcard() if value == "*" else Field(value.replace("\\", "")))

    def _identifier(self, cur: list[Any]) -> None:
        while self.peek() and self.peek() not in _TERMINATORS:
            self.pos += 1
        value = self.consume()
        cur.append(Boolean(value == "true") if value in ("true", "false") else Identifier(value))

    def _number(self, cur: list[Any]) -> None:
        if self.peek() in ("+", "-"):
            self.pos += 1
        while self.peek() and (self.peek() == "." or self.peek().isdigit()):
            self.pos += 1
        value = self.consume()
        try:
            cur.append(Number(int(value, 10)))
            return
        except ValueError:
            pass
        try:
            cur.append(Number(float(value)))
        except ValueError:
            raise JSONPathError(f"cannot parse number {value}") from None

    def _quote(self, cur: list[Any], quote: str) -> None:
        while True:
            ch = self.next()
            if ch == "" or ch == "\n":
                raise JSONPathError("unterminated quoted string")
            if ch == quote and self.text[self.pos - 2] != "\\":
                break
        value = self.consume()
        cur.append(Text(_unquote(value)))

    def _array(self, cur: list[Any]) -> None:
        while True:
            ch = self.next()
            if ch == "" or ch == "\n":
                raise JSONPathError("unterminated array")
            if ch == "]":
                break
        text = self.consume()[1:-1]
        if text == "*":
            text = ":"
        parts = text.split(",")
        if len(parts) > 1:
            cur.append(Union(tuple(tuple(_action(f"[{p.strip(' ')}]")) for p in parts)))
            return
        key = _DICT_KEY.match(text)
        if key:
            cur.extend(_action("." + key.group(1)))
            return
        m = _SLICE.match(text)
        if m is None:
            raise JSONPathError(f"invalid array index {text}")
        start_text, end_text, step_text = m.group(1), m.group(2), m.group(3)
        try:
            start = int(start_text) if start_text else None
            end = int(end_text[1:]) if end_text and end_text[1:] else None
            step = int(step_text[1:]) if step_text and step_text[1:] else None
        except ValueError:
            raise JSONPathError(f"array index {text} is not a number") from None
        cur.append(Slice(start, end, step, index=end_text is None))

    def _filter(self, cur: list[Any]) -> None:
        self.pos += 3
        self.consume()
        begin = end = False
        pair = ""
        while True:
            ch = self.next()
            if ch == "" or ch == "\n":
                raise JSONPathError("unterminated filter")
            if ch in "\"'":
                if not begin:
                    begin, pair = True, ch
                    continue
                if self.text[self.pos - 2] != "\\" and ch == pair:
                    end = True
            elif ch == ")" and begin == end:
                break
        if self.next() != "]":
            raise JSONPathError("unclosed array expect ]")
        text = self.consume()[:-2]
        m = _FILTER.match(text)
        if m is None:
            cur.append(Filter(tuple(_action(text)), (), "exists"))
        else:
            cur.append(Filter(tuple(_action(m.group(1))), tuple(_action(m.group(3))), m.group(2)))


def _action(text: str) -> list[Any]:
    """The nodes of one action, as client-go parses a nested `{text}`."""
    action: list[Any] = _Parser("{" + text + "}").parse()[0]
    return action


_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
                   "'": "'", '"': '"'}


def _unquote(value: str) -> str:
    """Go's strconv.Unquote, accepting single-quoted strings too."""
    body = value[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1] if i + 1 < len(body) else ""
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
            i += 2
        elif esc in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[esc]
            digits = body[i + 2:i + 2 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise JSONPathError(f"unquote string {value} error invalid syntax")
            out.append(chr(int(digits, 16)))
            i += 2 + width
        elif esc in "01234567":
            digits = body[i + 1:i + 4]
            out.append(chr(int(digits, 8)))
            i += 4
        else:
            raise JSONPathError(f"unquote string {value} error invalid syntax")
    return "".join(out)


# ---------------------------------------------------------------- evaluation
class JSONPath:
    """A parsed template; `find` returns each action's values, as client-go's FindResults."""

    def __init__(self, template: str) -> None:
        self.template = template
        self.parts = _Parser(template).parse()

    @classmethod
    def column(cls, json_path: str) -> JSONPath:
        """A printer column's path, as the apiserver's table convertor parses it."""
        return cls("{" + json_path + "}")

    def find(self, data: Any) -> list[list[Any]]:
        results: list[list[Any]] = []
        _Runner(results).run(self.parts, data)
        return results

    def first(self, data: Any) -> Any:
        """The first value of the first action, as a printer column takes it; LookupError when
        there is none (nothing found, or an evaluation error: the cell is empty either way)."""
        try:
            parts = self.parts
            if len(parts) == 1 and isinstance(parts[0], list) and not (
                    parts[0] and isinstance(parts[0][0], Identifier)):
                return next(_walk_for_first([data], parts[0]))
            found = self.find(data)
        except JSONPathError as err:
            raise LookupError(str(err)) from None
        except StopIteration:
            raise LookupError("no result") from None
        if not found or not found[0]:
            raise LookupError("no result")
        return found[0][0]


class _Runner:
    """Walks the parts; `range ... end` repeats the nodes between them for each value."""

    def __init__(self, results: list[list[Any]]) -> None:
        self.results = results

    def run(self, parts: list[Any], data: Any) -> None:
        items: list[tuple[list[Any], bool]] = []
        for part in parts:
            if isinstance(part, Text):
                items.append(([part], False))
            else:
                items.append((part, True))
        self._run_items(items, data)

    def _run_items(self, items: list[tuple[list[Any], bool]], data: Any) -> None:
        i = 0
        while i < len(items):
            nodes, is_action = items[i]
            if not is_action:
                self.results.append([nodes[0].text])
                i += 1
                continue
            if nodes and isinstance(nodes[0], Identifier) and nodes[0].name == "range":
                values = _walk([data], nodes[1:])
                depth, j = 1, i + 1
                while j < len(items):
                    body, act = items[j]
                    if act and body and isinstance(body[0], Identifier):
                        depth += {"range": 1, "end": -1}.get(body[0].name, 0)
                        if depth == 0:
                            break
                    j += 1
                for value in values:
                    self._run_items(items[i + 1:j], value)
                i = j + 1
                continue
            if nodes and isinstance(nodes[0], Identifier):
                if nodes[0].name == "end":
                    raise JSONPathError("not in range, nothing to end")
                raise JSONPathError(f"unrecognized identifier {nodes[0].name}")
            self.results.append(_walk([data], nodes))
            i += 1


def _walk(values: list[Any], nodes: list[Any] | tuple[Any, ...]) -> list[Any]:
    for node in nodes:
        values = _step(values, node)
    return values


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        return list(value.encode())  # Go indexes a string's bytes
    return []


def _step(values: list[Any], node: Any) -> list[Any]:
    if isinstance(node, Field):
        found = [v[node.name] for v in values if isinstance(v, dict) and node.name in v]
        return found
    if isinstance(node, Text):
        return [node.text]
    if isinstance(node, Number):
        return [node.value for _ in values]
    if isinstance(node, Boolean):
        return [node.value for _ in values]
    if isinstance(node, Wildcard):
        return [c for v in values if v is not None for c in _children(v)]
    if isinstance(node, Recursive):
        return _recursive(values)
    if isinstance(node, Slice):
        return _slice(values, node)
    if isinstance(node, Union):
        return [x for branch in node.branches for x in _walk(values, branch)]
    if isinstance(node, Filter):
        return _filter(values, node)
    if isinstance(node, Identifier):
        raise JSONPathError(f"unrecognized identifier {node.name}")
    raise JSONPathError(f"unexpected Node {node}")


def _recursive(values: list[Any]) -> list[Any]:
    return list(_descend(values))


def _descend(values: Iterable[Any], once: bool = False) -> Iterator[Any]:
    """client-go's evalRecursive: each value that has children, then (recursively) its children's,
    in order; without recursion, in time linear in the size of the values. With `once`, a list or
    map already given (with all below it) is passed over when met again: when the values overlap
    (`a..b..c`, whose client-go result has a quadratic number of repeats), a consumer that looks
    for a first match and found none in it will find none again."""
    seen: set[int] = set()
    stack = [iter(values)]
    while stack:
        for value in stack[-1]:
            if isinstance(value, (dict, list)):
                if value and not (once and id(value) in seen):
                    if once:
                        seen.add(id(value))
                    yield value
                    stack.append(iter(value.values() if isinstance(value, dict) else value))
                    break
            elif isinstance(value, str) and value:  # its children are bytes: none of them has any
                yield value
        else:
            stack.pop()


#: The steps that cannot fail, each a map of every value on its own: evaluated lazily after the
#: last step that can fail, since a printer column wants only the first value found.
_LAZY_STEPS = (Field, Wildcard, Recursive, Number, Boolean)


def _walk_for_first(values: list[Any], nodes: list[Any]) -> Iterator[Any]:
    """The values `_walk` finds, as an iterator: the steps up to the last that can fail (whose
    error must be seen) eagerly, the rest lazily, in the same order."""
    split = len(nodes)
    while split and isinstance(nodes[split - 1], _LAZY_STEPS):
        split -= 1
    found: Iterable[Any] = _walk(values, nodes[:split])
    for node in nodes[split:]:
        found = _lazy_step(found, node)
    return iter(found)


def _lazy_step(values: Iterable[Any], node: Any) -> Iterator[Any]:
    if isinstance(node, Field):
        name = node.name
        return (v[name] for v in values if isinstance(v, dict) and name in v)
    if isinstance(node, Wildcard):
        return (c for v in values if v is not None for c in _children(v))
    if isinstance(node, Recursive):
        return _descend(values, once=True)
    return (node.value for _ in values)  # Number, Boolean


def _slice(values: list[Any], node: Slice) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value is None:
            continue
        if not isinstance(value, list):
            raise JSONPathError(f"{go_type_name(value)} is not array or slice")
        length = len(value)
        start = node.start if node.start is not None else 0
        if start < 0:
            start += length
        if node.index:
            end = start + 1
        else:
            end = node.end if node.end is not None else length
            if end < 0:
                end += length
        if end != start:
            if start >= length or start < 0:
                raise JSONPathError(f"array index out of bounds: index {start}, length {length}")
            if end > length:
                raise JSONPathError(f"array index out of bounds: index {end - 1}, length {length}")
        if end < start:
            raise JSONPathError(f"slice bounds out of range [{start}:{end}]")
        if node.step is not None and not end <= node.step <= length:
            # Go's reflect Slice3: the third number is a capacity, not a step.
            raise JSONPathError(f"slice bounds out of range [::{node.step}] with capacity {length}")
        out.extend(value[start:end])
    return out


_ORDERED = {"<", ">", "<=", ">="}


def _basic_kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return None


def _compare(left: Any, right: Any, operator: str) -> bool:
    """Go template's eq/ne/lt/... over JSON values: same basic kind only."""
    lk, rk = _basic_kind(left), _basic_kind(right)
    if lk is None or rk is None:
        raise JSONPathError("invalid type for comparison")
    if lk != rk:
        raise JSONPathError("incompatible types for comparison")
    if operator == "==":
        return bool(left == right)
    if operator == "!=":
        return bool(left != right)
    if lk == "bool":
        raise JSONPathError("invalid type for comparison")
    if operator == "<":
        return bool(left < right)
    if operator == ">":
        return bool(left > right)
    if operator == "<=":
        return bool(left <= right)
    if operator == ">=":
        return bool(left >= right)
    raise JSONPathError(f"unrecognized filter operator {operator}")


def _filter(values: list[Any], node: Filter) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if not isinstance(value, list):
            raise JSONPathError(f"{go_value(value)} is not array or slice and cannot be filtered")
        for item in value:
            lefts = _walk([item], node.left)
            if node.operator == "exists":
                if lefts:
                    out.append(item)
                continue
            if len(lefts) != 1:
                raise JSONPathError("can only compare one element at a time")
            rights = _walk([item], node.right)
            if len(rights) != 1:
                raise JSONPathError("can only compare one element at a time")
            if _compare(lefts[0], rights[0], node.operator):
                out.append(item)
    return out


# ---------------------------------------------------------------- printing
def print_results(values: list[Any]) -> str:
    """client-go's PrintResults: lists and maps as compact JSON, anything else as text, space-separated."""
    texts = []
    for value in values:
        if isinstance(value, (dict, list)):
            texts.append(go_json(value))
        elif value is None:
            texts.append("<no value>")  # Go's template.PrintableValue of a nil interface
        else:
            texts.append(go_value(value))
    return " ".join(texts)

