"""`--write`'s edits against the whole file read again (load.edit, load.stretches): random changes
to random documents of multi-document files, the corpus's and some written to be awkward. Whatever
the edit answers is either an EditError or a text whose every document reads as asked, checked
here by reading the whole new text, not the stretches the edit reads back. Seeded: the same cases
on every run."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from value_edits import add_entries, count_appends_only, documents, edit_reads_as_asked, mutate

from crdtool.model.jsonvalue import same_reading

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "crs"

AWKWARD = [
    "a: 1\n---\n# between\nb: |\n  x\n  ---\n---\nc: [1, 2]\n",
    "---\nk: v\n--- # a comment on the marker\nk: w\n---\n",
    "x: &a {p: 1}\ny: *a\n---\nz: 'q\n\n  r'\n---\nw: >-\n  folded\n  text\n\n",
    "a: 1\r\n---\r\nb:\r\n  c: 2\r\n---\r\nd: 3",
    "# head only\n---\nm:\n- 1\n- n: 2\n---\nlast: true\n...\n",
    "%YAML 1.1\n---\na: 1\n---\nb: 2\n",
    "a: {b: 1,\n  c: 2}\n---\nd: \"multi\n  line\"\n---\ne: plain\n  continued\n",
]


def _texts() -> list[str]:
    found = sorted(p for p in CORPUS.glob("*/*.yaml") if "\n---" in p.read_text(encoding="utf-8"))
    return [p.read_text(encoding="utf-8") for p in found[:40]] + AWKWARD


@pytest.mark.parametrize("seed", range(8))
def test_random_edits_read_back_whole_as_asked(seed: int) -> None:
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside this repository")
    rng = random.Random(seed)
    written = refused = 0
    for text in _texts():
        docs = documents(text)
        if docs is None:
            continue
        changed = [i for i, d in enumerate(docs) if isinstance(d, dict) and d and rng.random() < 0.5]
        targets = {i: (docs[i], mutate(rng, docs[i])) for i in changed}
        targets = {i: t for i, t in targets.items() if not same_reading(t[0], t[1])}
        if not targets:
            continue
        right = edit_reads_as_asked(text, docs, targets)
        if right is None:
            refused += 1
            continue
        written += 1
        assert right, (seed, text[:400])
    assert written > 10 * max(refused, 1) or written > 30, (written, refused)


#: Texts where a mapping's end is hard to see: what an entry appended after it must not join or split.
APPEND_AWKWARD = [
    "a:\n  b: plain\n    continued\n---\n? explicit\n: value\nk:\n  ? x\n",
    "s: |+\n  kept\n\n---\nt: |-\n  stripped\nu:\n- 1\n- v: 2\n  w: |\n    text\n",
    "- - a: 1\n    b: 2\n  - c: 3\n---\n  indented: root\n  more:\n    x: 1\n",
    "a: 1 # trailing comment\n# a comment at column 0\nb:\n  c: 2\n  # inside\nd: {e: 1}\n",
    "r: \"quoted\n  multi\"\nq: 'single'\nf: [a,\n  b]\n---\nn:\n  m:\n---\nt: !!str tagged\n",
    "a: 1\r\nb:\r\n  c: 2\r\n---\r\nd:\r\n- e: 3\r\n  f: 4\r\n",
    "x:\n  y:\n    z: 1\n  w: >+\n    folded\n\n---\nlast: no line break",
    "a: &anchor {p: 1}\nb: *anchor\nc:\n  d: 1\n---\n<<: {m: 1}\ne: 2\n",
    "k:\n- - x: 1\n    y:\n    - 2\n---\nseq:\n  - a: 1\n  -  b: 2\n",
    "k:\n  s: |\n    text\n      \n---\nk:\n  s: |\n    text\n      ",  # spaces that are content
    "k:\n  s: >\n    folded\n    end",  # a last line without a line break
]


@pytest.mark.parametrize("seed", range(6))
def test_random_appends_read_back_whole_as_asked(seed: int, monkeypatch) -> None:
    """Appends need no read-back (load.appends): the whole new text still reads as asked, and most
    documents did take that way."""
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside this repository")
    counts = count_appends_only(monkeypatch)
    rng = random.Random(seed)
    for text in _texts() + APPEND_AWKWARD * 4:
        docs = documents(text)
        if docs is None:
            continue
        targets = {i: (d, add_entries(rng, d)) for i, d in enumerate(docs)
                   if isinstance(d, dict) and d and rng.random() < 0.6}
        if targets:
            assert edit_reads_as_asked(text, docs, targets) is not False, (seed, text[:400])
    assert counts[True] > 2 * counts[False], counts
