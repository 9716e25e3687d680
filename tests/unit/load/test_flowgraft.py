"""Deep JSON values inside block YAML, grafted into libyaml's tree: node for node the trees libyaml
composes (classes, tags, values, styles, marks), in time linear in the text; where grafting is not
certain, libyaml reads the text, with the same trees or the same error."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest
import yaml
from nodetrees import flat, libyaml_trees

from crdtool.load import flowgraft, yamlreader
from crdtool.load.yamlreader import DEPTH_MESSAGE, MAX_DEPTH, YAMLInputError, compose_documents


def _deep(depth: int, leaf: Any = "x") -> str:
    """JSON nested `depth` levels, objects and arrays in turn."""
    value = leaf
    for level in range(depth):
        value = {"a": value, "n": level} if level % 2 else [value, level]
    return json.dumps(value)


DEEP = _deep(300)
YAML_FLOW = ("{a: " * 150 + "[x, -1, 1.5e+3, a_b.c-d, true, Null, {k : v,  m:\n  0}, w\n, z , 'it''s', ' a] ',"
             " {'k': 'v', 'q':1, \"r\":2}]" + "}" * 150)
SINGLE_QUOTED = "{'a': " * 300 + "''" + "}" * 300
MIXED = "[{a: " * 120 + '{"q": 1, r: "s"}' + "}]" * 120
DEEP_LINES = json.dumps(json.loads(_deep(240)), indent=1)  # a value over many lines


def _outcome(compose, text: str) -> Any:
    try:
        return flat(compose(text))
    except (YAMLInputError, yaml.YAMLError) as err:
        error = yamlreader._syntax_error(err, text) if isinstance(err, yaml.YAMLError) else err
        return (error.message, error.line, error.column)


def _grafted(monkeypatch, text: str) -> bool:
    """Whether compose_documents grafted the text's values (rather than leaving it all to libyaml)."""
    results: list[bool] = []
    original = flowgraft.compose_with_grafts

    def spy(*args: Any) -> Any:
        try:
            found = original(*args)
        except Exception:
            results.append(True)  # decided there: refused
            raise
        results.append(found is not None)
        return found

    monkeypatch.setattr(flowgraft, "compose_with_grafts", spy)
    with contextlib.suppress(YAMLInputError):
        compose_documents(text)
    return results == [True]


@pytest.mark.parametrize("text", [
    f"kind: K\nmetadata: {DEEP}\nspec:\n  a: 1\n",
    f"kind: K\nmetadata:   {DEEP}   # a comment\nspec: [1, {{a: b}}]\n",
    f"items:\n- {DEEP}\n-   {DEEP_LINES}\n- - - {DEEP}\n  - plain\n",
    f"{DEEP}\n---\nkind: K\nspec: {DEEP}\n---\n{DEEP_LINES}\n",
    f"a: &anchor {{b: 1}}\nc: *anchor\nd: {DEEP}\ne: *anchor\n",
    f"kind: K\r\nmetadata: {DEEP_LINES}\r\nspec: {DEEP}\r\n".replace("\n", "\r\n").replace("\r\r", "\r"),
    f"kind: K\rmetadata: {DEEP}\rspec: x\r",
    f"# héllo wörld 😀\nname: 'é'\nkey: \"日本\"\nvalue: {DEEP}\nafter: ü\n",
    f"a:\n  b:\n    c:\n      - d: {DEEP}\n        e: {DEEP}\n",
    f"a: {DEEP}\n...\n---\nb: {DEEP}\n",
    f"%YAML 1.1\n---\na: {DEEP}\n",
    f"- {DEEP_LINES}\n- x\n",
    f"kind: K\nmetadata: {YAML_FLOW}\nspec:\n- {MIXED}\n",
    f"a: {DEEP.replace(chr(34) + 'a' + chr(34), 'a')}\n",
    f"a: {SINGLE_QUOTED}\nb: {SINGLE_QUOTED}\n",
    f'{{"apiVersion": {DEEP}, "x": &fz {{"a": 1}}, "y": *fz}}\n---\n{{"k": [!!str x, {YAML_FLOW}]}}\n',
    f"a: [{{b: &x 1}}, {DEEP}, *x, {{c: {DEEP}}}]\n",
], ids=["mapping-value", "comment-after", "sequence-items", "roots-and-values", "aliases-around", "crlf", "cr",
        "non-ascii", "nested-block", "document-end", "directive", "multi-line-item", "yaml-flow", "plain-keys",
        "single-quoted", "inside-other-flow", "beside-anchors"])
