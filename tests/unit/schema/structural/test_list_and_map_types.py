"""The list and map type rules of a schema node, reported where the walk's trail leads."""

from __future__ import annotations

from crdtool.model.path import Path
from crdtool.schema.structural.validation import list_and_map_type_errors


def test_list_and_map_type_findings_are_at_the_node_a_trail_leads_to() -> None:
    root = Path.root("spec", "validation", "openAPIV3Schema")
    trail = ((root, "f", "properties"), "k", "ports")
    bad = {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "string"}}
    good = {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}}
    assert [str(e) for e in list_and_map_type_errors(bad, trail, True, True)] == \
        [str(e) for e in list_and_map_type_errors(bad, root.child("properties").key("ports"), True, True)]
    assert str(list_and_map_type_errors(bad, trail, True, True)[0]).startswith(
        "spec.validation.openAPIV3Schema.properties[ports].x-kubernetes-list-map-keys: Required value")
    assert list_and_map_type_errors(good, trail, True, True) == []
