"""The CI formats (--format sarif, github, junit), --quiet and shell completion, end to end
through click's CliRunner, with exact expected output for small fixtures."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from imported import imported_by
from jsonschema import Draft4Validator, FormatChecker

from crdtool import KUBE_VERSION, __version__
from crdtool.cli import cli
from crdtool.engine.results import Result
from crdtool.load import load_inputs
from crdtool.model.errors import FieldError
from crdtool.model.findings import Finding
from crdtool.model.notes import Note
from crdtool.model.path import Path as FieldPath
from crdtool.report import github, junit, sarif

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parents[2] / "data"
SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())

#: CRDs accepted, refused and accepted with a warning; objects accepted, refused by strict decoding, of no CRD.
GOLDEN_INPUTS = ["fixtures/crontab", "fixtures/broken/wrong-name.yaml",
                 "fixtures/crontab-validated/needs-defaults.yaml", "tests/data/unknown-kind.yaml",
                 "tests/data/format-warning.yaml"]
WRONG_NAME = "fixtures/broken/wrong-name.yaml"


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    """Paths as a user gives them: relative to the repository's root."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def sarif_errors(log: dict) -> list[str]:
    """What the official SARIF 2.1.0 schema finds wrong with `log`, plus URIs that are not RFC 3986 references."""
    problems = [e.message for e in Draft4Validator(SCHEMA, format_checker=FormatChecker()).iter_errors(log)]
    for result in log["runs"][0]["results"]:
        for location in result["locations"]:
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            if not re.fullmatch(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-F]{2})*", uri):
                problems.append(f"not a URI reference: {uri!r}")
    return problems


# --- golden outputs ---------------------------------------------------------------------------

GOLDEN_GITHUB = """\
::error file=fixtures/broken/wrong-name.yaml,line=5,col=3,title=FieldValueInvalid::metadata.name: Invalid value: \
"crontab.stable.example.com": must be spec.names.plural+"."+spec.group
::error file=fixtures/broken/wrong-name.yaml,line=8,col=3,title=FieldValueNotSupported::spec.scope: Unsupported \
value: "Namespace": supported values: "Cluster", "Namespaced"
::warning file=tests/data/format-warning.yaml,line=2,col=1,title=Warning::unrecognized format "ip"
::error file=fixtures/crontab-validated/needs-defaults.yaml,line=9,col=3,title=StrictDecodingError::strict decoding \
error: unknown field "spec.imagePullPolicy"
::error file=tests/data/unknown-kind.yaml,line=2,col=1,title=NotFound::no CustomResourceDefinition for \
example.com/v1, Kind=Gadget
crdtool: 1 of 3 CustomResourceDefinitions would be rejected, 2 of 3 objects would be rejected
"""

