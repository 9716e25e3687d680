"""The structural schema model, ValidateStructural and Go's regexp errors, checked against the apiserver's
texts (conformance cases of lint.jsonl and the apiserver's own tests)."""

from __future__ import annotations

import pytest

from crdtool.model.goregexp import go_regexp_error
from crdtool.model.path import Path
from crdtool.schema.structural.structural import (
    NotStructuralError,
    Structural,
    as_resource_root,
    new_structural,
    valid_field_path,
)
from crdtool.schema.structural.validation import is_structural, validate_structural

ROOT = Path.root("spec", "validation", "openAPIV3Schema")


def messages(schema: dict) -> list[str]:
    return [str(e) for e in validate_structural(ROOT, new_structural(schema))]


def obj(**props) -> dict:
    return {"type": "object", "properties": props}


# ------------------------------------------------------------------ the model
def test_tree_keeps_shape_and_go_nil_versus_empty():
    s = new_structural({
        "type": "object",
        "required": [],
        "properties": {
            "list": {"type": "array", "items": {"type": "string", "enum": []}},
            "map": {"type": "object", "additionalProperties": {"type": "integer", "default": 3}},
            "free": {"type": "object", "additionalProperties": True, "properties": {}},
        },
    })
    assert list(s.properties) == ["list", "map", "free"]
    assert s.value_validation.required == []
    assert s.properties["list"].items.type == "string"
    assert s.properties["list"].items.value_validation.enum is None
    assert s.properties["map"].additional_properties_schema.default == 3
    assert s.properties["free"].additional_properties is True
    assert s.properties["free"].properties == {}
    assert s.properties["free"].raw == {"type": "object", "additionalProperties": True, "properties": {}}


def test_a_resource_root_is_the_schema_as_an_embedded_resource_made_once():
    schema = new_structural(obj(spec=obj()))
    root = as_resource_root(schema)
    assert root.x_embedded_resource and not schema.x_embedded_resource
    assert root.properties is schema.properties and root.raw is schema.raw
    assert as_resource_root(schema) is root
    assert as_resource_root(root) is root
    assert as_resource_root(None).x_embedded_resource


def test_junctors_become_nested_value_validations():
    s = new_structural({"x-kubernetes-int-or-string": True,
                        "anyOf": [{"type": "integer"}, {"type": "string"}],
                        "allOf": [{"properties": {"a": {"maxLength": 3}}}],
                        "not": {"required": ["b"]}})
    vv = s.value_validation
    assert [c.type for c in vv.any_of] == ["integer", "string"]
    assert vv.all_of[0].properties["a"].max_length == 3
    assert vv.not_.required == ["b"]


@pytest.mark.parametrize(("schema", "message"), [
    ({"properties": {"a": {"$schema": "http://json-schema.org/schema#"}}}, "OpenAPIV3Schema 'schema' is not supported"),
    ({"id": "x"}, "OpenAPIV3Schema 'id' is not supported"),
    ({"items": [{"type": "string"}]}, "OpenAPIV3Schema 'items' must be a schema, but is an array"),
    ({"x-kubernetes-preserve-unknown-fields": False},
     "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"),
    # the junctors are converted before additionalProperties, as NewStructural does
    ({"additionalProperties": {"$ref": "#/a"}, "allOf": [{"definitions": {"a": {}}}]},
     "OpenAPIV3Schema 'definitions' is not supported"),
])
def test_new_structural_rejects_what_it_cannot_hold(schema, message):
    with pytest.raises(NotStructuralError, match="^" + message.replace("$", r"\$") + "$"):
        new_structural(schema)


