"""The apiserver's answers for custom resources (../shared/conformance validate, validate-update,
prune and default), one test per case, run through the engine's entry as the CLI runs it."""

from __future__ import annotations

import functools
import json

import pytest
from conformance_cases import compare, document_for, params, requires_shared

from crdtool.engine.registry import Registry, registry_of
from crdtool.engine.run import RunRequest, run
from crdtool.report.jsonout import result_json

pytestmark = requires_shared


@functools.cache
def _registry(crd_json: str) -> Registry:
    """One registry per distinct CRD (the CRD of a resource case is never mutated)."""
    spec = json.loads(crd_json)
    return registry_of([document_for(spec, {"op": "validate", "crd": spec}, "crd")])


def _run(op: str, case: dict) -> dict:
    old = document_for(case["old"], case, "old") if case.get("old") is not None else None
    request = RunRequest(documents=[document_for(case["object"], case, "obj")], olds=[old] if old else [],
                         version=case.get("version"), namespace=case.get("namespace"),
                         op="validate" if op.startswith("validate") else op,
                         registry=_registry(json.dumps(case["crd"], sort_keys=True)))
    (result,) = run(request).results
    return result_json(result)


@pytest.mark.parametrize("case", params("validate"))
def test_validate_case(case: dict) -> None:
    assert compare("validate", case["expected"], _run("validate", case)) == []


@pytest.mark.parametrize("case", params("validate-update"))
def test_validate_update_case(case: dict) -> None:
    assert compare("validate-update", case["expected"], _run("validate-update", case)) == []


@pytest.mark.parametrize("case", params("prune"))
def test_prune_case(case: dict) -> None:
    assert compare("prune", case["expected"], _run("prune", case)) == []


@pytest.mark.parametrize("case", params("default"))
def test_default_case(case: dict) -> None:
    assert compare("default", case["expected"], _run("default", case)) == []
