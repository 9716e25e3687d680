"""The engine's one entry for validate, prune and default (engine.run), and the verdicts it
decides once for every format: fieldValidation=Warn's warnings, a namespace kubectl escapes in the
request path, kubectl's printed kind, and prune/default's stored objects and file edits."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.engine.run import RunRequest, run
from crdtool.engine.skipped import SkipKinds
from crdtool.load import load_inputs, read_source
from crdtool.model.discovery import printed_kind

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
CRD = str(FIXTURES / "crontab-validated" / "crd.yaml")
NEEDS_DEFAULTS = str(FIXTURES / "crontab-validated" / "needs-defaults.yaml")
PLAIN_CRD = str(FIXTURES / "crontab" / "crd.yaml")

CRONTAB = """apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: {name}
  namespace: "{namespace}"
spec:
  cronSpec: "* * * * */5"
"""


def _cli(*args: str):
    return CliRunner().invoke(cli, ["--no-config", *args])


def test_one_entry_skips_sorts_and_keeps_input_order() -> None:
    docs = read_source("in.yaml", "---\n".join([
        CRONTAB.format(name="b", namespace="ns"),
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: c\n",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n",
        CRONTAB.format(name="a", namespace="ns")]))
    outcome = run(RunRequest(documents=docs, crds=load_inputs([PLAIN_CRD]),
                             skip_kinds=SkipKinds(("Widget.example.com",), "crdtool.yaml")))
    assert [r.name for r in outcome.results] == ["b", "c", "a"] and all(r.valid for r in outcome.results)
    assert [r.checks for r in outcome.results] == ["validation", "decoding,defaulting,metadata", "validation"]
    assert [(s.reason, s.detail) for s in outcome.skipped] == [("skip-kinds", "skip-kinds in crdtool.yaml")]
    assert outcome.crd_results == [] and outcome.refused_crds == []
    parallel = run(RunRequest(documents=docs, crds=load_inputs([PLAIN_CRD]), jobs=2))
    assert [(r.name, r.reason) for r in parallel.results] == [("b", None), ("c", None), ("w", "NotFound"), ("a", None)]



def test_results_are_rendered_where_they_are_made_and_the_report_joins_them() -> None:
    """`--format json` with --jobs: each object's line is made in the worker that checked it, and is
    what the parent would have made itself (its document's positions included)."""
    from crdtool.report import jsonout
    from crdtool.report.registry import per_result

    docs = read_source("in.yaml", "---\n".join(
        CRONTAB.format(name=name, namespace=namespace) for name, namespace in [("a", "ns"), ("B_", ""), ("c", "ns")]))
    crds = load_inputs([PLAIN_CRD])
    plain = run(RunRequest(documents=docs, crds=crds, jobs=2))
    rendered = run(RunRequest(documents=docs, crds=crds, jobs=2, render=per_result("json")))
    assert [r.rendered for r in plain.results] == [None, None, None]
    assert [r.rendered for r in rendered.results] == [jsonout.result_text(r) for r in plain.results]
    assert '"field": "metadata.name"' in rendered.results[1].rendered and '"line": 12' in rendered.results[1].rendered
    assert jsonout.report(rendered.results) == jsonout.report(plain.results)
    assert per_result("text") is None


def test_warn_makes_strict_findings_warnings_in_every_format() -> None:
    kubectl = _cli("validate", "--format", "kubectl", "--field-validation", "Warn", "-c", CRD, NEEDS_DEFAULTS)
    assert kubectl.exit_code == 0 and kubectl.stderr == 'Warning: unknown field "spec.imagePullPolicy"\n'
    out = json.loads(_cli("validate", "--format", "json", "--field-validation", "Warn", "-c", CRD,
                          NEEDS_DEFAULTS).stdout)["results"][0]
    assert out["valid"] is True and out["warnings"] == ['unknown field "spec.imagePullPolicy"']
    strict = json.loads(_cli("validate", "--format", "json", "-c", CRD, NEEDS_DEFAULTS).stdout)["results"][0]
    assert strict["valid"] is False and strict["warnings"] == []


def test_a_namespace_kubectl_escapes_is_one_verdict_in_every_format(tmp_path: Path) -> None:
    cr = tmp_path / "cr.yaml"
    cr.write_text(CRONTAB.format(name="x", namespace="${NAMESPACE}"))
    kubectl = _cli("validate", "--format", "kubectl", "-c", PLAIN_CRD, str(cr))
    assert kubectl.exit_code == 1 and kubectl.stderr == (
        f'Error from server (BadRequest): error when creating "{cr}": the namespace of the provided object '
        "does not match the namespace sent on the request\n")
    as_json = _cli("validate", "--format", "json", "-c", PLAIN_CRD, str(cr))
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["results"][0]["valid"] is False
    text = _cli("validate", "--no-color", "-c", PLAIN_CRD, str(cr))
    assert "does not match the namespace sent on the request" in text.stdout
    (result,) = run(RunRequest(documents=load_inputs([str(cr)]), crds=load_inputs([PLAIN_CRD]))).results
    assert result.sent_status is not None and result.reason == "Invalid"
    cr.write_text(CRONTAB.format(name="x", namespace="ns"))
    (result,) = run(RunRequest(documents=load_inputs([str(cr)]), crds=load_inputs([PLAIN_CRD]))).results
    assert result.sent_status is None and result.valid


def test_kubectl_prints_the_kind_and_group(tmp_path: Path) -> None:
    assert printed_kind("stable.example.com/v1", "CronTab") == "crontab.stable.example.com"
    assert printed_kind("v1", "ConfigMap") == "configmap"
    cr = tmp_path / "cr.yaml"
    cr.write_text(CRONTAB.format(name="x", namespace="ns"))
    res = _cli("validate", "--format", "kubectl", "-c", PLAIN_CRD, str(cr))
    assert res.stdout == "crontab.stable.example.com/x created (server dry run)\n"
    res = _cli("lint", "--format", "kubectl", PLAIN_CRD)
    assert res.stdout == ("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com "
                          "created (server dry run)\n")


def test_default_as_stored_and_file_edits_come_from_the_engine() -> None:
    docs, crds = load_inputs([NEEDS_DEFAULTS]), load_inputs([CRD])
    (stored,) = run(RunRequest(documents=docs, crds=crds, op="default", stored=True, edits=True)).results
    assert "imagePullPolicy" not in stored.object["spec"] and stored.object["spec"]["replicas"] == 1
    assert stored.edit["spec"]["imagePullPolicy"] == "Always"  # the file keeps what only pruning removes
    assert stored.edit["spec"]["replicas"] == 1
    (pruned,) = run(RunRequest(documents=docs, crds=crds, op="prune", edits=True)).results
    assert "imagePullPolicy" not in pruned.edit["spec"] and "replicas" not in pruned.edit["spec"]
    (plain,) = run(RunRequest(documents=docs, crds=crds, op="prune")).results
    assert plain.edit is None
    (defaulted,) = run(RunRequest(documents=docs, crds=crds, op="default", edits=True)).results
    assert defaulted.edit is defaulted.object and defaulted.edit == stored.edit  # the step's object, made once
    docs[0].data["spec"].update(replicas=1, cronSpec="5 0 * * *")
    (unchanged,) = run(RunRequest(documents=docs, crds=crds, op="default", edits=True)).results
    assert unchanged.edit is None and unchanged.object == docs[0].data


def test_a_prune_edit_removes_unknown_fields_and_nulls_where_not_nullable(tmp_path: Path) -> None:
    crds = load_inputs([CRD])
    given = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "n"}}
    cases = [({"image": "i"}, None),  # nothing to prune: no edit
             ({"image": None}, {"spec": {}}),  # no unknown field, but a null the schema does not allow
             ({"image": "i", "x": 1}, {"spec": {"image": "i"}})]
    for spec, edit in cases:
        path = tmp_path / "cr.json"
        path.write_text(json.dumps({**given, "spec": spec}))
        (result,) = run(RunRequest(documents=load_inputs([str(path)]), crds=crds, op="prune", edits=True)).results
        assert result.edit == (None if edit is None else {**given, **edit}), spec
