"""Renderers: kubectl's texts, the JSON contract and the human text, from hand-made results."""

from __future__ import annotations

import io
import json

from crdtool.engine.results import Result
from crdtool.load import read_source
from crdtool.model import FieldError, Path
from crdtool.report import jsonout, kubectl, text

CRD_TEXT = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontab.stable.example.com
spec:
  scope: Namespace
"""


def _result(errors, **kw) -> Result:
    doc = read_source("crd.yaml", CRD_TEXT)[0]
    r = Result(document=doc, kind=doc.kind, name="crontab.stable.example.com", api_version=doc.api_version,
               status_kind="CustomResourceDefinition", errors=errors, **kw)
    if errors:
        r.status, r.reason = "invalid", "Invalid"
    return r


NAME_ERR = FieldError.invalid(Path.root("metadata", "name"), "crontab.stable.example.com",
                              'must be spec.names.plural+"."+spec.group')
SCOPE_ERR = FieldError.not_supported(Path.root("spec", "scope"), "Namespace", ["Cluster", "Namespaced"])


def test_kubectl_prints_one_cause_on_the_first_line() -> None:
    assert kubectl.error_text(_result([NAME_ERR])) == (
        'The CustomResourceDefinition "crontab.stable.example.com" is invalid: metadata.name: Invalid value: '
        '"crontab.stable.example.com": must be spec.names.plural+"."+spec.group\n')


def test_kubectl_lists_several_causes_once_each() -> None:
    assert kubectl.error_text(_result([NAME_ERR, SCOPE_ERR, SCOPE_ERR])) == (
        'The CustomResourceDefinition "crontab.stable.example.com" is invalid: \n'
        '* metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group\n'
        '* spec.scope: Unsupported value: "Namespace": supported values: "Cluster", "Namespaced"\n')


def test_strict_decoding_findings_are_a_bad_request_under_strict() -> None:
    r = _result([], strict_decoding_errors=['unknown field "spec.x"', 'unknown field "spec.y"'])
    assert not r.valid
    assert kubectl.error_text(r) == (
        'Error from server (BadRequest): error when creating "crd.yaml": CustomResourceDefinition in version "v1" '
        'cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.x", '
        'unknown field "spec.y"\n')
    r.field_validation = "Warn"
    assert r.valid and kubectl.error_text(r) == ""


def test_json_contract_carries_positions_and_values() -> None:
    out = json.loads(jsonout.report([_result([SCOPE_ERR, FieldError.required(Path.root("spec", "group"), "")])]))
    res = out["results"][0]
    assert (res["file"], res["document"], res["valid"], res["status"]) == ("crd.yaml", 0, False, "invalid")
    scope, group = res["errors"]
    assert scope == {"type": "FieldValueNotSupported", "field": "spec.scope", "badValue": "Namespace",
                     "detail": 'supported values: "Cluster", "Namespaced"',
                     "error": 'spec.scope: Unsupported value: "Namespace": supported values: "Cluster", "Namespaced"',
                     "line": 6, "column": 3}
    assert group["badValueOmitted"] is True and (group["line"], group["column"]) == (5, 1)


def test_text_shows_position_snippet_and_kubectl_text() -> None:
    buffer = io.StringIO()
    text.render_results(text.console(False, file=buffer), [_result([SCOPE_ERR])])
    out = buffer.getvalue()
    assert 'crd.yaml:6:3: error: spec.scope: Unsupported value: "Namespace"' in out
    assert "    6 |   scope: Namespace\n          ^" in out
    assert "kubectl would print:\n  The CustomResourceDefinition" in out


def test_an_invalid_answer_from_admission_is_printed_from_its_status_details() -> None:
    """kubectl's IsInvalid branch reads the status details: admission's (a webhook's own, or
    admission.NewForbidden's) name the resource, and each cause is `field: message`, deduplicated."""
    def refused(details):
        r = _result([], status="denied", reason="Invalid", code=422, status_details=details)
        return kubectl.error_text(r)

    assert refused(None) == "The request is invalid\n"
    assert refused({"kind": "widgets", "name": "w"}) == 'The widgets "w" is invalid\n'
    too_big = {"field": "spec.size", "message": "too big"}
    causes = [too_big, {"message": "no"}, too_big]
    assert refused({"kind": "widgets", "name": "w", "causes": causes}) == (
        'The widgets "w" is invalid: \n* spec.size: too big\n* : no\n')
