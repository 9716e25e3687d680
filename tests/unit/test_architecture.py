"""The package rules of ARCHITECTURE.md, read from the code: the command line and the renderers
decide nothing (they import none of the apiserver's algorithms), and the engine prints nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "crdtool"


def _imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module a file imports, at its top or inside a function (relative imports resolved)."""
    package = ".".join(path.relative_to(root.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _violations(folder: str, forbidden: tuple[str, ...], root: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted((root / folder).rglob("*.py")):
        for name in sorted(_imports(path, root)):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                out.append(f"{path.relative_to(root.parent)} imports {name}")
    return out


@pytest.mark.parametrize("folder", ["cli", "report"])
def test_command_line_and_renderers_import_no_algorithm(folder: str) -> None:
    assert _violations(folder, ("crdtool.schema", "crdtool.cel")) == []


def test_engine_imports_no_command_line_or_terminal_library() -> None:
    assert _violations("engine", ("click", "rich", "crdtool.cli", "crdtool.report")) == []


def test_renderers_write_to_their_context_not_through_the_command_line() -> None:
    assert _violations("report", ("click", "crdtool.cli")) == []


def test_the_rule_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = PACKAGE / "cli" / "emit.py"
    assert "crdtool.engine.results" in _imports(module)
    nested = tmp_path / "crdtool" / "cli" / "x.py"
    nested.parent.mkdir(parents=True)
    nested.write_text("def f():\n    from ..schema import pruning\n    import crdtool.cel.compiler\n")
    assert _violations("cli", ("crdtool.schema", "crdtool.cel"), tmp_path / "crdtool") == [
        "crdtool/cli/x.py imports crdtool.cel.compiler", "crdtool/cli/x.py imports crdtool.schema",
        "crdtool/cli/x.py imports crdtool.schema.pruning"]
