"""What the real kubectl printed for `kubectl create --dry-run=server -f` of invalid custom resources and
CRDs (../shared/conformance/kubectl/apply-errors.jsonl), replayed as the shared scorer replays them
(`crdtool validate|lint --format kubectl`), one test per case.

A 422 lists its errors in the order the apiserver's validation met them, which for sibling fields is Go's
random map order: an answer of several errors is compared as a multiset of its entries (crdtool lists them
in the order of the fields in the document)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conformance_cases import SHARED, params, requires_shared

from crdtool.cli import cli

pytestmark = requires_shared


def _entries(stderr: str) -> tuple[str, list[str]]:
    """The text up to the first `* ` entry, and the entries (each with its continuation lines), sorted."""
    head, *entries = stderr.split("\n* ")
    return head, sorted(entries)


@pytest.mark.parametrize("case", params("kubectl/apply-errors", lambda c: c["kubectlArgs"][0] == "create"))
def test_kubectl_create_case(case: dict, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kubectl_text  # the shared scorer: the same command line for each kubectl invocation

    argv = kubectl_text.command(case, ["crdtool"], str(SHARED), str(tmp_path))
    monkeypatch.chdir(tmp_path)  # kubectl names the file as given: the scorer gives crdtool a relative name
    result = CliRunner().invoke(cli, argv[1:], env={"NO_COLOR": "1"})
    expected = case["expected"]
    assert (result.exit_code != 0) == (expected["exitCode"] != 0), result.output
    assert _entries(result.stderr) == _entries(expected["stderr"])
    assert result.stdout == expected["stdout"]
