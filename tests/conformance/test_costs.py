"""The apiserver's estimated CEL costs (../shared/conformance/cel-compile.jsonl), one test per case:
every rule that compiles has the maxCost and expressionCost `crdtool lint --costs` reports."""

from __future__ import annotations

import re

import pytest
from conformance_cases import document_for, params, requires_shared

from crdtool.engine.lint import lint_document

pytestmark = requires_shared


def _costs(case: dict) -> tuple[dict, dict]:
    result = lint_document(document_for(case["crd"], case, "crd"), costs=True)
    got = {str(c.path): (c.max_cost, c.cost) for c in result.rule_costs or [] if c.path.segments[-1] == "rule"}
    expected = {}
    for version in case["expected"]["versions"]:
        for rule in version["rules"]:
            if rule.get("error") or not rule["rule"].strip():
                continue
            path = f"{rule['path']}.x-kubernetes-validations[{rule['index']}].rule"
            if path not in got:  # versions with one schema are validated as spec.validation
                path = re.sub(r"^spec\.versions\[\d+\]\.schema\.", "spec.validation.", path)
            expected[path] = (rule["maxCost"], rule["expressionCost"])
    return expected, {path: got.get(path) for path in expected}


@pytest.mark.parametrize("case", params("cel-compile"))
def test_rule_costs(case: dict) -> None:
    expected, got = _costs(case)
    assert got == expected
