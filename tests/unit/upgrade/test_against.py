"""`crdtool lint --against`: upgrade safety, one test per rule on small fixtures (fixtures/upgrade:
old.yaml and one new-*.yaml per change), real CRD pairs from the corpus (gateway-api's standard and
experimental channels, two openshift API versions), reading the old side from git, and the output."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conformance_cases import SHARED
from imported import imported_by

from crdtool.cli import cli
from crdtool.load import InputError, load_inputs
from crdtool.model.findings import SEVERITIES
from crdtool.model.path import Path as FieldPath
from crdtool.upgrade.check import lint_against
from crdtool.upgrade.pairing import read_against
from crdtool.upgrade.rules import RULES
from crdtool.upgrade.schema_diff import diff_schemas, rule_key

UPGRADE = Path(__file__).resolve().parents[3] / "fixtures" / "upgrade"
OLD = str(UPGRADE / "old.yaml")
CORPUS = SHARED / "corpus" / "crds"
requires_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"CRD corpus not found at {CORPUS}")
V1 = "spec.versions[0].schema.openAPIV3Schema.properties[spec]"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def compare(new: str | Path, old: str | Path = OLD):
    """(result, findings as (code, severity, field, line)) of linting `new` against `old`."""
    comparison = lint_against(load_inputs([str(new)]), load_inputs([str(old)]))
    [result] = comparison.results
    return result, [(f.code, f.severity, str(f.path), result.position(f)[0]) for f in result.findings]


# One fixture per rule: exactly these findings (code, severity, field, line of the new file), nothing else.
CASES = {
    "served-version-removed": [("served-version-removed", "error", "spec.versions", 14)],
    "version-unserved": [("served-version-removed", "error", "spec.versions[1].served", 56)],
    "subresource-removed": [("subresource-removed", "error", "spec.versions[0].subresources.status", 15)],
    "field-removed": [("field-removed", "error", f"{V1}.properties[name]", 28)],
    "field-renamed": [("field-removed", "error", f"{V1}.properties[name]", 28)],
    "type-changed": [("type-changed", "error", f"{V1}.properties[size].type", 30)],
    "type-widened": [("type-changed", "warning", f"{V1}.properties[size]", 29)],
    "preserve-unknown-fields-removed": [
        ("preserve-unknown-fields-removed", "error",
         f"{V1}.properties[config].x-kubernetes-preserve-unknown-fields", 47)],
    "required-field-added": [("required-field-added", "error", f"{V1}.properties[color]", 36),
                             ("required-field-added", "info", f"{V1}.properties[name]", 42),
                             ("default-added", "info", f"{V1}.properties[name].default", 45)],
    "enum-value-removed": [("enum-value-removed", "error", f"{V1}.properties[color].enum", 36)],
    "enum-added": [("enum-added", "warning", f"{V1}.properties[name].enum", 43)],
    "format-changed": [("format-changed", "warning", f"{V1}.properties[name].format", 43)],
    "list-type-changed": [("list-type-changed", "warning", f"{V1}.properties[tags].x-kubernetes-list-type", 45)],
    "limit-tightened": [("limit-tightened", "warning", f"{V1}.properties[size].maximum", 32),
                        ("limit-tightened", "warning", f"{V1}.properties[name].maxLength", 42),
                        ("limit-tightened", "warning", f"{V1}.properties[name].pattern", 43)],
    "cel-rule-added": [("cel-rule-added", "warning", f"{V1}.x-kubernetes-validations[0]", 29)],
    "default-changed": [("default-changed", "warning", f"{V1}.properties[size].default", 33)],
    "default-removed": [("default-removed", "warning", f"{V1}.properties[size].default", 29)],
    "default-added": [("default-added", "info", f"{V1}.properties[color].default", 36)],
    "unchanged": [],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_rule_on_its_fixture(case: str) -> None:
    result, findings = compare(UPGRADE / f"new-{case}.yaml")
    assert result.valid, result.status  # the apiserver accepts every one of these updates
    assert findings == CASES[case]


def test_every_rule_has_a_fixture_and_a_valid_severity() -> None:
    covered = {code for found in CASES.values() for code, *_ in found}
    assert covered | {"storage-version-changed"} == set(RULES)
    assert all(rule.severity in SEVERITIES for rule in RULES.values())


def test_messages_name_the_version_and_what_changed() -> None:
    result, _ = compare(UPGRADE / "new-field-renamed.yaml")
    [finding] = result.findings
    assert finding.message.startswith('field "name" removed (renamed to "displayName"? a new field with the same '
                                      'schema was added) in version v1; stored values are pruned when objects are '
                                      'read')
    result, _ = compare(UPGRADE / "new-enum-value-removed.yaml")
    assert result.findings[0].message.startswith('enum value "blue" removed in version v1; ')
    result, _ = compare(UPGRADE / "new-limit-tightened.yaml")
    assert [f.message.split(";")[0] for f in result.findings] == [
        "maximum tightened from 100 to 50 in version v1", "maxLength tightened from 63 to 32 in version v1",
        'pattern "^[a-z]+$" added in version v1']
    result, _ = compare(UPGRADE / "new-served-version-removed.yaml")
    assert result.findings[0].message == ("version v1beta1 removed from spec.versions; clients and controllers that "
                                          "use example.com/v1beta1 get 404 NotFound")


def test_a_crd_against_itself_has_no_findings() -> None:
    result, findings = compare(OLD)
    assert result.valid and findings == []


def test_a_new_crd_without_an_old_one_is_a_create(tmp_path: Path) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(Path(OLD).read_text().replace("widgets", "gadgets").replace("Widget", "Gadget"))
    comparison = lint_against(load_inputs([str(other)]), load_inputs([OLD]))
    assert comparison.compared == [] and [d.name for d in comparison.unmatched] == ["widgets.example.com"]
    [result] = comparison.results
    assert result.valid and result.findings == []
    assert result.document.data["metadata"]["name"] == "gadgets.example.com"


def test_a_stored_version_removed_is_the_apiservers_error_not_a_finding(tmp_path: Path) -> None:
    """Removing the storage version is refused by the apiserver itself (status.storedVersions); the
    served-version rule does not repeat it."""
    new = tmp_path / "new.yaml"
    new.write_text(Path(OLD).read_text().replace("  - name: v1\n", "  - name: v2\n"))
    result, findings = compare(new)
    assert not result.valid
    assert [str(e) for e in result.errors] == [
        'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage '
        "version, and must remain in spec.versions until a storage migration ensures no data remains persisted in "
        "v1 and removes v1 from status.storedVersions"]
    assert findings == []


def test_storage_version_changed_without_conversion(tmp_path: Path) -> None:
    """v2 becomes the storage version under strategy None: v1 objects are read as v2 as they are."""
    text = Path(OLD).read_text()
    v2 = ("  - name: v2\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n"
          "        type: object\n        properties:\n          spec:\n            type: object\n"
          "            properties:\n              size:\n                type: string\n")
    old = tmp_path / "old.yaml"
    old.write_text(text.replace("  - name: v1beta1\n", v2 + "  - name: v1beta1\n"))
    new = tmp_path / "new.yaml"
    new.write_text(old.read_text().replace("    storage: true\n", "    storage: false\n", 1)
                   .replace("  - name: v2\n    served: true\n    storage: false\n",
                            "  - name: v2\n    served: true\n    storage: true\n"))
    result, findings = compare(new, old)
    assert result.valid, result.status
    assert findings == [("storage-version-changed", "error", "spec.versions[1].storage", 57)]
    assert new.read_text().splitlines()[56] == "    storage: true"
    message = result.findings[0].message
    assert message.startswith("storage version changed from v1 to v2 with conversion strategy None; objects stored "
                              "as v1 are read as v2 unchanged but for apiVersion, and v2's schema differs: "
                              "openAPIV3Schema.properties[spec].properties[size].type: type changed from integer "
                              "to string; ")
    webhook = tmp_path / "webhook.yaml"
    webhook.write_text(new.read_text().replace(
        "  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n    webhook:\n"
        "      conversionReviewVersions: [v1]\n      clientConfig:\n        url: https://conv.example.com/convert\n"))
    result, findings = compare(webhook, old)  # a conversion webhook converts: nothing to report
    assert result.valid, result.status
    assert findings == []


def test_rule_text_whitespace_does_not_make_a_new_rule() -> None:
    assert rule_key("self.a  ==\n 'x  y' ") == rule_key("self.a=='x  y'")
    assert rule_key("self.a == 'x y'") != rule_key("self.a == 'xy'")


# ---------------------------------------------------------------- schema keywords, one node pair each

S = {"type": "string"}
N = {"type": "integer"}
A = {"type": "array", "items": S}
OBJ = {"type": "object", "properties": {"a": S}}


@pytest.mark.parametrize(("old", "new", "expected"), [
    (S, {**S, "format": "my-own-format"}, [("format-changed", "info", "format", 'format "my-own-format" added')]),
    ({**S, "format": "date"}, {**S, "format": "date-time"},
     [("format-changed", "warning", "format", 'format changed from "date" to "date-time"')]),
    ({**S, "format": "date"}, S, []),
    ({**N, "minimum": 0}, {**N, "minimum": 0, "exclusiveMinimum": True},
     [("limit-tightened", "warning", "exclusiveMinimum", "exclusiveMinimum added (minimum 0)")]),
    ({**N, "maximum": 10}, {**N, "maximum": 20}, []),
    ({**N, "minimum": 5}, {**N, "minimum": 1}, []),
    (N, {**N, "maximum": 9, "exclusiveMaximum": True},
     [("limit-tightened", "warning", "maximum", "maximum (exclusive) 9 added")]),
    ({**N, "multipleOf": 4}, {**N, "multipleOf": 2}, []),
    ({**N, "multipleOf": 2}, {**N, "multipleOf": 4},
     [("limit-tightened", "warning", "multipleOf", "multipleOf changed from 2 to 4")]),
    ({"type": "number", "multipleOf": 0.5}, {"type": "number", "multipleOf": 0.25}, []),
    (A, {**A, "minItems": 0}, []),
    (A, {**A, "minItems": 1}, [("limit-tightened", "warning", "minItems", "minItems 1 added")]),
    ({**A, "maxItems": 5}, {**A, "maxItems": 8}, []),
    ({"type": "object", "minProperties": 1}, {"type": "object", "minProperties": 2},
     [("limit-tightened", "warning", "minProperties", "minProperties tightened from 1 to 2")]),
    ({**S, "nullable": True}, S, [("limit-tightened", "warning", "nullable", "nullable removed")]),
    (S, {**S, "nullable": True}, []),
    ({**S, "pattern": "^a"}, {**S, "pattern": "^b"},
     [("limit-tightened", "warning", "pattern", 'pattern changed from "^a" to "^b"')]),
    (S, {**S, "allOf": [{"maxLength": 3}]}, [("limit-tightened", "warning", "allOf", "allOf added")]),
    ({**S, "anyOf": [{"maxLength": 3}]}, {**S, "anyOf": [{"maxLength": 2}]},
     [("limit-tightened", "warning", "anyOf", "anyOf changed")]),
    ({**S, "oneOf": [{"maxLength": 3}]}, S, []),
    ({**S, "enum": ["a", "b", "c"]}, {**S, "enum": ["a"]},
     [("enum-value-removed", "error", "enum", 'enum values "b", "c" removed')]),
    ({**N, "enum": [1, 2]}, {**N, "enum": [1.0, 2, 3]}, []),
    ({**S, "default": "x"}, {**S, "default": "x", "description": "now documented"}, []),
    ({**N, "default": 1}, {**N, "default": 1.0}, []),
    ({"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True},
     {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
     [("type-changed", "error", "x-kubernetes-embedded-resource", "x-kubernetes-embedded-resource removed")]),
    (N, {"type": "number"}, [("type-changed", "warning", "type", "type widened from integer to number")]),
    ({"type": "object", "additionalProperties": S}, {"type": "object", "properties": {"a": S}},
     [("field-removed", "error", "additionalProperties", "additionalProperties removed")]),
    ({"type": "object", "additionalProperties": S}, {"type": "object", "additionalProperties": N},
     [("type-changed", "error", "additionalProperties.type", "type changed from string to integer")]),
    ({**A, "x-kubernetes-list-type": "atomic"}, A, []),
    ({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": OBJ},
     {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "port"], "items": OBJ},
     [("list-type-changed", "warning", "x-kubernetes-list-map-keys",
       'x-kubernetes-list-map-keys changed from ["name"] to ["name","port"]')]),
    ({"type": "object", "x-kubernetes-map-type": "granular"}, {"type": "object", "x-kubernetes-map-type": "atomic"},
     [("list-type-changed", "warning", "x-kubernetes-map-type",
       'x-kubernetes-map-type changed from "granular" to "atomic"')]),
    ({**OBJ, "x-kubernetes-preserve-unknown-fields": True},
     {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
     [("field-removed", "warning", "properties[a]", 'field "a" removed')]),
    ({**OBJ, "required": ["a"]}, OBJ, []),
    ({**OBJ, "x-kubernetes-validations": [{"rule": "self.a != ''", "message": "a must be set"}]},
     {**OBJ, "x-kubernetes-validations": [{"rule": "self.a.size() > 1", "message": "a must be set"}]},
     [("cel-rule-added", "warning", "x-kubernetes-validations[0]", 'rule changed to "self.a.size() > 1"')]),
    (OBJ, {**OBJ, "x-kubernetes-validations": [{"rule": "self.a == oldSelf.a", "message": "immutable"}]},
     [("cel-rule-added", "warning", "x-kubernetes-validations[0]", 'new transition rule "self.a == oldSelf.a"')]),
    ({**OBJ, "x-kubernetes-validations": [{"rule": "self.a == 'x'"}]},
     {**OBJ, "x-kubernetes-validations": [{"rule": "self.a\n  == 'x'", "message": "reworded"}]}, []),
])
def test_schema_keywords(old: dict, new: dict, expected: list) -> None:
    root = FieldPath.root("s")
    found = [(c.code, c.severity or RULES[c.code].severity, str(c.path)[2:], c.what)
             for c in diff_schemas(old, new, root, "v1")]
    assert found == expected


def test_a_type_change_stops_the_walk_below() -> None:
    old = {"type": "object", "properties": {"a": S}, "required": ["a"]}
    found = list(diff_schemas(old, {"type": "string"}, FieldPath.root("s"), "v1"))
    assert [(c.code, c.what) for c in found] == [("type-changed", "type changed from object to string")]


# ---------------------------------------------------------------- real pairs from the corpus

def _gateway(channel: str, name: str) -> Path:
    return CORPUS / f"gateway-api-{channel}" / f"{name}.gateway.networking.k8s.io.yaml"


@requires_corpus
def test_gateway_experimental_to_standard_removes_fields_and_enum_values() -> None:
    """Moving from the experimental channel back to standard drops experimental fields: their stored
    values are pruned, and the ExternalAuth filter type is no longer allowed."""
    result, findings = compare(_gateway("standard", "httproutes"), _gateway("experimental", "httproutes"))
    assert result.valid
    base = "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties"
    assert ("field-removed", "error", f"{base}[useDefaultGateways]", 55) in findings
    assert ("field-removed", "error", f"{base}[rules].items.properties[retry]", 350) in findings
    assert ("enum-value-removed", "error",
            f"{base}[rules].items.properties[filters].items.properties[type].enum", 2617) in findings
    codes = {code for code, *_ in findings}
    assert codes == {"field-removed", "enum-value-removed", "cel-rule-added"}
    assert [line for *_, line in findings] == sorted(line for *_, line in findings)  # document order
    assert sum(severity == "error" for _, severity, *_ in findings) == 14


@requires_corpus
def test_gateway_standard_to_experimental_only_tightens() -> None:
    result, findings = compare(_gateway("experimental", "httproutes"), _gateway("standard", "httproutes"))
    assert result.valid
    assert {severity for _, severity, *_ in findings} == {"warning"}
    header = ("spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[rules].items.properties[matches]"
              ".items.properties[headers].items.properties[value].pattern")
    assert ("limit-tightened", "warning", header, 3502) in findings
    res = run("lint", "--no-color", str(_gateway("experimental", "httproutes")),
              "--against", str(_gateway("standard", "httproutes")))
    assert res.exit_code == 0, res.output  # warnings alone pass ...
    res = run("lint", "--no-color", "--fail-on", "warning", str(_gateway("experimental", "httproutes")),
              "--against", str(_gateway("standard", "httproutes")))
    assert res.exit_code == 1  # ... unless --fail-on says otherwise
    assert "upgrade findings: 32 warnings" in res.output


@requires_corpus
def test_gateway_folders_pair_by_name() -> None:
    comparison = lint_against(load_inputs([str(CORPUS / "gateway-api-standard")]),
                              load_inputs([str(CORPUS / "gateway-api-experimental")]))
    assert len(comparison.compared) == 10
    assert sorted(d.name for d in comparison.unmatched) == [
        "xbackends.gateway.networking.x-k8s.io", "xbackendtrafficpolicies.gateway.networking.x-k8s.io",
        "xmeshes.gateway.networking.x-k8s.io"]
    assert all(r.valid for r in comparison.results)


@requires_corpus
def test_openshift_v1alpha1_to_v1_is_refused_and_changes_the_storage_version() -> None:
    folder = CORPUS / "openshift-api"
    old = folder / "datagathers.insights.openshift.io__insights_v1alpha1_0000_10_insights_01_datagathers.yaml"
    new = folder / "datagathers.insights.openshift.io__insights_v1_0000_10_insights_01_datagathers.yaml"
    result, findings = compare(new, old)
    assert not result.valid
    assert result.status.startswith('CustomResourceDefinition.apiextensions.k8s.io "datagathers.insights.openshift.'
                                    'io" is invalid: status.storedVersions[0]: Invalid value: "v1alpha1": missing')
    assert findings == [("storage-version-changed", "error", "spec.versions[0].storage", 625)]


# ---------------------------------------------------------------- the old side from git

def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": str(repo), "PATH": "/usr/bin:/bin"})


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_against_a_git_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / "crds").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "crds" / "widgets.yaml").write_text(Path(OLD).read_text())
    (repo / "crds" / "notes.txt").write_text("not a CRD")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "old")
    (repo / "crds" / "widgets.yaml").write_text((UPGRADE / "new-enum-value-removed.yaml").read_text())
    _git(repo, "commit", "-q", "-am", "new")
    monkeypatch.chdir(repo)

    res = run("lint", "--no-color", "crds/", "--against", "HEAD~1:crds/")
    assert res.exit_code == 1, res.output
    assert ("crds/widgets.yaml:36:17: error[enum-value-removed]: spec.versions[0].schema.openAPIV3Schema"
            '.properties[spec].properties[color].enum: enum value "blue" removed in version v1; ') in res.output
    assert "upgrade findings: 1 error" in res.output

    [doc] = read_against(["HEAD~1:crds/widgets.yaml"])  # one file, and the source names rev and path
    assert doc.source == "HEAD~1:crds/widgets.yaml" and doc.name == "widgets.example.com"
    monkeypatch.chdir(repo / "crds")
    assert [d.source for d in read_against(["HEAD~1:./"])] == ["HEAD~1:crds/widgets.yaml"]
    assert run("lint", "--no-color", "widgets.yaml", "--against", "HEAD:crds").exit_code == 0

    res = run("lint", "widgets.yaml", "--against", "no-such-rev:crds/")
    assert res.exit_code == 2
    assert res.output.startswith("no-such-rev:crds/: error: git cannot read it: fatal: ")
    res = run("lint", "widgets.yaml", "--against", "HEAD:missing/")
    assert res.exit_code == 2 and "HEAD:missing/: error: no CRD files at 'missing/' in 'HEAD'" in res.output
    with pytest.raises(InputError, match="a Kubernetes object must be a mapping"):
        read_against(["HEAD~1:crds/notes.txt"])  # a file named is read whatever its extension


def test_a_path_on_disk_wins_over_a_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("v1:old.yaml").write_text(Path(OLD).read_text())
    assert [d.name for d in read_against(["v1:old.yaml"])] == ["widgets.example.com"]


# ---------------------------------------------------------------- the command line and its output

def test_text_output_has_code_severity_field_and_snippet() -> None:
    new = str(UPGRADE / "new-type-changed.yaml")
    res = run("lint", "--no-color", new, "--against", OLD)
    assert res.exit_code == 1, res.output  # an error finding fails the run
    lines = res.output.splitlines()
    assert lines[0] == (f"{new}:30:17: error[type-changed]: spec.versions[0].schema.openAPIV3Schema.properties[spec]"
                        ".properties[size].type: type changed from integer to string in version v1; stored values "
                        "of the old type no longer validate, and clients built for the old type break")
    assert lines[1] == "   30 |                 type: string"
    assert lines[2].endswith("^") and lines[2].index("^") == len("   30 | ") + 16
    assert lines[-2:] == ["1 CustomResourceDefinition would be accepted", "upgrade findings: 1 error"]


def test_json_output_lists_findings() -> None:
    res = run("lint", "--format", "json", str(UPGRADE / "new-default-added.yaml"), "--against", OLD)
    assert res.exit_code == 0, res.output  # info alone passes
    [result] = json.loads(res.output)["results"]
    assert result["valid"] is True
    assert result["findings"] == [{
        "code": "default-added", "severity": "info",
        "field": "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[color].default",
        "message": 'default "red" added in version v1; objects that omit the field show the default when read, '
                   "and store it on their next write",
        "line": 36, "column": 17}]
    res = run("lint", "--format", "json", OLD, "--against", OLD)
    assert "findings" not in json.loads(res.output)["results"][0]


@pytest.mark.parametrize(("fail_on", "code"), [("error", 0), ("warning", 1), ("info", 1)])
def test_fail_on(fail_on: str, code: int) -> None:
    res = run("lint", "--fail-on", fail_on, str(UPGRADE / "new-limit-tightened.yaml"), "--against", OLD)
    assert res.exit_code == code, res.output


def test_fail_on_info_counts_info_findings() -> None:
    assert run("lint", str(UPGRADE / "new-default-added.yaml"), "--against", OLD).exit_code == 0
    assert run("lint", "--fail-on", "info", str(UPGRADE / "new-default-added.yaml"), "--against", OLD).exit_code == 1


def test_apiserver_refusal_fails_whatever_fail_on_says(tmp_path: Path) -> None:
    new = tmp_path / "new.yaml"
    new.write_text(Path(OLD).read_text().replace("scope: Namespaced", "scope: Cluster"))
    res = run("lint", "--no-color", str(new), "--against", OLD)
    assert res.exit_code == 1
    assert 'error: spec.scope: Invalid value: "Cluster": field is immutable' in res.output
    assert "no upgrade findings" in res.output  # the scope change is the apiserver's, not repeated


def test_old_and_against_together_is_a_usage_error() -> None:
    res = run("lint", OLD, "--old", OLD, "--against", OLD)
    assert res.exit_code == 2 and "--old and --against cannot be used together" in res.output


def test_an_old_crd_that_cannot_be_decoded_is_an_input_error(tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(Path(OLD).read_text().replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"))
    res = run("lint", OLD, "--against", str(old))
    assert res.exit_code == 2
    assert res.output == (f'{old}:2:1: error: the old CustomResourceDefinition widgets.example.com cannot be decoded: '
                          f'no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1"\n')


def test_help_does_not_import_the_upgrade_package() -> None:
    assert imported_by(["--help"], ("crdtool.upgrade",)).modules == []
