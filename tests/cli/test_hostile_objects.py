"""Custom resources of the wrong shape (metadata, spec, kind of the wrong JSON type) through every
subcommand that reads them: each answers with the apiserver's verdict and an exit code of 0, 1 or 2,
never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from files import write_file
from widgets import widget_crd

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CRD = str(FIXTURES / "crontab-validated" / "crd.yaml")
CRONTAB = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "a"},
           "spec": {"cronSpec": "* * * * *"}}

COMMANDS = [("validate",), ("validate", "--format", "kubectl"), ("prune",), ("default",), ("default", "-o", "json"),
            ("convert", "--to", "v1"), ("columns",), ("columns", "--format", "json")]


def run(*args: str):
    return CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1"})


@pytest.mark.parametrize("field", ["metadata", "spec", "kind", "apiVersion", "status"])
@pytest.mark.parametrize("value", [[], 5, "x", None, True, [{}], {"name": {}}])
def test_wrong_types_give_an_answer_not_an_internal_error(tmp_path: Path, field: str, value) -> None:
    path = write_file(tmp_path, "obj.json", {**CRONTAB, field: value})
    for command in COMMANDS:
        res = run(*command, "-c", CRD, path)
        assert res.exit_code in (0, 1, 2), (command, res.output)
        assert "internal error" not in res.output, (command, res.output)


@pytest.mark.parametrize("metadata, go_kind", [([], "array"), (5, "number"), ("x", "string")])
def test_metadata_that_is_no_object_is_refused_by_every_step(tmp_path: Path, metadata, go_kind: str) -> None:
    path = write_file(tmp_path, "obj.json", {**CRONTAB, "metadata": metadata})
    problem = f"json: cannot unmarshal {go_kind} into Go value of type v1.ObjectMeta"
    status = f'CronTab in version "v1" cannot be handled as a CronTab: {problem}'
    for command in ("validate", "prune", "default"):
        res = run(command, "--format", "json", "-c", CRD, path)
        assert res.exit_code == 1, (command, res.output)
        (result,) = json.loads(res.stdout)["results"]
        assert result["status"] == status and result["object"] is None, command
    res = run("default", "-c", CRD, path)  # not "no change"
    assert res.exit_code == 1 and f'unable to decode "{path}": {problem}' in res.stdout
    res = run("columns", "-c", CRD, path)
    assert res.exit_code == 1 and res.stderr == f"error: {path}#0: {status}\n"


def test_a_kind_that_is_no_string_is_named_as_missing_by_convert(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.json", {**CRONTAB, "kind": ["CronTab"]})
    res = run("convert", "--to", "v1", "-c", CRD, path)
    assert res.exit_code == 1
    assert "Object 'Kind' is missing in" in res.output


def test_lone_surrogate_escapes_are_read_as_go_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "obj.json"
    path.write_text('{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"\\udc00x"},'
                    '"spec":{"cronSpec":"\\ud800\\ud83d\\ude00"}}')
    res = run("validate", "--format", "json", "-c", CRD, str(path))
    assert res.exit_code == 1, res.output
    (result,) = json.loads(res.stdout)["results"]
    assert result["name"] == "\ufffdx"
    assert result["object"]["spec"]["cronSpec"] == "\ufffd\U0001f600"  # a valid pair stays one character
    assert result["errors"][0]["error"].startswith('metadata.name: Invalid value: "\ufffdx": a lowercase RFC 1123')
    assert run("validate", "-c", CRD, str(path)).output.startswith(f"{path}:1:68: error: metadata.name: ")
    for command in COMMANDS:
        res = run(*command, "-c", CRD, str(path))
        assert res.exit_code in (0, 1), (command, res.output)
        assert "internal error" not in res.output


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1" + "0" * 400])
def test_limits_beyond_float64_in_a_crd_are_refused_not_a_crash(tmp_path: Path, literal: str) -> None:
    """go-yaml v2 keeps a number beyond float64 as a string (strconv refuses it), so the CRD's float64
    field gets encoding/json's type error."""
    path = tmp_path / "crd.yaml"
    path.write_text("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                    "metadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n"
                    "  names: {plural: widgets, singular: widget, kind: Widget}\n  versions:\n"
                    "  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, "
                    f"properties: {{n: {{type: number, maximum: {literal}}}}}}}}}}}\n")
    res = run("lint", str(path))
    assert res.exit_code == 1, res.output
    assert ("json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
            ".properties.maximum of type float64") in res.output


