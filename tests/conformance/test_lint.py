"""The apiserver's answers to CRD creates and updates (../shared/conformance/lint*.jsonl), one test per case."""

from __future__ import annotations

import pytest
from conformance_cases import compare, document_for, params, requires_shared

from crdtool.engine.lint import lint_document
from crdtool.report.jsonout import result_json

pytestmark = requires_shared


@pytest.mark.parametrize("case", params("lint"))
def test_lint_case(case: dict) -> None:
    doc = document_for(case["crd"], case, "crd")
    got = result_json(lint_document(doc))
    assert compare("lint", case["expected"], got) == []


@pytest.mark.parametrize("case", params("lint-update"))
def test_lint_update_case(case: dict) -> None:
    doc = document_for(case["crd"], case, "crd")
    old = document_for(case["oldCrd"], case, "old")
    got = result_json(lint_document(doc, old))
    assert compare("lint-update", case["expected"], got) == []
