"""The loader: go-yaml's scalar typing, positions, duplicate keys, and hostile input."""

from __future__ import annotations

import io
import os
import sys
import time

import pytest
import yaml

from crdtool.load import InputError, load_inputs, read_source, sources, yamlreader
from crdtool.load.document import DuplicateKey
from crdtool.load.gotyping import resolve_plain
from crdtool.load.yamlreader import DEPTH_MESSAGE, document_start_lines


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("yes", True), ("No", False), ("on", True), ("OFF", False), ("y", True), ("n", False),
        ("true", True), ("~", None), ("null", None), ("", None),
        ("12", 12), ("-3", -3), ("+7", 7), ("0777", 511), ("0x1F", 31), ("1_000", 1000), ("0b101", 5),
        ("08", 8), ("1.0", 1), ("1e3", 1000), ("1.5", 1.5), (".5", 0.5),
        ("9223372036854775807", 9223372036854775807), ("9223372036854775808", 9.223372036854775808e18),
        ("2001-12-14", "2001-12-14"), ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
        ("1:20", "1:20"), ("=", "="), ("0.1.2", "0.1.2"), ("v1", "v1"),
        # beyond float64 (and beyond Python's 4,300-digit int conversion): strconv fails, the scalar stays a string
        ("1" * 5000, "1" * 5000), ("1e400", "1e400"), ("-1e400", "-1e400"), ("0x" + "f" * 17, "0x" + "f" * 17),
        ("0b" + "1" * 2000, "0b" + "1" * 2000), ("0b", "0b"), ("1e-400", 0), ("1" * 300, float("1" * 300)),
        ("0x" + "0" * 40 + "ff", 255), ("0" * 30 + "7", 7), ("18446744073709551615", 1.8446744073709552e19),
    ],
)
def test_plain_scalars_are_typed_like_go_yaml(text: str, value: object) -> None:
    got = resolve_plain(text)
    assert got == value and type(got) is type(value)


def test_quoted_and_tagged_scalars_stay_strings() -> None:
    doc = read_source("x.yaml", 'a: "yes"\nb: !!str 12\nc: \'1.0\'\nd: !!int "7"\n')[0]
    assert doc.data == {"a": "yes", "b": "12", "c": "1.0", "d": 7}


def test_positions_point_at_keys_and_fall_back_to_ancestors() -> None:
    doc = read_source("x.yaml", "spec:\n  versions:\n  - name: v1\n    served: true\n")[0]
    assert doc.locate(("spec", "versions", 0, "served")) == (4, 5)
    assert doc.locate(("spec", "versions", 0, "missing")) == (3, 5)
    assert doc.locate(("spec",)) == (1, 1)


def test_json_documents_get_positions_lazily() -> None:
    doc = read_source("x.json", '{\n  "spec": {\n    "group": 1\n  }\n}\n')[0]
    assert doc.data == {"spec": {"group": 1}}
    assert doc.locate(("spec", "group")) == (3, 5)


def test_duplicate_keys_are_reported_like_strict_decoding() -> None:
    doc = read_source("x.yaml", "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n")[0]
    assert doc.data == {"a": 3, "b": {"c": 2}}
    assert doc.strict_duplicate_errors() == [
        'yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map']


def test_duplicate_key_lines_count_from_the_document_start() -> None:
    """go-yaml's line is the value's, within the document; the finding's position is the repeated key's."""
    docs = read_source("x.yaml", "a: 1\n---\nb: 1\nb:\n  2\n")
    assert docs[1].duplicate_keys == [DuplicateKey(3, "b", (4, 1))]
    assert docs[1].strict_position(docs[1].strict_duplicate_errors()[0]) == (4, 1)
    assert docs[1].strict_position('unknown field "x"') is None


def test_multi_document_streams_lists_and_empty_documents() -> None:
    text = "---\n---\nkind: A\n---\nkind: List\nitems:\n- kind: B\n- kind: C\n"
    docs = read_source("x.yaml", text)
    assert [(d.index, d.item, d.kind) for d in docs] == [(1, None, "A"), (2, 0, "B"), (2, 1, "C")]
    assert docs[2].locate(("kind",)) == (8, 3)


def test_merge_keys() -> None:
    doc = read_source("x.yaml", "base: &b {p: 1, q: 2}\nd:\n  <<: *b\n  q: 3\n")[0]
    assert doc.data["d"] == {"p": 1, "q": 3}


def test_bool_like_keys_become_strings() -> None:
    """sigs.k8s.io/yaml turns go-yaml's boolean and number keys into their JSON strings (`y` too)."""
    assert read_source("x.yaml", "on: 1\n3: 2\ny: 3\n")[0].data == {"true": 3, "3": 2}


