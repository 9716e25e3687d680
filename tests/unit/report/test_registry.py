"""The registry of formats and the renderer protocol: one map feeds --format's choices and the
settings file's check, every renderer is `render(results, context)` writing to the context's
streams, and every findings format walks a document's findings in one order, the document's."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.config import load_config
from crdtool.engine.results import Result
from crdtool.load import InputError, read_source
from crdtool.model import FieldError
from crdtool.model import Path as FieldPath
from crdtool.report import registry, sarif, text
from crdtool.report.context import RenderContext
from crdtool.report.issues import issues

ROOT = Path(__file__).resolve().parents[3]

CRD_TEXT = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontab.stable.example.com
spec:
  group: ""
  scope: Namespace
"""
SCOPE_ERR = FieldError.not_supported(FieldPath.root("spec", "scope"), "Namespace", ["Cluster", "Namespaced"])
GROUP_ERR = FieldError.required(FieldPath.root("spec", "group"), "")


def _refused() -> Result:
    """A refused CRD whose field errors come in the apiserver's order, not the document's (scope, line 7, first)."""
    doc = read_source("crd.yaml", CRD_TEXT)[0]
    return Result(document=doc, kind=doc.kind, name="crontab.stable.example.com", api_version=doc.api_version,
                  status_kind="CustomResourceDefinition", errors=[SCOPE_ERR, GROUP_ERR], status="invalid",
                  reason="Invalid", warnings=["a warning about the whole document"])


@pytest.mark.parametrize("command", ["lint", "validate", "prune", "default", "convert"])
def test_format_choices_are_the_registry(command: str) -> None:
    sub = cli.get_command(click.Context(cli), command)
    option = next(p for p in sub.params if p.name == "output_format")
    assert tuple(option.type.choices) == registry.FORMAT_NAMES
    group_option = next(p for p in cli.params if p.name == "output_format")
    assert tuple(group_option.type.choices) == registry.FORMAT_NAMES


def test_every_format_has_renderers() -> None:
    for entry in registry.FORMATS.values():
        assert callable(registry.renderer(entry.results))
        if entry.conversions is not None:
            assert callable(registry.renderer(entry.conversions))
    assert registry.FINDINGS_FORMATS == ("sarif", "github", "junit")


def test_settings_format_is_checked_against_the_registry(tmp_path) -> None:
    path = tmp_path / ".crdtool.yaml"
    path.write_text("format: xml\n")
    with pytest.raises(InputError) as err:
        load_config(str(path))
    assert '"format" must be one of: ' + ", ".join(registry.FORMAT_NAMES) in str(err.value)
    path.write_text("format: junit\n")
    assert load_config(str(path)).format == "junit"


def test_the_registry_loads_no_renderer() -> None:
    probe = ("import sys, crdtool.report.registry\n"
             "print(sorted(m for m in sys.modules if m.startswith(('crdtool.report.', 'rich', 'crdtool.engine'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "['crdtool.report.registry']"


def test_renderers_write_to_the_context_streams() -> None:
    out, err = io.StringIO(), io.StringIO()
    registry.render("json", [_refused()], RenderContext(stdout=out, stderr=err, skipped=[]))
    assert json.loads(out.getvalue())["results"][0]["valid"] is False and err.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    registry.render("kubectl", [_refused()], RenderContext(stdout=out, stderr=err))
    assert out.getvalue() == ""
    assert err.getvalue().startswith('Warning: a warning about the whole document\nThe CustomResourceDefinition '
                                     '"crontab.stable.example.com" is invalid: \n* spec.scope: ')


def test_findings_come_in_the_order_of_the_document() -> None:
    result = _refused()
    assert [i.position for i in issues(result)] == [(1, 1), (6, 3), (7, 3)]
    assert [i.category for i in issues(result)] == ["warning", "field", "field"]
    rendered = [r["locations"][0]["physicalLocation"]["region"]["startLine"]
                for r in sarif.log([result])["runs"][0]["results"]]
    assert rendered == [1, 6, 7]
    out = io.StringIO()
    text.render([result], RenderContext(stdout=out, quiet=True))
    lines = out.getvalue().splitlines()
    findings = [line for line in lines if line.startswith("crd.yaml:")]
    assert [f.split(": ")[0] for f in findings] == ["crd.yaml:1:1", "crd.yaml:6:3", "crd.yaml:7:3"]
    # kubectl's own text keeps the apiserver's order
    kubectl_lines = lines[lines.index("kubectl would print:") + 1:]
    assert kubectl_lines[1].startswith("  * spec.scope") and kubectl_lines[2].startswith("  * spec.group")


def test_convert_counts_close_the_github_annotations(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    res = CliRunner().invoke(cli, ["convert", "fixtures/crontab", "--to", "v2", "--format", "github"])
    assert res.exit_code == 1
    assert res.stdout.splitlines()[-1] == "crdtool: 1 of 1 object would be rejected"
    quiet = CliRunner().invoke(cli, ["convert", "fixtures/crontab", "--to", "v2", "--format", "github", "-q"])
    assert quiet.stdout.splitlines()[-1].startswith("::error ")
