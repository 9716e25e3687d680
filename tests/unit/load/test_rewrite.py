"""`--write`'s new text (load.edit): only changed nodes are rewritten; the rest of the file (comments,
quoting, layout, line endings) stays byte for byte; the text reads back as the values asked for.
And the writing itself (load.rewrite): encoding kept, atomic, only when something changed."""

from __future__ import annotations

import codecs
import copy
import os
import stat

import pytest

from crdtool.load import rewrite as rewrite_module
from crdtool.load.edit import EditError, edit_file, edit_text, json_value
from crdtool.load.rewrite import write_text
from crdtool.load.yamlreader import read_yaml_stream
from crdtool.report.diff import file_diff


def values(text: str) -> list:
    is_json, value = json_value(text)
    return [value] if is_json else [v for v, _, _ in read_yaml_stream(text)]


def change(text: str, edit, key=0) -> str:
    """The new text after `edit` mutates the value of document `key` (or (index, item))."""
    docs = values(text)
    before = docs[key] if isinstance(key, int) else docs[key[0]]["items"][key[1]]
    after = copy.deepcopy(before)
    edit(after)
    new = edit_text(text, {key: (before, after)})
    got = values(new)
    assert (got[key] if isinstance(key, int) else got[key[0]]["items"][key[1]]) == after
    return new


SOURCE = """# my crontab
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: x  # the name
spec:
  image: 'nginx'   # quoted on purpose
  junk: 1
  flag: y   # read as true
---
kind: Other
"""


def test_only_the_changed_lines_change() -> None:
    new = change(SOURCE, lambda d: (d["spec"].pop("junk"), d["spec"].update(replicas=1, policy="Always")))
    assert new == SOURCE.replace("  junk: 1\n", "").replace("read as true\n", "read as true\n  replicas: 1\n"
                                                             "  policy: Always\n")


def test_removing_fields_keeps_neighbours_and_their_comments() -> None:
    text = "spec:\n  # about a\n  a: 1\n  junk:\n    deep: [1, 2]  # gone too\n  b: 2\n"
    assert change(text, lambda d: d["spec"].pop("junk")) == "spec:\n  # about a\n  a: 1\n  b: 2\n"
    assert change(text, lambda d: d.pop("spec")) == "{}\n"
    item = "items:\n- junk: 1\n  name: x\n- junk: 2\n"
    assert change(item, lambda d: [i.pop("junk") for i in d["items"]]) == "items:\n- name: x\n- {}\n"
    assert change("spec:\n  junk: 1\nnext: 2\n", lambda d: d["spec"].pop("junk")) == "spec: {}\nnext: 2\n"


def test_new_fields_follow_the_files_indentation() -> None:
    four = "spec:\n    list:\n        - a\n    x: 1\n"
    new = change(four, lambda d: d["spec"].update(more={"k": ["v"]}))
    assert new == four + "    more:\n        k:\n            - v\n"
    assert change("a:\n- 1\n", lambda d: d.update(b=[{"c": 1, "d": [2]}])) == "a:\n- 1\nb:\n- c: 1\n  d:\n  - 2\n"


def test_new_strings_read_back_as_strings() -> None:
    strings = ["y", "no", "0o17", "1e3", "true", "", " x", "a: b", "x #y", "- a", "*a", "line\nbreak", "tab\t",
               "bell\a", "\x85", "\ufeff", "é", "😀", "'q'", '"', "\\", "null", "~", "<<", "2020-01-01", ".inf"]
    new = change("spec:\n  a: 1\n", lambda d: d["spec"].update({f"k{i}": s for i, s in enumerate(strings)}))
    assert new.startswith("spec:\n  a: 1\n  k0: \"y\"\n")
    new = change("spec: {a: 1}\n", lambda d: d["spec"].update({s or "empty": s for s in strings}))
    assert new.startswith("spec: {a: 1, \"y\": \"y\", \"no\": \"no\"")


def test_values_are_replaced_in_place() -> None:
    assert change("a:\nb: ~  # c\n", lambda d: d.update(a="x", b={"k": [1]})) == "a: x\nb:  # c\n  k:\n  - 1\n"
    assert change("- s: {}\n  t: { }\n", lambda d: d[0].update(s=[{"a": 1}])) == "- s:\n  - a: 1\n  t: { }\n"
    assert change("l: [1]\n", lambda d: d.update(l=[1, 2])) == "l: [1, 2]\n"
    assert change("l:\n  - 1\n  - 2\n", lambda d: d.update(l=[3])) == "l:\n  - 3\n"
    assert change("v: !!str 5\n", lambda d: d.update(v=6)) == "v: 6\n"


