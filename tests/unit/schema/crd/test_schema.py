"""validate_crd_validation and schema_warnings against the apiserver's texts (lint.jsonl cases unless noted)."""

from __future__ import annotations

from dataclasses import replace

from crdtool.model.errors import FieldError
from crdtool.model.path import Path
from crdtool.schema.crd.options import CREATE
from crdtool.schema.crd.schema import cost_error_message, schema_warnings, validate_crd_validation
from crdtool.schema.crd.seam import RuleCompilation, RuleCompileError, RuleCompileRequest

VALIDATION = Path.root("spec", "validation")
P = "spec.validation.openAPIV3Schema"
A = f"{P}.properties[spec].properties[a]"


def lint(schema: dict, status: bool = False, opts=CREATE, compiler=None, path: Path = VALIDATION) -> list[str]:
    return [str(e) for e in validate_crd_validation({"openAPIV3Schema": schema}, status, opts, path, compiler)]


def spec_a(a: dict) -> dict:
    """A root object whose spec.a is the given schema (the shape of the synthetic lint cases)."""
    return {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": a}}}}


def test_no_schema_no_errors():
    assert validate_crd_validation(None, True, CREATE, VALIDATION) == []
    assert validate_crd_validation({}, True, CREATE, VALIDATION) == []


# ------------------------------------------------------------------ the root
def test_status_subresource_restricts_the_root():
    # status-root-type-array: both the status rule and the structural rule speak
    assert lint({"type": "array", "items": {"type": "string"}}, status=True) == [
        f'{P}.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the '
        "status subresource is enabled",
        f'{P}.type: Invalid value: "array": must be object at the root',
    ]
    # root-nullable: the whole JSONSchemaProps is the bad value, with Go field names
    assert lint({"type": "object", "nullable": True}, status=True) == [
        P + ': Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":true,'
        '"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,'
        '"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,'
        '"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,'
        '"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,'
        '"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,'
        '"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,'
        '"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: only [Description Type Format '
        "Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems "
        "UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] "
        "fields are allowed at the root of the schema if the status subresource is enabled",
        f"{P}.nullable: Forbidden: nullable cannot be true at the root",
    ]
    assert lint({"type": "object", "required": [], "description": "d"}, status=True) == []


def test_new_structural_error_only_when_nothing_else_is_wrong():
    # forbidden-schema: $schema is only caught by NewStructural
    assert lint(spec_a({"type": "object", "$schema": "http://json-schema.org/schema#"})) == [
        f"{P}: Invalid value: \"\": OpenAPIV3Schema 'schema' is not supported"]
    assert lint(spec_a({"type": "object", "id": "x"})) == [f"{A}.id: Forbidden: id is not supported"]
    # without the structural requirement nobody builds it
    assert lint(spec_a({"$schema": "x"}), opts=replace(CREATE, require_structural_schema=False)) == []


# ------------------------------------------------------------------ ValidateCustomResourceDefinitionOpenAPISchema
def test_fields_crds_do_not_support():
    assert lint(spec_a({"type": "object", "$ref": "#/definitions/x"})) == [
        f"{A}.$ref: Forbidden: $ref is not supported"]
    assert lint(spec_a({"type": "null"})) == [
        f'{A}.type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", '
        '"string"',
        f"{A}.type: Forbidden: type cannot be set to null, use nullable as an alternative",
    ]
    assert lint(spec_a({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]})) == [
        f"{A}.items: Forbidden: items must be a schema object and not an array"]
    assert lint(spec_a({"type": "array", "items": {"type": "string"}, "uniqueItems": True})) == [
        f"{A}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes "
        "quadratic"]
    assert lint(spec_a({"type": "object", "properties": {"b": {"type": "string"}},
                        "additionalProperties": False})) == [
        f"{A}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"]
    assert lint(spec_a({"type": "object", "x-kubernetes-preserve-unknown-fields": False})) == [
        f"{A}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"]


def test_embedded_resource_inside_resource_meta():
    # embedded-in-metadata
    inner = {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}
    schema = spec_a({**inner, "properties": {"metadata": {"type": "object", "properties": {"name": inner}}}})
    assert lint(schema) == [f"{A}.properties[metadata].properties[name].x-kubernetes-embedded-resource: Forbidden: "
                            "must not be used inside of resource meta"]


