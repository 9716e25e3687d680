"""The kinds a cluster serves and their schemas as CEL types, as the ValidatingAdmissionPolicy status
controller of kube-controller-manager finds them for type checking.

Its RESTMapper is built from discovery (client-go restmapper over meta.DefaultRESTMapper): one mapper
per served group version, knowing each resource by its plural and singular name (lowercased before
matching). A fully qualified resource maps to its kind; one of the core group ("" is "no group")
maps to the kinds of that version and resource name in every group. Its schema resolver reads the
built-in kinds' OpenAPI definitions (resolver.DefinitionsSchemaResolver), else the OpenAPI v3 the
apiserver publishes for a CRD's served version (ClientDiscoveryResolver, over the document
explain.schema builds as the apiserver's OpenAPI builder does): the CRD's structural schema with
`apiVersion`, `kind` and a full ObjectMeta `metadata` at the root and at every embedded resource.
The schema becomes a CEL type as a CRD rule's does (common.SchemaDeclType of a resource root), so a
Quantity (no type in the v3 definitions) and what
holds it are not exposed, a metav1.Time is a timestamp, an IntOrString dyn.

crdtool's cluster is the built-in kinds of 1.36 and the CRDs among the inputs: a resource of any
other group may exist in a real cluster, so asking for it answers Unknown (the caller says so),
never "not found".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from crdtool.cel.types import DeclType, schema_decl_type
from crdtool.schema.structural.structural import Structural, ValueValidation

__all__ = ["GVK", "Cluster", "SchemaNotFound", "SchemaUnknown", "gvk_string"]

#: (group, version, kind).
GVK = tuple[str, str, str]

_REF_PREFIX = "#/components/schemas/"


class SchemaNotFound(Exception):
    """resolver.ErrSchemaNotFound: the cluster has no schema for the kind (the checker skips it)."""


class SchemaUnknown(Exception):
    """crdtool cannot tell the kind's schema (a group it does not know, a built-in kind whose schema it
    lacks): the text says why."""


def gvk_string(gvk: GVK) -> str:
    """schema.GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`."""
    return f"{gvk[0]}/{gvk[1]}, Kind={gvk[2]}"


@dataclass(frozen=True)
class _Served:
    """One served resource as discovery lists it, with its schema's source (a CRD version's, raw)."""

    group: str
    version: str
    kind: str
    plural: str
    singular: str
    crd_schema: dict[str, Any] | None = None


class Cluster:
    """The served resources of a 1.36 apiserver with these CRDs installed (documents' data)."""

    def __init__(self, crds: Iterable[Any] = ()) -> None:
        from crdtool.model.discovery import served_kinds

        self._served = [_Served(k.group, k.version, k.kind, k.resource, k.singular) for k in served_kinds()]
        self._crd_groups: set[str] = set()
        for crd in crds:
            self._served.extend(_crd_versions(crd))
        self._crd_groups = {s.group for s in self._served if s.crd_schema is not None}

    def kinds_for(self, group: str, version: str, resource: str) -> list[GVK]:
        """RESTMapper.KindsFor of a group, version and resource (empty when it maps to nothing)."""
        wanted = resource.lower()
        found: list[GVK] = []
        for s in self._served:
            if (s.group == group or not group) and s.version == version and wanted in (s.plural, s.singular):
                gvk = (s.group, s.version, s.kind)
                if gvk not in found:
                    found.append(gvk)
        return found

    def knows_resource(self, group: str, resource: str) -> bool:
        """Whether crdtool knows every version of the resource a real cluster could serve: one of a
        group it knows, or of a CRD among the inputs."""
        wanted = resource.lower()
        return self.knows_group(group) or any(
            s.group == group and wanted in (s.plural, s.singular) for s in self._served if s.crd_schema is not None)

    def knows_group(self, group: str) -> bool:
        """Whether every resource of the group is known here: a built-in group, or the core group."""
        from crdtool.model.discovery import is_builtin_group

        return group == "" or (is_builtin_group(group) and group not in self._crd_groups)

    def decl_type(self, gvk: GVK) -> DeclType | None:
        """The CEL type of the kind's schema (None when the schema exposes nothing to CEL), as the
        combined resolver finds it: the built-in definitions first, then the CRDs' published schemas.
        SchemaNotFound where the cluster has none, SchemaUnknown where crdtool cannot tell."""
        from crdtool.apis.openapi import definition_name

        definition = definition_name(*gvk)
        if definition is not None:
            return schema_decl_type(_definition(definition), True)
        served = [s for s in self._served if (s.group, s.version, s.kind) == gvk]
        crd = next((s for s in served if s.crd_schema is not None), None)
        if crd is not None:
            return _crd_decl_type(gvk, crd.crd_schema)
        if served:
            raise SchemaUnknown(f"crdtool has no schema of the built-in kind {gvk[2]} ({_api_version(gvk)})")
        if self.knows_group(gvk[0]):
            raise SchemaNotFound(gvk_string(gvk))
        raise SchemaUnknown(f"{gvk[2]} ({_api_version(gvk)}) is neither a built-in kind nor defined by a CRD "
                            "among the inputs")


def _api_version(gvk: GVK) -> str:
    return f"{gvk[0]}/{gvk[1]}" if gvk[0] else gvk[1]


def _crd_versions(crd: Any) -> list[_Served]:
    """The served versions of a CRD document's data (names defaulted as the apiserver defaults them)."""
    spec = crd.get("spec") if isinstance(crd, dict) else None
    if not isinstance(spec, dict):
        return []
    names = _dict(spec.get("names"))
    kind, plural, singular = (str(names.get(k) or "") for k in ("kind", "plural", "singular"))
    group = str(spec.get("group") or "")
    versions = spec.get("versions")
    out = []
    for v in versions if isinstance(versions, list) else []:
        if not isinstance(v, dict) or not v.get("served"):
            continue
        raw = _dict(v.get("schema")).get("openAPIV3Schema")
        out.append(_Served(group, str(v.get("name") or ""), kind, plural, singular or kind.lower(),
                           raw if isinstance(raw, dict) else {}))
    return out


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _crd_decl_type(gvk: GVK, raw: dict[str, Any] | None) -> DeclType | None:
    """The CEL type of a CRD version's schema as ClientDiscoveryResolver reads it: the OpenAPI v3 the
    apiserver publishes for it (explain.schema, as kubectl explain reads it too), refs populated."""
    from crdtool.explain.schema import definition_name, openapi_document
    from crdtool.schema.structural.structural import NotStructuralError, new_structural

    schemas = openapi_document(*gvk, raw)["components"]["schemas"]
    resolved = _populate_refs(schemas, schemas[definition_name(*gvk)], frozenset())
    try:
        structural = new_structural(resolved)
    except (NotStructuralError, ValueError, TypeError) as err:
        raise SchemaNotFound(str(err)) from None
    return schema_decl_type(structural, True)


def _populate_refs(schemas: dict[str, Any], node: dict[str, Any], visited: frozenset[str]) -> dict[str, Any]:
    """resolver.PopulateRefs: each `$ref` (also one wrapped in allOf) replaced by the schema it names,
    in properties, additionalProperties and items; a ref met again inside itself is a bare object."""
    ref = _ref_of(node)
    if ref is not None:
        if ref in visited:
            return {"type": "object"}
        visited = visited | {ref}
        node = schemas[ref.removeprefix(_REF_PREFIX)]
    out = dict(node)
    if isinstance(node.get("properties"), dict):
        out["properties"] = {k: _populate_refs(schemas, v, visited) for k, v in node["properties"].items()}
    for key in ("additionalProperties", "items"):
        if isinstance(node.get(key), dict):
            out[key] = _populate_refs(schemas, node[key], visited)
    return out


def _ref_of(node: dict[str, Any]) -> str | None:
    if isinstance(node.get("$ref"), str):
        return str(node["$ref"])
    for wrapped in node.get("allOf") or ():
        ref = _ref_of(wrapped) if isinstance(wrapped, dict) else None
        if ref is not None:
            return ref
    return None


@cache
def _definition(name: str) -> Structural:
    """A built-in type's OpenAPI v3 definition as a structural schema, its refs resolved (as
    resolver.PopulateRefs does: a definition met again inside itself is a bare object)."""
    return _definition_node(name, frozenset())


def _definition_node(name: str, visiting: frozenset[str]) -> Structural:
    from crdtool.apis.openapi import definition

    if name in visiting:
        return Structural(type="object")
    entry = definition(name)
    custom = entry.get("custom")
    if custom is not None:
        return _CUSTOM[custom]
    inner = visiting | {name}
    properties = {f["n"]: _field(f, inner) for f in entry["fields"]}
    required = entry.get("required")
    return Structural(type="object", properties=properties,
                      value_validation=ValueValidation(required=list(required)) if required else None)


def _field(node: dict[str, Any], visiting: frozenset[str]) -> Structural:
    """A field's (or element's) schema from its Go type node (model data of apis.openapi)."""
    kind = node["k"]
    if kind == "ref":
        return _definition_node(node["ref"], visiting)
    if kind == "slice":
        return Structural(type="array", items=_field(node["e"], visiting))
    if kind == "map":
        return Structural(type="object", additional_properties=_field(node["e"], visiting))
    if kind == "bytes":
        return Structural(type="string", value_validation=ValueValidation(format="byte"))
    return Structural(type=_SCALARS.get(kind, "integer"))


_SCALARS = {"string": "string", "bool": "boolean", "float64": "number", "float32": "number"}
#: The definitions of types with their own OpenAPI schema (OpenAPISchemaType, OpenAPIV3OneOfTypes):
#: IntOrString by its format, Quantity a oneOf without a type, Time and MicroTime date-time strings,
#: RawExtension and FieldsV1 bare objects.
_CUSTOM = {
    "intstr": Structural(x_int_or_string=True),
    "quantity": Structural(),
    "time": Structural(type="string", value_validation=ValueValidation(format="date-time")),
    "microtime": Structural(type="string", value_validation=ValueValidation(format="date-time")),
    "any": Structural(type="object"),
}
