"""kubectl-validate's own testcases (tests/data/kubectl-validate, see its README) through `crdtool validate`.

Each manifest document carries kubectl-validate's expected answer, a metav1.Status in a leading
comment (read as kubectl-validate's pkg/cmd/validate_test.go reads it). crdtool must give the same
verdict (accepted or refused), and where kubectl-validate's causes are in the apiserver's words, the
same causes (`field: message`) and, for groups other than core, the same status message.

kubectl-validate checks against the OpenAPI schema; the apiserver decodes into Go types and runs the
kinds' validation. Where the two differ, the apiserver is the specification: DIFFERENT_TEXT and
DIFFERENT_VERDICT list each such document, why, and what crdtool answers instead (the apiserver's words).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "kubectl-validate"
MANIFESTS = DATA / "manifests"
CRDS = DATA / "crds"


@dataclass(frozen=True)
class Case:
    file: str
    document: int  # index among the file's `---`-separated documents, as crdtool's JSON counts them
    expected: dict  # kubectl-validate's metav1.Status

    @property
    def id(self) -> str:
        return f"{self.file}#{self.document}"

    @property
    def causes(self) -> list[str]:
        return [f"{c['field']}: {c['message']}" for c in self.expected.get("details", {}).get("causes", [])]


def _leading_comment(document: str) -> str:
    """The document's first comment block without the `#`s (blank lines before it skipped)."""
    lines = []
    for line in document.splitlines():
        if not lines and not line.strip():
            continue
        if not line.startswith("#"):
            break
        lines.append(line[1:])
    return "\n".join(lines)


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(MANIFESTS.glob("*.yaml")):
        for index, document in enumerate(re.split(r"(?m)^---[ \t]*$", path.read_text(encoding="utf-8"))):
            if all(not line.strip() or line.lstrip().startswith("#") for line in document.splitlines()):
                continue  # an empty document: kubectl-validate answers Success, there is no object
            cases.append(Case(path.name, index, json.loads(_leading_comment(document))))
    return cases


CASES = load_cases()

#: Files with no object at all: kubectl-validate answers Success for each empty document; there is
#: nothing to send to the apiserver, kubectl refuses them (`error: no objects passed to apply`) and
#: crdtool says so (exit 2).
EMPTY_FILES = ["empty.yaml", "empty_with_document.yaml"]

#: Documents of kinds whose CRD was not copied (jobset.yaml is 728 KB): skipped with --skip-unknown-kinds.
NOT_COPIED = {"jobset.yaml#0", "multiple_resources.yaml#0"}

_UNKNOWN = ("kubectl-validate reports an unknown field as a schema error ('value provided for unknown field'); "
            "the apiserver's strict field validation refuses the request with a strict decoding error (400), "
            "and its validation of the decoded object reports the missing required field")
_DECODE = ("kubectl-validate reports an OpenAPI type error; the apiserver decodes into the Go types and "
           "refuses the request with encoding/json's (or the type's own) decoding error (400)")

#: Same verdict, different words: reason, and a text crdtool gives (the apiserver's).
DIFFERENT_TEXT: dict[str, tuple[str, str]] = {
    "error_array_instead_of_map.yaml#0": (
        _DECODE, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into '
                 "Go struct field ConfigMap.data of type map[string]string"),
    "error_invalid_protocol_type.yaml#0": (
        _DECODE, 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct '
                 "field ContainerPort.spec.containers.ports.protocol of type v1.Protocol"),
    "error_quantity.yaml#0": (
        _DECODE + " (resource.Quantity's UnmarshalJSON parses `true` as a quantity)",
        'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    "error_map_instead_of_array.yaml#0": (
        "kubectl-validate wraps the decoding error as an internal error and names the field without its "
        "JSON path; the apiserver's 400 names the full path (encoding/json since Go 1.20)",
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go '
        "struct field ObjectMeta.metadata.finalizers of type []string"),
    "error_indentation.yaml#0": (_UNKNOWN, 'unknown field "containers"'),
    "error_misspelled_key.yaml#0": (_UNKNOWN, 'unknown field "spec.contAIN3rz"'),
    "error_multiple_resources_all_invalid.yaml#0": (_UNKNOWN, 'unknown field "spec.contAIN3rz"'),
    "error_multiple_resources_one_invalid.yaml#0": (_UNKNOWN, 'unknown field "spec.contAIN3rz"'),
    "error_invalid_kind.yaml#0": (
        "kubectl-validate reports an internal error of its own; kubectl cannot map the kind and says so "
        "before any request", 'no matches for kind "configmap" in version "v1"'),
    "error_multiple_fields.yaml#0": (
        "kubectl-validate cannot read a document with a duplicate key; the apiserver's strict field "
        "validation refuses it with a strict decoding error",
        'yaml: unmarshal errors:\n  line 24: key "containers" already set in map'),
}