# ------------------------------------------------------------------ ValidateStructural
def test_non_structural_example_errors_are_the_apiservers_sorted():
    # lint/seed/structural/non-structural-example-3 (the Kubernetes documentation's example)
    schema = {"properties": {"foo": {"pattern": "abc"},
                             "metadata": {"type": "object", "properties": {
                                 "name": {"type": "string", "pattern": "^a"},
                                 "finalizers": {"type": "array", "items": {"type": "string",
                                                                           "pattern": "my-finalizer"}}}}},
              "anyOf": [{"properties": {"bar": {"type": "integer", "minimum": 42}}, "required": ["bar"],
                         "description": "foo bar object"}]}
    assert messages(schema) == [
        "spec.validation.openAPIV3Schema.anyOf[0].description: Forbidden: must be empty to be structural",
        "spec.validation.openAPIV3Schema.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural",
        "spec.validation.openAPIV3Schema.properties[bar]: Required value: because it is defined in "
        "spec.validation.openAPIV3Schema.anyOf[0].properties[bar]",
        "spec.validation.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified "
        "object fields",
        "spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name "
        "and generateName, but metadata is implicitly specified",
        "spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root",
    ]


def test_int_or_string_patterns_are_structural():
    for int_or_string in ({"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                          {"x-kubernetes-int-or-string": True,
                           "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"maxLength": 3}]}):
        assert messages(obj(port=int_or_string)) == []
    # any other field in a branch breaks the pattern
    assert messages(obj(port={"x-kubernetes-int-or-string": True,
                              "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]})) == [
        "spec.validation.openAPIV3Schema.properties[port].anyOf[0].type: Forbidden: must be empty to be structural",
        "spec.validation.openAPIV3Schema.properties[port].anyOf[1].type: Forbidden: must be empty to be structural",
    ]


def test_junctor_clauses_may_not_specify_structure():
    # lint/synthetic/schema/junctor-* cases
    p = "spec.validation.openAPIV3Schema.properties[spec].properties[a]"
    clause = {"additionalProperties": {"type": "string"}, "nullable": True, "x-kubernetes-list-type": "set",
              "x-kubernetes-validations": [{"rule": "true"}], "default": "x"}
    assert messages(obj(spec=obj(a={"type": "string", "allOf": [clause]}))) == [
        f"{p}.allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
        f"{p}.allOf[0].default: Forbidden: must be undefined to be structural",
        f"{p}.allOf[0].nullable: Forbidden: must be false to be structural",
        f"{p}.allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
        f"{p}.allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
    ]
    # junctor-nested-metadata: only the root's junctors are checked for completeness
    nested = obj(spec={"type": "object", "properties": {"a": {"type": "string"}},
                       "anyOf": [{"properties": {"metadata": {"properties": {"name": {"maxLength": 3}}}}}]})
    assert messages(nested) == ["spec.validation.openAPIV3Schema.properties[spec].anyOf[0].properties[metadata]: "
                                "Forbidden: must not be specified in a nested context"]
    # junctor-root-metadata-labels
    root = {"type": "object", "properties": {"metadata": {"type": "object"}},
            "allOf": [{"properties": {"metadata": {"properties": {"labels": {"maxProperties": 1}}}}}]}
    assert messages(root) == [
        "spec.validation.openAPIV3Schema.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested "
        "context",
        "spec.validation.openAPIV3Schema.properties[metadata].properties[labels]: Required value: because it is "
        "defined in spec.validation.openAPIV3Schema.allOf[0].properties[metadata].properties[labels]",
    ]


def test_metadata_at_the_root_may_only_restrict_name_and_generate_name():
    ok = {"type": "object", "default": {}, "properties": {"name": {"type": "string", "maxLength": 9},
                                                          "generateName": {"type": "string"}}}
    assert messages(obj(metadata=ok)) == []
    assert messages(obj(metadata={"type": "string"})) == [
        'spec.validation.openAPIV3Schema.properties[metadata].type: Invalid value: "string": must be object']
    for extra in ({"description": "d"}, {"required": []}, {"properties": {"labels": {"type": "object"}}}):
        assert len(messages(obj(metadata={"type": "object", **extra}))) == 1


def test_embedded_resources_and_type_rules():
    p = "spec.validation.openAPIV3Schema.properties"
    assert messages(obj(e={"x-kubernetes-embedded-resource": True, "additionalProperties": {"type": "string"}},
                        kind={"type": "integer"}, arr={"type": "array"})) == [
        f'{p}[arr].items: Required value: must be specified',
        f"{p}[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set",
        f"{p}[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without "
        "x-kubernetes-preserve-unknown-fields",
        f"{p}[e].type: Required value: must be object if x-kubernetes-embedded-resource is true",
        f'{p}[kind].type: Invalid value: "integer": must be string',
    ]
    assert messages({"type": "array", "items": {"type": "string"}, "additionalProperties": True}) == [
        "spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root",
        'spec.validation.openAPIV3Schema.type: Invalid value: "array": must be object at the root',
    ]
    assert is_structural(new_structural(obj(a={"x-kubernetes-preserve-unknown-fields": True})))


# ------------------------------------------------------------------ Go regexp
@pytest.mark.parametrize(("pattern", "error"), [
    # the texts of lint.jsonl and of Go's regexp/syntax
    ("a(", "error parsing regexp: missing closing ): `a(`"),
    ("[a-", "error parsing regexp: missing closing ]: `[a-`"),
    ("^(?=a)a$", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"),
    ("(a)\\1", "error parsing regexp: invalid escape sequence: `\\1`"),
    ("+", "error parsing regexp: missing argument to repetition operator: `+`"),
    ("a**", "error parsing regexp: invalid nested repetition operator: `**`"),
    ("a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"),
    ("ab)", "error parsing regexp: unexpected ): `ab)`"),
    ("a\\", "error parsing regexp: trailing backslash at end of expression: ``"),
    ("[z-a]", "error parsing regexp: invalid character class range: `z-a`"),
    ("\\C", "error parsing regexp: invalid escape sequence: `\\C`"),
    ("(?P<é>a)", "error parsing regexp: invalid named capture: `(?P<é>`"),
    ("^[a-z]([-a-z0-9]*[a-z0-9])?$", None),
    ("\\pL{1000}", None),  # RE2's memory budget is no Go limit
    ("[\\\\C]\\QC(\\E(?P<n>x)", None),
])
def test_go_regexp_errors(pattern, error):
    assert go_regexp_error(pattern) == error


def test_invalid_pattern_is_reported_where_the_apiserver_compiles_it():
    assert messages(obj(spec=obj(a={"type": "string", "pattern": "a("}))) == [
        'spec.validation.openAPIV3Schema.properties[spec].properties[a].pattern: Invalid value: "a(": must be a valid '
        "regular expression, but isn't: error parsing regexp: missing closing ): `a(`"]


# ------------------------------------------------------------------ field paths
def test_valid_field_path():
    s = new_structural(obj(spec=obj(ports={"type": "object", "additionalProperties": obj(n={"type": "integer"})}),
                           l={"type": "array", "items": {"type": "string"}}))
    path, found = valid_field_path(".spec.ports['a.b'].n", s)
    assert str(path) == "spec.ports[a.b].n" and found.type == "integer"
    for bad, message in ((".spec.nope", "does not refer to a valid field"),
                         ("spec.size", "expected [ or . but got: spec"),
                         (".l[0]", "expected single quoted string but got 0"),
                         (".spec[", "unexpected end of JSON path"),
                         (".spec['ports'", "unexpected end of JSON path"),
                         (".spec['a\\q']", "invalid string literal: invalid escape char \\q")):
        with pytest.raises(ValueError, match="^" + message.replace("[", r"\[").replace("\\q", r"\\q") + "$"):
            valid_field_path(bad, s)
    with pytest.raises(ValueError, match="^array notation is not allowed$"):
        valid_field_path(".spec['ports']", s, allow_array_notation=False)
    assert isinstance(valid_field_path("", s)[1], Structural)
