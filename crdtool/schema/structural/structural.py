"""The structural schema: the apiserver's model of a CRD's openAPIV3Schema
(`k8s.io/apiextensions-apiserver/pkg/apiserver/schema`, `Structural` and `NewStructural`).

A structural schema separates what gives a value its shape (type, properties, items,
additionalProperties, the x-kubernetes-* extensions, defaults) from value validations
(`ValueValidation`), and keeps the logical junctors (allOf, anyOf, oneOf, not) apart as
`NestedValueValidation`s, where anything structural is forbidden. Pruning, defaulting,
CEL typing and `explain` all walk this tree, so it is built once per schema, straight
from the decoded JSONSchemaProps dict (JSON field names), without copying values.

Conventions, chosen to keep Go's nil-versus-empty distinctions where they matter:
- `properties` is always a dict; empty means Go's nil map (NewStructural drops `properties: {}`).
- `default` is None when there is no default (a JSON null default is no default in the apiserver).
- `additional_properties` is None (unset), a bool (`additionalProperties: true|false`), or a Structural.
- list-valued fields (`required`, `enum`, `x_list_map_keys`, `x_validations`) are None when absent and keep
  an explicit empty list, as Go keeps an empty slice.
- `raw` is the JSONSchemaProps dict the node was built from (for value validation and messages).

`valid_field_path` resolves a JSON path (`.spec.ports['http']`) against the tree, as the apiserver
checks a rule's fieldPath and a version's selectableFields; `has_rules` is hasXValidations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.model.memo import IdentityMemo
from crdtool.model.path import Path
from crdtool.model.record import IdentityRecord, replace

EMPTY: tuple = ()


class NotStructuralError(ValueError):
    """NewStructural's error: the schema uses a field a structural schema cannot represent."""


class ValueValidation(IdentityRecord):
    """The fields that validate a value without contributing to its shape."""

    __slots__ = ("format", "maximum", "exclusive_maximum", "minimum", "exclusive_minimum", "max_length", "min_length",
                 "pattern", "max_items", "min_items", "unique_items", "multiple_of", "enum", "max_properties",
                 "min_properties", "required", "all_of", "one_of", "any_of", "not_")

    format: str
    maximum: float | int | None
    exclusive_maximum: bool
    minimum: float | int | None
    exclusive_minimum: bool
    max_length: int | None
    min_length: int | None
    pattern: str
    max_items: int | None
    min_items: int | None
    unique_items: bool
    multiple_of: float | int | None
    enum: list | None
    max_properties: int | None
    min_properties: int | None
    required: list[str] | None
    all_of: list[NestedValueValidation] | tuple
    one_of: list[NestedValueValidation] | tuple
    any_of: list[NestedValueValidation] | tuple
    not_: NestedValueValidation | None

    def __init__(self, format: str = "", maximum: float | int | None = None, exclusive_maximum: bool = False,
                 minimum: float | int | None = None, exclusive_minimum: bool = False, max_length: int | None = None,
                 min_length: int | None = None, pattern: str = "", max_items: int | None = None,
                 min_items: int | None = None, unique_items: bool = False, multiple_of: float | int | None = None,
                 enum: list | None = None, max_properties: int | None = None, min_properties: int | None = None,
                 required: list[str] | None = None, all_of: list[NestedValueValidation] | tuple = EMPTY,
                 one_of: list[NestedValueValidation] | tuple = EMPTY,
                 any_of: list[NestedValueValidation] | tuple = EMPTY,
                 not_: NestedValueValidation | None = None) -> None:
        self.format = format
        self.maximum = maximum
        self.exclusive_maximum = exclusive_maximum
        self.minimum = minimum
        self.exclusive_minimum = exclusive_minimum
        self.max_length = max_length
        self.min_length = min_length
        self.pattern = pattern
        self.max_items = max_items
        self.min_items = min_items
        self.unique_items = unique_items
        self.multiple_of = multiple_of
        self.enum = enum
        self.max_properties = max_properties
        self.min_properties = min_properties
        self.required = required
        self.all_of = all_of
        self.one_of = one_of
        self.any_of = any_of
        self.not_ = not_

    def is_empty(self) -> bool:
        """Whether every field has its zero value (Go's `reflect.DeepEqual(v, ValueValidation{})`)."""
        return (not self.format and self.maximum is None and not self.exclusive_maximum and self.minimum is None
                and not self.exclusive_minimum and self.max_length is None and self.min_length is None
                and not self.pattern and self.max_items is None and self.min_items is None
                and not self.unique_items and self.multiple_of is None and self.enum is None
                and self.max_properties is None and self.min_properties is None and self.required is None
                and not self.all_of and not self.one_of and not self.any_of and self.not_ is None)


