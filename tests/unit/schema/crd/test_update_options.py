"""update_options: the schema traversal every whole-schema question shares (SchemaHas)."""

from __future__ import annotations

from crdtool.schema.crd.update_options import iter_schemas
from crdtool.schema.crd.warnings import schema_warnings


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


def test_unrecognized_formats_are_warned_in_traversal_order() -> None:
    schema = {"type": "object", "format": "f0", "properties": {
        "a": {"type": "string", "format": "f1", "items": {"type": "integer", "format": "f2"}},
        "b": {"type": "number", "format": "double"}}, "allOf": [{"format": "f3"}]}
    crd = {"spec": {"versions": [{"schema": {"openAPIV3Schema": schema}}]}}
    assert schema_warnings(crd) == [f'unrecognized format "{f}"' for f in ("f0", "f3", "f1", "f2")]
