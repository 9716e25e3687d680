"""nodes: the schema traversal every whole-schema question shares (SchemaHas)."""

from __future__ import annotations

from crdtool.schema.crd.nodes import iter_schemas


def test_every_subschema_in_schema_has_order() -> None:
    """The node, then items, allOf, anyOf, oneOf, not, properties, additionalProperties,
    patternProperties, additionalItems, definitions and dependencies, each subtree before the next."""
    schema = {
        "title": "root",
        "dependencies": {"d": {"title": "dependency"}, "e": ["a", "b"]},
        "definitions": {"x": {"title": "definition"}},
        "additionalItems": {"title": "additionalItems"},
        "patternProperties": {"p": {"title": "patternProperty"}},
        "additionalProperties": {"title": "additionalProperties"},
        "properties": {"a": {"title": "a", "items": {"title": "a.items"}}, "b": {"title": "b"}},
        "not": {"title": "not"},
        "oneOf": [{"title": "oneOf"}],
        "anyOf": [{"title": "anyOf"}],
        "allOf": [{"title": "allOf"}, "not a schema"],
        "items": [{"title": "items0"}, {"title": "items1"}],
    }
    assert [s["title"] for s in iter_schemas(schema)] == [
        "root", "items0", "items1", "allOf", "anyOf", "oneOf", "not", "a", "a.items", "b", "additionalProperties",
        "patternProperty", "additionalItems", "definition", "dependency"]
    assert list(iter_schemas(None)) == []
    assert [s["title"] for s in iter_schemas({"title": "t", "additionalProperties": True})] == ["t"]
