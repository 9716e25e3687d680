"""Field paths: a trail (a path not made yet) makes the same Path as the steps it stands for."""

from __future__ import annotations

from crdtool.model.path import Path, trail_path


def test_a_trail_makes_the_path_of_its_steps() -> None:
    root = Path.root("spec", "versions").index(0).child("schema", "openAPIV3Schema")
    trail = ((((root, "f", "properties"), "k", "spec"), "f", "items"), "k", "a.b")
    made = trail_path(trail)
    assert made == root.child("properties").key("spec").child("items").key("a.b")
    assert str(made) == "spec.versions[0].schema.openAPIV3Schema.properties[spec].items[a.b]"
    assert trail_path(root) is root