def test_a_key_text_met_again_is_typed_as_written() -> None:
    """Plain key texts are typed once per document; a quoted `on` stays a string, a repeated one is a duplicate."""
    doc = read_source("x.yaml", 'y: 1\nm:\n  "y": 2\n  yes: 3\n  y: 4\n')[0]
    assert doc.data == {"true": 1, "m": {"y": 2, "true": 4}}
    assert doc.duplicate_keys == [DuplicateKey(5, "true", (5, 3))]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: [1, 2\n", "YAML syntax error"),
        ("a: b: c\n", "YAML syntax error"),
        ("a: " + "[" * 20000 + "]" * 20000 + "\n", "nesting deeper than 10000 levels"),
        ("- " * 20000 + "x\n", "nesting deeper than 10000 levels"),
    ],
    ids=["unclosed-flow", "mapping-in-scalar", "deep-flow", "deep-block"],
)
def test_unreadable_yaml_is_an_input_error_with_a_position(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        read_source("bad.yaml", text)
    assert message in str(err.value)
    assert str(err.value).startswith("bad.yaml:")



@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("a: 1\nb: *missing\n", (2, 4)),
        ("é: [ü, *zz]\n", (1, 8)),  # columns in characters
        ("a: &y 1\n---\nb: *y\n", (3, 4)),  # anchors do not reach into the next document
        ("a: " + "[" * 4000 + "*deep" + "]" * 4000 + "\n", (1, 4004)),  # composed from libyaml's events
    ],
    ids=["block", "flow-after-non-ascii", "next-document", "deep"],
)
def test_an_undefined_alias_is_named(text: str, position: tuple[int, int]) -> None:
    with pytest.raises(InputError) as err:
        read_source("bad.yaml", text)
    name = text.split("*")[1].split("]")[0].split("\n")[0]
    assert f"YAML syntax error: found undefined alias {name!r}" in str(err.value)
    assert (err.value.line, err.value.column) == position

@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("a: " + "[" * 10000 + "]" * 10000 + "\n", (1, 3 + 10000)),  # the mapping is level 1: the last `[` is 10,001
        ("- " * 10001 + "x\n", (1, 2 * 10000 + 1)),
        ("a:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(10000)), (10001, 10001)),
    ],
    ids=["flow", "compact-block", "indented-block"],
)
def test_too_deep_input_gets_crdtools_message_at_the_level_beyond_the_limit(text, position) -> None:
    with pytest.raises(InputError) as err:
        read_source("deep.yaml", text)
    assert (err.value.message, err.value.line, err.value.column) == (DEPTH_MESSAGE, *position)


