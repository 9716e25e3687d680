"""Hostile variants of Kubernetes documents, for the property tests and `benchmarks/fuzz.py`.

A document is mutated in two layers, as files go wrong in practice:
- its value (type swaps, deletions, huge numbers, odd strings, deep nesting, anchors and
  aliases, wrong `apiVersion`/`kind`/`metadata` types), then written out as YAML or JSON;
- its text (duplicated keys, truncation, stray YAML syntax, line endings, encodings).

Every choice is drawn from a `random.Random`, so one seed is one reproducible document, and
Hypothesis (whose `st.randoms()` is a shrinkable `Random`) can drive the same code.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

#: A raw token stands in a value and is replaced by verbatim text once the document is written:
#: how numbers Python cannot write (1e400), aliases, tags and flow nesting get into a file.
_RAW = "zzrawtoken{}zz"
_RAW_PATTERN = re.compile(r"""(["']?)zzrawtoken(\d+)zz\1""")

HUGE_NUMBERS = (
    "1e400", "-1e400", "1e-400", "1.0e+309", "4.9e-324", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "18446744073709551616", "0x7fffffffffffffff", "0o777", "0777", "0b1010", "1_000",
    ".inf", "-.inf", ".nan", ".NaN", "+1", "-0", "-0.0", "0.1e1", "1e3", "1E+3", "12e", "1__0",
)
YAML_ODDITIES = (
    "!!binary aGVsbG8=", "!!timestamp 2001-12-14t21:59:43.10-05:00", "2001-12-14", "!!set {a, b}",
    "!!omap [{a: 1}]", "!!python/object:os.system ls", "!custom x", "!!str", "!!int 12", "!!int x",
    "!!float x", "!!bool yes", "!!null ''", "yes", "no", "on", "off", "~", "null", "Null", "NULL",
    "? [a, b]", "{? a}", "[a, b]: c", "{a: 1}: 2", "<<: {a: 1}", "'", '"', "|", ">", "|-\n  x", "&", "*",
    "*undefined", "%", "@", "`", "#", "- x", "? x", "{", "[", "}", "]", ",",
)
ODD_STRINGS = (
    "", " ", "\x00", "a\x00b", "\x01\x02\x03\x1b[31m", "\x7f", "\x85", "\u2028\u2029", "\ufeff", "\ufffe", "\uffff",
    "\t", "\r", "\r\n", "\n\n", "\udc00", "\ud800", "x\udfffy", "\U0001f600", "e\u0301", "\u202eevil",
    "\u200b", "ǅ", "İ", "ß", "ﬁ", "０１２", "٣", "${HOME}", "$(x)", "{{ .Values.x }}", "%s%n", "../../etc/passwd",
    "C:\\x", "a" * 254, "a" * 64, "-", ".", "..", "a.b", "A", "-a-", "a_b", "0", "1.5", "true", "null",
    "1e400", "9" * 4301, "self.x > 0", "has(self.a)", ".spec..x", "{.spec}", "$.x", "[?(@.x)]",
)
LONG_LENGTHS = (253, 254, 255, 256, 1024, 65_536, 262_145, 1_048_577)
SWAP_VALUES: tuple[Any, ...] = (
    0, 1, -1, 1.5, -0.0, True, False, None, "", "x", "5", [], [1], ["a", None], {}, {"a": 1}, {"": None},
    [[[]]], {"a": {"b": {"c": []}}},
)
DEPTHS = (2, 64, 999, 1000, 1001, 3000, 9999, 10_001, 50_000)


@dataclass
class Mutant:
    """A mutated document: its bytes, its file suffix and what was done to it (for reports)."""

    data: bytes
    suffix: str
    steps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Scale:
    """Upper bounds on the sizes a mutation draws: the regular test run keeps to small ones."""

    entries: int = 100_000
    documents: int = 2000
    string: int = 1_048_577
    depth: int = 50_000


FULL = Scale()
SMALL = Scale(entries=1000, documents=100, string=65_536, depth=10_001)


class _Raw:
    """Collects raw tokens while a value is mutated; `render` puts them into the written text."""

    def __init__(self, scale: Scale = FULL) -> None:
        self.tokens: list[str] = []
        self.scale = scale

    def add(self, text: str) -> str:
        self.tokens.append(text)
        return _RAW.format(len(self.tokens) - 1)

    def render(self, text: str) -> str:
        return _RAW_PATTERN.sub(lambda m: self.tokens[int(m.group(2))], text)


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a node (mapping key or list index at each step), the root included."""
    found = [path]
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            found.append((*where, key))
            stack.append((child, (*where, key)))
    return found


def _parent(root: Any, path: tuple) -> Any:
    node = root
    for step in path[:-1]:
        node = node[step]
    return node


def _pick(rng: random.Random, root: Any) -> tuple | None:
    """A random non-root place, biased towards the top (where kind, metadata and spec live)."""
    places = _places(root)[1:]
    if not places:
        return None
    if rng.random() < 0.3:
        shallow = [p for p in places if len(p) <= 2]
        if shallow:
            return rng.choice(shallow)
    return rng.choice(places)


def _set(root: Any, path: tuple, value: Any) -> None:
    _parent(root, path)[path[-1]] = value


def _nested(rng: random.Random, raw: _Raw) -> str:
    depth = min(rng.choice(DEPTHS), raw.scale.depth)
    shape = rng.choice(("list", "map", "mixed", "json"))
    if shape == "list":
        return raw.add("[" * depth + "]" * depth)
    if shape == "map":
        return raw.add("{a: " * depth + "1" + "}" * depth)
    if shape == "json":
        return raw.add('{"a": ' * depth + "1" + "}" * depth)
    return raw.add("[{a: " * (depth // 2) + "1" + "}]" * (depth // 2))


def _odd_string(rng: random.Random, scale: Scale) -> str:
    roll = rng.random()
    if roll < 0.15:
        return rng.choice("abc.-_\u00e9\U0001f600\x00") * min(rng.choice(LONG_LENGTHS), scale.string)
    if roll < 0.3:
        return "".join(chr(rng.choice((rng.randrange(0, 0x80), rng.randrange(0, 0x110000)))) for _ in range(8))
    return rng.choice(ODD_STRINGS)


# -- value mutations: each takes (rng, root, raw) and returns a description, or None if it did nothing


def delete(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    del _parent(root, path)[path[-1]]
    return f"delete {path!r}"


def swap_type(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    _set(root, path, copy.deepcopy(rng.choice(SWAP_VALUES)))
    return f"swap type at {path!r}"


def huge_number(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    roll = rng.random()
    if roll < 0.3:
        digits = rng.choice((4300, 4301, 5000, 20_000))
        token = rng.choice(("", "-")) + "9" * digits + rng.choice(("", "", ".5", "e3"))
    else:
        token = rng.choice(HUGE_NUMBERS)
    _set(root, path, raw.add(token))
    return f"number {token[:20]!r} at {path!r}"


def odd_string(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    text = _odd_string(rng, raw.scale)
    parent = _parent(root, path)
    if isinstance(parent, dict) and rng.random() < 0.4:
        parent[text] = parent.pop(path[-1])
        return f"odd key at {path!r}"
    parent[path[-1]] = text
    return f"odd string at {path!r}"


def yaml_oddity(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    token = rng.choice(YAML_ODDITIES)
    _set(root, path, raw.add(token))
    return f"yaml {token!r} at {path!r}"


def deep(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    path = _pick(rng, root)
    if path is None:
        return None
    _set(root, path, _nested(rng, raw))
    return f"deep nesting at {path!r}"


def alias(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    """An anchor on one node and aliases (or merge keys) elsewhere, in any order: YAML only."""
    places = _places(root)[1:]
    if len(places) < 2:
        return None
    first, second = sorted(rng.sample(places, 2), key=len)
    if first == second[: len(first)]:
        return None
    target = _parent(root, first)[first[-1]]
    text = json.dumps(target, default=str)
    _set(root, first, raw.add(f"&fz {text}"))
    if isinstance(target, dict) and isinstance(_parent(root, second), dict) and rng.random() < 0.5:
        _parent(root, second)[raw.add("<<")] = raw.add("*fz")
    else:
        _set(root, second, raw.add(rng.choice(("*fz", "*fz", "[*fz, *fz, *fz]", "*nope"))))
    return f"alias {first!r} -> {second!r}"


def wrong_header(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    """apiVersion, kind or metadata (or a metadata field) of the wrong type or shape."""
    if not isinstance(root, dict):
        return None
    key = rng.choice(("apiVersion", "kind", "metadata", "metadata"))
    if key == "metadata" and isinstance(root.get("metadata"), dict) and rng.random() < 0.6:
        meta = root["metadata"]
        name = rng.choice(("name", "namespace", "generateName", "labels", "annotations", "finalizers",
                           "ownerReferences", "creationTimestamp", "managedFields", "uid", "resourceVersion"))
        odd = (raw.add(rng.choice(HUGE_NUMBERS)), _odd_string(rng, raw.scale))
        meta[name] = copy.deepcopy(rng.choice(SWAP_VALUES + odd))
        return f"metadata.{name} replaced"
    choices = SWAP_VALUES + tuple(raw.add(t) for t in ("0o777", "5", "1e400", "!!binary eA==", "*nope"))
    if key != "metadata":
        odd_string = _odd_string(rng, raw.scale)
        choices += ("v1", "/", "a/b/c", "apiextensions.k8s.io/v1", " CustomResourceDefinition", odd_string)
    root[key] = copy.deepcopy(rng.choice(choices))
    return f"{key} replaced"


def grow(rng: random.Random, root: Any, raw: _Raw) -> str | None:
    """A list or map made long: sizes near the limits the apiserver states (maxItems and such)."""
    path = _pick(rng, root)
    if path is None:
        return None
    size = min(rng.choices((1000, 10_001, 100_000), (12, 7, 1))[0], raw.scale.entries)
    if rng.random() < 0.5:
        value: Any = [rng.choice(("x", 1, None, {"a": 1})) for _ in range(size)]
    else:
        value = {f"k{i}": i for i in range(size)}
    _set(root, path, value)
    return f"{size} entries at {path!r}"


VALUE_MUTATIONS: tuple[Callable[[random.Random, Any, _Raw], str | None], ...] = (
    delete, swap_type, swap_type, huge_number, odd_string, odd_string, yaml_oddity, deep, alias, wrong_header,
    wrong_header, grow,
)


# -- text mutations: each takes (rng, text, is_json, raw) and returns the new text and a description


def duplicate_key(rng: random.Random, text: str, is_json: bool, raw: _Raw) -> tuple[str, str]:
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r'\s*(- )?"?[^\s"]+"?\s*:', line)]
    if not keyed:
        return text, "no key to duplicate"
    i = rng.choice(keyed)
    copy_line = re.sub(r"^(\s*)- ", r"\1  ", lines[i])
    head = copy_line.split(":", 1)[0]
    value = rng.choice(('"dup"', "0o777", "5", "null", "[]", "{}", "1e400", "true"))
    extra = f"{head}: {value}" + ("," if is_json else "")
    lines.insert(i + rng.choice((0, 1)), extra)
    return "\n".join(lines), f"duplicate key {head.strip()!r}"


def truncate(rng: random.Random, text: str, is_json: bool, raw: _Raw) -> tuple[str, str]:
    cut = rng.randrange(0, max(1, len(text)))
    return text[:cut], f"truncated at {cut}"


def splice(rng: random.Random, text: str, is_json: bool, raw: _Raw) -> tuple[str, str]:
    """Stray syntax at a random place: a separator, a directive, a tab, a quote, a control character."""
    piece = rng.choice(("\n---\n", "\n...\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "\t", "'", '"', "\\",
                        "\x00", "\x0c", "\r", "\ufeff", "\u2028", "\n- ", ": ", "{", "]", "&a ", "*a", "!!",
                        "\n---\n" * 1000, "#", "\\ud800", '"\\udc00"', "\\u0000"))
    at = rng.randrange(0, len(text) + 1)
    return text[:at] + piece + text[at:], f"spliced {piece[:8]!r} at {at}"


def line_endings(rng: random.Random, text: str, is_json: bool, raw: _Raw) -> tuple[str, str]:
    ending = rng.choice(("\r\n", "\r", "\n\n", "\u2028", "\x85"))
    return text.replace("\n", ending), f"line endings {ending!r}"


def documents(rng: random.Random, text: str, is_json: bool, raw: _Raw) -> tuple[str, str]:
    """The document repeated, or wrapped in empty ones: many documents in one file."""
    count = min(rng.choices((2, 3, 100, 2000), (8, 4, 4, 1))[0], max(2, 4_000_000 // max(1, len(text))),
                raw.scale.documents)
    return "\n---\n".join([text] * count) + rng.choice(("", "\n---\n", "\n---", "\n...\n")), f"{count} documents"


TEXT_MUTATIONS: tuple[Callable[[random.Random, str, bool, _Raw], tuple[str, str]], ...] = (
    duplicate_key, duplicate_key, truncate, splice, splice, line_endings, documents,
)


def _encode(rng: random.Random, text: str) -> tuple[bytes, str]:
    roll = rng.random()
    if roll < 0.9:
        return text.encode("utf-8", "surrogatepass"), ""
    if roll < 0.93:
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"), "UTF-8 BOM"
    if roll < 0.96:
        return text.encode("utf-16", "surrogatepass"), "UTF-16"
    raw = bytearray(text.encode("utf-8", "surrogatepass"))
    raw.insert(rng.randrange(0, len(raw) + 1), rng.choice((0xFF, 0xC0, 0x80, 0xED)))
    return bytes(raw), "invalid UTF-8 byte"


_PLAIN_SAFE = re.compile(r"[A-Za-z_/][A-Za-z0-9_./-]*")
_YAML11_WORDS = frozenset(
    w for word in ("y", "n", "yes", "no", "on", "off", "true", "false", "null")
    for w in (word, word.title(), word.upper())
)


def _scalar(value: Any, escape: bool) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN_SAFE.fullmatch(text) and text not in _YAML11_WORDS:
        return text
    return json.dumps(text, ensure_ascii=escape)


def _block_text(text: str) -> bool:
    """Whether a string can be written as a literal block scalar (`|-` or `|`) and read back the same."""
    if "\n" not in text or text[:1] in (" ", "\n") or text.endswith("\n\n"):
        return False
    return all(line.isprintable() and line == line.rstrip() for line in text.rstrip("\n").split("\n"))


def to_yaml(value: Any, indent: int = 2, escape: bool = False) -> str:
    """Block-style YAML as people write it, fast enough for megabyte CRDs (PyYAML's representer is not).

    Mapping keys and strings are plain where that reads back as the same string, JSON-quoted
    (a valid YAML double-quoted scalar) otherwise; multi-line text is a literal block.
    """
    out: list[str] = []
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        node, depth, lead = stack.pop()
        pad = " " * depth
        if isinstance(node, (dict, list)) and node:
            if lead.endswith(":"):  # a mapping's value: on the lines below its key
                out.append(lead)
                lead = pad
            if isinstance(node, dict):
                items = [(_scalar(key, escape) + ":", child, depth + indent) for key, child in node.items()]
            else:
                items = [("- ", child, depth + 2) for child in node]
            for i, (head, child, inner) in reversed(list(enumerate(items))):
                stack.append((child, inner, (lead if i == 0 else pad) + head))
            continue
        sep = " " if lead.endswith(":") else ""
        if isinstance(node, (dict, list)):
            out.append(f"{lead}{sep}{'{}' if isinstance(node, dict) else '[]'}")
        elif isinstance(node, str) and _block_text(node):
            out.append(f"{lead}{sep}|{'' if node.endswith(chr(10)) else '-'}")
            out.extend(pad + line if line else "" for line in node.rstrip("\n").split("\n"))
        else:
            out.append(f"{lead}{sep}{_scalar(node, escape)}")
    return "\n".join(out) + "\n"


def write(rng: random.Random, value: Any, raw: _Raw | None, as_json: bool) -> str:
    """The value as YAML or JSON text, raw tokens (if any) in place."""
    if as_json:
        text = json.dumps(value, indent=rng.choice((None, 1, 2)), ensure_ascii=rng.random() < 0.5, default=str)
    else:
        text = to_yaml(value, indent=rng.choice((2, 2, 4)), escape=rng.random() < 0.5)
    return raw.render(text) if raw else text


def mutate(rng: random.Random, value: Any, max_steps: int = 3, scale: Scale = FULL) -> Mutant:
    """One hostile variant of a parsed document (the value is not changed)."""
    root = json.loads(json.dumps(value))
    raw = _Raw(scale)
    steps = []
    for _ in range(rng.randint(1, max_steps)):
        if rng.random() < 0.75:
            done = rng.choice(VALUE_MUTATIONS)(rng, root, raw)
            if done:
                steps.append(done)
    as_json = rng.random() < 0.3
    text = write(rng, root, raw, as_json)
    if not steps or rng.random() < 0.4:
        text, done = rng.choice(TEXT_MUTATIONS)(rng, text, as_json, raw)
        steps.append(done)
    data, encoding = _encode(rng, text)
    if encoding:
        steps.append(encoding)
    return Mutant(data, ".json" if as_json else ".yaml", steps)


def load_documents(path: str) -> list[Any]:
    """The documents of a YAML or JSON file, read with libyaml (fast) where it exists."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.load_all(f, Loader=loader) if isinstance(d, dict)]
