"""When entries appended to a block mapping need no read-back (load.appends), and that `--write`
then reads nothing back (load.edit)."""

from __future__ import annotations

import pytest
from yaml.nodes import MappingNode

from crdtool.load import edit as edit_module
from crdtool.load.appends import AppendReader, begins_entry, deepest_first, ends_cleanly
from crdtool.load.edit import edit_file
from crdtool.load.yamlreader import compose_documents, read_yaml_stream


@pytest.mark.parametrize(("line", "begins"), [
    ("a: 1", True), ("  a: 1", True), ("- a: 1", True), ("  - - a: 1", True),
    ("? a: 1", False), ("--- a: 1", False), ("-\ta: 1", False), ("x: a: 1", False),
])
def test_a_first_key_begins_its_entry_after_indentation_and_dashes_only(line: str, begins: bool) -> None:
    assert begins_entry(line, 0, line.index("a:")) is begins


def test_appends_at_one_place_go_deepest_first() -> None:
    assert deepest_first([(10, 4), (10, 2), (20, 2), (10, 0)])
    assert not deepest_first([(10, 2), (10, 4)])
    assert not deepest_first([(10, 2), (10, 2)])


def _mapping(text: str, *path: str) -> MappingNode:
    node = compose_documents(text)[0]
    for key in path:
        assert isinstance(node, MappingNode)
        node = next(v for k, v in node.value if k.value == key)
    assert isinstance(node, MappingNode)
    return node


@pytest.mark.parametrize(("text", "clean"), [
    ("k:\n  x: 1\n", True),
    ("k:\n  x: |\n    text\n", True),
    ("k:\n  x:\n  - a: 1\n    b: >-\n      t\n", True),
    ("k:\n  x: |\n    text\n\n\n", True),  # empty lines after a clipped scalar are not its content
    ("k:\n  x: |+\n    kept\n\n", False),  # its trailing blank lines would go after the new lines
    ("k:\n  x: |\n    text\n      \n", False),  # spaces deeper than its indentation: content
    ("k:\n  x: |\n    text\n      ", False),
    ("k:\n  x: |\n    text", False),  # the new lines would end its last line with a line break
    ("k:\n  x:\n  - a: 1\n    b: >+\n      t\n", False),
    ("k:\n  ? x\n", False),  # the missing value is placed at the next token, after the mapping
    ("k:\n  y: 1\n  z:\n    ? x\n", False),
])
def test_a_mapping_ends_cleanly_unless_a_kept_block_scalar_or_an_explicit_key_ends_it(text: str, clean: bool) -> None:
    assert ends_cleanly(text, _mapping(text, "k")) is clean


def test_new_lines_must_read_alone_as_the_entries_at_their_column() -> None:
    reader = AppendReader()
    assert reader.reads_as("  a: 1\n  b:\n  - x\n", 2, {"a": 1, "b": ["x"]})
    assert not reader.reads_as("  a: 1\n", 2, {"a": "1"})  # not the value asked for
    assert not reader.reads_as("  a: 1\n", 0, {"a": 1})  # not at the mapping's column
    assert not reader.reads_as("a: 1\n---\nb: 2\n", 0, {"a": 1})  # a second document
    assert not reader.reads_as("a: [1\n", 0, {"a": [1]})  # no YAML at all
    assert not reader.reads_as("<<: {a: 1}\n", 0, {"a": 1})  # a merge key


MANY = "".join(f"---\nkind: K\nmetadata:\n  name: n{i}\nspec:\n  a: {i}\n  list:\n  - x: {i}\n" for i in range(6))


def test_appended_documents_are_not_read_back(monkeypatch) -> None:
    docs = [v for v, _, _ in read_yaml_stream(MANY)]
    after = {**docs[2], "spec": {**docs[2]["spec"], "list": [{"x": 2, "y": True}], "z": "s"}, "status": {}}
    monkeypatch.setattr(edit_module, "compose_documents", _refused)  # the nodes come from the reading
    from crdtool.load import stretches
    monkeypatch.setattr(stretches, "compose_documents", _refused)
    new, _ = edit_file(MANY, {2: (docs[2], after)}, compose_documents(MANY))
    assert "  list:\n  - x: 2\n    \"y\": true\n  z: s\nstatus: {}\n---\n" in new
    assert [v for v, _, _ in read_yaml_stream(new)] == [*docs[:2], after, *docs[3:]]


def test_a_replaced_value_is_still_read_back(monkeypatch) -> None:
    docs = [v for v, _, _ in read_yaml_stream(MANY)]
    after = {**docs[2], "spec": {**docs[2]["spec"], "a": 20, "z": "s"}}
    from crdtool.load import stretches
    read: list[str] = []

    def compose(text: str):
        read.append(text)
        return compose_documents(text)

    monkeypatch.setattr(stretches, "compose_documents", compose)
    new, _ = edit_file(MANY, {2: (docs[2], after)}, compose_documents(MANY))
    stretch = new[new.index("---\nkind: K\nmetadata:\n  name: n2"):new.index("---\nkind: K\nmetadata:\n  name: n3")]
    assert read == [stretch]


def _refused(text: str):
    raise AssertionError(f"read back: {text[:60]!r}")
