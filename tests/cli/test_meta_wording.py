"""The apiserver's words for metadata, type meta and bad values, end to end (click's CliRunner):
owner references, strings of named Go types, a request to another version than the object's."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, maximum: 5}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
"""


def _validate(tmp_path: Path, obj: str, *flags: str) -> tuple[int, list[str]]:
    crd, cr = tmp_path / "crd.yaml", tmp_path / "cr.yaml"
    crd.write_text(CRD)
    cr.write_text(obj)
    res = CliRunner().invoke(cli, ["validate", "--format", "json", *flags, "-c", str(crd), str(cr)])
    report = json.loads(res.stdout)
    messages = [e["error"] for r in report["results"] if r["kind"] == "Widget" for e in r["errors"]]
    return res.exit_code, messages


def test_owner_reference_without_version_names_the_version(tmp_path: Path) -> None:
    code, messages = _validate(tmp_path, """\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  ownerReferences:
  - {apiVersion: "", kind: Foo, name: a, uid: "1"}
  - {apiVersion: "a/b/c", kind: Foo, name: b, uid: "2"}
  - {apiVersion: example.com/, kind: Foo, name: c, uid: "3"}
""")
    assert code == 1
    assert messages == [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "example.com/": version must not be empty',
    ]


def test_owner_reference_checks_and_banned_owner(tmp_path: Path) -> None:
    _, messages = _validate(tmp_path, """\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  ownerReferences:
  - {apiVersion: v1, kind: Event, name: e, uid: "1", controller: true}
  - {apiVersion: v1, kind: "", name: "", uid: "", controller: true}
""")
    assert messages == [
        'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"1",'
        '"controller":true}: /v1, Kind=Event is disallowed from being an owner',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Event","name":"e","uid":"1",'
        '"controller":true},{"apiVersion":"v1","kind":"","name":"","uid":"","controller":true}]: Only one '
        'reference can have Controller set to true. Found "true" in references for Event/e and /',
    ]


def test_strings_of_named_go_types_are_rendered_as_json(tmp_path: Path) -> None:
    # a label value is a Go string (%q); a rule's reason a FieldValueErrorReason (json.Marshal)
    _, messages = _validate(tmp_path, """\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels: {"a": "bad\\awarn"}
""")
    assert messages[0].startswith('metadata.labels: Invalid value: "bad\\awarn": a valid label must be')
    crd = tmp_path / "rules.yaml"
    crd.write_text(CRD.replace("size: {type: integer, maximum: 5}",
                               'size: {type: integer, x-kubernetes-validations: '
                               '[{rule: "self > 0", reason: "bad\\a<warn>"}]}'))
    res = CliRunner().invoke(cli, ["lint", "--format", "json", str(crd)])
    errors = [e["error"] for r in json.loads(res.stdout)["results"] for e in r["errors"]]
    assert errors == [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].x-kubernetes-validations[0].reason: '
        'Unsupported value: "bad\\u0007\\u003cwarn\\u003e": supported values: "FieldValueDuplicate", '
        '"FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"']


def _run(tmp_path: Path, command: str, obj: str, *flags: str) -> tuple[int, dict]:
    crd, cr = tmp_path / "crd.yaml", tmp_path / "cr.yaml"
    crd.write_text(CRD.replace("size: {type: string}", "size: {type: string}\n              color: {type: string, "
                               "default: blue}"))
    cr.write_text(obj)
    res = CliRunner().invoke(cli, [command, "--format", "json", *flags, "-c", str(crd), str(cr)])
    return res.exit_code, json.loads(res.stdout)["results"][0]


_OTHER = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 9, color: red, extra: 1}\n"
_MISMATCH = "the API version in the data (example.com/v1) does not match the expected API version (example.com/v2)"


def test_a_request_to_another_version_is_refused_after_decoding_with_the_bodys_schema(tmp_path: Path) -> None:
    # The create handler accepts only its endpoint's group/version: a 400, no validation (spec.size 9 is
    # not checked against v1's maximum, nor its type against v2's schema).
    code, result = _run(tmp_path, "validate", _OTHER, "--version", "v2", "--field-validation", "Warn")
    assert code == 1
    assert result["status"] == _MISMATCH and result["errors"] == []
    # decoded with v1's schema: v1 knows spec.size only
    assert result["fieldValidationWarnings"] == ['unknown field "spec.color"', 'unknown field "spec.extra"']
    assert result["object"]["spec"] == {"size": 9}
    # to its own version it is checked against that version's schema
    code, own = _run(tmp_path, "validate", _OTHER, "--version", "v1", "--field-validation", "Warn")
    assert code == 1 and [e["error"] for e in own["errors"]] == [
        "spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5"]