def test_deep_json_values_in_block_documents_are_grafted_as_libyaml_composes_them(monkeypatch, text: str) -> None:
    assert _grafted(monkeypatch, text)
    assert flat(compose_documents(text)) == flat(libyaml_trees(text))


@pytest.mark.parametrize("text", [
    f"description: |\n  {DEEP}\nkind: K\n",                    # inside a block scalar
    f"kind: K\n# {DEEP}\n",                                      # inside a comment
    f"a: '{DEEP}'\n",                                            # inside a single-quoted string
    f"a: &x {DEEP}\nb: *x\n",                                    # anchored
    f"a: !!seq {DEEP}\n",                                        # tagged
    f"{DEEP}: value\n",                                          # a key
    *(f"a: {{b: {'[' * 250}{flow}{']' * 250}}}\n" for flow in (  # YAML flow beyond plain words and numbers
        "a b", "{a: b c}", "{a:b}", "a #c\n", "~", ".inf", "a\n b", '{"a":b:c}', "'s\n t'", "!t x", "&a x", "*a",
        "? a", "{a: }", "a:", "{a}", "a,", "<<", "-", "- a", "a\t", "{a:\tb}", "x]")),
    f"a: {DEEP}\nb: [1\n",                                       # a syntax error after it
    f"a: [1\nb: {DEEP}\n",                                       # a syntax error before it
    f"a: {DEEP[:-1]}\n",                                         # never closed
    f"a: {DEEP}x\n",                                             # text right after it
    f"a: {DEEP}\nb: \u2028\n",                                   # a line break libyaml counts alone
    f"\ufeffa: {DEEP}\n",                                        # a byte order mark
    f"a: {DEEP[:40]}\t{DEEP[40:]}\n",                            # a tab inside it
    f"a: {DEEP[:-3]}\n---\n{DEEP[-3:]}\n",                       # a document separator inside it
], ids=["block-scalar", "comment", "single-quoted", "anchored", "tagged", "key", "error-after",
        "error-before", "unclosed", "text-after", "line-separator", "bom", "tab", "separator-inside",
        *(f"yaml-flow-{i}" for i in range(23))])
def test_what_is_not_certainly_a_json_value_is_read_by_libyaml_alike(text: str) -> None:
    assert _outcome(compose_documents, text) == _outcome(libyaml_trees, text)


@pytest.mark.parametrize(("prefix", "depth"), [
    ("a: ", MAX_DEPTH - 1),                  # one level for the mapping, the value's levels: at the limit
    ("a: ", MAX_DEPTH),                      # one beyond
    ("x: 1\nb:\n  c:\n  - ", MAX_DEPTH - 2),  # beyond, two block levels above it
    ("", MAX_DEPTH + 1),                     # a root beyond
])
def test_nesting_beyond_the_limit_is_refused_where_the_event_composer_refuses_it(
        monkeypatch, prefix: str, depth: int) -> None:
    text = prefix + "[" * depth + "]" * depth + "\n---\nz: 1\n"
    assert _grafted(monkeypatch, text)
    expected = _outcome(libyaml_trees, text)
    assert _outcome(compose_documents, text) == expected
    assert (expected[0] == DEPTH_MESSAGE) == (depth > MAX_DEPTH - prefix.count(":") - prefix.count("-"))


def test_a_deep_block_document_composes_in_time_linear_in_its_length() -> None:
    """A document twenty times as deep, in as long a stream, takes about as long (libyaml: ~16× longer)."""
    timings = []
    for depth, count in ((250, 400), (5000, 20)):
        text = "".join(f"---\nkind: K\nmetadata: {_deep(depth)}\nspec: {{a: 1}}\n" for _ in range(count))
        start = time.process_time()
        assert len(compose_documents(text)) == count
        timings.append(time.process_time() - start)
    assert timings[1] < 3 * timings[0]


def test_positions_and_values_of_grafted_documents_are_read_once() -> None:
    """A finding deep inside a grafted value is located at its line and column in the file."""
    from crdtool.load import read_source

    text = f"kind: K\nmetadata:\n  name: n\nspec: {DEEP_LINES}\n"
    doc = read_source("deep.yaml", text)[0]
    assert (doc.data["spec"]["n"], doc.data["spec"]["a"][1]) == (239, 238)
    line = text.splitlines().index(' "n": 239') + 1
    assert doc.locate(("spec", "n")) == (line, 2)
    assert doc.locate(("metadata", "name")) == (3, 3)
