"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself (`pre-commit try-repo`)
on a repository holding a good CRD and custom resource (both hooks pass) and on one holding broken
CRDs and an invalid custom resource (both fail).

Offline: pre-commit builds a virtualenv for the `language: python` hooks and pip-installs crdtool into
it. The virtualenv sees the site-packages of the interpreter running the tests (on PYTHONPATH; also
when that is itself a virtualenv), where crdtool's dependencies are installed, pip never asks an index
(PIP_NO_INDEX), and crdtool is built
without build isolation (PIP_NO_BUILD_ISOLATION=0: pip's inverted spelling of --no-build-isolation)
by the setuptools installed here.

try-repo installs a repository's last commit (plus changes to tracked files, not new files), so the
hooks are tried from a committed copy of this checkout's hook manifest, packaging and sources.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git, which is not installed"),
]


def _git_env(home: Path) -> dict[str, str]:
    """An environment without the user's git configuration, with the offline pip settings above."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PIP_", "VIRTUALENV_", "PRE_COMMIT"))}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="crdtool tests",
               GIT_AUTHOR_EMAIL="tests@crdtool.invalid", GIT_COMMITTER_NAME="crdtool tests",
               GIT_COMMITTER_EMAIL="tests@crdtool.invalid", VIRTUALENV_SYSTEM_SITE_PACKAGES="1", PIP_NO_INDEX="1",
               PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1", PRE_COMMIT_HOME=str(home),
               PRE_COMMIT_COLOR="never",
               PYTHONPATH=os.pathsep.join(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))))
    return env


def _commit_all(repo: Path, env: dict[str, str]) -> None:
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "test"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


#: YAML that is no Kubernetes object (a CI workflow): both hooks pass over it.
WORKFLOW = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [{run: make}]\n"


def _repo(path: Path, files: dict[str, Path | str], env: dict[str, str]) -> Path:
    """A git repository holding `files` (a fixture to copy, or the text itself)."""
    path.mkdir()
    for name, source in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copyfile(source, path / name)
        else:
            (path / name).write_text(source)
    _commit_all(path, env)
    return path


def test_hooks_pass_on_good_files_and_fail_on_broken_ones(tmp_path) -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is in the test extra: pip install -e '.[test]'")
    env = _git_env(tmp_path / "pre-commit-home")
    project = tmp_path / "crdtool"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copyfile(ROOT / name, project / name)
    shutil.copytree(ROOT / "crdtool", project / "crdtool", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _commit_all(project, env)

    good = _repo(tmp_path / "good", {"crds/crontab.yaml": FIXTURES / "crontab" / "crd.yaml",
                                     "manifests/my-crontab.yaml": FIXTURES / "crontab" / "my-crontab.yaml",
                                     ".github/workflows/ci.yaml": WORKFLOW}, env)
    broken = _repo(tmp_path / "broken", {
        **{f"crds/{p.name}": p for p in sorted((FIXTURES / "broken").glob("*.yaml"))},
        "crds/crontab.yaml": FIXTURES / "crontab-validated" / "crd.yaml",
        "manifests/invalid.yaml": FIXTURES / "crontab-validated" / "invalid.yaml",
        # pre-commit splits many files into batches run in parallel: validate must see CRD and object together
        **{f".github/workflows/ci-{i}.yaml": WORKFLOW for i in range(10)},
    }, env)
    # Both try-repo runs build their own environment: run them side by side.
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(project), "--all-files", "--verbose"]
    procs = {repo: subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True) for repo in (good, broken)}
    out = {repo: proc.communicate(timeout=300)[0] for repo, proc in procs.items()}

    assert procs[good].returncode == 0, out[good]
    assert "crdtool lint" in out[good] and "crdtool validate" in out[good]
    assert "Failed" not in out[good]
    assert "ok crds/crontab.yaml: CustomResourceDefinition crontabs.stable.example.com" in out[good]
    assert "ok manifests/my-crontab.yaml: CronTab my-new-cron-object" in out[good]
    assert "ci.yaml" not in out[good]  # passed to both hooks, passed over by both

    assert procs[broken].returncode == 1, out[broken]
    lint, validate = out[broken].split("crdtool validate..")
    assert "crdtool lint" in lint and "Failed" in lint and "- exit code: 1" in lint
    assert 'crds/wrong-name.yaml:5:3: error: metadata.name: Invalid value: "crontab.stable.example.com"' in lint
    assert "Failed" in validate and "- exit code: 1" in validate
    assert "manifests/invalid.yaml:9:3: error: spec.replicas: Invalid value: 15" in validate
