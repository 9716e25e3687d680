"""Decoding a CustomResourceDefinition as the apiserver decodes a request body.

The apiserver turns the YAML into JSON (sigs.k8s.io/yaml: map keys come out sorted), reads
`apiVersion` and `kind` into an anonymous struct (encoding/json), then decodes the JSON into
the Go types of apiextensions.k8s.io/v1 with sigs.k8s.io/json: case-sensitive field names,
unknown fields dropped (and listed by strict decoding), `null` meaning the zero value, and
the first type mismatch failing the whole request with encoding/json's text. The types
with their own UnmarshalJSON (JSONSchemaPropsOrBool, JSONSchemaPropsOrArray,
JSONSchemaPropsOrStringArray, JSON, metav1.Time, FieldsV1) decode their content with a
fresh, non-strict decoder: unknown fields under `items`, `additionalProperties`,
`additionalItems` and `dependencies` are dropped silently, and an error there aborts the
decoding at once (a plain type mismatch elsewhere is remembered and decoding goes on).

`decode_crd` gives the typed view as plain data: the document with only the fields the Go
types know, values as written (zero values are kept as written; `null` struct fields are
dropped), and where the custom types allow several forms:
`additionalProperties`/`additionalItems` are `True`, `False` or a schema dict; `items` is
a schema dict, a list of schema dicts, or `None` when a scalar was given (the wrapper then
holds nothing); a `dependencies` value is a schema dict, a list of strings, or `None`
(likewise); `default`/`enum`/`example` are the JSON values as loaded (an `enum` entry
`null` stays `None`); `caBundle` stays the base64 text (or the list of byte values) of
the JSON. The result is a fresh tree of dicts and lists, except the raw JSON values
(`default`, `enum` entries, `example`, `fieldsV1`), which are the input's own: treat
them as read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.model.gofmt import json_unsupported_value
from crdtool.model.gounmarshal import (
    BOOL,
    BYTES,
    FLOAT64,
    INT32,
    INT64,
    K_BOOL,
    K_BYTES,
    K_FLOAT,
    K_INT,
    K_MAP,
    K_SLICE,
    K_STRING,
    K_STRUCT,
    STRING,
    STRINGS,
    Decoder,
    GoType,
    UnmarshalError,
    any_json,
    custom,
    define,
    map_of,
    slice_of,
    string_type,
    struct,
    unmarshal,
)
from crdtool.model.jsonvalue import deep_equal, holds_null
from crdtool.model.metav1 import OBJECT_META, TIME
from crdtool.model.record import Record
from crdtool.schema.crd.nodes import iter_schemas

__all__ = ["MISSING", "DecodeResult", "decode_crd", "semantic_equal"]


class DecodeResult(Record):
    """What the apiserver's decoding made of a CRD document.

    `crd` is the typed view (None when decoding failed). `error` is the decoding error text
    (encoding/json's words); the apiserver answers `CustomResourceDefinition in version "v1"
    cannot be handled as a CustomResourceDefinition: <error>`, except when `unrecognized` is
    set: then it could not even read apiVersion/kind and answers `the object provided is
    unrecognized (must be of type CustomResourceDefinition): <error> (<summary of the body>)`.
    `unknown_fields` are strict decoding's `unknown field "<path>"` texts in the apiserver's
    order (empty when decoding failed: strict errors are not reported then).
    """

    __slots__ = ("crd", "error", "unknown_fields", "unrecognized")

    crd: dict | None
    error: str | None
    unknown_fields: list[str]
    unrecognized: bool

    def __init__(self, crd: dict | None, error: str | None = None, unknown_fields: list[str] | None = None,
                 unrecognized: bool = False) -> None:
        self.crd = crd
        self.error = error
        self.unknown_fields = [] if unknown_fields is None else unknown_fields
        self.unrecognized = unrecognized


# ---------------------------------------------------------------- the Go types


def _or_bool(value: Any, decoder: Decoder) -> Any:
    """JSONSchemaPropsOrBool.UnmarshalJSON: a schema object, true or false; anything else is an error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, dict):
        return decoder.nested(value, SCHEMA)
    raise UnmarshalError("boolean or JSON schema expected")


def _or_list(elems: GoType) -> Callable[[Any, Decoder], Any]:
    """JSONSchemaPropsOrArray/JSONSchemaPropsOrStringArray.UnmarshalJSON: a schema object or a list of
    `elems`; any other value leaves the wrapper empty (None)."""
    def decode(value: Any, decoder: Decoder) -> Any:
        if isinstance(value, dict):
            return decoder.nested(value, SCHEMA)
        if isinstance(value, list):
            return decoder.nested(value, elems)
        return None
    return decode


def decodes_as_written(schema: dict) -> bool:
    """Whether decoding a schema into JSONSchemaProps changes nothing its readers see, so that it may be
    used as written: no null anywhere (a list element or map value decodes to its zero value), and no
    `items` or `dependencies` entry that `_or_list` leaves out (neither a schema nor a list). Unknown
    keys, which decoding drops too, nothing reads."""
    if holds_null(schema):
        return False
    for node in iter_schemas(schema):
        entries = [node.get("items", [])]
        dependencies = node.get("dependencies")
        if isinstance(dependencies, dict):
            entries.extend(dependencies.values())
        if not all(isinstance(entry, (dict, list)) for entry in entries):
            return False
    return True


JSON = any_json("v1.JSON")  # its UnmarshalJSON keeps any JSON as it is
SCHEMA = struct("v1.JSONSchemaProps")
_SCHEMAS = slice_of(SCHEMA)
_SCHEMA_MAP = map_of(SCHEMA)
_OR_BOOL = custom("v1.JSONSchemaPropsOrBool", _or_bool)
_OR_ARRAY = custom("v1.JSONSchemaPropsOrArray", _or_list(_SCHEMAS))
_OR_STRINGS = custom("v1.JSONSchemaPropsOrStringArray", _or_list(STRINGS))
_RULE = define(struct("v1.ValidationRule"), {
    "rule": STRING, "message": STRING, "messageExpression": STRING, "reason": string_type("v1.FieldValueErrorReason"),
    "fieldPath": STRING, "optionalOldSelf": BOOL,
}, "reason optionalOldSelf")
define(SCHEMA, {
    "id": STRING, "$schema": string_type("v1.JSONSchemaURL"), "$ref": STRING, "description": STRING, "type": STRING,
    "format": STRING, "title": STRING, "default": JSON, "maximum": FLOAT64, "exclusiveMaximum": BOOL,
    "minimum": FLOAT64, "exclusiveMinimum": BOOL, "maxLength": INT64, "minLength": INT64, "pattern": STRING,
    "maxItems": INT64, "minItems": INT64, "uniqueItems": BOOL, "multipleOf": FLOAT64, "enum": slice_of(JSON),
    "maxProperties": INT64, "minProperties": INT64, "required": STRINGS,
    "items": _OR_ARRAY,
    "allOf": _SCHEMAS, "oneOf": _SCHEMAS, "anyOf": _SCHEMAS, "not": SCHEMA, "properties": _SCHEMA_MAP,
    "additionalProperties": _OR_BOOL, "patternProperties": _SCHEMA_MAP,
    "dependencies": map_of(_OR_STRINGS, "v1.JSONSchemaDependencies"),
    "additionalItems": _OR_BOOL, "definitions": map_of(SCHEMA, "v1.JSONSchemaDefinitions"),
    "externalDocs": define(struct("v1.ExternalDocumentation"), {"description": STRING, "url": STRING}),
    "example": JSON, "nullable": BOOL, "x-kubernetes-preserve-unknown-fields": BOOL,
    "x-kubernetes-embedded-resource": BOOL, "x-kubernetes-int-or-string": BOOL,
    "x-kubernetes-list-map-keys": STRINGS, "x-kubernetes-list-type": STRING, "x-kubernetes-map-type": STRING,
    "x-kubernetes-validations": slice_of(_RULE, "v1.ValidationRules"),
}, "$ref default maximum minimum maxLength minLength maxItems minItems multipleOf maxProperties minProperties "
   "items not additionalProperties additionalItems externalDocs example x-kubernetes-preserve-unknown-fields "
   "x-kubernetes-list-type x-kubernetes-map-type")

_NAMES = define(struct("v1.CustomResourceDefinitionNames"), {
    "plural": STRING, "singular": STRING, "shortNames": STRINGS, "kind": STRING, "listKind": STRING,
    "categories": STRINGS,
})
_CLIENT_CONFIG = define(struct("v1.WebhookClientConfig"), {
    "url": STRING, "caBundle": BYTES,
    "service": define(struct("v1.ServiceReference"), {"namespace": STRING, "name": STRING, "path": STRING,
                                                       "port": INT32}, "path port"),
}, "url service")
_VERSION = define(struct("v1.CustomResourceDefinitionVersion"), {
    "name": STRING, "served": BOOL, "storage": BOOL, "deprecated": BOOL, "deprecationWarning": STRING,
    "schema": define(struct("v1.CustomResourceValidation"), {"openAPIV3Schema": SCHEMA}, "openAPIV3Schema"),
    "subresources": define(struct("v1.CustomResourceSubresources"), {
        "status": define(struct("v1.CustomResourceSubresourceStatus"), {}),
        "scale": define(struct("v1.CustomResourceSubresourceScale"), {
            "specReplicasPath": STRING, "statusReplicasPath": STRING, "labelSelectorPath": STRING,
        }, "labelSelectorPath"),
    }, "status scale"),
    "additionalPrinterColumns": slice_of(define(struct("v1.CustomResourceColumnDefinition"), {
        "name": STRING, "type": STRING, "format": STRING, "description": STRING, "priority": INT32,
        "jsonPath": STRING,
    })),
    "selectableFields": slice_of(define(struct("v1.SelectableField"), {"jsonPath": STRING})),
}, "deprecationWarning schema subresources")
_SPEC = define(struct("v1.CustomResourceDefinitionSpec"), {
    "group": STRING, "names": _NAMES, "scope": string_type("v1.ResourceScope"), "versions": slice_of(_VERSION),
    "conversion": define(struct("v1.CustomResourceConversion"), {
        "strategy": string_type("v1.ConversionStrategyType"),
        "webhook": define(struct("v1.WebhookConversion"), {"clientConfig": _CLIENT_CONFIG,
                                                           "conversionReviewVersions": STRINGS}, "clientConfig"),
    }, "webhook"),
    "preserveUnknownFields": BOOL,
}, "conversion")
_STATUS = define(struct("v1.CustomResourceDefinitionStatus"), {
    "conditions": slice_of(define(struct("v1.CustomResourceDefinitionCondition"), {
        "type": string_type("v1.CustomResourceDefinitionConditionType"), "status": string_type("v1.ConditionStatus"),
        "lastTransitionTime": TIME, "reason": STRING, "message": STRING, "observedGeneration": INT64,
    })),
    "acceptedNames": _NAMES, "storedVersions": STRINGS, "observedGeneration": INT64,
})
CRD = define(struct("v1.CustomResourceDefinition"), {
    "apiVersion": STRING, "kind": STRING, "metadata": OBJECT_META, "spec": _SPEC, "status": _STATUS,
})
_STRUCTS = {t.name: t for t in (CRD, _SPEC, _VERSION, _STATUS, SCHEMA)}
#: What SimpleMetaFactory.Interpret reads apiVersion and kind into (with encoding/json: any case).
_TYPE_META = define(struct('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
                           'Kind string "json:\\"kind,omitempty\\"" }'), {"apiVersion": STRING, "kind": STRING})


# ---------------------------------------------------------------- entry points


def decode_crd(data: Any) -> DecodeResult:
    """Decode a CRD document (`Document.data`) as the apiserver decodes a v1 CustomResourceDefinition.

    The JSON the apiserver reads lists keys sorted (kubectl wrote it from a map), which decides
    which error is reported and the order of unknown fields; the typed view keeps the document's
    order, so the sorted reading is done only when there is something to report.
    """
    unsupported = json_unsupported_value(data)
    if unsupported is not None:
        return DecodeResult(None, f"json: unsupported value: {unsupported[1]}", [], True)
    interpreted = unmarshal(data, _TYPE_META, sorted_keys=True, fold_case=True)
    if interpreted.error is not None:
        return DecodeResult(None, f"couldn't get version/kind; json parse error: {interpreted.error}", [], True)
    if data is None:
        return DecodeResult({})
    res = unmarshal(data, CRD, strict=True)
    if res.error is not None or res.strict_errors:
        ordered = unmarshal(data, CRD, strict=True, sorted_keys=True)
        if ordered.error is not None:
            return DecodeResult(None, str(ordered.error))
        return DecodeResult(res.value, None, ordered.strict_errors)
    return DecodeResult(res.value)


# ---------------------------------------------------------------- semantic equality

#: An absent field, for `semantic_equal`.
MISSING = object()


def semantic_equal(struct_name: str, field_name: str, a: Any, b: Any) -> bool:
    """apiequality.Semantic.DeepEqual of two decoded values of field `field_name` of Go struct `struct_name`.

    Pass `MISSING` for an absent field. Zero values equal absent
    non-pointer fields, nil equals empty for slices and maps, JSON values compare with their
    Go types (an int64 never equals a float64 or a bool).
    """
    t = _STRUCTS[struct_name]
    return _equal(t.fields[field_name], a, b, field_name in t.pointers)


def _equal(t: GoType, a: Any, b: Any, pointer: bool) -> bool:
    if a is b:
        return True
    if a is MISSING or b is MISSING:
        return not pointer and _is_zero(t, b if a is MISSING else a)
    k = t.kind
    if k == K_STRUCT:
        fields, pointers = t.fields, t.pointers
        return all(_equal(fields[key], a.get(key, MISSING), b.get(key, MISSING), key in pointers)
                   for key in a.keys() | b.keys())
    if k == K_SLICE:
        return len(a) == len(b) and all(_equal(t.elem, x, y, False) for x, y in zip(a, b, strict=True))
    if k == K_MAP:
        return a.keys() == b.keys() and all(_equal(t.elem, a[key], b[key], False) for key in a)
    if k == K_FLOAT:
        return float(a) == float(b)
    if t is _OR_BOOL or t is _OR_ARRAY or t is _OR_STRINGS:
        if isinstance(a, bool) or isinstance(b, bool):
            return a is b
        (sa, la), (sb, lb) = _or_parts(a), _or_parts(b)
        schemas_equal = sa is sb if sa is None or sb is None else _equal(SCHEMA, sa, sb, True)
        return schemas_equal and _equal(_SCHEMAS if t is _OR_ARRAY else STRINGS, la, lb, False)
    return deep_equal(a, b)  # JSON values decoded with PreserveInts: types must match, not just values


def _or_parts(v: Any) -> tuple[dict | None, list]:
    """A JSONSchemaPropsOr* value as its two Go fields: the schema, the list."""
    if isinstance(v, dict):
        return v, []
    return None, v if isinstance(v, list) else []


def _is_zero(t: GoType, v: Any) -> bool:
    k = t.kind
    if k == K_STRUCT:
        return all(key not in t.pointers and _is_zero(t.fields[key], x) for key, x in v.items())
    if k in (K_SLICE, K_MAP, K_BYTES):
        return len(v) == 0
    if k == K_STRING:
        return v == ""
    if k in (K_BOOL, K_INT, K_FLOAT):
        return v is False or (not isinstance(v, bool) and v == 0)
    return v is None
