"""cel/pool_files.py is what scripts/gen_pool_files.py writes from protobuf's well-known types and the
library's opaque types today: regenerate it when either changes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from crdtool.cel import pool_files

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "gen_pool_files.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_pool_files", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_written_files_are_what_protobuf_and_the_library_declare() -> None:
    well_known, opaque = _generator().serialized_files()
    assert (well_known, opaque) == (pool_files.WELL_KNOWN, pool_files.OPAQUE)
    assert Path(pool_files.__file__).read_text(encoding="utf-8") == _generator().render()


def test_evaluating_a_rule_imports_no_descriptor_messages() -> None:
    """The evaluation environment's pool is filled from bytes: neither protobuf's descriptor messages
    nor the well-known types' modules are needed to evaluate a rule."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from crdtool.cel import environment\n"
            "program = environment.eval_env().compile('self.a.size() > 1 && duration(self.b) < duration(\"2s\")')\n"
            "assert program.eval(data={'self': {'a': [1, 2], 'b': '1s'}}).value() is True\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('google.protobuf'))))\n")
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "google.protobuf.descriptor_pool" in modules  # cel-expr-python's own
    assert not [m for m in modules if m.endswith("_pb2")], modules
