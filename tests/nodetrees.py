"""YAML node trees as a reader of nodes sees them, and libyaml's trees to compare composers with."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import CollectionNode, Node, ScalarNode

from crdtool.load import yamlreader


def flat(roots: list[Node | None]) -> list[tuple[Any, ...]]:
    """Every node of the trees in document order, as what a reader of a node can see of it."""
    out: list[tuple[Any, ...]] = []
    stack: list[Node | None] = list(reversed(roots))
    while stack:
        node = stack.pop()
        if node is None:
            out.append((None,))
            continue
        marks = tuple((type(m), m.name, m.index, m.line, m.column) for m in (node.start_mark, node.end_mark))
        if isinstance(node, ScalarNode):
            out.append((type(node), node.tag, node.value, node.style, marks))
            continue
        assert isinstance(node, CollectionNode)
        out.append((type(node), node.tag, len(node.value), node.flow_style, marks))
        for item in reversed(node.value):
            stack.extend(reversed(item) if isinstance(item, tuple) else [item])
    return out


def libyaml_trees(text: str) -> list[Node | None]:
    """libyaml's trees for the text, as crdtool composed them before the linear composer: node by node
    from its events (deep text), and by its own composer where the text is shallow enough."""
    with yamlreader._libyaml_nesting_allowed(yamlreader._LIBYAML_NESTING):
        events = yamlreader._compose_events(yaml.parse(text, Loader=yaml.CSafeLoader))
        if not yamlreader._may_nest_deeper_than(text, yamlreader._RECURSION_SAFE_DEPTH):
            assert flat(yamlreader._compose_with_libyaml(text)) == flat(events)
    return events
