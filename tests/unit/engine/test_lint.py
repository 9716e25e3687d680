"""engine.lint: a run's CRDs linted, the collector's state left as it was found."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from crdtool.engine.lint import lint
from crdtool.load import read_source

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@pytest.mark.parametrize("enabled", [True, False])
def test_lint_restores_the_garbage_collector(enabled: bool) -> None:
    """The collector is paused while CRDs are linted, then left as it was."""
    docs = read_source(str(FIXTURES / "crontab-cel" / "crd.yaml"))
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        [result] = lint(docs)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert result.valid