class NestedValueValidation(ValueValidation):
    """A schema under allOf/anyOf/oneOf/not. Its structural fields are kept only to be reported:
    a structural schema must leave them unset (the `Forbidden*` fields of the Go type)."""

    __slots__ = ("items", "properties", "additional_properties", "type", "description", "title", "default",
                 "nullable", "x_preserve_unknown_fields", "x_embedded_resource", "x_int_or_string", "x_list_map_keys",
                 "x_list_type", "x_map_type", "x_validations", "raw")

    items: NestedValueValidation | None
    properties: dict[str, NestedValueValidation] | None
    additional_properties: NestedValueValidation | bool | None
    type: str
    description: str
    title: str
    default: Any
    nullable: bool
    x_preserve_unknown_fields: bool
    x_embedded_resource: bool
    x_int_or_string: bool
    x_list_map_keys: list[str] | None
    x_list_type: str | None
    x_map_type: str | None
    x_validations: list[dict] | None
    raw: dict | None

    def __init__(self, format: str = "", maximum: float | int | None = None, exclusive_maximum: bool = False,
                 minimum: float | int | None = None, exclusive_minimum: bool = False, max_length: int | None = None,
                 min_length: int | None = None, pattern: str = "", max_items: int | None = None,
                 min_items: int | None = None, unique_items: bool = False, multiple_of: float | int | None = None,
                 enum: list | None = None, max_properties: int | None = None, min_properties: int | None = None,
                 required: list[str] | None = None, all_of: list[NestedValueValidation] | tuple = EMPTY,
                 one_of: list[NestedValueValidation] | tuple = EMPTY,
                 any_of: list[NestedValueValidation] | tuple = EMPTY,
                 not_: NestedValueValidation | None = None, items: NestedValueValidation | None = None,
                 properties: dict[str, NestedValueValidation] | None = None,
                 additional_properties: NestedValueValidation | bool | None = None, type: str = "",
                 description: str = "", title: str = "", default: Any = None, nullable: bool = False,
                 x_preserve_unknown_fields: bool = False, x_embedded_resource: bool = False,
                 x_int_or_string: bool = False, x_list_map_keys: list[str] | None = None,
                 x_list_type: str | None = None, x_map_type: str | None = None,
                 x_validations: list[dict] | None = None, raw: dict | None = None) -> None:
        super().__init__(format, maximum, exclusive_maximum, minimum, exclusive_minimum, max_length, min_length,
                         pattern, max_items, min_items, unique_items, multiple_of, enum, max_properties,
                         min_properties, required, all_of, one_of, any_of, not_)
        self.items = items
        self.properties = properties
        self.additional_properties = additional_properties
        self.type = type
        self.description = description
        self.title = title
        self.default = default
        self.nullable = nullable
        self.x_preserve_unknown_fields = x_preserve_unknown_fields
        self.x_embedded_resource = x_embedded_resource
        self.x_int_or_string = x_int_or_string
        self.x_list_map_keys = x_list_map_keys
        self.x_list_type = x_list_type
        self.x_map_type = x_map_type
        self.x_validations = x_validations
        self.raw = raw

    def only_type(self, type_name: str) -> bool:
        """Whether this is exactly `{type: <type_name>}` (the int-or-string anyOf branches)."""
        return (self.type == type_name and ValueValidation.is_empty(self) and self.items is None
                and self.properties is None and self.additional_properties is None and not self.description
                and not self.title and self.default is None and not self.nullable
                and not self.x_preserve_unknown_fields and not self.x_embedded_resource
                and not self.x_int_or_string and self.x_list_map_keys is None and self.x_list_type is None
                and self.x_map_type is None and self.x_validations is None)


