"""Random changes to decoded YAML values, and the check that `--write`'s edit of a text reads back
as asked, for the tests of load.edit and load.appends."""

from __future__ import annotations

import copy
import random
from typing import Any

from crdtool.load import edit as edit_module
from crdtool.load.edit import EditError, edit_file
from crdtool.load.yamlreader import YAMLInputError, read_yaml_stream
from crdtool.model.jsonvalue import same_reading

#: Values put in: scalars that look like YAML's markers, comments and line breaks, and collections.
NEW_VALUES: list[Any] = [1, "x", "---", "...", "a\n---\nb", "# not a comment", {"n": {"m": [1, "---"]}},
                         [], {}, None, True, 1.5, ["a", {"b": "c"}], "line\n", "  lead"]


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


def at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def add_entries(rng: random.Random, value: Any) -> Any:
    """`value` with new keys added to one to three of its mappings (nothing removed or replaced)."""
    value = copy.deepcopy(value)
    mappings = [p for p in paths(value) if isinstance(at(value, p), dict) and at(value, p)]
    for path in rng.sample(mappings, min(len(mappings), rng.randint(1, 3))):
        for _ in range(rng.randint(1, 2)):
            at(value, path)[f"new{rng.randint(0, 999)}"] = copy.deepcopy(rng.choice(NEW_VALUES))
    return value


def mutate(rng: random.Random, value: Any) -> Any:
    """`value` with one to three random changes: a key added, removed, or a value replaced."""
    value = copy.deepcopy(value)
    for _ in range(rng.randint(1, 3)):
        containers = [p for p in paths(value) if isinstance(at(value, p), (dict, list)) and at(value, p)]
        if not containers:
            return value
        target = at(value, rng.choice(containers))
        new = copy.deepcopy(rng.choice(NEW_VALUES))
        if isinstance(target, dict):
            key = rng.choice(list(target))
            move = rng.random()
            if move < 0.4:
                target[f"added{rng.randint(0, 99)}"] = new
            elif move < 0.7 and len(target) > 1:
                del target[key]
            else:
                target[key] = new
        else:
            target[rng.randrange(len(target))] = new
    return value


def documents(text: str) -> list[Any] | None:
    """The values of a text's documents as crdtool reads them; None when it does not read."""
    try:
        return [value for value, _, _ in read_yaml_stream(text)]
    except YAMLInputError:
        return None


def edit_reads_as_asked(text: str, docs: list[Any], targets: dict[int, tuple[Any, Any]]) -> bool | None:
    """Whether the text `edit_file` makes of `targets` reads, read whole again, as asked in every
    document (each changed one as its new value, the others as they were); None when it refuses."""
    try:
        new, _ = edit_file(text, targets)
    except EditError:
        return None
    got = documents(new)
    expected = [targets[i][1] if i in targets else d for i, d in enumerate(docs)]
    return got is not None and len(got) == len(expected) and all(
        same_reading(a, b) for a, b in zip(got, expected, strict=True))


def count_appends_only(monkeypatch: Any) -> list[int]:
    """[documents read back, documents that needed no read-back (load.appends)], counted from now."""
    counts = [0, 0]
    document_edits = edit_module._Source.document_edits

    def counting(self: Any, *args: Any) -> Any:
        edits, appends_only = document_edits(self, *args)
        counts[appends_only] += 1
        return edits, appends_only

    monkeypatch.setattr(edit_module._Source, "document_edits", counting)
    return counts
