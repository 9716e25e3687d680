"""The apiserver's Tables (../shared/conformance/columns.jsonl) and what the real kubectl printed
for `kubectl get` (../shared/conformance/kubectl/get.jsonl), one test per case."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from conformance_cases import CONFORMANCE, SHARED, compare, document_for, known_failures, params, requires_shared

from crdtool.columns.view import Listing, build_view
from crdtool.engine.registry import Registry

pytestmark = requires_shared

#: When the oracle computed the columns cases' date cells: their ages (e.g. 6y327d since
#: 2020-01-01) put its clock on 2026-11-22.
ORACLE_NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def _table_json(case: dict) -> dict:
    registry = Registry()
    registry.add(document_for(case["crd"], case, "crd"), serve_rejected=True)
    docs = [document_for(o, {**case, "object": o}, f"obj-{k}") for k, o in enumerate(case["objects"])]
    view = build_view(docs, registry, Listing(namespace=None), ORACLE_NOW)
    assert not view.refused
    assert len(view.tables) == 1
    return json.loads(json.dumps(view.tables[0].as_json()))


@pytest.mark.parametrize("case", params("columns"))
def test_columns_case(case: dict) -> None:
    got = _table_json(case)
    assert compare("columns", case["expected"], got) == []
    assert got["version"] == case["expected"]["version"]


def _get_params() -> list:
    path = CONFORMANCE / "kubectl" / "get.jsonl"
    cases = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()] if path.is_file() else []
    failures = known_failures()
    return [pytest.param(c, id=c["id"], marks=[pytest.mark.xfail(reason=failures[c["id"]], strict=True)]
                         if c["id"] in failures else []) for c in cases]


@pytest.mark.parametrize("case", _get_params())
def test_kubectl_get_case(case: dict) -> None:
    import kubectl_text  # the shared scorer: the same command line for each kubectl invocation

    from crdtool.cli import cli

    with tempfile.TemporaryDirectory() as tmp:
        argv = kubectl_text.command(case, ["crdtool"], str(SHARED), tmp)
        result = CliRunner().invoke(cli, argv[1:], env={"NO_COLOR": "1"})
    expected = case["expected"]
    assert result.stdout == expected["stdout"]
    assert (result.exit_code != 0) == (expected["exitCode"] != 0)
    if expected["stderr"]:
        assert result.stderr == expected["stderr"]