GOLDEN_JUNIT = """\
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="crdtool validate" tests="6" failures="3" errors="0" skipped="0">
  <testsuite name="fixtures/crontab/crd.yaml" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="fixtures/crontab/crd.yaml" name="CustomResourceDefinition crontabs.stable.example.com" />
  </testsuite>
  <testsuite name="fixtures/broken/wrong-name.yaml" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="fixtures/broken/wrong-name.yaml" name="CustomResourceDefinition crontab.stable.example.com">
      <failure message="CustomResourceDefinition.apiextensions.k8s.io &quot;crontab.stable.example.com&quot; is \
invalid: [metadata.name: Invalid value: &quot;crontab.stable.example.com&quot;: must be spec.names.plural+&quot;.&quot;\
+spec.group, spec.scope: Unsupported value: &quot;Namespace&quot;: supported values: &quot;Cluster&quot;, \
&quot;Namespaced&quot;]" type="Invalid">fixtures/broken/wrong-name.yaml:5:3: error: metadata.name: Invalid value: \
"crontab.stable.example.com": must be spec.names.plural+"."+spec.group
fixtures/broken/wrong-name.yaml:8:3: error: spec.scope: Unsupported value: "Namespace": supported values: "Cluster", \
"Namespaced"
</failure>
    </testcase>
  </testsuite>
  <testsuite name="tests/data/format-warning.yaml" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="tests/data/format-warning.yaml" name="CustomResourceDefinition gadgets.example.org">
      <system-out>tests/data/format-warning.yaml:2:1: warning: unrecognized format "ip"
</system-out>
    </testcase>
  </testsuite>
  <testsuite name="fixtures/crontab/my-crontab.yaml" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="fixtures/crontab/my-crontab.yaml" name="CronTab my-new-cron-object" />
  </testsuite>
  <testsuite name="fixtures/crontab-validated/needs-defaults.yaml" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="fixtures/crontab-validated/needs-defaults.yaml" name="CronTab my-new-cron-object">
      <failure message="CronTab in version &quot;v1&quot; cannot be handled as a CronTab: strict decoding error: \
unknown field &quot;spec.imagePullPolicy&quot;" type="BadRequest">fixtures/crontab-validated/needs-defaults.yaml:9:3: \
error: strict decoding error: unknown field "spec.imagePullPolicy"
</failure>
    </testcase>
  </testsuite>
  <testsuite name="tests/data/unknown-kind.yaml" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="tests/data/unknown-kind.yaml" name="Gadget no-crd-for-me">
      <failure message="no CustomResourceDefinition for example.com/v1, Kind=Gadget" type="NotFound">\
tests/data/unknown-kind.yaml:2:1: error: no CustomResourceDefinition for example.com/v1, Kind=Gadget
</failure>
    </testcase>
  </testsuite>
</testsuites>
"""


def test_sarif_golden_and_valid_against_the_official_schema() -> None:
    res = run("validate", *GOLDEN_INPUTS, "--format", "sarif")
    assert res.exit_code == 1
    expected = ((DATA / "validate-report.sarif").read_text()
                .replace("{{CRDTOOL_VERSION}}", __version__).replace("{{KUBE_VERSION}}", KUBE_VERSION))
    assert res.stdout == expected
    log = json.loads(res.stdout)
    assert sarif_errors(log) == []
    run_ = log["runs"][0]
    assert [r["id"] for r in run_["tool"]["driver"]["rules"]] == [
        "FieldValueInvalid", "FieldValueNotSupported", "Warning", "StrictDecodingError", "NotFound"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in run_["results"]] == [("FieldValueInvalid", "error", 5), ("FieldValueNotSupported", "error", 8),
                                          ("Warning", "warning", 2), ("StrictDecodingError", "error", 9),
                                          ("NotFound", "error", 2)]


def test_github_golden() -> None:
    res = run("validate", *GOLDEN_INPUTS, "--format", "github")
    assert res.exit_code == 1
    assert res.stdout == GOLDEN_GITHUB


def test_junit_golden_is_well_formed_with_right_counts() -> None:
    res = run("validate", *GOLDEN_INPUTS, "--format", "junit")
    assert res.exit_code == 1
    assert res.stdout == GOLDEN_JUNIT
    root = ET.fromstring(res.stdout.encode())
    suites = root.findall("testsuite")
    assert sum(int(s.get("tests")) for s in suites) == int(root.get("tests")) == len(list(root.iter("testcase")))
    for suite in suites:
        assert int(suite.get("tests")) == len(suite.findall("testcase"))
        assert int(suite.get("failures")) == len(suite.findall("testcase/failure"))
    assert int(root.get("failures")) == len(root.findall(".//failure")) == 3


def test_format_may_come_before_the_subcommand_and_prune_default_take_it_too() -> None:
    before = run("--format", "github", "validate", *GOLDEN_INPUTS)
    assert before.stdout == GOLDEN_GITHUB
    # default does not prune, so only prune finds the unknown field; as with --format json, only a refusal
    # (NotFound, BadRequest) makes them exit 1
    for command, rules in (("prune", ["StrictDecodingError"]), ("default", [])):
        res = run(command, "fixtures/crontab-validated/", "--format", "sarif")
        assert res.exit_code == 0, res.output
        log = json.loads(res.stdout)
        assert sarif_errors(log) == []
        assert [r["ruleId"] for r in log["runs"][0]["results"]] == rules
    assert run("prune", "fixtures/crontab-validated/", "--format", "junit").stdout.count("<testcase ") == 2


