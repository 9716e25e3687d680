"""crd_decode: the apiserver's typed decoding of a v1 CRD (strict unknown fields, encoding/json errors)."""

from __future__ import annotations

import copy

import pytest
from conformance_cases import document_for, load_cases, requires_shared

from crdtool.schema.crd.decode import MISSING, decode_crd, semantic_equal


def crd(schema=None, **version):
    """A minimal valid v1 CRD; `schema` is the openAPIV3Schema, `version` overrides version fields."""
    v = {"name": "v1", "served": True, "storage": True,
         "schema": {"openAPIV3Schema": schema if schema is not None else {"type": "object"}}}
    v.update(version)
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "versions": [v],
                     "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"}}}


def props(**properties):
    return {"type": "object", "properties": properties}


def error_of(doc) -> str | None:
    return decode_crd(doc).error


# ---------------------------------------------------------------- the conformance cases


def _strict_cases():
    return [c for c in load_cases("lint") + load_cases("lint-update")
            if c["expected"].get("decodeError") or c["expected"].get("strictDecodingErrors")]


@requires_shared
@pytest.mark.parametrize("case", _strict_cases(), ids=lambda c: c["id"])
def test_conformance_decode_and_strict_errors(case):
    doc = document_for(case["crd"], case, "crd")
    res = decode_crd(doc.data)
    assert res.error == case["expected"].get("decodeError")
    got = doc.strict_duplicate_errors() + (res.unknown_fields if res.error is None else [])
    assert got == case["expected"]["strictDecodingErrors"]


# ---------------------------------------------------------------- decode errors


def test_wrong_type_for_bool_names_struct_path_and_type():
    assert error_of(crd(served="yes")) == ("json: cannot unmarshal string into Go struct field "
                                           "CustomResourceDefinitionVersion.spec.versions.served of type bool")


def test_spec_as_list():
    doc = crd()
    doc["spec"] = []
    assert error_of(doc) == ("json: cannot unmarshal array into Go struct field CustomResourceDefinition.spec "
                             "of type v1.CustomResourceDefinitionSpec")