#: Different verdicts, where the apiserver is on crdtool's side: reason, crdtool's verdict, its text.
DIFFERENT_VERDICT: dict[str, tuple[str, bool, str]] = {
    "configmap.yaml#0": (
        "kubectl-validate checks the OpenAPI schema only; the apiserver's core ValidateObjectMeta also runs "
        "validateKubeFinalizerName: a finalizer without '/' must be a standard one (kubernetes, orphan, "
        "foregroundDeletion)", False,
        'metadata.finalizers[0]: Invalid value: "finalizers.compute.linkedin.com": name is neither a standard '
        "finalizer name nor is it fully qualified"),
    "error_x_list_map_duplicate_key.yaml#0": (
        "kubectl-validate enforces the OpenAPI x-kubernetes-list-type=map keys of container ports; the "
        "apiserver does not (the Pod's validation checks hostPort uniqueness only, and 1.36 declares no "
        "+k8s:listType for ports), so the Pod is created", True, ""),
}


@functools.cache
def crdtool_answer(file: str) -> dict:
    res = CliRunner().invoke(cli, ["validate", "--format", "json", "--skip-unknown-kinds", "--allow-empty",
                                   "-c", str(CRDS), str(MANIFESTS / file)])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.output)


def _result(case: Case) -> dict | None:
    found = [r for r in crdtool_answer(case.file)["results"] if r["document"] == case.document]
    return found[0] if found else None


def _texts(result: dict) -> list[str]:
    """Everything crdtool says about an object: its errors, its status, its strict decoding findings."""
    return [*(e["error"] for e in result["errors"]), result["status"] or "", *result["fieldValidationWarnings"],
            *result["strictDecodingErrors"]]


@pytest.mark.parametrize("case", [c for c in CASES if c.id not in NOT_COPIED], ids=lambda c: c.id)
def test_crdtool_gives_the_apiservers_verdict_and_words(case: Case) -> None:
    result = _result(case)
    assert result is not None, f"{case.id}: not answered"
    if case.id in DIFFERENT_VERDICT:
        _, accepted, text = DIFFERENT_VERDICT[case.id]
        assert result["valid"] is accepted
        assert result["valid"] is not (case.expected["status"] == "Success")
        assert not text or any(text in t for t in _texts(result))
        return
    assert result["valid"] is (case.expected["status"] == "Success"), result
    if case.id in DIFFERENT_TEXT:
        _, text = DIFFERENT_TEXT[case.id]
        assert any(text in t for t in _texts(result)), _texts(result)
        return
    errors = [e["error"] for e in result["errors"]]
    for cause in case.causes:
        assert cause in errors
    group = case.expected.get("details", {}).get("group")
    if group and group != "core":
        assert result["status"] == case.expected["message"]


def test_jobset_documents_are_skipped_as_kinds_without_a_crd() -> None:
    for case_id in NOT_COPIED:
        file, _, index = case_id.partition("#")
        assert not [r for r in crdtool_answer(file)["results"] if r["document"] == int(index)]
        assert crdtool_answer(file)["skipped"] == {"unknownKind": 1}


@pytest.mark.parametrize("file", EMPTY_FILES)
def test_a_file_without_objects_is_unreadable_input(file: str) -> None:
    res = CliRunner().invoke(cli, ["validate", "-c", str(CRDS), str(MANIFESTS / file)])
    assert res.exit_code == 2
    assert "no objects found (the input is empty)" in res.output


def test_the_tables_name_only_real_cases() -> None:
    ids = {c.id for c in CASES}
    assert set(DIFFERENT_TEXT) | set(DIFFERENT_VERDICT) | NOT_COPIED <= ids
    assert not set(DIFFERENT_TEXT) & set(DIFFERENT_VERDICT)
    assert {p.name for p in MANIFESTS.glob("*.yaml")} == {c.file for c in CASES} | set(EMPTY_FILES)
