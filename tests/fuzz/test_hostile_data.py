"""The hostile inputs found so far (tests/data/hostile/cases.tsv), each through its command: exit code
0, 1 or 2, no traceback, bounded time. A case of a crash or hang class still listed as known in
clirun.py is an expected failure with that class's reason, until the fix lands and the entry goes."""

from __future__ import annotations

import clirun
import corpus
import pytest
from budget import TIMEOUT

HOSTILE = corpus.REPO / "tests" / "data" / "hostile"


def cases() -> list:
    rows = []
    for line in (HOSTILE / "cases.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, known, arguments = line.split("\t")
            case_id = f"{name}-{arguments.split()[0]}"
            rows.append(pytest.param(name, None if known == "-" else known, arguments, id=case_id))
    return rows


def test_every_known_class_of_a_case_is_listed_and_every_file_has_a_case() -> None:
    listed = {k.name for k in clirun.KNOWN_CRASHES} | {h.name for h in clirun.KNOWN_HANGS}
    rows = [p.values for p in cases()]
    assert {known for _, known, _ in rows if known} <= listed
    assert {name for name, _, _ in rows} == {p.name for p in HOSTILE.iterdir() if p.name != "cases.tsv"}


@pytest.mark.parametrize(("name", "known", "arguments"), cases())
def test_a_hostile_input_ends_as_bad_input_must(name: str, known: str | None, arguments: str) -> None:
    hang = next((h for h in clirun.KNOWN_HANGS if h.name == known), None)
    if hang is not None:
        pytest.xfail(f"known hang, not run: {hang.reason}")
    args = [str(corpus.REPO / a) if "/" in a else a for a in arguments.split()]
    args = [str(HOSTILE / name) if a == "{file}" else a for a in args]
    outcome = clirun.invoke(["--no-config", "--no-color", *args], TIMEOUT)
    if outcome.problem() is not None and outcome.known() is not None and outcome.known().name == known:
        pytest.xfail(f"known crash: {outcome.known().reason}")
    clirun.assert_survives(outcome, str(HOSTILE / name))
    assert outcome.problem() is None, "a case of no known class must end cleanly"


RUNNER_GAVE_OUT = '''Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/click/testing.py", line 711, in invoke
    sys.stdout.flush()
ValueError: I/O operation on closed file.
'''


def test_a_run_click_cannot_capture_is_judged_in_a_process_of_its_own(tmp_path) -> None:
    """CliRunner keeps all output in memory: under a memory cap its BytesIO can give out after the
    command returned (a failure of the harness, not of crdtool): the command is then run as a process."""
    assert clirun._RUNNER_FRAME.search(RUNNER_GAVE_OUT)
    assert not clirun._RUNNER_FRAME.search(RUNNER_GAVE_OUT.replace("click/testing.py", "crdtool/cli/lint.py"))
    crd = tmp_path / "crd.yaml"
    crd.write_text("kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nmetadata: {name: x}\n")
    outcome = clirun._in_a_process(["--no-config", "lint", str(crd)], TIMEOUT)
    assert outcome.exit_code == 1 and not outcome.hung and not outcome.crashed
    assert "metadata.name: Invalid value" in outcome.output