def test_list_and_map_types():
    assert lint(spec_a({"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}},
                        "x-kubernetes-list-type": "set"})) == [
        f"{A}.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with "
        "x-kubernetes-list-type=set"]
    assert lint(spec_a({"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}},
                        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]})) == [
        f"{A}.items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it "
        "must have a default or be a required property"]
    assert lint(spec_a({"type": "string", "allOf": [{"x-kubernetes-map-type": "atomic"}]})) == [
        f"{A}.allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
        f"{A}.allOf[0].type: Required value: must be object if x-kubernetes-map-type is specified",
    ]
    assert lint(spec_a({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bag"})) == [
        f'{A}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"']


def test_defaults_are_forbidden_in_top_level_meta():
    assert lint({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
        "name": {"type": "string", "default": "x"}}}}}) == [
        f"{P}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata"]


# ------------------------------------------------------------------ x-kubernetes-validations without CEL
def rules(*rule: dict) -> dict:
    return spec_a({"type": "object", "properties": {"a": {"type": "integer"}}, "x-kubernetes-validations": list(rule)})


def test_rule_checks_that_need_no_cel():
    r = f"{A}.x-kubernetes-validations[0]"
    assert lint(rules({"rule": "  "})) == [f"{r}.rule: Required value: rule is not specified"]
    assert lint(rules({"rule": "true", "message": "   "})) == [
        f'{r}.message: Invalid value: "   ": must be non-empty if specified']
    assert lint(rules({"rule": "true", "message": "a\nb"})) == [
        f'{r}.message: Invalid value: "a\\nb": must not contain line breaks']
    assert lint(rules({"rule": "true &&\ntrue"})) == [
        f"{r}.message: Required value: message must be specified if rule contains line breaks"]
    assert lint(rules({"rule": "true", "messageExpression": " "})) == [
        f"{r}.messageExpression: Required value: messageExpression must be non-empty if specified"]
    assert lint(rules({"rule": "true", "reason": "FieldValueTooLong"})) == [
        f'{r}.reason: Unsupported value: "FieldValueTooLong": supported values: "FieldValueDuplicate", '
        '"FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"']
    assert lint(rules({"rule": "true", "fieldPath": ".a\n"})) == [
        f'{r}.fieldPath: Invalid value: ".a\\n": must not contain line breaks',
        f'{r}.fieldPath: Invalid value: ".a\\n": must be a valid path',
    ]
    assert lint(rules({"rule": "true", "fieldPath": ".a"})) == []


def test_old_self_on_uncorrelatable_values():
    from crdtool.cel import rule_compiler

    # rule-oldSelf-in-set-item
    schema = spec_a({"type": "array", "x-kubernetes-list-type": "set", "maxItems": 10,
                     "items": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [
                         {"rule": "self == oldSelf"}]}})
    assert lint(schema) == []  # without a CEL engine the rules are not looked at
    assert lint(schema, compiler=rule_compiler) == [
        f'{A}.items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on '
        f"the uncorrelatable portion of the schema within {A}"]
    # a rule that does not use oldSelf may not set optionalOldSelf
    assert lint(rules({"rule": "self.a > 0", "optionalOldSelf": True}), compiler=rule_compiler) == [
        f"{A}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not "
        "used in rule"]


# ------------------------------------------------------------------ the CEL seam
class FakeCompiler:
    """Answers with fixed compilations; records what it was asked."""

    def __init__(self, *results: RuleCompilation, fail: str | None = None):
        self.results = list(results)
        self.fail = fail
        self.requests: list[RuleCompileRequest] = []

    def compile(self, request: RuleCompileRequest) -> list[RuleCompilation]:
        self.requests.append(request)
        if self.fail:
            raise RuleCompileError(self.fail)
        return self.results[:len(request.rules)]

    def validate_default(self, schema, is_resource_root, value, path) -> list[FieldError]:
        return [FieldError.invalid(path, value, "rejected by a rule")] if value == "bad" else []


def test_compile_results_become_the_apiservers_errors():
    broken = RuleCompilation(error_type="invalid", error_detail="compilation failed: ERROR: <input>:1:6: oops")
    compiler = FakeCompiler(broken)
    assert lint(rules({"rule": "self == oldSelf", "optionalOldSelf": True, "message": "immutable"}),
                compiler=compiler) == [
        f'{A}.x-kubernetes-validations[0].rule: Invalid value: {{"Rule":"self == oldSelf","Message":"immutable",'
        '"MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":true}: compilation failed: ERROR: '
        "<input>:1:6: oops",
        f"{A}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used "
        "in rule",
    ]
    request = compiler.requests[0]
    assert str(request.path) == A and request.max_cardinality == 1 and not request.is_resource_root
    assert lint(rules({"rule": "true"}), compiler=FakeCompiler(fail="internal error: no types")) == [
        f"{A}.x-kubernetes-validations: Internal error: internal error: no types"]


