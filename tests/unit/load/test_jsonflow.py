"""The linear JSON composer against libyaml: for JSON text, the same node trees, node for node (classes,
tags, values, styles, marks); for anything else, no trees (libyaml reads it)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from nodetrees import flat, libyaml_trees

from crdtool.load import yamlreader
from crdtool.load.jsonflow import TooDeep, compose_json_stream
from crdtool.load.yamlreader import DEPTH_MESSAGE, MAX_DEPTH, YAMLInputError, compose_documents

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "corpus"
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _assert_same_trees(text: str) -> None:
    """The linear composer's trees are libyaml's; JSON with an escaped surrogate (which libyaml refuses,
    as `json.dumps` escapes characters beyond the BMP) is left to libyaml."""
    linear = compose_json_stream(text, MAX_DEPTH)
    if SURROGATE_ESCAPE.search(text):
        assert linear is None
        with pytest.raises(yaml.YAMLError, match="invalid Unicode character escape code"):
            libyaml_trees(text)
        return
    assert linear is not None, "the text is a JSON stream"
    assert flat(linear) == flat(libyaml_trees(text))


def _deep(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for level in range(depth):
        value = {"a": value} if level % 3 else [value, {}]
    return value


NUMBERS = [0, -0.0, 1, -1, 1.5, -2.25e-7, 1e21, 123456789012345678901234567890, 9223372036854775808, 0.1,
           5e-324, 1.7976931348623157e308]
LITERAL_NUMBERS = ["0", "-0", "1E+2", "1e-7", "-1.0E400", "0.000", "12e0", "-9223372036854775809"]
STRINGS = ["", "plain", 'quote " and \\ backslash', "a/b", "\b\f\n\r\t", "\x01\x1f", "é ü ß", "日本語",
           "emoji 😀 and 𝄞", "\ufeff at the start", "\u00a0nbsp", "#", ": ", "- x", "---", "...", "&a *a !t",
           "{[,]}", "'single'", "trailing space ", "x" * 2000]


def _styles(value: Any) -> Iterator[str]:
    yield json.dumps(value)
    yield json.dumps(value, separators=(",", ":"))
    yield json.dumps(value, indent=2)
    yield json.dumps(value, indent="\t", ensure_ascii=False)
    yield json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True).replace("\n", "\r\n")


@pytest.mark.parametrize("value", [
    {}, [], {"a": {}}, [[]], [{}, [], {"": []}], NUMBERS, STRINGS, {s[:1000]: s for s in STRINGS},
    {"apiVersion": "v1", "kind": "K", "spec": {"n": NUMBERS, "s": STRINGS, "b": [True, False, None]}},
    _deep(150), _deep(1200, "leaf"), "a scalar root", 42, None, True,
], ids=lambda v: type(v).__name__)
def test_json_values_in_every_style_compose_as_libyaml_composes_them(value: Any) -> None:
    for text in _styles(value):
        _assert_same_trees(text)
        _assert_same_trees("\n\n  " + text + "  \n\n")


def test_numbers_of_every_shape_are_plain_scalars_spelled_as_written() -> None:
    text = "[" + ", ".join(LITERAL_NUMBERS + ["true", "false", "null"]) + "]"
    _assert_same_trees(text)
    _assert_same_trees(text.replace(", ", ",\n"))


def test_escapes_decode_as_yamls_double_quoted_escapes() -> None:
    _assert_same_trees(r'{"\u0041\u00e9\u65e5\"\\\/\b\f\n\r\t": "\u0000\u001f\u007F\uFFFD", "k": "a\/b"}')


@pytest.mark.parametrize("text", [
    '{"a": 1}\n---\n[2]\n', "---\n{}\n---\n[]", "---\n---\n{}\n---\n", "{}\n---", "{}\n---\n  ", "1\n---\n\"x\"\n",
    "---   \n{}\n---\n", "\n\n---\n{}", "", "\n  \n", "---\n", "{}\r\n---\r\n[1]\r\n---\r\n",
], ids=repr)
def test_streams_of_documents_and_empty_documents(text: str) -> None:
    _assert_same_trees(text)


def test_keys_up_to_libyamls_simple_key_reach() -> None:
    """libyaml takes a string for a key if its `:` is at most 1,024 characters on (and on its line);
    beyond, it refuses the JSON, and so the text is left to it."""
    for length, gap in ((1000, ""), (1022, ""), (1021, " ")):
        key = json.dumps("k" * length) + gap
        for text in ("{" + key + ":1}", '{"k" :1, ' + key + ": 2}", "[{" + key + ":[]}]"):
            _assert_same_trees(text)
    for length, gap in ((1023, ""), (1022, " ")):
        text = '{"k" :1, ' + json.dumps("k" * length) + gap + ": 2}"
        assert compose_json_stream(text, MAX_DEPTH) is None
        with pytest.raises(yaml.YAMLError, match="did not find expected ',' or '}'"):
            libyaml_trees(text)


@pytest.mark.parametrize("text", [
    json.dumps({"k" * 1023: 1}), '{"k" :1, ' + json.dumps("k" * 1022) + " :2}", '{"a"\n: 1}',  # beyond a key's reach
    "{a: 1}", "{'a': 1}", '{"a": b}', '{"a": 1,}', "[1,]", "[1 2]", '{"a" 1}', "[01]", "[1.]", "[.5]", "[+1]",
    "[NaN]", "[Infinity]", "[True]", '{"a": 1} # note', "&x {}", "!t {}", '{? "a": 1}', "[1]]", "[[1]", "{]",
    "...\n{}", "%YAML 1.1\n---\n{}", "--- {}", "---\t\n{}", "\t{}", "{}\n\t\n", '{"a":\t1}\t', '"a\tb"',
    '"\\ud83d\\ude00"', '"\\udc00"', '"\\x41"', '"\\e"', '"\\U0001F600"', "[\"\u2028\"]", "[\"\x85\"]",
    "[\"\x7f\"]", "[\"\ufffe\"]", '"a"\n"b"', "{}\n{}", '{"a": 1}\n---x\n{}', "  ---\n{}", "{}\r---\r{}",
], ids=repr)
def test_text_libyaml_reads_otherwise_or_refuses_is_left_tolibyaml_trees(text: str) -> None:
    """YAML beyond JSON, JSON that libyaml reads differently or refuses: not composed here, and
    compose_documents reads it as before."""
    assert compose_json_stream(text, MAX_DEPTH) is None
    deep = "[" * 400 + text.replace("\n", " ") + "]" * 400  # deep enough for the linear composer's turn
    try:
        expected: Any = flat(libyaml_trees(deep))
    except yaml.YAMLError as err:
        expected = str(yamlreader._syntax_error(err, deep))
    try:
        got: Any = flat(compose_documents(deep))
    except YAMLInputError as err:
        got = str(err)
    assert got == expected


@pytest.mark.parametrize(("text", "mark"), [
    ("[" * MAX_DEPTH + "]" * MAX_DEPTH, None),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), (0, MAX_DEPTH)),
    ("{}\n---\n" + '{"a": ' * 5000 + '[\n' * 5001 + "]" * 5001 + "}" * 5000, (5002, 0)),
], ids=["at-the-limit", "one-beyond", "second-document"])
def test_nesting_beyond_the_limit_is_refused_where_libyamls_events_meet_it(text: str, mark: Any) -> None:
    if mark is None:
        assert compose_json_stream(text, MAX_DEPTH) is not None
        return
    with pytest.raises(TooDeep) as err:
        compose_json_stream(text, MAX_DEPTH)
    assert (err.value.mark.line, err.value.mark.column) == mark
    with pytest.raises(YAMLInputError) as refused:
        compose_documents(text)
    assert (refused.value.message, refused.value.line, refused.value.column) == (DEPTH_MESSAGE, mark[0] + 1,
                                                                               mark[1] + 1)


def test_a_stream_that_is_json_only_up_to_a_point_is_left_tolibyaml_trees() -> None:
    """Too deep, but not JSON further on: libyaml (which reads ahead) decides which error comes first."""
    text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n---\n{a: 1}"
    assert compose_json_stream(text, MAX_DEPTH) is None


def _corpus_documents() -> list[Any]:
    """A sample of the corpus's CRDs and objects (every 80th file), and the repository's fixtures."""
    files = sorted(CORPUS.rglob("*.yaml"))[::80] + sorted((REPO / "fixtures").rglob("*.yaml"))
    docs = []
    for path in files:
        try:
            docs.extend(d for d in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
                        if d is not None)
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
    return docs


def test_corpus_documents_dumped_as_json_compose_as_libyaml_composes_them() -> None:
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    docs = [json.loads(json.dumps(d, default=str)) for d in _corpus_documents()]
    assert len(docs) > 100
    for style in range(5):
        stream = "---\n".join(list(_styles(d))[style] + "\n" for d in docs)
        _assert_same_trees(stream)
    _assert_same_trees("\n---\n".join(json.dumps({"nested": _deep(120, d)}) for d in docs[:40]))


def test_deep_json_composes_in_time_linear_in_its_length() -> None:
    """libyaml's scanner takes time in depth × tokens; this composer, in the length of the text alone:
    as long a stream of documents twenty times as deep takes about as long (libyaml: 16 times longer)."""
    timings = []
    for depth, count in ((250, 400), (5000, 20)):
        deep = '{"a": [1, ' * (depth // 2) + '"x"' + "]}" * (depth // 2)
        text = "\n---\n".join([json.dumps({"kind": "K", "spec": "DEEP"}).replace('"DEEP"', deep)] * count)
        start = time.process_time()
        assert len(compose_documents(text)) == count
        timings.append(time.process_time() - start)
    assert timings[1] < 3 * timings[0]


def test_a_streams_positions_are_not_composed_a_second_time(monkeypatch) -> None:
    """Reading a deep stream composes it; the positions of its findings reuse those nodes."""
    from crdtool.load import read_source

    texts: list[int] = []
    original = yamlreader.compose_json_stream
    monkeypatch.setattr(yamlreader, "compose_json_stream",
                        lambda text, max_depth: texts.append(len(text)) or original(text, max_depth))
    text = "\n---\n".join(json.dumps({"kind": "K", "n": i, "spec": _deep(300)}) for i in range(3))
    docs = read_source("deep.json", text)
    assert [d.locate(("n",)) for d in docs] == [(1, 15), (3, 15), (5, 15)]
    assert texts == [len(text)]
    assert [d.locate(("spec",)) for d in read_source("again.json", text)] == [(1, 23), (3, 23), (5, 23)]
    assert texts == [len(text)] * 2  # another reading composes again


def test_a_deep_yaml_streams_positions_are_not_composed_a_second_time(monkeypatch) -> None:
    """Deep YAML flow (not JSON) inside block YAML is libyaml's to read (at a cost that grows with the
    depth): its nodes too serve the positions of its findings."""
    from crdtool.load import read_source

    composed: list[int] = []
    original = yamlreader._compose_with_libyaml
    monkeypatch.setattr(yamlreader, "_compose_with_libyaml",
                        lambda text: composed.append(len(text)) or original(text))
    flow = json.dumps(_deep(300)).replace('"a"', "a")
    text = "\n---\n".join(f"kind: K\nn: {i}\nspec: {flow}" for i in range(3))
    docs = read_source("deep.yaml", text)
    assert [d.locate(("spec", "a")) for d in docs] == [(3, 8), (7, 8), (11, 8)]
    assert composed == [len(text)]
