"""The CRD strategy's warnings about a CRD's schemas (WarningsOnCreate and WarningsOnUpdate of
apiextensions-apiserver's customresourcedefinition strategy): one `unrecognized format "x"` per
schema node whose `format` the apiserver ignores for the node's type.
"""

from __future__ import annotations

from crdtool.schema.crd.nodes import iter_schemas

_SUPPORTED_STRING_FORMATS = frozenset(f.replace("-", "") for f in (
    "bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4", "uuid5",
    "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
    "datetime", "quantity", "k8s-short-name", "k8s-long-name"))


def unrecognized_format(schema: dict) -> str | None:
    """The node's format if the apiserver does not recognize it for the node's type (GetUnrecognizedFormats)."""
    fmt = schema.get("format")
    if not fmt:
        return None
    type_ = schema.get("type") or ""
    if type_ in ("", "string"):
        ok = fmt.replace("-", "") in _SUPPORTED_STRING_FORMATS
    elif type_ == "integer":
        ok = fmt in ("int32", "int64")
    elif type_ == "number":
        ok = fmt in ("float", "double")
    else:
        ok = False
    return None if ok else fmt


def _unrecognized_formats(crd: dict) -> list[str]:
    spec = crd.get("spec") or {}
    schemas = [(spec.get("validation") or {}).get("openAPIV3Schema")]
    schemas += [(v.get("schema") or {}).get("openAPIV3Schema") for v in spec.get("versions") or ()]
    found = []
    for schema in schemas:
        for node in iter_schemas(schema):
            if "format" in node:  # (few nodes have one)
                fmt = unrecognized_format(node)
                if fmt is not None:
                    found.append(fmt)
    return found


def schema_warnings(crd_internal: dict, old_crd_internal: dict | None = None) -> list[str]:
    """The CRD strategy's warnings (WarningsOnCreate, or WarningsOnUpdate with the stored CRD):
    one `unrecognized format "x"` per schema node whose format the apiserver ignores; on update
    only formats the stored CRD did not already use."""
    formats = _unrecognized_formats(crd_internal)
    if old_crd_internal is not None:
        old = set(_unrecognized_formats(old_crd_internal))
        formats = [f for f in formats if f not in old]
    return [f'unrecognized format "{f}"' for f in formats]