@pytest.mark.parametrize(
    "text",
    ["a: " + "[" * 9999 + "]" * 9999 + "\n", "a: " + "{b: " * 2000 + "1" + "}" * 2000 + "\n",
     "a:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(1500))],
    ids=["flow-10000-levels", "flow-maps-2000", "indented-1500"],
)
def test_nesting_up_to_go_yamls_limit_is_read(text: str) -> None:
    """go-yaml reads 10,000 levels; a YAML parser's own lower limit must not refuse them."""
    assert read_source("deep.yaml", text)[0].data["a"] is not None


def test_a_parser_that_refuses_deep_input_in_its_own_words_is_overruled(monkeypatch) -> None:
    """Whatever the installed libyaml says about nesting, crdtool decides with its own limit."""
    from yaml import Mark
    from yaml.scanner import ScannerError

    def limited(text):
        mark = Mark("", 1002, 0, 1002, None, None)
        raise ScannerError("while scanning", None, "nesting beyond this parser's limit", mark)

    monkeypatch.setattr(yamlreader, "_compose_with_libyaml", limited)
    monkeypatch.delattr(yaml._yaml, "_set_max_nest_level", raising=False)  # a libyaml whose limit is unknown
    assert read_source("x.yaml", "a: " + "[" * 600 + "]" * 600 + "\n")[0].data["a"] is not None
    with pytest.raises(InputError, match="YAML syntax error: nesting beyond") as err:
        read_source("x.yaml", "a: [1]\n")  # shallow text: the parser's error is a syntax error
    assert (err.value.line, err.value.column) == (1, 1003)


def test_a_syntax_error_in_deep_text_is_libyamls_when_its_limit_is_known(monkeypatch) -> None:
    """With libyaml's nesting limit raised (or absent), its error is the text's own: the pure-Python
    parser, quadratic in the depth of flow sequences, is not run again on deep text."""
    if getattr(yaml._yaml, "_set_max_nest_level", None) is None:
        pytest.skip("this libyaml's nesting limit cannot be set: the pure-Python parser decides")

    def not_again(*args, **kwargs):
        raise AssertionError("the pure-Python parser ran")

    monkeypatch.setattr(yaml, "SafeLoader", not_again)
    with pytest.raises(InputError, match="YAML syntax error") as err:
        read_source("x.yaml", "a: " + "[" * 9000 + "\n'unterminated\n")
    assert err.value.line == 3


def test_many_documents_are_read_in_linear_time(tmp_path) -> None:
    """The documents' start lines are found in one pass (this took minutes when each was a scan)."""
    many = tmp_path / "many.yaml"
    many.write_text("".join(f"---\nkind: K\nmetadata:\n  name: n{i}\nx: 1\nx: 2\n" for i in range(50_000)))
    dashes = tmp_path / "dashes.yaml"
    dashes.write_text("---\n" * 200_000 + "kind: K\n")
    start = time.perf_counter()
    docs = load_inputs([str(many)])
    assert time.perf_counter() - start < 30
    assert len(docs) == 50_000 and docs[-1].locate(("x",)) == (300_000, 1)
    assert docs[-1].duplicate_keys == [DuplicateKey(5, "x", (300_000, 1))]
    start = time.perf_counter()
    assert [(d.index, d.locate(("kind",))) for d in load_inputs([str(dashes)])] == [(199_999, (200_001, 1))]
    assert time.perf_counter() - start < 30


def test_document_start_lines() -> None:
    assert document_start_lines("a: 1\n---\nb: 1\n--- c\n\n---\n") == [0, 2, 4, 6]


def test_alias_bomb_is_refused() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    with pytest.raises(InputError, match="excessive aliasing"):
        read_source("bomb.yaml", "\n".join(lines) + "\n")


def test_non_utf8_and_missing_files(tmp_path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"a: caf\xe9\n")
    with pytest.raises(InputError, match="not valid UTF-8") as err:
        load_inputs([str(bad)])
    assert ":1:7:" in str(err.value)
    with pytest.raises(InputError, match="no such file"):
        load_inputs([str(tmp_path / "nope.yaml")])


@pytest.mark.parametrize("chunk", [3, 1024 * 1024])
def test_an_input_is_read_whole_up_to_the_size_limit(tmp_path, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """A file by its size, a stream without one (stdin, a pipe) chunk by chunk: whole, or refused past the limit."""
    monkeypatch.setattr(sources, "MAX_INPUT_BYTES", 20)
    monkeypatch.setattr(sources, "_CHUNK", chunk)
    text = "kind: A\nx: 12345678\n"  # 20 bytes: at the limit
    path = tmp_path / "a.yaml"
    path.write_text(text)
    assert sources.read_text(str(path)) == text
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(text.encode()))))
    assert sources.read_text("-") == text
    path.write_text(text + "y")
    with pytest.raises(InputError, match="input larger than 0 MiB"):
        sources.read_text(str(path))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(text.encode() + b"y"))))
    with pytest.raises(InputError, match="input larger than 0 MiB"):
        sources.read_text("-")


