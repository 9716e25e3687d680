"""The OpenAPI v3 document kube-apiserver 1.36 publishes for a built-in group version, as far as
`kubectl explain` reads it, rebuilt from the vendored types and descriptions (apis.openapi).

kube-openapi writes each Go struct as an object schema with its fields' descriptions; a field of a
named struct type is a `$ref`, wrapped in `allOf: [{$ref}]` when it has a description beside it (so
explain prints the field's description, then the type's). The types that read themselves publish
their own shapes: IntOrString and Quantity have no `type` (their OpenAPI v3 one-of types), so
explain names them (`<IntOrString>`, `<map[string]Quantity>`); Time and MicroTime are date-time
strings; RawExtension and FieldsV1 are objects. A field of an enum type lists its values (`enum`,
shown by explain) and its description ends with their `Possible enum values:` lines, as openapi-gen
writes them. Only the definitions the kind reaches are built.

The document carries what structured merge reads too (a MutatingAdmissionPolicy's ApplyConfiguration,
admission.policy.smd): each type's and field's `x-kubernetes-map-type`, each list field's
`x-kubernetes-list-type`, `-list-map-keys`, `-patch-strategy` and `-patch-merge-key`, and the
`default` of each scalar field: its `+default` marker's, else the zero value openapi-gen enforces on a
field that is neither a pointer nor omitempty (mustEnforceDefault), which is what a list item without
its key field is keyed by.
"""

from __future__ import annotations

from typing import Any

from crdtool.apis import openapi

PREFIX = "#/components/schemas/"
_INTEGER = {"int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64"}
_SCALAR_ZERO: dict[str, Any] = {"string": "", "bool": False, "float32": 0, "float64": 0, **dict.fromkeys(_INTEGER, 0)}
#: the data's field facts and the OpenAPI extensions they were read from
_EXTENSIONS = {"listType": "x-kubernetes-list-type", "mapKeys": "x-kubernetes-list-map-keys",
               "patch": "x-kubernetes-patch-strategy", "mergeKey": "x-kubernetes-patch-merge-key",
               "mapType": "x-kubernetes-map-type"}
_CUSTOM: dict[str, dict[str, Any]] = {
    "intstr": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]},
    "quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
    "time": {"type": "string", "format": "date-time"},
    "microtime": {"type": "string", "format": "date-time"},
    "duration": {"type": "string"},
    "any": {"type": "object"},
}


def openapi_document(group: str, version: str, kind: str) -> dict[str, Any] | None:
    """components.schemas with the kind's root definition and every definition it reaches; None when
    the data has no such kind."""
    root = openapi.definition_name(group, version, kind)
    if root is None:
        return None
    schemas: dict[str, Any] = {}
    pending = [root]
    while pending:
        name = pending.pop()
        if name in schemas:
            continue
        schemas[name] = _definition(name, pending)
    schemas[root]["x-kubernetes-group-version-kind"] = [{"group": group, "kind": kind, "version": version}]
    return {"components": {"schemas": schemas}}


def _definition(name: str, pending: list[str]) -> dict[str, Any]:
    """One definition's published schema; the definitions its fields reference go to `pending`."""
    entry = openapi.definition(name)
    texts = openapi.descriptions().get(name, {})
    out: dict[str, Any] = {}
    if texts.get(""):
        out["description"] = texts[""]
    if "custom" in entry:
        out.update(_CUSTOM[entry["custom"]])
        return out
    out["type"] = "object"
    properties = {}
    for field in entry.get("fields", ()):
        schema = _node(field, pending)
        beside: dict[str, Any] = {ext: field[key] for key, ext in _EXTENSIONS.items() if key in field}
        if field["k"] in _SCALAR_ZERO and "default" in field:
            beside["default"] = field["default"]
        elif field["k"] in _SCALAR_ZERO and not field.get("ptr") and not field.get("oe"):
            beside["default"] = _SCALAR_ZERO[field["k"]]
        text = texts.get(field["n"])
        if text:
            beside["description"] = text
        if beside:  # kube-openapi wraps a $ref that has fields beside it
            schema = {"allOf": [schema], **beside} if "$ref" in schema else {**schema, **beside}
        properties[field["n"]] = schema
    if properties:
        out["properties"] = properties
    if entry.get("required"):
        out["required"] = list(entry["required"])
    if entry.get("mapType"):
        out["x-kubernetes-map-type"] = entry["mapType"]
    return out


def _node(node: dict[str, Any], pending: list[str]) -> dict[str, Any]:
    """A field's or element's schema from its Go type."""
    kind = node["k"]
    if kind == "ref":
        pending.append(node["ref"])
        return {"$ref": PREFIX + node["ref"]}
    if kind == "slice":
        return {"type": "array", "items": _node(node["e"], pending)}
    if kind == "map":
        return {"type": "object", "additionalProperties": _node(node["e"], pending)}
    if kind == "bytes":
        return {"type": "string", "format": "byte"}
    if kind == "bool":
        out: dict[str, Any] = {"type": "boolean"}
    elif kind in _INTEGER:
        out = {"type": "integer"}
    elif kind in ("float32", "float64"):
        out = {"type": "number"}
    else:
        out = {"type": "string"}
    if node.get("format"):
        out["format"] = node["format"]
    if node.get("enum"):
        out["enum"] = list(node["enum"])
    return out
