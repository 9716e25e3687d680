"""Reading the shared conformance cases (../shared/conformance) for pytest.

The cases stay in the shared folder; the inputs are prepared the way the shared scorer
prepares them (an unmodified `$ref` is the real file, anything else is JSON), and a
result is judged by the scorer's own `compare`, so pytest and the scorer agree.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import pytest

from crdtool.schema.structural.structural import new_structural

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CRDTOOL_SHARED", REPO.parent / "shared"))
CONFORMANCE = SHARED / "conformance"
KNOWN_FAILURES = Path(__file__).resolve().parent / "conformance_known_failures.txt"

if (SHARED / "tools").is_dir():
    sys.path.insert(0, str(SHARED / "tools"))


def available() -> bool:
    return (CONFORMANCE / "lint.jsonl").is_file()


requires_shared = pytest.mark.skipif(not available(), reason=f"shared conformance cases not found at {SHARED}")


def load_cases(op: str) -> list[dict]:
    path = CONFORMANCE / f"{op}.jsonl"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@functools.cache
def known_failures() -> dict[str, str]:
    """Case id -> why crdtool does not agree with the apiserver yet."""
    out: dict[str, str] = {}
    if KNOWN_FAILURES.is_file():
        for line in KNOWN_FAILURES.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                case_id, _, reason = line.partition("\t")
                out[case_id.strip()] = reason.strip() or "not yet conformant"
    return out


def params(op: str, filter_fn=None) -> list:
    """pytest params, one per case, known failures marked as strict xfails."""
    out = []
    failures = known_failures()
    for case in load_cases(op):
        if filter_fn is not None and not filter_fn(case):
            continue
        marks = []
        if case["id"] in failures:
            marks.append(pytest.mark.xfail(reason=failures[case["id"]], strict=True))
        out.append(pytest.param(case, id=case["id"], marks=marks))
    return out


@functools.cache
def _file_documents(path: str):
    from crdtool.load import read_source

    return read_source(path)


def document_for(spec, case: dict, name: str):
    """The crdtool Document for a case input, as the scorer hands it to the CLI."""
    from conformance import _mutations_for, resolve  # the shared scorer's own helpers

    from crdtool.load import read_source

    if isinstance(spec, dict) and "$ref" in spec and not _mutations_for(spec, case):
        path = str(SHARED / spec["$ref"])
        index = spec.get("doc", 0)
        docs = [d for d in _file_documents(path) if d.index == index]
        return docs[0] if docs else None
    value = resolve(spec, case, str(SHARED))
    docs = read_source(name + ".json", json.dumps(value, ensure_ascii=False))
    return docs[0] if docs else None


def compare(op: str, expected: dict, got: dict) -> list[str]:
    from conformance import compare as scorer_compare

    return scorer_compare(op, expected, got)


_SCHEMAS: dict[tuple[str, str], object] = {}


def case_input(case: dict) -> tuple[dict, object]:
    """The object of a validate/prune/default case and the structural schema of its version, as the
    scorer builds them (the case's mutations apply to the object, never to the CRD)."""
    version = case.get("version") or case["expected"].get("version")
    key = (repr(case["crd"]), version)
    if key not in _SCHEMAS:
        spec = document_for(case["crd"], case, "crd").data["spec"]
        raw = None
        for v in spec.get("versions") or []:
            if v.get("name") == version:
                raw = (v.get("schema") or {}).get("openAPIV3Schema")
        if raw is None:
            raw = (spec.get("validation") or {}).get("openAPIV3Schema")
        _SCHEMAS[key] = new_structural(raw)
    return document_for(case["object"], case, "obj").data, _SCHEMAS[key]