def test_findings_print_as_written_without_emoji_codes(tmp_path: Path) -> None:
    """Thousands of findings, each printed as it is: `:100:` (a line and column, or text in a value)
    is never read as an emoji code."""
    fields = "".join(f"  k{i}: {i}\n" for i in range(2_000))
    path = tmp_path / "many.yaml"
    path.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n"
                    "spec:\n  cronSpec: '* * * * *'\n  image: 5\n" + fields)
    res = run("validate", "-c", CRD, str(path))
    assert res.exit_code == 1
    assert f'{path}:100:3: error: strict decoding: unknown field "spec.k92"' in res.output
    assert res.output.count("strict decoding: unknown field") == 2_000


@pytest.mark.parametrize("versions", ["5", "0o777", "x", "{a: 1}"])
def test_a_crd_among_the_inputs_with_versions_of_another_type_is_refused(tmp_path: Path, versions: str) -> None:
    """The admission stage reads the inputs' CRDs for a policy's param scope: a CRD whose versions are
    no list is the apiserver's 400, not a crash there."""
    (tmp_path / "crd.yaml").write_text(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n"
        "spec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, kind: Widget}\n"
        f"  versions: {versions}\n")
    res = run("validate", str(tmp_path / "crd.yaml"))
    assert res.exit_code == 1, res.output
    assert "cannot be handled as a CustomResourceDefinition: json: cannot unmarshal" in res.output


def _widget_crd(tmp_path: Path, spec_schema: dict) -> Path:
    """A Widget CRD (example.com/v1) whose spec has `spec_schema`, written as JSON (which keeps nulls)."""
    crd = tmp_path / "crd.json"
    crd.write_text(json.dumps(widget_crd(spec_schema)))
    return crd


def test_a_served_schema_is_the_one_the_apiserver_stored(tmp_path: Path) -> None:
    """The schema a CRD serves is the one decoded into JSONSchemaProps, where `required: [null]` is a required
    property named ""."""
    crd = _widget_crd(tmp_path, {"type": "object", "required": [None], "properties": {"size": {"type": "integer"}}})
    obj = write_file(tmp_path, "obj.json", {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                            "spec": {"size": 2}})
    res = run("validate", "--format", "kubectl", "-c", str(crd), obj)
    assert res.exit_code == 1, res.output
    assert "internal error" not in res.output
    assert "is invalid: spec.: Required value" in res.output


@pytest.mark.parametrize("odd", ["dup", 5, True])
def test_an_items_value_that_decoding_leaves_out_is_left_out(tmp_path: Path, odd) -> None:
    """JSONSchemaPropsOrArray's UnmarshalJSON leaves a value that is neither a schema nor a list out
    (`items: "dup"`, as a repeated key can leave it): the apiserver serves the schema without it."""
    tags = {"type": "array", "items": {"type": "string", "items": odd}}
    crd = _widget_crd(tmp_path, {"type": "object", "properties": {"tags": tags}})
    obj = write_file(tmp_path, "obj.json", {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                            "spec": {"tags": ["a", 5]}})
    res = run("validate", "--format", "kubectl", "-c", str(crd), obj)
    assert "internal error" not in res.output
    assert res.exit_code == 1, res.output
    assert 'spec.tags[1]: Invalid value: "integer": spec.tags[1] in body must be of type string' in res.output


@pytest.mark.parametrize(("value", "text", "column"), [(".nan", "NaN", 3), ("-.inf", "-Inf", 3),
                                                       ("[1, .inf]", "+Inf", 17)])
def test_an_infinity_or_nan_is_kubectls_reading_error_in_every_command(tmp_path: Path, value: str, text: str,
                                                                       column: int) -> None:
    """sigs.k8s.io/yaml writes every document as JSON before kubectl reads it, and json.Marshal refuses
    these: the file is not read (exit 2, the value's place), never checked as a valid object."""
    path = tmp_path / "cr.yaml"
    path.write_text(f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n"
                    f"  cronSpec: {value}\n")
    message = f"{path}:6:{column}: error: error converting YAML to JSON: json: unsupported value: {text}"
    for command in COMMANDS:
        res = run(*command, "-c", CRD, str(path))
        assert res.exit_code == 2, (command, res.output)
        assert message in res.stderr, (command, res.stderr)
    res = run("validate", "--old", str(path), "-c", CRD, write_file(tmp_path, "obj.json", CRONTAB))
    assert res.exit_code == 2 and message in res.stderr