def test_line_endings_of_every_line_are_kept() -> None:
    crlf = SOURCE.replace("\n", "\r\n")
    new = change(crlf, lambda d: (d["spec"].pop("junk"), d["spec"].update(extra={"a": 1})))
    assert new.count("\n") == new.count("\r\n") and "  extra:\r\n    a: 1\r\n" in new
    mixed = "a: 1\r\nb: 2\nc: 3\r\n"  # new lines end as the first line does
    assert change(mixed, lambda d: (d.pop("b"), d.update(z=0))) == "a: 1\r\nc: 3\r\nz: 0\r\n"
    lf_first = "a: 1\nb: 2\r\n"
    assert change(lf_first, lambda d: d.update(z=0)) == "a: 1\nb: 2\r\nz: 0\n"


def test_a_missing_final_line_break_stays_missing() -> None:
    assert change("a: 1\nb: 2", lambda d: d.update(c={"d": 1})) == "a: 1\nb: 2\nc:\n  d: 1"
    assert change("a: 1\r\nb: 2", lambda d: d.pop("b")) == "a: 1"
    assert change("a: 1\nb: 2\n", lambda d: d.pop("b")) == "a: 1\n"


def test_multi_document_layout_is_kept() -> None:
    text = ("%YAML 1.1\n---\n# first\na: 1 # x\n...\n# between\n---\n# only a comment\n---\nkind: List\n"
            "items:\n- a: 1\n  j: 2\n- b: 1\n")
    docs = values(text)
    new = edit_text(text, {0: (docs[0], {"a": 1, "z": 0}),
                           (2, 0): (docs[2]["items"][0], {"a": 1})})
    assert new == text.replace("a: 1 # x\n", "a: 1 # x\nz: 0\n").replace("  j: 2\n", "")


def test_json_stays_json_in_its_own_layout() -> None:
    pretty = '{\n  "a": 1,\n  "spec": {\n    "x": 1,\n    "junk": 2\n  }\n}'
    new = change(pretty, lambda d: (d["spec"].pop("junk"), d["spec"].update(n={"q": 1})))
    assert new == '{\n  "a": 1,\n  "spec": {\n    "x": 1,\n    "n": {\n      "q": 1\n    }\n  }\n}'
    compact = '{"a": 1, "spec": {"junk": 2, "x": 1}}\n'
    assert change(compact, lambda d: (d["spec"].pop("junk"), d.update(k="y"))) == \
        '{"a": 1, "spec": {"x": 1}, "k": "y"}\n'


def test_changes_through_aliases_rewrite_the_document_whole() -> None:
    text = "# head\na: &x\n  c: 1\nd: *x\ng: 1  # in\n---\ne: 1  # kept\n"
    new = change(text, lambda d: d["d"].update(e=2))
    assert new == "# head\na:\n  c: 1\nd:\n  c: 1\n  e: 2\ng: 1\n---\ne: 1  # kept\n"
    untouched = change(text, lambda d: d.update(f=3))  # the aliased nodes are not changed: in place
    assert untouched == text.replace("# in\n", "# in\nf: 3\n")


def test_a_duplicated_key_changes_where_it_was_read() -> None:
    assert change("a: 1\nb: 2\na: 3\n", lambda d: d.update(a=4)) == "a: 1\nb: 2\na: 4\n"
    assert change("a: 1\nb: 2\na: 3\n", lambda d: d.pop("a")) == "b: 2\n"


def test_a_document_that_is_gone_is_an_error() -> None:
    with pytest.raises(EditError):
        edit_text("a: 1\n", {3: ({"a": 1}, {"a": 2})})


# ---------------------------------------------------------------- writing


