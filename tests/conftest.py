"""Test setup: deep documents do not exhaust recursion."""

import sys

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory, monkeypatch):
    """Every test starts with an empty cache of its own: never the user's, never one an earlier test warmed."""
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path_factory.mktemp("crdtool-cache")))


class MainResult:
    """What a run of the installed entry point gave: exit code, stdout and stderr."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.exit_code, self.stdout, self.stderr = code, out, err
        self.output = out + err


@pytest.fixture
def run_main(capsys, monkeypatch):
    """Run `crdtool ARGS` as its real entry point, `crdtool.cli:main`, does (not click's test runner,
    which exits through another path), in-process: `run_command`, whose exit code main ends with."""
    from crdtool.cli import run_command

    def run(*args: str) -> MainResult:
        monkeypatch.setattr(sys, "argv", ["crdtool", *args])
        capsys.readouterr()
        code = run_command()
        captured = capsys.readouterr()
        return MainResult(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="module")
def ca():
    """A certificate authority of the test module's own, for the HTTPS webhooks it serves
    (tests/https_server.py)."""
    import trustme

    return trustme.CA()
