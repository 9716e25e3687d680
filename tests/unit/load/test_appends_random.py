"""Appends without a read-back (load.appends) against the whole new text read again, on random YAML
written in many styles: block scalars of every indicator with empty, spaced and missing last lines,
multi-line plain, quoted and flow values, empty values, explicit keys, indentless and compact
sequences, comments at any column, indented roots, CRLF, and no final line break. Seeded: the same
texts on every run."""

from __future__ import annotations

import random

import pytest
from value_edits import add_entries, count_appends_only, documents, edit_reads_as_asked

SCALARS = ["v", "1", "true", "~", "hello world", "a#b", "'q'", '"d q"', "2024-01-01", "0x1F", "1e3", "!!str 5",
           "&an v", "null"]
BLOCK_LINES = ["text", "more text", "# not a comment", "key: v", "  deeper", "---", "- item"]


def _value(rng: random.Random, column: int) -> str:
    """A value for a key at `column`, written after `key:` (empty: none)."""
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(SCALARS)
    if kind < 0.45:
        return ""
    if kind < 0.65:
        indicator = rng.choice(["|", "|-", "|+", ">", ">-", ">+", "|2", "|1-"])
        digits = [int(c) for c in indicator if c.isdigit()]
        indent = column + (digits[0] if digits else rng.choice([1, 2, 3]))
        lines = []
        for _ in range(rng.randint(0, 3)):
            line = rng.random()
            if line < 0.6:
                lines.append(" " * indent + rng.choice(BLOCK_LINES))
            elif line < 0.8:
                lines.append("")
            else:
                lines.append(" " * (indent + rng.randint(0, 3)))  # spaces: content where deeper
        return indicator + "".join("\n" + line for line in lines)
    if kind < 0.75:
        again = "\n\n" + " " * (column + 1) + "again" if rng.random() < 0.3 else ""
        return "plain\n" + " " * (column + rng.randint(1, 3)) + "continued" + again
    if kind < 0.85:
        return '"quoted\n' + " " * (column + 1) + 'multi"'
    return rng.choice(["[a, b]", "{p: 1}", "[a,\n" + " " * (column + 1) + "b]", "{}", "[]"])


def _mapping(rng: random.Random, column: int, depth: int, first: str) -> list[str]:
    """A block mapping's lines at `column`; its first line begins with `first` (indentation, dashes)."""
    lines: list[str] = []
    for i in range(rng.randint(1, 3)):
        name = rng.choice(["a", "b", "key", "name", "on", ""]) + str(rng.randint(0, 9))
        key = rng.choice(["{}", '"{}"', "'{}'"]).format(name)
        lead = first if i == 0 else " " * column
        shape = rng.random()
        if shape < 0.04:
            lines.append(f"{lead}? {key}")
            if rng.random() < 0.5:
                lines.append(" " * column + ": v")
        elif depth < 4 and shape < 0.3:
            lines.append(f"{lead}{key}:" + (" # c" if rng.random() < 0.1 else ""))
            step = rng.choice([1, 2, 4])
            lines.extend(_mapping(rng, column + step, depth + 1, " " * (column + step)))
        elif depth < 4 and shape < 0.5:
            lines.append(f"{lead}{key}:")
            dash = column + rng.choice([0, 2])
            for _ in range(rng.randint(1, 3)):
                if rng.random() < 0.5:
                    lines.extend(_mapping(rng, dash + 2, depth + 1, " " * dash + "- "))
                else:
                    lines.append(" " * dash + "- " + _value(rng, dash + 2))
        else:
            value = _value(rng, column)
            lines.append(f"{lead}{key}:" + (" " + value if value else ""))
        if rng.random() < 0.1:
            lines.append(" " * rng.randint(0, column + 4) + "# comment")
        if rng.random() < 0.1:
            lines.append("")
    return lines


def _text(rng: random.Random) -> str:
    documents = []
    for _ in range(rng.randint(1, 3)):
        column = 0 if rng.random() < 0.9 else 2
        documents.append("\n".join(_mapping(rng, column, 0, " " * column)))
    text = ("---\n" if rng.random() < 0.3 else "") + rng.choice(["\n---\n", "\n--- # x\n", "\n\n---\n"]).join(documents)
    if rng.random() < 0.8:
        text += "\n"
    return text.replace("\n", "\r\n") if rng.random() < 0.15 else text


@pytest.mark.parametrize("seed", range(4))
def test_appends_to_random_yaml_read_back_whole_as_asked(seed: int, monkeypatch) -> None:
    counts = count_appends_only(monkeypatch)
    rng = random.Random(seed)
    for _ in range(600):
        text = _text(rng)
        docs = documents(text)
        if docs is None:
            continue
        targets = {i: (d, add_entries(rng, d)) for i, d in enumerate(docs)
                   if isinstance(d, dict) and d and rng.random() < 0.9}
        assert edit_reads_as_asked(text, docs, targets) is not False, (seed, text)
    assert counts[True] > 300 and counts[False] > 100, counts  # both ways are taken, most often without
