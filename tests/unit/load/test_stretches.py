"""A stream's documents as stretches of its text (load.stretches): only the documents `--write`
changed are read back, and only where the `---` lines certainly tell them apart."""

from __future__ import annotations

import pytest

from crdtool.load import edit as edit_module
from crdtool.load import stretches as stretches_module
from crdtool.load.edit import edit_file
from crdtool.load.stretches import Stretches, runs
from crdtool.load.yamlreader import compose_documents, read_yaml_stream

MANY = "".join(f"---\n# object {i}\nkind: K\nmetadata:\n  name: n{i}\nspec:\n  a: {i}\n" for i in range(20))


@pytest.mark.parametrize(("text", "cuts"), [
    ("a: 1\n---\nb: 2\n", [0, 5, 14]),
    ("---\na: 1\n---\n", [0, 0, 9, 13]),
    ("# head\n---\na: 1\n", [0, 7, 16]),
    ("a: 1\r\n---\r\nb: 1", [0, 6, 15]),
    ("a: |\n  ---\n---b: 1\n", [0, 19]),  # neither an indented `---` nor `---b` opens a document
])
def test_documents_are_cut_at_their_marker_lines(text: str, cuts: list[int]) -> None:
    found = Stretches.of(text, compose_documents(text))
    assert found is not None and found.cuts == cuts


@pytest.mark.parametrize("text", [
    "%YAML 1.1\n---\na: 1\n",  # a directive
    "a: 1\n...\nb: 2\n",  # a document end, and a document without `---` after it
    "a: 1\r---\nb: 2\n",  # a line break `^` does not see
    "a: 1\n---\nb: \u2028x\n",
])
def test_no_stretches_where_a_cut_may_not_be_a_documents_edge(text: str) -> None:
    try:
        nodes = compose_documents(text)
    except Exception:  # noqa: BLE001 - some of these do not even read: no stretches either way
        nodes = []
    assert Stretches.of(text, nodes) is None


def test_comments_before_the_first_marker_are_no_document() -> None:
    text = "# only a comment\n---\na: 1\n---\nb: 2\n"
    found = Stretches.of(text, compose_documents(text))
    assert found is not None and found.first == 1


def test_only_the_changed_documents_are_read_back(monkeypatch) -> None:
    docs = [v for v, _, _ in read_yaml_stream(MANY)]
    after = {**docs[7], "spec": {"a": 77, "b": True}}  # a value written over: read back
    composed: list[str] = []

    def compose(text: str):
        composed.append(text)
        return compose_documents(text)

    monkeypatch.setattr(stretches_module, "compose_documents", compose)
    monkeypatch.setattr(edit_module, "compose_documents", compose)
    new, _ = edit_file(MANY, {7: (docs[7], after)})
    assert "  a: 77\n  b: true\n---\n# object 8" in new
    assert composed[-1] == "---\n# object 7\nkind: K\nmetadata:\n  name: n7\nspec:\n  a: 77\n  b: true\n"
    assert [v for v, _, _ in read_yaml_stream(new)] == [*docs[:7], after, *docs[8:]]


def test_a_change_that_adds_a_marker_line_is_read_whole() -> None:
    long = "b: " + "x" * 40 + "\n"
    text = "a: 1\n---\n" + long
    found = Stretches.of(text, compose_documents(text))
    assert found is not None
    assert found.read_back("a: 1\n---\nc: 3\n---\n" + long, [(5, 5, 5, 14)], {0}, set()) is None
    assert found.read_back("a: 1\nx: 0\n---\n" + long, [(5, 5, 5, 10)], {0}, set()) == {0: {"a": 1, "x": 0}}


def test_a_change_into_a_marker_line_is_read_whole() -> None:
    text = "a: 1\n---\nb: 2\n"
    found = Stretches.of(text, compose_documents(text))
    assert found is not None
    assert found.read_back("a: 1\nb: 2\n", [(5, 9, 5, 5)], {0}, set()) is None


def test_most_of_the_text_is_read_in_one_go() -> None:
    text = "a: 1\n---\nb: 2\n"
    found = Stretches.of(text, compose_documents(text))
    assert found is not None
    assert found.read_back("a: 1\n---\nb: 3\n", [(12, 13, 12, 13)], {0, 1}, set()) is None


def test_runs_of_consecutive_indexes() -> None:
    assert list(runs([0, 1, 2, 5, 7, 8])) == [(0, 2), (5, 5), (7, 8)]
    assert list(runs([])) == []