class Structural(IdentityRecord):
    """One node of a structural schema."""

    __slots__ = ("type", "description", "title", "default", "nullable", "items", "properties",
                 "additional_properties", "x_preserve_unknown_fields", "x_embedded_resource", "x_int_or_string",
                 "x_list_map_keys", "x_list_type", "x_map_type", "x_validations", "value_validation", "raw")

    type: str
    description: str
    title: str
    default: Any
    nullable: bool
    items: Structural | None
    properties: dict[str, Structural]
    additional_properties: Structural | bool | None
    x_preserve_unknown_fields: bool
    x_embedded_resource: bool
    x_int_or_string: bool
    x_list_map_keys: list[str] | None
    x_list_type: str | None
    x_map_type: str | None
    x_validations: list[dict] | None
    value_validation: ValueValidation | None
    raw: dict | None

    def __init__(self, type: str = "", description: str = "", title: str = "", default: Any = None,
                 nullable: bool = False, items: Structural | None = None,
                 properties: dict[str, Structural] | None = None,
                 additional_properties: Structural | bool | None = None, x_preserve_unknown_fields: bool = False,
                 x_embedded_resource: bool = False, x_int_or_string: bool = False,
                 x_list_map_keys: list[str] | None = None, x_list_type: str | None = None,
                 x_map_type: str | None = None, x_validations: list[dict] | None = None,
                 value_validation: ValueValidation | None = None, raw: dict | None = None) -> None:
        self.type = type
        self.description = description
        self.title = title
        self.default = default
        self.nullable = nullable
        self.items = items
        self.properties = {} if properties is None else properties
        self.additional_properties = additional_properties
        self.x_preserve_unknown_fields = x_preserve_unknown_fields
        self.x_embedded_resource = x_embedded_resource
        self.x_int_or_string = x_int_or_string
        self.x_list_map_keys = x_list_map_keys
        self.x_list_type = x_list_type
        self.x_map_type = x_map_type
        self.x_validations = x_validations
        self.value_validation = value_validation
        self.raw = raw

    @property
    def additional_properties_schema(self) -> Structural | None:
        """The schema of additionalProperties, if it has one (Go's `AdditionalProperties.Structural`)."""
        ap = self.additional_properties
        return ap if isinstance(ap, Structural) else None

    @property
    def has_default(self) -> bool:
        return self.default is not None


# JSON field -> attribute, for the fields copied as they are (None, the JSON null, leaves the zero value).
_VALUE_ATTRS = {
    "format": "format", "maximum": "maximum", "exclusiveMaximum": "exclusive_maximum", "minimum": "minimum",
    "exclusiveMinimum": "exclusive_minimum", "maxLength": "max_length", "minLength": "min_length",
    "pattern": "pattern", "maxItems": "max_items", "minItems": "min_items", "uniqueItems": "unique_items",
    "multipleOf": "multiple_of", "enum": "enum", "maxProperties": "max_properties",
    "minProperties": "min_properties", "required": "required",
}
_GENERIC_ATTRS = {
    "type": "type", "description": "description", "title": "title", "default": "default", "nullable": "nullable",
    "x-kubernetes-embedded-resource": "x_embedded_resource", "x-kubernetes-int-or-string": "x_int_or_string",
    "x-kubernetes-list-map-keys": "x_list_map_keys", "x-kubernetes-list-type": "x_list_type",
    "x-kubernetes-map-type": "x_map_type", "x-kubernetes-validations": "x_validations",
}
_NESTED_ATTRS = {**_VALUE_ATTRS, **_GENERIC_ATTRS}
#: The fields `_check_unsupported` looks at, and the logical junctors: most nodes have none of them.
_UNSUPPORTED_KEYS = frozenset(("id", "$schema", "$ref", "patternProperties", "dependencies", "additionalItems",
                               "definitions"))
_JUNCTOR_KEYS = frozenset(("not", "allOf", "anyOf", "oneOf"))


