"""The package as a fresh machine installs it: bounded dependency ranges, test-only packages in the
test extra, package data that exists."""

from __future__ import annotations

import ast
import glob
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0].lower()


def test_every_runtime_dependency_has_a_lower_and_an_upper_bound() -> None:
    for requirement in PYPROJECT["project"]["dependencies"]:
        pinned = "==" in requirement
        assert pinned or (">=" in requirement and "<" in requirement.replace("<=", "")), requirement


def test_runtime_dependencies_are_the_ones_crdtool_imports() -> None:
    imported: set[str] = set()
    for path in (ROOT / "crdtool").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert "jsonschema" not in imported and "jsonschema" not in declared
    # distribution name -> the module it provides
    provides = {"pyyaml": "yaml", "google-re2": "re2", "cel-expr-python": "cel_expr_python",
                "protobuf": "google"}
    for dist in declared:
        assert provides.get(dist, dist) in imported, f"{dist} is declared but crdtool never imports it"


def test_package_data_points_at_files_that_exist() -> None:
    for package, patterns in PYPROJECT["tool"]["setuptools"]["package-data"].items():
        folder = ROOT / package.replace(".", "/")
        for pattern in patterns:
            assert glob.glob(str(folder / pattern)), f"{package}: {pattern} matches nothing"
