"""The CEL type of a structural schema node, as the apiserver derives it (SchemaDeclType).

A rule's `self` has the type of its schema node: objects are object types with one field per
property (names escaped), additionalProperties make maps, arrays lists, x-kubernetes-int-or-string
makes `dyn`, and the formats byte/duration/date/date-time make bytes/duration/timestamp. Each type also
carries the size bounds the cost estimator needs: the most elements a value can hold (maxLength,
maxItems, maxProperties, or what fits in a 3 MiB request) and the fewest bytes it takes in JSON.
"""

from __future__ import annotations

from crdtool.cel.names import escape
from crdtool.model.memo import IdentityMemo
from crdtool.model.record import IdentityRecord
from crdtool.schema.structural.structural import Structural

__all__ = ["DeclField", "DeclType", "MAX_REQUEST_SIZE_BYTES", "schema_decl_type", "with_type_and_object_meta"]

MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024
# Escaped reserved words that CEL still parses after a dot, so rules may select them unescaped.
_SELECTABLE_RESERVED = frozenset({"as", "break", "const", "continue", "else", "for", "function", "if", "import",
                                  "let", "loop", "package", "namespace", "return", "var", "void", "while"})
MAX_DURATION_SIZE_JSON = 32
MAX_DATETIME_SIZE_JSON = 32
MIN_DURATION_SIZE_JSON = 3
JSON_DATE_SIZE = 12
MIN_DATETIME_SIZE_JSON = 21
MIN_STRING_SIZE = 2
MIN_BOOL_SIZE = 4
MIN_NUMBER_SIZE = 1


class DeclField(IdentityRecord):
    """One property of an object type: its CEL (escaped) name and its JSON name."""

    __slots__ = ("name", "json_name", "type", "required")

    name: str
    json_name: str
    type: DeclType
    required: bool

    def __init__(self, name: str, json_name: str, type: DeclType, required: bool = False) -> None:
        self.name = name
        self.json_name = json_name
        self.type = type
        self.required = required


class DeclType(IdentityRecord):
    """A CEL type with the apiserver's size bounds.

    `kind` is one of bool, int, double, string, bytes, duration, timestamp, dyn, list, map, object.
    """

    __slots__ = ("kind", "max_elements", "min_serialized_size", "elem_type", "key_type", "fields", "schema",
                 "_fingerprint")
    _derived = ("_fingerprint",)  # made once: a type is never changed

    kind: str
    max_elements: int
    min_serialized_size: int
    elem_type: DeclType | None  # list items, map values
    key_type: DeclType | None  # map keys
    fields: dict[str, DeclField]  # object properties by CEL name
    schema: Structural | None
    _fingerprint: tuple | None  # made once: a type is never changed

    def __init__(self, kind: str, max_elements: int = 0, min_serialized_size: int = 0,
                 elem_type: DeclType | None = None, key_type: DeclType | None = None,
                 fields: dict[str, DeclField] | None = None, schema: Structural | None = None,
                 _fingerprint: tuple | None = None) -> None:
        self.kind = kind
        self.max_elements = max_elements
        self.min_serialized_size = min_serialized_size
        self.elem_type = elem_type
        self.key_type = key_type
        self.fields = {} if fields is None else fields
        self.schema = schema
        self._fingerprint = _fingerprint

    @property
    def is_object(self) -> bool:
        return self.kind == "object"

    def fingerprint(self) -> tuple:
        """A value equal for types that are the same for compiling and costing rules."""
        if self._fingerprint is not None:
            return self._fingerprint
        fields = tuple((f.name, f.json_name, f.required, f.type.fingerprint()) for f in self.fields.values())
        # Set and map lists compare and concatenate differently (list_semantics): part of the type here.
        keyed = (self.schema.x_list_type, tuple(self.schema.x_list_map_keys or ())) \
            if self.kind == "list" and self.schema is not None else None
        self._fingerprint = (self.kind, self.max_elements, self.min_serialized_size, keyed,
                             self.elem_type.fingerprint() if self.elem_type else None,
                             self.key_type.fingerprint() if self.key_type else None, fields)
        return self._fingerprint


