"""The Widget CRD (widgets.example.com, serving example.com/v1 `Widget`, namespaced) that tests build
around the schema of its `spec`."""

from __future__ import annotations

from typing import Any


def widget_crd(spec_schema: dict[str, Any]) -> dict[str, Any]:
    """The CRD whose one version's `spec` has `spec_schema` (written as JSON by its callers: JSON keeps
    what YAML would type or drop)."""
    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                 "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                     "type": "object", "properties": {"spec": spec_schema}}}}]}}