# --- exit codes, streams, no colors --------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["sarif", "github", "junit"])
@pytest.mark.parametrize(("args", "code"), [
    (["lint", "fixtures/crontab/crd.yaml"], 0),
    (["validate", "fixtures/crontab"], 0),
    (["lint", WRONG_NAME], 1),
    (["validate", "fixtures/crontab-validated"], 1),
    (["lint", "no/such/file.yaml"], 2),
])
def test_exit_codes_unchanged_no_colors_findings_on_stdout(fmt, args, code) -> None:
    res = run(*args, "--format", fmt)
    assert res.exit_code == code, res.output
    assert "\x1b[" not in res.output
    if code == 2:
        assert res.stdout == "" and "no/such/file.yaml" in res.stderr
        return
    assert res.stderr == ""
    found = {"sarif": lambda: len(json.loads(res.stdout)["runs"][0]["results"]),
             "github": lambda: sum(line.startswith("::error ") for line in res.stdout.splitlines()),
             "junit": lambda: len(ET.fromstring(res.stdout.encode()).findall(".//failure"))}[fmt]()
    assert (found > 0) == (code == 1)


def test_the_runs_notes_in_each_format(tmp_path) -> None:
    widget = tmp_path / "widget.yaml"
    widget.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: c\n")
    note = f"{widget}#0: skipped example.com/v1, Kind=Widget: no CustomResourceDefinition"
    args = ["validate", "-v", "--skip-unknown-kinds", "fixtures/crontab", str(widget), "--format"]
    log = json.loads(run(*args, "sarif").stdout)
    assert sarif_errors(log) == []
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["toolExecutionNotifications"] == [
        {"level": "note", "message": {"text": note}},
        {"level": "warning", "message": {"text": "1 object of a kind no CRD defines skipped"}}]
    assert invocation["properties"] == {"skipped": {"unknownKind": 1}}
    lines = run(*args, "github").stdout.splitlines()
    assert lines[0] == github.command("notice", {}, note)
    assert lines[-1] == ("crdtool: 1 CustomResourceDefinition would be accepted, 1 object would be accepted; "
                         "1 object of a kind no CRD defines skipped")
    res = run(*args, "junit")  # the report holds documents; the note goes to the log
    root = ET.fromstring(res.stdout.encode())
    assert res.stderr == f"note: {note}\n" and root.get("tests") == "3" and root.get("skipped") == "1"
    [case] = [c for c in root.iter("testcase") if c.find("skipped") is not None]
    assert case.get("name") == "Widget (document 0)"
    assert case.find("skipped").get("message") == "no CustomResourceDefinition"
    assert json.loads(run(*args, "json").stdout)["skipped"] == {"unknownKind": 1}


def test_columns_offers_no_findings_formats() -> None:
    res = run("columns", "fixtures/crontab-columns/", "--format", "sarif")
    assert res.exit_code == 2
    assert "--format sarif is for commands that report findings" in res.output


# --- what the renderers do with every kind of finding ---------------------------------------------

def _result_with_everything(tmp_path: Path) -> Result:
    """A document with a finding of every kind crdtool reports, including text XML 1.0 cannot hold."""
    src = tmp_path / "odd, name:1.yaml"
    src.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3\n  extra: 1\n")
    [doc] = load_inputs([str(src)])
    return Result(
        document=doc, kind="Widget", name="w", api_version="example.com/v1", status_kind="Widget",
        errors=[FieldError.invalid(FieldPath.root("spec", "size"), 3, "must be\x1b[0m even\x00\r\nreally: 100%")],
        status='Widget.example.com "w" is invalid: ...', reason="Invalid",
        warnings=["a warning, with: punctuation"],
        strict_decoding_errors=['unknown field "spec.extra"'],
        notes=[Note(FieldPath.root("spec"), "not checked: too deep")],
        findings=[Finding("field-removed", "error", FieldPath.root("spec", "size"), "a field removed"),
                  Finding("default-added", "info", FieldPath.root("metadata"), "a default added")],
    )