def test_costs_per_rule_and_for_the_whole_schema():
    # cost-per-expression-exceeded (a rule of cost 10^11 on a node that occurs once)
    expensive = RuleCompilation(max_cost=10**11, max_cardinality=1)
    r = f"{A}.x-kubernetes-validations[0].rule"
    assert lint(rules({"rule": "true"}), compiler=FakeCompiler(expensive)) == [
        f"{r}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, "
        "or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
        f"{r}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
        f"{P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds "
        "budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and "
        "maxLength where arrays, maps, and strings are declared)",
    ]
    # an unchanged version's rules are not held to the per-expression limit, only to the total
    lenient = replace(CREATE, suppress_per_expression_cost=True)
    assert len(lint(rules({"rule": "true"}), opts=lenient, compiler=FakeCompiler(expensive))) == 2
    # the schema bounds how often a rule runs: maxItems 10 under an array of at most 5 items
    items = {"type": "array", "maxItems": 5, "items": {"type": "array", "maxItems": 10, "items": {
        "type": "string", "x-kubernetes-validations": [{"rule": "true"}]}}}
    compiler = FakeCompiler(RuleCompilation(max_cost=250_000, max_cardinality=999))
    assert lint(spec_a(items), compiler=compiler) == [
        f"{A}.items.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor "
        "of 1.250000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, "
        "and strings are declared)"]
    assert compiler.requests[0].max_cardinality == 50
    assert cost_error_message("estimated rule cost", 20_500_000, 10_000_000).startswith(
        "estimated rule cost exceeds budget by factor of 2.0x ")


def test_schema_errors_stop_compilation_below_them():
    compiler = FakeCompiler(RuleCompilation())
    lint(rules({"rule": "true", "reason": "Nope"}), compiler=compiler)
    lint(spec_a({"type": "object", "x-kubernetes-validations": [{"rule": "true"}], "properties": {"x": {}}}),
         compiler=compiler)
    assert compiler.requests == []


# ------------------------------------------------------------------ defaults
def test_default_checks():
    assert lint(spec_a({"type": "object", "properties": {"b": {"type": "string"}},
                        "default": {"b": "x", "c": "y"}})) == [
        f'{A}.default: Invalid value: {{"b":"x","c":"y"}}: must not have unknown fields']
    assert lint(spec_a({"type": "string", "enum": ["a", "b"], "default": "c"})) == [
        f'{A}.default: Unsupported value: "c": supported values: "a", "b"']
    assert lint(spec_a({"type": "object", "required": ["b"], "properties": {"b": {"type": "string"},
                                                                            "c": {"type": "string"}},
                        "default": {"c": "x"}})) == [f"{A}.default.b: Required value"]
    assert lint(spec_a({"type": "object", "x-kubernetes-embedded-resource": True,
                        "x-kubernetes-preserve-unknown-fields": True, "default": {"apiVersion": "v1"}})) == [
        f"{A}.default.kind: Required value"]
    # default-wrong-type: integers stay int64 in the apiserver
    assert lint(spec_a({"type": "string", "default": 12})) == [
        f'{A}.default: Invalid value: "integer":  in body must be of type string: "integer"']
    # metadata of an embedded resource may carry unknown fields; CEL rules see the default
    embedded = {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"spec": {"type": "string"}},
                "default": {"apiVersion": "v1", "kind": "X", "metadata": {"name": "a", "junk": 1}, "spec": "s"}}
    assert lint(spec_a(embedded)) == []
    assert lint(spec_a({"type": "string", "default": "bad"}), compiler=FakeCompiler()) == [
        f'{A}.default: Invalid value: "bad": rejected by a rule']


# ------------------------------------------------------------------ warnings
def test_unrecognized_format_warnings():
    def crd(schema: dict) -> dict:
        return {"spec": {"validation": {"openAPIV3Schema": schema}, "versions": [{"name": "v1"}]}}

    schema = {"type": "object", "properties": {
        "ip": {"type": "string", "format": "ip"}, "t": {"type": "string", "format": "date-time"},
        "hosts": {"type": "array", "format": "hostname", "items": {"type": "string", "format": "hostname"}},
        "n": {"type": "integer", "format": "int32"}, "x": {"type": "integer", "format": "int"}}}
    assert schema_warnings(crd(schema)) == ['unrecognized format "ip"', 'unrecognized format "hostname"',
                                            'unrecognized format "int"']
    # on update only formats the stored CRD did not use yet
    old = crd({"type": "object", "properties": {"ip": {"type": "string", "format": "ip"}}})
    assert schema_warnings(crd(schema), old) == ['unrecognized format "hostname"', 'unrecognized format "int"']
