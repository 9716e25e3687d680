"""Random changes to decoded YAML values, for the tests of `--write`'s edits."""

from __future__ import annotations

import copy
import random
from typing import Any

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
