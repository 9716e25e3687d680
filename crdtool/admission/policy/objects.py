"""The types a MutatingAdmissionPolicy's mutation expressions construct: `JSONPatch{op, path, from,
value}` and `Object{...}`, `Object.spec{...}`, ... (k8s.io/apiserver pkg/cel/mutation: jsonpatch.go,
typeresolver.go, dynamic/objects.go), and the `jsonpatch.escapeKey` function (pkg/cel/library/jsonpatch.go).

cel-go resolves them with a type resolver; the CEL engine here knows only protobuf messages and
declared functions, so:

* `JSONPatch` is a message with the string fields op, path and from and a JSON `value`: the checker
  types its fields as cel-go does, and `has()`, field access and equality behave as JSONPatchVal's
  (a string field is set when not empty).
* An `Object...` type accepts any field name, each field dyn. Each such literal is rewritten to a call
  of a function declared for its type name (`Object.spec{a: 1}` becomes `__crdtoolObject1(["a"],
  [dyn(1)])`), returning that type when checked and, when run, a map of the fields with the type name
  under TYPE_KEY. Compile errors are reported at the positions of the expression as written.

What the apiserver's ObjectVal would do and the rewrite cannot (an optional field `?a: ...`, reading a
field of a constructed Object) leaves the expression `unsupported`: never run here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from cel_expr_python import cel  # type: ignore[import-untyped]
from google.protobuf import descriptor_pb2  # type: ignore[import-untyped]

from crdtool.cel import admission as celadm
from crdtool.cel.errors import format_issues, parse_issues

__all__ = ["TYPE_KEY", "ConstructionError", "PatchTypes", "UnsupportedExpression", "object_value", "type_names"]

#: The key under which a constructed Object's map holds its type name (not a valid field name).
TYPE_KEY = "<crdtool:type>"
_FUNCTION = "__crdtoolObject"
_JSONPATCH_FILE = "crdtool/admission/jsonpatch.proto"
_NAME = re.compile(r"(?<![\w.])\.?\s*(Object(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\{")
_FIELD = re.compile(r"\s*(\?)?\s*([A-Za-z_]\w*|`[^`]*`)\s*:")
_STRING_START = re.compile(r"""(?:[bB][rR]?|[rR][bB]?)?(?:'''|\"\"\"|'|")""")


class UnsupportedExpression(Exception):
    """The expression uses what the rewrite cannot reproduce faithfully."""


class ConstructionError(Exception):
    """A constructed value the apiserver refuses: the text is its error."""


def type_names(expression: str) -> set[str]:
    """The `Object...` type names the expression constructs."""
    names: set[str] = set()
    for start, end in _code_spans(expression):
        for m in _NAME.finditer(expression, start, end):
            names.add(re.sub(r"\s+", "", m.group(1)))
    return names


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The spans of `text` outside string literals."""
    spans, i, start = [], 0, 0
    while i < len(text):
        m = _STRING_START.match(text, i) if text[i] in "'\"bBrR" else None
        if m is None or (m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
                         and text[i] not in "'\""):
            i += 1
            continue
        spans.append((start, i))
        i = _string_end(text, m)
        start = i
    spans.append((start, len(text)))
    return spans


def _string_end(text: str, m: re.Match[str]) -> int:
    """The offset after the string literal that `m` opens."""
    prefix = m.group(0)
    quote = prefix.lstrip("bBrR")
    raw = "r" in prefix.lower()
    i = m.end()
    while i < len(text):
        if not raw and text[i] == "\\":
            i += 2
            continue
        if text.startswith(quote, i):
            return i + len(quote)
        if len(quote) == 1 and text[i] in "\n\r":
            return i
        i += 1
    return len(text)


class _Rewriter:
    """One expression rewritten, with the offset in the original of every character written."""

    def __init__(self, source: str, functions: dict[str, str]) -> None:
        self.source, self.functions = source, functions
        self.out: list[str] = []
        self.origin: list[int] = []

    def emit(self, text: str, origin: int) -> None:
        self.out.append(text)
        self.origin.extend([origin] * len(text))

    def copy(self, start: int, end: int) -> None:
        self.out.append(self.source[start:end])
        self.origin.extend(range(start, end))

    def rewrite(self, start: int, end: int) -> None:
        """source[start:end] with every Object literal in it rewritten."""
        i = start
        while i < end:
            if self.source[i] in "'\"bBrR":
                m = _STRING_START.match(self.source, i)
                if m is not None and (self.source[i] in "'\"" or i == 0 or not _ident_char(self.source[i - 1])):
                    j = min(_string_end(self.source, m), end)
                    self.copy(i, j)
                    i = j
                    continue
            m = _NAME.match(self.source, i) if self.source[i] in ".O" else None
            if m is not None and (i == 0 or not (_ident_char(self.source[i - 1]) or self.source[i - 1] == ".")):
                i = self.literal(m, end)
                continue
            self.copy(i, i + 1)
            i += 1

    def literal(self, m: re.Match[str], end: int) -> int:
        """An Object literal rewritten as a call; the offset after its closing brace."""
        name = re.sub(r"\s+", "", m.group(1))
        close = _matching(self.source, m.end() - 1, end)
        keys: list[tuple[str, int]] = []
        values: list[tuple[int, int]] = []
        i = m.end()
        while True:
            field = _FIELD.match(self.source, i, close)
            if field is None:
                if self.source[i:close].strip(" \t\r\n,"):
                    self.copy(m.start(), m.end())  # not a literal of fields: the checker words the problem
                    return m.end()
                break
            if field.group(1) or field.group(2).startswith("`"):
                raise UnsupportedExpression("an optional or quoted field of an Object literal")
            value_end = _expression_end(self.source, field.end(), close)
            keys.append((field.group(2), field.start(2)))
            values.append((field.end(), value_end))
            i = value_end + 1 if value_end < close else close
        self.emit(f"{self.functions[name]}(", m.start())
        self.emit("[", m.start())
        for n, (key, at) in enumerate(keys):
            self.emit(f', "{key}"' if n else f'"{key}"', at)
        self.emit("]", m.start())
        self.emit(", [", m.start())
        for n, (a, b) in enumerate(values):
            self.emit(", dyn(" if n else "dyn(", a)
            self.rewrite(a, b)
            self.emit(")", b)
        self.emit("])", close)
        return close + 1


def _ident_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _matching(text: str, open_at: int, end: int) -> int:
    """The offset of the bracket closing the one at `open_at` (or `end` when unclosed)."""
    depth, i = 0, open_at
    while i < end:
        ch = text[i]
        m = _STRING_START.match(text, i) if ch in "'\"" else None
        if m is not None:
            i = _string_end(text, m)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return end


def _expression_end(text: str, start: int, end: int) -> int:
    """The offset of the comma or brace ending a field's value expression."""
    i = start
    while i < end:
        ch = text[i]
        if ch in "'\"":
            m = _STRING_START.match(text, i)
            if m is not None:
                i = _string_end(text, m)
                continue
        if ch in "([{":
            i = _matching(text, i, end) + 1
            continue
        if ch == ",":
            return i
        i += 1
    return end


def _position(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + column - 1


def _line_column(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


@cache
def _jsonpatch_file() -> descriptor_pb2.FileDescriptorProto:
    """JSONPatchType: op, path, from (strings) and value (any JSON value)."""
    proto = descriptor_pb2.FileDescriptorProto(name=_JSONPATCH_FILE, syntax="proto3",
                                               dependency=["google/protobuf/struct.proto"])
    message = proto.message_type.add(name="JSONPatch")
    field_type = descriptor_pb2.FieldDescriptorProto
    for number, name in enumerate(("op", "path", "from"), start=1):
        message.field.add(name=name, number=number, type=field_type.TYPE_STRING, label=field_type.LABEL_OPTIONAL)
    message.field.add(name="value", number=4, type=field_type.TYPE_MESSAGE, label=field_type.LABEL_OPTIONAL,
                      type_name=".google.protobuf.Value")
    return proto


def _escape_key(key: str) -> str:
    """jsonpatch.escapeKey: `~` as `~0`, `/` as `~1` (strings.NewReplacer, one pass)."""
    return key.replace("~", "~0").replace("/", "~1")


def _escape_decl() -> cel.FunctionDecl:
    return cel.FunctionDecl("jsonpatch.escapeKey", [cel.Overload(
        "string_jsonpatch_escapeKey_string", cel.Type.STRING, [cel.Type.STRING], False, _escape_key)])


class PatchTypes:
    """The patch types of one policy: a function per `Object...` type name its mutations construct."""

    def __init__(self, names: set[str]) -> None:
        self.names = sorted(names | {"Object"})
        self.by_name = {name: f"{_FUNCTION}{i}" for i, name in enumerate(self.names)}
        self._eval_env: cel.Env | None = None

    def descriptor_files(self) -> list[descriptor_pb2.FileDescriptorProto]:
        """JSONPatch, and a message per Object type name (nested messages: `Object.spec` is spec in Object)."""
        proto = descriptor_pb2.FileDescriptorProto(name="crdtool/admission/object.proto", syntax="proto3")
        messages: dict[str, Any] = {}
        for name in self.names:
            for prefix in _prefixes(name):
                if prefix not in messages:
                    up, _, part = prefix.rpartition(".")
                    holder = messages[up].nested_type if up else proto.message_type
                    messages[prefix] = holder.add(name=part)
        return [_jsonpatch_file(), proto]

    def functions(self) -> list[cel.FunctionDecl]:
        """For checking: each Object constructor returns its type; and jsonpatch.escapeKey."""
        keys, values = cel.Type.List(cel.Type.STRING), cel.Type.List(cel.Type.DYN)
        return [*(cel.FunctionDecl(function, [cel.Overload(f"{function}_new", cel.Type(name), [keys, values], False,
                                                            _unused)])
                  for name, function in self.by_name.items()), _escape_decl()]

    def eval_env(self) -> cel.Env:
        """For running: each Object constructor makes the map of its fields, with its type name."""
        if self._eval_env is None:
            lists = [cel.Type.List(cel.Type.DYN), cel.Type.List(cel.Type.DYN)]
            functions = [cel.FunctionDecl(function, [cel.Overload(f"{function}_new", cel.Type.DYN, lists, False,
                                                                   _constructor(name))])
                         for name, function in self.by_name.items()]
            self._eval_env = celadm.eval_env([_jsonpatch_file()], [*functions, _escape_decl()])
        return self._eval_env

    def rewrite(self, expression: str) -> tuple[str, Callable[[str], str]]:
        """The expression with its Object literals as calls, and the wording of its compile errors
        at the original positions. Raises UnsupportedExpression."""
        rewriter = _Rewriter(expression, self.by_name)
        rewriter.rewrite(0, len(expression))
        text = "".join(rewriter.out)
        origin = rewriter.origin

        def word(error: str) -> str:
            if re.search(r"not found in struct '(Object|JSONPatch)[.']", error):
                raise UnsupportedExpression("reads a field of a constructed Object")
            issues = parse_issues(error)
            for issue in issues:
                offset = _position(text, issue.line, issue.column)
                mapped = origin[offset] if 0 <= offset < len(origin) else len(expression)
                issue.line, issue.column = _line_column(expression, mapped)
            return format_issues(issues, expression)
        return text, word


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _unused(*_: Any) -> Any:
    raise ValueError("declared for checking only")


def _constructor(name: str) -> Callable[[list[Any], list[Any]], dict[str, Any]]:
    def construct(keys: list[Any], values: list[Any]) -> dict[str, Any]:
        return {TYPE_KEY: name, **dict(zip(keys, values, strict=True))}
    return construct


def object_value(value: Any, check: bool = True) -> Any:
    """A constructed value as the JSON the apiserver makes of it (ObjectVal.Value), after (when `check`)
    CheckTypeNamesMatchFieldPathNames: an Object's children must be named after its fields' paths.
    Raises ConstructionError with the apiserver's text."""
    errors: list[str] = []
    result = _plain(value, None, errors)
    if errors and check:
        raise ConstructionError("\n".join(errors))
    return result


def _plain(value: Any, path: list[str] | None, errors: list[str]) -> Any:
    if isinstance(value, dict) and TYPE_KEY in value:
        name = value[TYPE_KEY]
        path = path if path is not None else [name]
        if ".".join(path) != name:
            errors.append(f'unexpected type name "{name}", expected "{".".join(path)}", which matches field name '
                          "path from root Object type")
        return {k: _plain(v, [*path, k], errors) for k, v in value.items() if k != TYPE_KEY}
    if isinstance(value, dict):
        return {k: _plain(v, path, errors) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, path, errors) for v in value]
    return value