def test_folders_are_walked_recursively_in_name_order(tmp_path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.yml").write_text("kind: X\n")
    (tmp_path / "a.json").write_text('{"kind": "A"}')
    (tmp_path / "notes.txt").write_text("kind: T\n")
    assert [d.kind for d in load_inputs([str(tmp_path)])] == ["A", "X"]


@pytest.mark.parametrize(("text", "what"), [("- a\n- b\n", "a list"), ("just text\n", "a string"), ("[1]", "a list")])
def test_a_document_must_be_an_object(text: str, what: str) -> None:
    with pytest.raises(InputError, match=f"but (document 0|the document) is {what}") as err:
        read_source("x.yaml", text)
    assert str(err.value).startswith("x.yaml:1:1: error:")


def test_an_empty_file_named_explicitly_is_an_error(tmp_path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing here\n")
    with pytest.raises(InputError, match="no objects found"):
        load_inputs([str(empty)])
    assert load_inputs([str(tmp_path)]) == []


def test_a_folder_walk_tells_what_it_passes_over(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text("kind: A\n")
    os.mkfifo(tmp_path / "b.yaml")
    os.mkfifo(tmp_path / "c.txt")  # not an input by its name: not mentioned
    told: list[tuple[str, str]] = []
    assert [d.kind for d in load_inputs([str(tmp_path)], skipped=lambda p, why: told.append((p, why)))] == ["A"]
    assert told == [(str(tmp_path / "b.yaml"), "not a regular file (a FIFO)")]


def test_a_lone_surrogate_escape_in_json_becomes_the_replacement_character() -> None:
    """Go's JSON reader replaces an escaped surrogate that is not half of a pair with U+FFFD."""
    doc = read_source("x.json", r'{"metadata": {"name": "\udc00x", "\ud800": ["\ud83d\ude00", "\\udc00"]}}')[0]
    assert doc.data == {"metadata": {"name": "\ufffdx", "\ufffd": ["\U0001f600", "\\udc00"]}}


@pytest.mark.parametrize("text", ["a: &x {<<: *x}\n", "a: &x\n  b: 1\n  <<: [*x]\n"])
def test_a_mapping_that_merges_itself_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError, match="merges the mapping that contains it") as err:
        read_source("x.yaml", text)
    assert err.value.line is not None


def test_a_merge_bomb_is_expanded_once_per_mapping() -> None:
    """Each level merges the one before twice: 2^26 expansions (minutes) unless each mapping's are kept."""
    text = "a0: &a0 {x0: 0}\n" + "".join(f"a{i}: &a{i}\n  <<: [*a{i - 1}, *a{i - 1}]\n  x{i}: {i}\n"
                                         for i in range(1, 27))
    start = time.perf_counter()
    doc = read_source("x.yaml", text)[0]
    assert doc.data["a26"] == {f"x{i}": i for i in range(27)}
    assert doc.locate(("a26", "x0")) == (1, 10)
    assert time.perf_counter() - start < 10


def test_json_duplicate_keys_are_named_by_path_as_the_apiservers_json_reader_names_them() -> None:
    """sigs.k8s.io/json: each repeated field once, in decoding order (a key, then its value), `a.b[0].c`."""
    text = '{"a": {"b": [{"c": 1, "c": 2}], "b": 3, "b": 4},\n "a": 5, "d": {"e": 1, "e": 2}}'
    doc = read_source("x.json", text)[0]
    assert doc.data == {"a": 5, "d": {"e": 2}}
    assert doc.strict_duplicate_errors() == ['duplicate field "a.b[0].c"', 'duplicate field "a.b"',
                                             'duplicate field "a"', 'duplicate field "d.e"']
    assert doc.strict_position('duplicate field "a.b"') == (1, 33)
    assert doc.strict_position('duplicate field "a"') == (2, 2)


def test_many_documents_with_brackets_keep_the_fast_composer(monkeypatch) -> None:
    """Brackets are counted per document: a stream of many flow-styled documents is composed by
    libyaml's composer, not node by node from events; a deep flow document among them still is."""
    calls: list[str] = []
    original = yamlreader._compose_events
    monkeypatch.setattr(yamlreader, "_compose_events", lambda events: calls.append("events") or original(events))
    many = "".join(f"---\nkind: K\nmetadata: {{name: n{i}, labels: {{a: b}}}}\nl: [[1], [2]]\n" for i in range(2000))
    assert len(read_source("many.yaml", many)) == 2000 and calls == []
    deep = many + "---\na: " + "[" * 4000 + "!!str x" + "]" * 4000 + "\n"  # flow libyaml alone reads
    assert read_source("deep.yaml", deep)[-1].data["a"] is not None and calls == ["events"]


@pytest.mark.parametrize(("items", "word"), [(5, "number"), ("x", "string"), (True, "bool"), ({"a": 1}, "object")])
def test_a_list_whose_items_are_not_a_list_is_kubectls_decoding_error(items, word) -> None:
    """unstructured helpers.go decodeToList reads items into []json.RawMessage."""
    from crdtool.load.sources import list_items_error

    assert list_items_error({"kind": "List", "items": items}) == (
        f"json: cannot unmarshal {word} into Go struct field decodeList.items of type []json.RawMessage")


@pytest.mark.parametrize("data", [{"kind": "List", "items": []}, {"kind": "List", "items": None}, {"kind": "List"},
                                  {"kind": "ConfigMap", "items": 5}, ["not", "an", "object"]])
def test_other_documents_have_no_list_decoding_error(data) -> None:
    from crdtool.load.sources import list_items_error

    assert list_items_error(data) is None


@pytest.mark.parametrize(("text", "may"), [
    ("- - - - x\n", True), ("? - ? -\t x\n", True), ("-\t-  - ?\n", True), ("- - - x\n", False),
    ("a: [b, {c: d}]\n", False), ("k: - - -\n", False),
])
def test_compact_runs_of_block_indicators_may_nest_deep(text: str, may: bool) -> None:
    """Compact `- - - -` or `? - ? -` runs nest without indentation: such text is composed without recursion."""
    assert yamlreader._may_nest_deeper_than(text, 3000) is may
