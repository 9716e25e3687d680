"""Admission policies' variables through `crdtool validate`, composited as the apiserver composites them
(k8s.io/apiserver pkg/admission/plugin/cel/composition.go): a variable is evaluated when an evaluation
first reads it, so one that fails is an error only where a read is reached; a MutatingAdmissionPolicy's
mutations each read the variables over the object the mutations before them left (dispatcher.go, a new
activation per patcher)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
POLICY = FIXTURES / "admission-policy" / "policy.yaml"
MAP = FIXTURES / "mutating-policy" / "map.yaml"
CRD = str(FIXTURES / "crontab" / "crd.yaml")
BUSY = str(FIXTURES / "admission-policy" / "crontab.yaml")  # 5 replicas, more than the params' 3
QUIET = str(FIXTURES / "crontab" / "my-crontab.yaml")  # no replicas

CHECK = "!has(object.spec.replicas) || object.spec.replicas <= variables.limit || variables.broken"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def with_broken_variable(tmp_path: Path) -> str:
    text = POLICY.read_text(encoding="utf-8")
    limit = '    expression: "int(params.data.maxReplicas)"\n'
    text = text.replace(limit, limit + '  - name: broken\n    expression: "object.spec.nope"\n')
    text = text.replace('"!has(object.spec.replicas) || object.spec.replicas <= variables.limit"', json.dumps(CHECK))
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_failing_variable_no_evaluation_reaches_fails_nothing(tmp_path: Path) -> None:
    res = run("validate", "--no-color", "-c", CRD, "--admission", with_broken_variable(tmp_path), QUIET)
    assert res.exit_code == 0, res.output
    assert "note:" not in res.output


@pytest.mark.parametrize("output", ["text", "kubectl"])
def test_a_failing_variable_is_the_error_of_the_evaluation_that_reads_it(tmp_path: Path, output: str) -> None:
    res = run("validate", "--no-color", "--format", output, "-c", CRD, "--admission", with_broken_variable(tmp_path),
              BUSY)
    assert res.exit_code == 1, res.output
    message = (f"ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-default' denied request: "
               f"expression '{CHECK}' resulted in error: composited variable \"broken\" fails to evaluate: no such "
               "key: nope")
    if output == "text":
        assert f'{BUSY}:1:1: error: crontabs.stable.example.com "busy" is forbidden: {message}\n' in res.output
    else:
        assert res.output == f'The crontabs "busy" is invalid: : {message}\n'


def test_each_mutation_reads_the_variables_over_the_object_as_the_mutations_before_it_left(tmp_path: Path) -> None:
    text = MAP.read_text(encoding="utf-8")
    text = text.replace("  mutations:\n", """\
  variables:
  - name: labelled
    expression: "has(object.metadata.labels) && 'example.com/team' in object.metadata.labels"
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        variables.labelled ? [JSONPatch{op: "add", path: "/metadata/labels/before", value: "labelled"}] : []
""", 1)
    text = text.replace("""                   value: params.data.team}]
""", """                   value: params.data.team}]
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        variables.labelled ? [JSONPatch{op: "add", path: "/metadata/labels/after", value: "labelled"}] : []
""", 1)
    policies = tmp_path / "map.yaml"
    policies.write_text(text, encoding="utf-8")
    res = run("validate", "--format", "json", "-c", CRD, "--admission", str(policies), QUIET)
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.output)["results"]
    assert result["object"]["metadata"]["labels"] == {"example.com/team": "batch", "after": "labelled"}
