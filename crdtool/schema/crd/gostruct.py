"""The internal apiextensions types as the apiserver prints them in a bad value.

The internal Go types have no json tags, so json.Marshal writes Go field names in
declaration order (`{"Name":"v1","Served":true,...}`), `null` for nil pointers, slices and
maps, and JSON values (default, enum, example) as float64 numbers, because the apiserver
converted them from raw JSON into `interface{}`. These functions turn the internal form's
dicts (JSON field names) into `GoStruct`s that `go_json` renders that way. They are only
called when an error needs the value, so they favour clarity over speed.
"""

from __future__ import annotations

from typing import Any

from crdtool.model.gofmt import GoStruct


def json_value(v: Any) -> Any:
    """An `apiextensions.JSON` (interface{} from encoding/json): every number is a float64."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return float(v)
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_value(x) for x in v]
    return v


def _float(v: Any) -> Any:
    return float(v) if isinstance(v, int) and not isinstance(v, bool) else v


def _opt(d: dict, key: str, conv=None) -> Any:
    """A pointer or slice field: null when absent."""
    v = d.get(key)
    if v is None:
        return None
    return conv(v) if conv else v


def _schema_map(m: dict | None) -> dict | None:
    if m is None:
        return None
    return {k: schema_props(x) for k, x in m.items()}


def _schema_list(items: list | None) -> list | None:
    if items is None:
        return None
    return [schema_props(x) for x in items]


def _props_or_bool(v: Any) -> GoStruct | None:
    """JSONSchemaPropsOrBool: a bool allows or forbids; a schema allows with that schema."""
    if v is None:
        return None
    if isinstance(v, bool):
        return GoStruct(Allows=v, Schema=None)
    return GoStruct(Allows=True, Schema=schema_props(v))


def _props_or_array(v: Any) -> GoStruct | None:
    if v is None:
        return None
    if isinstance(v, list):
        return GoStruct(Schema=None, JSONSchemas=_schema_list(v))
    return GoStruct(Schema=schema_props(v), JSONSchemas=None)


def _dependencies(m: dict | None) -> dict | None:
    if m is None:
        return None
    out = {}
    for k, v in m.items():
        if isinstance(v, list):
            out[k] = GoStruct(Schema=None, Property=v)
        else:
            out[k] = GoStruct(Schema=schema_props(v), Property=None)
    return out


def _external_docs(v: dict | None) -> GoStruct | None:
    if v is None:
        return None
    return GoStruct(Description=v.get("description", ""), URL=v.get("url", ""))


def validation_rule(rule: dict) -> GoStruct:
    """apiextensions.ValidationRule."""
    return GoStruct(Rule=rule.get("rule", ""), Message=rule.get("message", ""),
                    MessageExpression=rule.get("messageExpression", ""), Reason=rule.get("reason"),
                    FieldPath=rule.get("fieldPath", ""), OptionalOldSelf=rule.get("optionalOldSelf"))


def schema_props(s: dict | None) -> GoStruct | None:
    """apiextensions.JSONSchemaProps, every field in declaration order."""
    if s is None:
        return None
    return GoStruct(
        ID=s.get("id", ""),
        Schema=s.get("$schema", ""),
        Ref=s.get("$ref"),
        Description=s.get("description", ""),
        Type=s.get("type", ""),
        Nullable=bool(s.get("nullable", False)),
        Format=s.get("format", ""),
        Title=s.get("title", ""),
        Default=_opt(s, "default", json_value),
        Maximum=_opt(s, "maximum", _float),
        ExclusiveMaximum=bool(s.get("exclusiveMaximum", False)),
        Minimum=_opt(s, "minimum", _float),
        ExclusiveMinimum=bool(s.get("exclusiveMinimum", False)),
        MaxLength=s.get("maxLength"),
        MinLength=s.get("minLength"),
        Pattern=s.get("pattern", ""),
        MaxItems=s.get("maxItems"),
        MinItems=s.get("minItems"),
        UniqueItems=bool(s.get("uniqueItems", False)),
        MultipleOf=_opt(s, "multipleOf", _float),
        Enum=_opt(s, "enum", json_value),
        MaxProperties=s.get("maxProperties"),
        MinProperties=s.get("minProperties"),
        Required=s.get("required"),
        Items=_props_or_array(s.get("items")),
        AllOf=_schema_list(s.get("allOf")),
        OneOf=_schema_list(s.get("oneOf")),
        AnyOf=_schema_list(s.get("anyOf")),
        Not=schema_props(s.get("not")),
        Properties=_schema_map(s.get("properties")),
        AdditionalProperties=_props_or_bool(s.get("additionalProperties")),
        PatternProperties=_schema_map(s.get("patternProperties")),
        Dependencies=_dependencies(s.get("dependencies")),
        AdditionalItems=_props_or_bool(s.get("additionalItems")),
        Definitions=_schema_map(s.get("definitions")),
        ExternalDocs=_external_docs(s.get("externalDocs")),
        Example=_opt(s, "example", json_value),
        XPreserveUnknownFields=s.get("x-kubernetes-preserve-unknown-fields"),
        XEmbeddedResource=bool(s.get("x-kubernetes-embedded-resource", False)),
        XIntOrString=bool(s.get("x-kubernetes-int-or-string", False)),
        XListMapKeys=s.get("x-kubernetes-list-map-keys"),
        XListType=s.get("x-kubernetes-list-type"),
        XMapType=s.get("x-kubernetes-map-type"),
        XValidations=_opt(s, "x-kubernetes-validations", lambda rules: [validation_rule(r) for r in rules]),
    )


def custom_resource_validation(v: dict | None) -> GoStruct | None:
    """CustomResourceValidation: the `schema` of a version."""
    if v is None:
        return None
    return GoStruct(OpenAPIV3Schema=schema_props(v.get("openAPIV3Schema")))


def subresources(v: dict | None) -> GoStruct | None:
    """CustomResourceSubresources (status is an empty struct)."""
    if v is None:
        return None
    status = GoStruct() if v.get("status") is not None else None
    scale = v.get("scale")
    if scale is not None:
        scale = GoStruct(SpecReplicasPath=scale.get("specReplicasPath", ""),
                         StatusReplicasPath=scale.get("statusReplicasPath", ""),
                         LabelSelectorPath=scale.get("labelSelectorPath"))
    return GoStruct(Status=status, Scale=scale)


def printer_column(c: dict) -> GoStruct:
    """CustomResourceColumnDefinition."""
    return GoStruct(Name=c.get("name", ""), Type=c.get("type", ""), Format=c.get("format", ""),
                    Description=c.get("description", ""), Priority=c.get("priority", 0),
                    JSONPath=c.get("jsonPath", ""))


def version(v: dict) -> GoStruct:
    """CustomResourceDefinitionVersion."""
    columns = v.get("additionalPrinterColumns")
    fields = v.get("selectableFields")
    return GoStruct(
        Name=v.get("name", ""),
        Served=bool(v.get("served", False)),
        Storage=bool(v.get("storage", False)),
        Deprecated=bool(v.get("deprecated", False)),
        DeprecationWarning=v.get("deprecationWarning"),
        Schema=custom_resource_validation(v.get("schema")),
        Subresources=subresources(v.get("subresources")),
        AdditionalPrinterColumns=None if columns is None else [printer_column(c) for c in columns],
        SelectableFields=None if fields is None else [GoStruct(JSONPath=f.get("jsonPath", "")) for f in fields],
    )


def versions(vs: list | None) -> list | None:
    """The spec.versions slice as a bad value (null when nil)."""
    if vs is None:
        return None
    return [version(v) for v in vs]