def new_structural(schema: dict | None) -> Structural | None:
    """NewStructural: the structural schema of a JSONSchemaProps dict.

    Raises NotStructuralError with the apiserver's text for fields a structural schema cannot
    hold (id, $schema, $ref, patternProperties, dependencies, additionalItems, definitions,
    an items array, `x-kubernetes-preserve-unknown-fields: false`), found in the apiserver's order.
    (Every node of every schema comes here: the value validation and the generic fields are taken
    in one pass over the node's fields, and the checks of fields most nodes lack are skipped by
    their keys.)
    """
    if schema is None:
        return None
    keys = schema.keys()
    if not keys.isdisjoint(_UNSUPPORTED_KEYS):
        _check_unsupported(schema)
    v = ValueValidation()
    node = Structural(value_validation=v, raw=schema)
    junctors = not keys.isdisjoint(_JUNCTOR_KEYS)
    if junctors:
        not_schema = schema.get("not")
        if not_schema is not None:
            v.not_ = _nested(not_schema)
    for key, value in schema.items():
        if value is not None:
            attr = _VALUE_ATTRS.get(key)
            if attr is not None:
                setattr(v, attr, value)
            else:
                attr = _GENERIC_ATTRS.get(key)
                if attr is not None:
                    setattr(node, attr, value)
    if not v.enum:
        v.enum = None
    if junctors:
        _junctors(schema, v)
    ap = schema.get("additionalProperties")
    if ap is not None:
        node.additional_properties = ap if isinstance(ap, bool) else new_structural(ap)
    node.x_preserve_unknown_fields = _preserve_unknown_fields(schema)
    if isinstance(node.x_validations, list):  # a null entry decodes into Go's zero ValidationRule
        node.x_validations = [rule if rule is not None else {} for rule in node.x_validations]
    node.items = _items(schema, new_structural)
    props = schema.get("properties")
    if props:
        node.properties = {name: new_structural(sub) for name, sub in props.items()}
    return node


#: Schema -> itself as a resource root.
_ROOTS: IdentityMemo[Structural] = IdentityMemo(limit=512)


def as_resource_root(schema: Structural | None) -> Structural:
    """The schema as the apiserver takes a resource's root: an embedded resource (its apiVersion, kind and
    metadata its own). Made once per schema: the decoding of every object asks for it."""
    if schema is None:
        return Structural(x_embedded_resource=True)
    if schema.x_embedded_resource:
        return schema
    root = _ROOTS.get(schema)
    return root if root is not None else _ROOTS.put(schema, replace(schema, x_embedded_resource=True))


def has_rules(schema: Structural | None) -> bool:
    """hasXValidations: whether the schema has any x-kubernetes-validations (the apiserver has a CEL
    validator only then)."""
    if schema is None:
        return False
    if schema.x_validations:
        return True
    return (has_rules(schema.items) or has_rules(schema.additional_properties_schema)
            or any(has_rules(p) for p in schema.properties.values()))


def _generics_and_extensions(node: Structural | NestedValueValidation, s: dict,
                             build: Callable[[dict], Any]) -> None:
    """newGenerics and newExtensions: copy the generic fields and the x-kubernetes extensions of s
    into node, building a schema-valued additionalProperties with `build` (the caller's own kind)."""
    for key, value in s.items():
        attr = _GENERIC_ATTRS.get(key)
        if attr is not None and value is not None:
            setattr(node, attr, value)
    ap = s.get("additionalProperties")
    if ap is not None:
        node.additional_properties = ap if isinstance(ap, bool) else build(ap)
    node.x_preserve_unknown_fields = _preserve_unknown_fields(s)


def _items(s: dict, build: Callable[[dict], Any]) -> Any:
    """The schema of `items` built with `build` (None when absent; an array of schemas is refused)."""
    items = s.get("items")
    if items is None:
        return None
    if isinstance(items, list):
        if items:
            raise NotStructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array")
        return None
    return build(items)


def _preserve_unknown_fields(schema: dict) -> bool:
    value = schema.get("x-kubernetes-preserve-unknown-fields")
    if value is None:
        return False
    if not value:
        raise NotStructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
    return True


def _check_unsupported(s: dict) -> None:
    """validateUnsupportedFields: the fields validation forbids must really be unset."""
    if s.get("id"):
        raise NotStructuralError("OpenAPIV3Schema 'id' is not supported")
    if s.get("$schema"):
        raise NotStructuralError("OpenAPIV3Schema 'schema' is not supported")
    if s.get("$ref"):
        raise NotStructuralError("OpenAPIV3Schema '$ref' is not supported")
    if s.get("patternProperties"):
        raise NotStructuralError("OpenAPIV3Schema 'patternProperties' is not supported")
    if s.get("dependencies"):
        raise NotStructuralError("OpenAPIV3Schema 'dependencies' is not supported")
    if s.get("additionalItems") is not None:
        raise NotStructuralError("OpenAPIV3Schema 'additionalItems' is not supported")
    if s.get("definitions"):
        raise NotStructuralError("OpenAPIV3Schema 'definitions' is not supported")


