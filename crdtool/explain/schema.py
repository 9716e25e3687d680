"""The OpenAPI v3 schema of a custom resource as the apiserver publishes it (and kubectl explain reads it).

apiextensions-apiserver's OpenAPI builder takes the version's structural schema and writes
it back as OpenAPI (`Structural.ToKubeOpenAPI`), then sets the properties every object has:
`metadata` (a reference to ObjectMeta with PartialObjectMetadata's description), `apiVersion`
and `kind` (TypeMeta's), and for every `x-kubernetes-embedded-resource` object its own
apiVersion, kind and metadata, both required. kube-openapi wraps a `$ref` that has sibling
fields into `allOf: [{$ref}]`, which is why explain shows two descriptions for `metadata`.

The schema is written out whole even though explain prints only descriptions, types, enums
and required fields: a Go template treats an empty schema as unset, so `{pattern: abc}` under
`items` still counts as an item schema. `Unfold` is left out: its anyOf/allOf of bare types
for int-or-string fields lands on nodes that are already set and adds no description,
property or type name.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from crdtool.schema.structural.structural import (
    NestedValueValidation,
    NotStructuralError,
    Structural,
    ValueValidation,
    new_structural,
)

SCHEMA_PREFIX = "#/components/schemas/"
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"


@functools.cache
def _bundle() -> dict[str, Any]:
    """ObjectMeta and the types it references, from Kubernetes' OpenAPI v3 document (package data)."""
    text = resources.files(__package__).joinpath("objectmeta.json").read_text(encoding="utf-8")
    bundle: dict[str, Any] = json.loads(text)
    return bundle


def definition_name(group: str, version: str, kind: str) -> str:
    """The kind's name under components/schemas (util.ToRESTFriendlyName of `group/version.Kind`):
    the group's labels reversed, then version and kind, dot-separated."""
    return ".".join([*reversed(group.split(".")), version, kind]) if group else f"{version}.{kind}"


def openapi_document(group: str, version: str, kind: str, raw_schema: dict[str, Any] | None) -> dict[str, Any]:
    """A self-contained OpenAPI v3 document with the kind's published schema and ObjectMeta's."""
    schemas = dict(_bundle()["schemas"])
    published = published_schema(raw_schema)
    published["x-kubernetes-group-version-kind"] = [{"group": group, "kind": kind, "version": version}]
    schemas[definition_name(group, version, kind)] = published
    return {"components": {"schemas": schemas}}


def published_schema(raw_schema: dict[str, Any] | None) -> dict[str, Any]:
    """buildKubeNative: the kind's schema with TypeMeta and ObjectMeta; a bare object without a schema."""
    try:
        structural = new_structural(raw_schema)
    except NotStructuralError:
        structural = None
    if structural is None:  # the builder publishes no properties at all then
        return {"type": "object"}
    out = _openapi(structural)
    bundle = _bundle()
    properties = out.setdefault("properties", {})
    properties["metadata"] = _object_meta_ref()
    properties["apiVersion"] = dict(bundle["typeMeta"]["apiVersion"])
    properties["kind"] = dict(bundle["typeMeta"]["kind"])
    _add_embedded_properties(out)
    return out


def _object_meta_ref() -> dict[str, Any]:
    return {"allOf": [{"$ref": SCHEMA_PREFIX + OBJECT_META}], "description": _bundle()["metadataDescription"]}


def _openapi(node: Structural) -> dict[str, Any]:
    """Structural.ToKubeOpenAPI as JSON: every field that is set (Go's omitempty), since explain
    tells a set schema from an empty one even where it does not print the field."""
    out: dict[str, Any] = {}
    if node.items is not None:
        out["items"] = _openapi(node.items)
    if node.properties:
        out["properties"] = {name: _openapi(sub) for name, sub in node.properties.items()}
    ap = node.additional_properties
    if ap is not None:
        out["additionalProperties"] = ap if isinstance(ap, bool) else _openapi(ap)
    _generic(node, out)
    docs = (node.raw or {}).get("externalDocs")
    if isinstance(docs, dict) and (docs.get("description") or docs.get("url")):
        out["externalDocs"] = {key: docs[key] for key in ("description", "url") if docs.get(key)}
    if node.value_validation is not None:
        _value_validation(node.value_validation, out)
    if node.x_validations:
        out["x-kubernetes-validations"] = node.x_validations
    return out