def test_sarif_renders_every_kind_of_finding_and_stays_valid(tmp_path) -> None:
    result = _result_with_everything(tmp_path)
    log = sarif.log([result], notes=["skipped a built-in kind"])
    assert sarif_errors(log) == []
    run_ = log["runs"][0]
    rows = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"))
            for r in run_["results"]]
    # in the order of the document (at one place: field errors before crdtool's findings)
    assert rows == [("Warning", "warning", 1), ("default-added", "note", 3), ("NotChecked", "note", 5),
                    ("FieldValueInvalid", "error", 6), ("field-removed", "error", 6),
                    ("StrictDecodingError", "error", 7)]
    assert [r["defaultConfiguration"]["level"] for r in run_["tool"]["driver"]["rules"]] == [
        "warning", "note", "note", "error", "error", "error"]
    assert run_["results"][3]["message"]["text"] == str(result.errors[0])
    assert run_["results"][4]["message"]["text"] == "spec.size: a field removed"
    uri = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri == {"uri": Path(result.document.source).as_uri()}  # an absolute path, as given
    assert run_["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] == "skipped a built-in kind"
    result.field_validation = "Warn"
    assert [r["level"] for r in sarif.log([result])["runs"][0]["results"]
            if r["ruleId"] == "StrictDecodingError"] == ["warning"]


@pytest.mark.parametrize(("source", "uri"), [
    ("crds/a.yaml", {"uri": "crds/a.yaml", "uriBaseId": "%SRCROOT%"}),
    ("./crds/my crd#1.yaml", {"uri": "crds/my%20crd%231.yaml", "uriBaseId": "%SRCROOT%"}),
    ("<stdin>", {"uri": "%3Cstdin%3E", "uriBaseId": "%SRCROOT%"}),
    ("/abs/crd.yaml", {"uri": "file:///abs/crd.yaml"}),
])
def test_sarif_artifact_locations(source, uri) -> None:
    assert sarif.artifact_location(source) == uri


def test_github_escapes_as_the_actions_toolkit(tmp_path) -> None:
    assert github.escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"
    assert github.escape_data("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e"
    result = _result_with_everything(tmp_path)
    lines = github.report([result]).splitlines()
    source = github.escape_property(result.document.source)
    assert "%2C" in source and "%3A" in source  # the file name's comma and colon
    assert lines == [
        f"::warning file={source},line=1,col=1,title=Warning::a warning, with: punctuation",
        f"::notice file={source},line=3,col=1,title=default-added::metadata: a default added",
        f"::notice file={source},line=5,col=1,title=NotChecked::spec: not checked: too deep",
        f"::error file={source},line=6,col=3,title=FieldValueInvalid::spec.size: Invalid value: 3: must be\x1b[0m "
        f"even\x00%0D%0Areally: 100%25",
        f"::error file={source},line=6,col=3,title=field-removed::spec.size: a field removed",
        f'::error file={source},line=7,col=3,title=StrictDecodingError::strict decoding error: unknown field '
        f'"spec.extra"',
    ]


def test_github_without_a_position_leaves_line_and_col_out() -> None:
    assert github.command("error", {"file": "-", "line": None, "col": None, "title": "T"}, "m") == \
        "::error file=-,title=T::m"
    assert github.command("notice", {}, "x\ny") == "::notice::x%0Ay"


def test_junit_escapes_what_xml_cannot_hold(tmp_path) -> None:
    result = _result_with_everything(tmp_path)
    text = junit.report([result], "crdtool validate")
    root = ET.fromstring(text.encode())  # well-formed, though the message held ESC and NUL
    [case] = root.iter("testcase")
    assert case.get("classname") == result.document.source and case.get("name") == "Widget w"
    failure = case.find("failure")
    assert failure.get("type") == "BadRequest"  # strict decoding refuses before validation, as kubectl shows
    assert failure.get("message") == result.strict_status
    assert "must be\\x1b[0m even\\x00" in failure.text and "100%" in failure.text
    assert (root.get("tests"), root.get("failures")) == ("1", "1")


def test_junit_fails_an_accepted_document_with_an_error_finding(tmp_path) -> None:
    [doc] = load_inputs([str(ROOT / "fixtures/crontab/crd.yaml")])
    result = Result(document=doc, kind="CustomResourceDefinition", name="crontabs.stable.example.com",
                    findings=[Finding("field-removed", "error", FieldPath.root("spec"), "gone")])
    failure = ET.fromstring(junit.report([result]).encode()).find(".//failure")
    assert (failure.get("type"), failure.get("message")) == ("field-removed", "spec: gone")
    result.findings = [Finding("default-added", "info", FieldPath.root("spec"), "new default")]
    root = ET.fromstring(junit.report([result]).encode())
    assert root.find(".//failure") is None and "info" not in root.find(".//system-out").text
    assert "note: spec: new default" in root.find(".//system-out").text


# --- --quiet ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_prints_only_the_findings(where) -> None:
    args = ["validate", "fixtures/crontab", WRONG_NAME, "--no-color"]
    res = run("-q", *args) if where == "before" else run(*args, "--quiet")
    loud = run(*args)
    assert res.exit_code == loud.exit_code == 1
    assert "ok fixtures/crontab" in loud.stdout and "would be rejected" in loud.stdout
    assert "ok " not in res.stdout and "would be" not in res.stdout
    assert res.stdout == "".join(line + "\n" for line in loud.stdout.splitlines()
                                 if not line.startswith("ok ") and "would be" not in line)
    clean = run("-q", "validate", "fixtures/crontab")
    assert (clean.exit_code, clean.stdout) == (0, "")


def test_quiet_github_has_no_summary_line() -> None:
    res = run("-q", "validate", *GOLDEN_INPUTS, "--format", "github")
    assert res.stdout == GOLDEN_GITHUB.rsplit("crdtool: ", 1)[0]


# --- shell completion and lazy imports ---------------------------------------------------------

def _crdtool(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crdtool", *args], capture_output=True, text=True, check=False,
                          env={**os.environ, **env}, cwd=ROOT)


def test_bash_completion_script_and_subcommand_completion() -> None:
    script = _crdtool({"_CRDTOOL_COMPLETE": "bash_source"})
    assert script.returncode == 0
    assert "_crdtool_completion()" in script.stdout
    assert "complete -o nosort -F _crdtool_completion crdtool" in script.stdout
    words = _crdtool({"_CRDTOOL_COMPLETE": "bash_complete", "COMP_WORDS": "crdtool li", "COMP_CWORD": "1"})
    assert words.stdout.splitlines() == ["plain,lint"]
    formats = _crdtool({"_CRDTOOL_COMPLETE": "bash_complete", "COMP_WORDS": "crdtool lint --format s",
                        "COMP_CWORD": "3"})
    assert formats.stdout.splitlines() == ["plain,sarif"]


def test_help_loads_no_renderer() -> None:
    shown, modules, _ = imported_by(["--help"], ("crdtool.report",), cwd=ROOT)
    # the registry of formats (the help's choices), and no renderer
    assert "sarif, github" in shown and modules == ["crdtool.report", "crdtool.report.registry"]


def test_ci_paths_are_relative_to_the_repository(monkeypatch) -> None:
    absolute = os.path.abspath(WRONG_NAME)
    res = run("lint", absolute, "--format", "github")
    assert res.stdout.startswith("::error file=fixtures/broken/wrong-name.yaml,line=5,col=3,")
    sarif = json.loads(run("lint", absolute, "--format", "sarif").stdout)
    location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "fixtures/broken/wrong-name.yaml", "uriBaseId": "%SRCROOT%"}
    monkeypatch.setenv("GITHUB_WORKSPACE", os.path.abspath("fixtures"))
    assert run("lint", absolute, "--format", "github").stdout.startswith("::error file=broken/wrong-name.yaml,")
    monkeypatch.setenv("GITHUB_WORKSPACE", os.path.abspath("tests"))  # outside the workspace: as given
    outside = run("lint", absolute, "--format", "github").stdout
    assert outside.startswith(f"::error file={absolute.replace(':', '%3A')},")