def test_the_byte_order_mark_and_mode_are_kept(tmp_path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_bytes(codecs.BOM_UTF8 + "a: é\r\n".encode())
    os.chmod(f, 0o640)
    assert write_text(str(f), "a: é\r\n", "a: é\r\nb: 1\r\n") is True
    assert f.read_bytes() == codecs.BOM_UTF8 + "a: é\r\nb: 1\r\n".encode()
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640


def test_an_unchanged_file_is_not_touched(tmp_path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text(SOURCE)
    os.utime(f, (1_000_000, 1_000_000))
    assert write_text(str(f), SOURCE, SOURCE) is False
    assert os.stat(f).st_mtime == 1_000_000


def test_a_file_changed_since_it_was_read_is_left_alone(tmp_path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text("a: 2\n")
    with pytest.raises(Exception, match="changed while crdtool ran"):
        write_text(str(f), "a: 1\n", "a: 3\n")
    assert f.read_text() == "a: 2\n"


def test_a_symbolic_link_stays_one(tmp_path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("a: 1\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert write_text(str(link), "a: 1\n", "a: 2\n")
    assert link.is_symlink() and real.read_text() == "a: 2\n"


def test_a_crash_mid_write_leaves_the_original_intact(tmp_path, monkeypatch) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text(SOURCE)

    def boom(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(rewrite_module.os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        write_text(str(f), SOURCE, "kind: CronTab\n")
    assert f.read_text() == SOURCE
    assert [p.name for p in tmp_path.iterdir()] == ["cr.yaml"]


# ---------------------------------------------------------------- the diff


def test_the_diff_has_the_files_names_and_line_numbers() -> None:
    old = "".join(f"l{i}\r\n" for i in range(1, 13))
    new = old.replace("l9\r\n", "")
    assert file_diff("./dir/cr.yaml", old, new) == [
        "--- a/dir/cr.yaml", "+++ b/dir/cr.yaml", "@@ -6,7 +6,6 @@", " l6\r", " l7\r", " l8\r", "-l9\r", " l10\r",
        " l11\r", " l12\r"]
    assert file_diff("cr.yaml", "a\nb", "a\nc") == [
        "--- a/cr.yaml", "+++ b/cr.yaml", "@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+c",
        "\\ No newline at end of file"]
    assert file_diff("cr.yaml", "a\n", "a\n") == []


def test_the_diff_of_known_changes_is_difflibs_over_the_whole_file() -> None:
    """Given the stretches edit_file changed, the diff compares only their lines, with the same result
    as comparing every line of a small file (where difflib's heuristics for large inputs are off)."""
    cases = [(SOURCE, 0, lambda d: (d["spec"].pop("junk"), d["spec"].update(replicas=1, policy="Always"))),
             (SOURCE.replace("\n", "\r\n"), 0, lambda d: d["spec"].update(extra={"a": 1})),
             ("a: 1\nb: 2", 0, lambda d: d.update(c={"d": 1})),
             ("a: 1\r\nb: 2", 0, lambda d: d.pop("b")),
             ("a: 1\nb: x\nc: 3\n", 0, lambda d: d.update(b="y", d=4)),
             ("spec: {a: 1, junk: 2}\nz: 1\n", 0, lambda d: (d["spec"].pop("junk"), d.update(y=2))),
             ("items:\n- junk: 1\n  name: x\n- junk: 2\n", 0, lambda d: [i.pop("junk") for i in d["items"]]),
             ("# head\na: &x\n  c: 1\nd: *x\ng: 1  # in\n---\ne: 1  # kept\n", 0, lambda d: d["d"].update(e=2)),
             ('{\n  "a": 1,\n  "spec": {\n    "x": 1,\n    "junk": 2\n  }\n}', 0,
              lambda d: (d["spec"].pop("junk"), d["spec"].update(n={"q": 1})))]
    for text, key, edit in cases:
        before = values(text)[key]
        after = copy.deepcopy(before)
        edit(after)
        new, changes = edit_file(text, {key: (before, after)})
        assert new == edit_text(text, {key: (before, after)})
        assert file_diff("f.yaml", text, new, changes) == file_diff("f.yaml", text, new), text
    many = "".join(f"- a: {i}\n  b: 1\n" for i in range(30))
    docs = values(many)
    after = [dict(d, c=2) if d["a"] % 7 == 0 else d for d in docs[0]]
    new, changes = edit_file(many, {0: (docs[0], after)})
    assert len(changes) == 5 and file_diff("f.yaml", many, new, changes) == file_diff("f.yaml", many, new)


def test_the_colored_diff_prints_text_as_written() -> None:
    import io

    from rich.console import Console

    from crdtool.report.diff import print_diff

    out = io.StringIO()
    print_diff(Console(file=out, force_terminal=True, color_system="standard"),
               ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a: ':1234: [b]'", "+a: ':smile:'"])
    text = out.getvalue()
    assert "-a: ':1234: [b]'" in text and "+a: ':smile:'" in text


def test_a_nan_elsewhere_in_the_file_reads_back_as_itself() -> None:
    """`.nan` is never DeepEqual to itself; the read-back compares readings, so a file holding one is
    still written."""
    text = "a: .nan\n---\nb: 1\n"
    assert edit_text(text, {1: ({"b": 1}, {"b": 1, "c": 2})}) == "a: .nan\n---\nb: 1\nc: 2\n"


def test_the_nodes_kept_from_reading_give_the_same_text_as_composing_again(monkeypatch) -> None:
    from crdtool.load import edit as edit_module
    from crdtool.load.sources import read_source

    text = SOURCE + "---\n# second\nkind: X\nspec:\n  a: 1  # one\n"
    docs = read_source("f.yaml", text, keep_nodes=True)
    assert docs[0].stream_nodes is not None
    nodes = docs[0].stream_nodes()
    last = docs[-1]
    targets = {last.index: (last.data, {**last.data, "spec": {"a": 1, "b": [2]}})}
    composed = edit_file(text, targets)

    compose = edit_module.compose_documents

    def no_second_reading(read: str):
        assert read != text, "the layout was composed again"
        return compose(read)  # the new text, read back

    monkeypatch.setattr(edit_module, "compose_documents", no_second_reading)
    kept = edit_file(text, targets, nodes)
    assert kept == composed
    assert kept[0].endswith("spec:\n  a: 1  # one\n  b:\n  - 2\n")