def _generic(node: Structural | NestedValueValidation, out: dict[str, Any]) -> None:
    """Generic and Extensions.toKubeOpenAPI."""
    if node.default is not None:
        out["default"] = node.default
    for key, value in (("type", node.type), ("nullable", node.nullable), ("description", node.description),
                       ("title", node.title), ("x-kubernetes-preserve-unknown-fields", node.x_preserve_unknown_fields),
                       ("x-kubernetes-embedded-resource", node.x_embedded_resource),
                       ("x-kubernetes-int-or-string", node.x_int_or_string),
                       ("x-kubernetes-list-map-keys", node.x_list_map_keys)):
        if value:
            out[key] = value
    if node.x_list_type is not None:
        out["x-kubernetes-list-type"] = node.x_list_type
    if node.x_map_type is not None:
        out["x-kubernetes-map-type"] = node.x_map_type


_VALUE_FIELDS = (("format", "format"), ("maximum", "maximum"), ("exclusiveMaximum", "exclusive_maximum"),
                 ("minimum", "minimum"), ("exclusiveMinimum", "exclusive_minimum"), ("maxLength", "max_length"),
                 ("minLength", "min_length"), ("pattern", "pattern"), ("maxItems", "max_items"),
                 ("minItems", "min_items"), ("uniqueItems", "unique_items"), ("multipleOf", "multiple_of"),
                 ("maxProperties", "max_properties"), ("minProperties", "min_properties"))


def _value_validation(v: ValueValidation, out: dict[str, Any]) -> None:
    """ValueValidation.toKubeOpenAPI: pointers count when set (even to 0), the rest when not empty."""
    for key, attr in _VALUE_FIELDS:
        value = getattr(v, attr)
        if value is not None and value is not False and value != "":
            out[key] = value
    if v.enum:
        out["enum"] = list(v.enum)
    if v.required:
        out["required"] = list(v.required)
    for key, clauses in (("allOf", v.all_of), ("anyOf", v.any_of), ("oneOf", v.one_of)):
        if clauses:
            out[key] = [_nested(n) for n in clauses]
    if v.not_ is not None:
        out["not"] = _nested(v.not_)


def _nested(n: NestedValueValidation) -> dict[str, Any]:
    """NestedValueValidation.toKubeOpenAPI: value validations, and the structural fields a structural
    schema leaves empty there."""
    out: dict[str, Any] = {}
    _value_validation(n, out)
    if n.x_validations:
        out["x-kubernetes-validations"] = n.x_validations
    if n.items is not None:
        out["items"] = _nested(n.items)
    if n.properties:
        out["properties"] = {name: _nested(sub) for name, sub in n.properties.items()}
    _generic(n, out)
    return out


def _add_embedded_properties(s: dict[str, Any]) -> None:
    """addEmbeddedProperties: TypeMeta and ObjectMeta for every embedded resource, depth first."""
    for sub in (s.get("properties") or {}).values():
        _add_embedded_properties(sub)
    for key in ("items", "additionalProperties"):
        if isinstance(s.get(key), dict):
            _add_embedded_properties(s[key])
    if not s.get("x-kubernetes-embedded-resource"):
        return
    texts = _bundle()["embeddedTypeMeta"]
    properties = s.setdefault("properties", {})
    properties["apiVersion"] = {**_bundle()["typeMeta"]["apiVersion"], "description": texts["apiVersion"]}
    properties["kind"] = {**_bundle()["typeMeta"]["kind"], "description": texts["kind"]}
    properties["metadata"] = _object_meta_ref()
    required = s.setdefault("required", [])
    for name in ("kind", "apiVersion"):
        if name not in required:
            required.append(name)
