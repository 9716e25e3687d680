"""update_options and warnings: whole-schema questions asked over the traversal (schema.crd.nodes)."""

from __future__ import annotations

from crdtool.schema.crd.warnings import schema_warnings


def test_unrecognized_formats_are_warned_in_traversal_order() -> None:
    schema = {"type": "object", "format": "f0", "properties": {
        "a": {"type": "string", "format": "f1", "items": {"type": "integer", "format": "f2"}},
        "b": {"type": "number", "format": "double"}}, "allOf": [{"format": "f3"}]}
    crd = {"spec": {"versions": [{"schema": {"openAPIV3Schema": schema}}]}}
    assert schema_warnings(crd) == [f'unrecognized format "{f}"' for f in ("f0", "f3", "f1", "f2")]
