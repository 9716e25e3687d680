"""Every node of a CRD schema (a JSONSchemaProps tree as decoded JSON), walked as the apiextensions
validation's SchemaHas walks it. A module of its own, light to import: decoding a served version's
schema needs it, and nothing else of the CRD checks.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["iter_schemas"]

#: The keys of a JSONSchemaProps that hold subschemas, in SchemaHas' order; those holding maps of them apart.
_SUBSCHEMA_KEYS = ("items", "allOf", "anyOf", "oneOf", "not", "properties", "additionalProperties",
                   "patternProperties", "additionalItems", "definitions", "dependencies")
_SUBSCHEMA_MAPS = frozenset(("properties", "patternProperties", "definitions", "dependencies"))
_HAS_SUBSCHEMAS = frozenset(_SUBSCHEMA_KEYS)


def iter_schemas(schema: dict | None) -> Iterator[dict]:
    """Every schema node in SchemaHas' order: the node, then the subtrees of items, allOf, anyOf, oneOf,
    not, properties, additionalProperties, patternProperties, additionalItems, definitions and
    dependencies. (With a stack: nested generators pass every node up through each level, quadratic
    in depth; most nodes are leaves, told by their keys alone.)"""
    stack = [schema] if isinstance(schema, dict) else []
    while stack:
        s = stack.pop()
        yield s
        present = s.keys() & _HAS_SUBSCHEMAS
        if not present:
            continue
        children: list[dict] = []
        for key in _SUBSCHEMA_KEYS if len(present) > 1 else present:
            sub = s.get(key)
            if isinstance(sub, dict):
                if key in _SUBSCHEMA_MAPS:
                    children += [x for x in sub.values() if isinstance(x, dict)]
                else:
                    children.append(sub)
            elif isinstance(sub, list):
                children += [x for x in sub if isinstance(x, dict)]
        children.reverse()
        stack += children