def test_under_strict_field_validation_the_decoders_error_comes_first(tmp_path: Path) -> None:
    code, result = _run(tmp_path, "validate", _OTHER, "--version", "v2")
    assert code == 1
    # refused for the unknown fields (kubectl's strict decoding error), which v1's schema decides
    assert not result["valid"] and result["status"] is None and result["errors"] == []
    assert result["fieldValidationWarnings"] == ['unknown field "spec.color"', 'unknown field "spec.extra"']
    code, clean = _run(tmp_path, "validate", _OTHER.replace(", color: red, extra: 1", ""), "--version", "v2")
    assert code == 1 and clean["status"] == _MISMATCH


def test_a_version_the_crd_does_not_have_decodes_without_a_schema(tmp_path: Path) -> None:
    obj = _OTHER.replace("example.com/v1", "example.com/v9")
    code, result = _run(tmp_path, "validate", obj, "--version", "v2", "--field-validation", "Ignore")
    assert code == 1
    assert result["status"] == _MISMATCH.replace("example.com/v1", "example.com/v9")
    assert result["pruned"] == ["spec"]


def test_prune_and_default_to_another_version_use_the_bodys_schema(tmp_path: Path) -> None:
    code, pruned = _run(tmp_path, "prune", _OTHER, "--version", "v2")
    assert code == 0 and pruned["object"]["spec"] == {"size": 9} and pruned["pruned"] == ["spec.color", "spec.extra"]
    code, defaulted = _run(tmp_path, "default", _OTHER.replace(", color: red", ""), "--version", "v2")
    assert code == 0 and defaulted["defaulted"] == []  # v1 has no default for spec.color; v2 would set blue
    code, own = _run(tmp_path, "default", _OTHER.replace(", color: red", ""), "--version", "v1")
    assert own["defaulted"] == []
    v2 = _OTHER.replace("example.com/v1", "example.com/v2").replace(", color: red", "")
    code, defaulted = _run(tmp_path, "default", v2, "--version", "v1")
    assert defaulted["defaulted"] == ["spec.color"] and defaulted["object"]["spec"]["color"] == "blue"


def test_an_embedded_resource_default_gets_the_same_checks_as_an_object(tmp_path: Path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD.replace("size: {type: integer, maximum: 5}",
                               "inner: {type: object, x-kubernetes-embedded-resource: true, "
                               "x-kubernetes-preserve-unknown-fields: true, "
                               'default: {apiVersion: "", kind: Foo, metadata: {name: "a/b"}}}'))
    res = CliRunner().invoke(cli, ["lint", "--format", "json", str(crd)])
    errors = [e["error"] for r in json.loads(res.stdout)["results"] for e in r["errors"]]
    at = "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[inner].default"
    assert errors == [f'{at}.apiVersion: Invalid value: "": must not be empty',
                      f"{at}.metadata.name: Invalid value: \"a/b\": may not contain '/'"]


def test_a_timestamp_that_is_not_a_string_names_its_metadata_field(tmp_path: Path) -> None:
    # metav1.Time's own decoding fails; encoding/json gives its error the field it was decoding
    (tmp_path / "crd.yaml").write_text(CRD)
    for meta, field in (("creationTimestamp: 5", "ObjectMeta.creationTimestamp"),
                        ("managedFields: [{manager: m, time: true}]", "ManagedFieldsEntry.managedFields.time")):
        (tmp_path / "cr.yaml").write_text(f"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
                                          f"  {meta}\n")
        res = CliRunner().invoke(cli, ["validate", "--format", "json", "-c", str(tmp_path / "crd.yaml"),
                                       str(tmp_path / "cr.yaml")])
        assert res.exit_code == 1
        [result] = [r for r in json.loads(res.stdout)["results"] if r["kind"] == "Widget"]
        kind = "number" if meta.endswith("5") else "bool"
        assert result["status"] == (f'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal '
                                    f"{kind} into Go struct field {field} of type string")