def _value_validation(s: dict, v: ValueValidation) -> ValueValidation:
    """Fill the value validation fields of v from s (the junctors in newValueValidation's order)."""
    not_schema = s.get("not")
    if not_schema is not None:
        v.not_ = _nested(not_schema)
    for key, value in s.items():
        attr = _VALUE_ATTRS.get(key)
        if attr is not None and value is not None:
            setattr(v, attr, value)
    if not v.enum:
        v.enum = None
    _junctors(s, v)
    return v


def _junctors(s: dict, v: ValueValidation) -> None:
    """allOf, anyOf and oneOf of s as nested value validations of v (after `not`, as newValueValidation)."""
    for key, attr in (("allOf", "all_of"), ("anyOf", "any_of"), ("oneOf", "one_of")):
        clauses = s.get(key)
        if clauses:
            setattr(v, attr, [_nested(c) for c in clauses])


def _nested(s: dict) -> NestedValueValidation:
    """newNestedValueValidation."""
    _check_unsupported(s)
    n = _value_validation(s, NestedValueValidation(raw=s))
    _generics_and_extensions(n, s, _nested)
    n.items = _items(s, _nested)
    props = s.get("properties")
    if props is not None:
        n.properties = {name: _nested(sub) for name, sub in props.items()}
    return n

def valid_field_path(json_path: str, s: Structural | None, allow_array_notation: bool = True
                     ) -> tuple[Path | None, Structural | None]:
    """cel.ValidFieldPath: the field path a JSON path like `.spec.ports['http']` names under s, and
    the schema it reaches. Raises ValueError with the apiserver's text when the path is not valid.
    """
    path: Path | None = None
    tokens = _json_path_tokens(json_path)
    pos = 0

    def step(name: str) -> None:
        nonlocal path, s
        if s is None:
            raise ValueError("does not refer to a valid field")
        if s.properties:
            prop = s.properties.get(name)
            path = Path.root(name) if path is None else path.child(name)
            if prop is None:
                raise ValueError("does not refer to a valid field")
            s = prop
        elif s.additional_properties is not None:
            path = Path((name,), "k") if path is None else path.key(name)
            s = s.additional_properties_schema
        else:
            raise ValueError("does not refer to a valid field")

    while pos < len(tokens):
        tok = tokens[pos]
        pos += 1
        if tok == "[":
            if not allow_array_notation:
                raise ValueError("array notation is not allowed")
            if pos >= len(tokens):
                raise ValueError("unexpected end of JSON path")
            tok = tokens[pos]
            pos += 1
            if len(tok) < 2 or tok[0] != "'" or tok[-1] != "'":
                raise ValueError(f"expected single quoted string but got {tok}")
            step(_unescape_single_quoted(tok[1:-1]))
            if pos >= len(tokens):
                raise ValueError("unexpected end of JSON path")
            tok = tokens[pos]
            pos += 1
            if tok != "]":
                raise ValueError(f"expected ] but got {tok}")
        elif tok == ".":
            if pos >= len(tokens):
                raise ValueError("unexpected end of JSON path")
            step(tokens[pos])
            pos += 1
        else:
            raise ValueError(f"expected [ or . but got: {tok}")
    return path, s


def _json_path_tokens(s: str) -> list[str]:
    """The scanner of ValidFieldPath: '.', '[' and ']' alone, single-quoted strings whole, other runs of text."""
    tokens: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "'":
            j = i + 1
            while j < n and not (s[j] == "'" and s[j - 1] != "\\"):
                j += 1
            tokens.append(s[i:j + 1])
            i = j + 1
        elif c in ".[]":
            tokens.append(c)
            i += 1
        else:
            j = i
            while j < n and s[j] not in ".[]":
                j += 1
            tokens.append(s[i:j])
            i = j
    return tokens


_SINGLE_QUOTE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "'": "'",
                         "\\": "\\"}


def _unescape_single_quoted(s: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] != "\n":
            directive = s[i + 1]
            if directive not in _SINGLE_QUOTE_ESCAPES:
                raise ValueError(f"invalid string literal: invalid escape char \\{directive}")
            out.append(_SINGLE_QUOTE_ESCAPES[directive])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