@pytest.mark.parametrize(("schema", "text"), [
    ({"maxLength": 1.5}, "number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                         ".maxLength of type int64"),
    ({"maxLength": "3"}, "string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                         ".maxLength of type int64"),
    ({"required": "a"}, "string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                        ".required of type []string"),
    ({"required": [1]}, "number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                        ".required of type string"),
    ({"properties": []}, "array into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                         ".properties of type map[string]v1.JSONSchemaProps"),
    (props(a={"type": 5}), "number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                           ".properties.type of type string"),
    ({"enum": "a"}, "string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                    ".enum of type []v1.JSON"),
    ({"x-kubernetes-validations": [{"rule": 1}]},
     "number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema"
     ".x-kubernetes-validations.rule of type string"),
    ({"x-kubernetes-validations": [{"rule": "true", "reason": 1}]},
     "number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema"
     ".x-kubernetes-validations.reason of type v1.FieldValueErrorReason"),
    ({"dependencies": 1}, "number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
                          ".dependencies of type v1.JSONSchemaDependencies"),
])
def test_schema_type_errors(schema, text):
    assert error_of(crd(schema)) == "json: cannot unmarshal " + text


def test_int32_overflow_and_column_struct():
    doc = crd(additionalPrinterColumns=[{"name": "a", "type": "string", "jsonPath": ".a", "priority": 2**31}])
    assert error_of(doc) == ("json: cannot unmarshal number 2147483648 into Go struct field "
                             "CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority "
                             "of type int32")


def test_metadata_errors():
    doc = crd()
    doc["metadata"]["labels"] = {"a": 5}
    assert error_of(doc) == ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels "
                             "of type string")
    doc = crd()
    doc["metadata"]["creationTimestamp"] = 5
    assert error_of(doc) == ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp "
                             "of type string")


@pytest.mark.parametrize(("value", "text"), [
    ("yesterday", 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'),
    ("2024-13-01T00:00:00Z", 'parsing time "2024-13-01T00:00:00Z": month out of range'),
    ("2023-02-29T00:00:00Z", 'parsing time "2023-02-29T00:00:00Z": day out of range'),
    ("2024-01-01", 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'),
    ("2024-01-01T00:00:00Zjunk", 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'),
    ("2024-02-29T23:59:59.123+02:00", None),
])
def test_creation_timestamp_parsed_as_rfc3339(value, text):
    doc = crd()
    doc["metadata"]["creationTimestamp"] = value
    assert error_of(doc) == text


def test_custom_unmarshalers():
    assert error_of(crd({"additionalProperties": "x"})) == "boolean or JSON schema expected"
    # an error inside a custom type carries the outer struct and the outer path, then the inner field
    assert error_of(crd({"type": "array", "items": {"type": 5}})) == (
        "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".items.type of type string")
    assert error_of(crd({"items": [5]})) == (
        "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".items of type v1.JSONSchemaProps")


def test_error_order_follows_sorted_keys_and_custom_errors_end_decoding():
    # `maxLength` sorts before `pattern`: the first remembered error wins ...
    assert "maxLength" in error_of(crd({"pattern": 1, "maxLength": "x"}))
    # ... but an error from a custom UnmarshalJSON is returned at once and wins over remembered ones
    assert error_of(crd({"additionalProperties": 1, "maxLength": "x"})) == "boolean or JSON schema expected"


def test_ca_bundle_base64():
    doc = crd()
    doc["spec"]["conversion"] = {"strategy": "Webhook", "webhook": {
        "conversionReviewVersions": ["v1"], "clientConfig": {"url": "https://x", "caBundle": "bm90!"}}}
    assert error_of(doc) == "illegal base64 data at input byte 4"
    doc["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"] = "Zm9v\nYmFy"
    assert error_of(doc) is None


def test_unreadable_kind_and_top_level():
    doc = crd()
    doc["kind"] = 5
    res = decode_crd(doc)
    assert res.unrecognized and res.error == ("couldn't get version/kind; json parse error: json: cannot unmarshal "
                                              "number into Go struct field .kind of type string")
    res = decode_crd(["a"])
    assert res.unrecognized and res.error.startswith("couldn't get version/kind; json parse error: json: cannot "
                                                     "unmarshal array into Go value of type struct { APIVersion string")


def test_infinity_cannot_be_json():
    res = decode_crd(crd({"maximum": float("inf")}))
    assert res.error == "json: unsupported value: +Inf"


def test_first_non_finite_value_in_go_order():
    """Of several infinities and NaNs, json.Marshal names the first it writes: map keys sorted."""
    doc = crd({"type": "object", "properties": {"b": {"type": "number", "maximum": float("-inf")},
                                                "a": {"type": "array", "enum": [[1.5, float("nan")]]}}})
    assert decode_crd(doc).error == "json: unsupported value: NaN"
    assert decode_crd(crd({"type": "number", "minimum": 1e308})).error is None


# ---------------------------------------------------------------- strict decoding and the typed view


def test_unknown_fields_paths_sorted_and_case_sensitive():
    doc = crd(props(b={"type": "string", "readOnly": True}, a={"Type": "string"}))
    doc["spec"]["versions"][0]["subresources"] = {"status": {"enabled": True}}
    doc["spec"]["validation"] = {}
    res = decode_crd(doc)
    assert res.error is None
    assert res.unknown_fields == [
        'unknown field "spec.validation"',
        'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.Type"',
        'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.b.readOnly"',
        'unknown field "spec.versions[0].subresources.status.enabled"',
    ]
    versions = res.crd["spec"]["versions"][0]
    assert versions["schema"]["openAPIV3Schema"]["properties"] == {"b": {"type": "string"}, "a": {}}
    assert versions["subresources"] == {"status": {}}
    assert "validation" not in res.crd["spec"]


def test_custom_types_decode_without_strictness():
    res = decode_crd(crd({"type": "array", "items": {"type": "string", "xml": {}},
                          "additionalProperties": {"bogus": 1}}))
    assert res.error is None and res.unknown_fields == []
    schema = res.crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert schema["items"] == {"type": "string"} and schema["additionalProperties"] == {}


def test_nulls_and_wrapper_forms():
    schema = {"type": "object", "description": None, "properties": {"a": None},
              "enum": [None, "x"], "items": "nope", "additionalItems": False,
              "dependencies": {"a": ["b"], "c": None}}
    res = decode_crd(crd(schema, deprecationWarning=None))
    assert res.error is None
    got = res.crd["spec"]["versions"][0]
    assert "deprecationWarning" not in got
    assert got["schema"]["openAPIV3Schema"] == {"type": "object", "properties": {"a": {}}, "enum": [None, "x"],
                                                "items": None, "additionalItems": False,
                                                "dependencies": {"a": ["b"], "c": None}}


def test_input_not_modified_and_document_order_kept():
    doc = crd(props(z={"type": "string"}, a={"type": "string", "bogus": 1}))
    before = copy.deepcopy(doc)
    res = decode_crd(doc)
    assert doc == before
    assert list(res.crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]) == ["z", "a"]


def test_semantic_equal_follows_go_types():
    eq = semantic_equal
    schema = {"openAPIV3Schema": {"type": "object"}}
    assert eq("CustomResourceDefinitionVersion", "schema", schema,
              {"openAPIV3Schema": {"type": "object", "description": "", "required": []}})
    assert not eq("CustomResourceDefinitionVersion", "schema", schema,
                  {"openAPIV3Schema": {"type": "object", "maxProperties": 0}})
    assert not eq("CustomResourceDefinitionVersion", "schema", schema, MISSING)
    assert eq("CustomResourceDefinitionVersion", "additionalPrinterColumns", [], MISSING)
    assert not eq("CustomResourceDefinitionVersion", "schema", {"openAPIV3Schema": {"default": True}},
                  {"openAPIV3Schema": {"default": 1}})


def test_an_integer_beyond_float64_is_a_type_error_for_a_float_field():
    huge = 10**400
    assert error_of(crd(props(n={"type": "number", "maximum": huge}))) == (
        f"json: cannot unmarshal number {huge} into Go struct field "
        "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maximum of type float64")
    # the largest integer that rounds to a finite float64 is accepted, the next one is not
    edge = 2**1024 - 2**970
    assert error_of(crd(props(n={"type": "number", "minimum": -(edge - 1)}))) is None
    assert "of type float64" in error_of(crd(props(n={"type": "number", "multipleOf": edge})))