def _simple(kind: str, min_size: int, max_elements: int = 0, schema: Structural | None = None) -> DeclType:
    return DeclType(kind, max_elements=max_elements, min_serialized_size=min_size, schema=schema)


#: Types already derived, by schema node and whether it is a resource root (see `schema_decl_type`).
DeclTypes = IdentityMemo[DeclType | None]
#: What a DeclTypes memo answers for a node it has not met (None is a type it remembers: not exposed).
_UNKNOWN = object()


def schema_decl_type(s: Structural | None, is_resource_root: bool, memo: DeclTypes | None = None) -> DeclType | None:
    """SchemaDeclType: the CEL type of `s`, or None where the schema is not exposed to CEL.

    With `memo`, the types of nodes derived before are taken from it, and those derived now added:
    a node's type holds its children's, and the rules of nested nodes are compiled one node at a time."""
    if s is None:
        return None
    if memo is None:
        return _decl_type(s, is_resource_root, None)
    known = memo.get(s, is_resource_root, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    return memo.put(s, _decl_type(s, is_resource_root, memo), is_resource_root)


def _decl_type(s: Structural, is_resource_root: bool, memo: DeclTypes | None) -> DeclType | None:
    if s.x_int_or_string:
        max_length = _vv(s, "max_length")
        bound = max(max_length, 0) * 4 if max_length is not None else _max_string_length_per_request(s)
        return _simple("dyn", 1, bound, s)
    if is_resource_root:
        s = with_type_and_object_meta(s)
    if s.type == "array":
        return _list_decl_type(s, memo)
    if s.type == "object":
        return _map_or_object_decl_type(s, memo)
    if s.type == "string":
        return _string_decl_type(s)
    if s.type == "boolean":
        return _simple("bool", MIN_BOOL_SIZE, schema=s)
    if s.type == "number":
        return _simple("double", MIN_NUMBER_SIZE, schema=s)
    if s.type == "integer":
        return _simple("int", MIN_NUMBER_SIZE, schema=s)
    return None


def _list_decl_type(s: Structural, memo: DeclTypes | None) -> DeclType | None:
    """An array: a list of its items' type (None when the items are not exposed)."""
    if s.items is None:
        return None
    items = schema_decl_type(s.items, s.items.x_embedded_resource, memo)
    if items is None:
        return None
    max_items = _vv(s, "max_items")
    bound = max(max_items, 0) if max_items is not None else \
        (MAX_REQUEST_SIZE_BYTES - 2) // (items.min_serialized_size + 1)
    return DeclType("list", max_elements=bound, min_serialized_size=2, elem_type=items, schema=s)


def _map_or_object_decl_type(s: Structural, memo: DeclTypes | None) -> DeclType | None:
    """An object: a map when additionalProperties has a schema, else an object of its exposed properties."""
    additional = s.additional_properties_schema
    if additional is not None:
        values = schema_decl_type(additional, additional.x_embedded_resource, memo)
        if values is None:
            return None
        max_props = _vv(s, "max_properties")
        bound = max(max_props, 0) if max_props is not None else \
            (MAX_REQUEST_SIZE_BYTES - 2) // (values.min_serialized_size + 6)
        key = _simple("string", MIN_STRING_SIZE)  # the plain StringType: no size bound known (0)
        return DeclType("map", max_elements=bound, min_serialized_size=2, elem_type=values, key_type=key,
                        schema=s)
    required = set(_vv(s, "required") or ())
    fields: dict[str, DeclField] = {}
    min_size = 2
    for name, prop in s.properties.items():
        prop_type = schema_decl_type(prop, prop.x_embedded_resource, memo)
        if prop_type is None:
            continue
        escaped = escape(name)
        if escaped is not None:
            fields[escaped] = DeclField(escaped, name, prop_type, name in required)
            if escaped != name and name in _SELECTABLE_RESERVED:
                # `self.namespace` resolves as well as `self.__namespace__`.
                fields[name] = DeclField(name, name, prop_type, name in required)
        if name in required and prop.default is None:
            min_size += len(name.encode()) + prop_type.min_serialized_size + 4
    return DeclType("object", min_serialized_size=min_size, fields=fields, schema=s)


def _string_decl_type(s: Structural) -> DeclType:
    """A string: bytes, duration or timestamp for those formats, else a string of bounded size."""
    fmt = _vv(s, "format") or ""
    max_length = _vv(s, "max_length")
    if fmt == "byte":
        bound = max(max_length, 0) if max_length is not None else _max_string_length_per_request(s)
        return _simple("bytes", MIN_STRING_SIZE, bound, s)
    if fmt == "duration":
        return _simple("duration", MIN_DURATION_SIZE_JSON, _max_string_length_per_request(s), s)
    if fmt == "date":
        return _simple("timestamp", JSON_DATE_SIZE, _max_string_length_per_request(s), s)
    if fmt == "date-time":
        return _simple("timestamp", MIN_DATETIME_SIZE_JSON, _max_string_length_per_request(s), s)
    if max_length is not None:
        bound = max(max_length, 0) * 4
    elif _vv(s, "enum"):
        bound = max((len(v.encode()) for v in _vv(s, "enum") if isinstance(v, str)), default=0)
    else:
        bound = _max_string_length_per_request(s)
    return _simple("string", MIN_STRING_SIZE, bound, s)


def _vv(s: Structural, attr: str):
    """A value-validation attribute of `s` (None when the schema has none)."""
    return getattr(s.value_validation, attr) if s.value_validation is not None else None


def _max_string_length_per_request(s: Structural) -> int:
    if s.x_int_or_string:
        return MAX_REQUEST_SIZE_BYTES - 2
    fmt = _vv(s, "format") or ""
    if fmt == "duration":
        return MAX_DURATION_SIZE_JSON
    if fmt == "date":
        return JSON_DATE_SIZE
    if fmt == "date-time":
        return MAX_DATETIME_SIZE_JSON
    return MAX_REQUEST_SIZE_BYTES - 2


def with_type_and_object_meta(s: Structural) -> Structural:
    """The root of a resource always shows apiVersion, kind, metadata.name and metadata.generateName to rules.

    When the schema does not declare them all as strings, metadata is replaced by an object of just
    those two names (its other properties are hidden), as the apiserver's WithTypeAndObjectMeta does.
    """
    props = s.properties
    meta = props.get("metadata")
    if (props and _typed(props.get("kind"), "string") and _typed(props.get("apiVersion"), "string")
            and _typed(meta, "object") and meta.properties and _typed(meta.properties.get("name"), "string")
            and _typed(meta.properties.get("generateName"), "string")):
        return s
    string = Structural(type="string")
    new_props = dict(props)
    new_props["kind"] = string
    new_props["apiVersion"] = string
    new_props["metadata"] = Structural(type="object", properties={"name": string, "generateName": string})
    return Structural(type=s.type, description=s.description, title=s.title, default=s.default,
                      nullable=s.nullable, items=s.items, properties=new_props,
                      additional_properties=s.additional_properties,
                      x_preserve_unknown_fields=s.x_preserve_unknown_fields,
                      x_embedded_resource=s.x_embedded_resource, x_int_or_string=s.x_int_or_string,
                      x_list_map_keys=s.x_list_map_keys, x_list_type=s.x_list_type, x_map_type=s.x_map_type,
                      x_validations=s.x_validations, value_validation=s.value_validation, raw=s.raw)


def _typed(s: Structural | None, type_: str) -> bool:
    return s is not None and s.type == type_
