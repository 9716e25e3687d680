#!/usr/bin/env python3
"""Every output of `lint` and `validate` over ../shared/corpus, written to a folder, so that two
builds of crdtool can be compared byte for byte (`diff -r BEFORE AFTER`): a refactoring, or a
cache, must not change a single byte of what users see.

    python scripts/corpus_outputs.py OUT [--crdtool PATH] [--jobs N] [--crdtool-jobs N]

For each project of the corpus: `lint` of its CRDs and `validate` of its custom resources against
them, in the text, json, sarif and kubectl formats; each output file holds stdout, then stderr, then
the exit code. Paths in the outputs are relative to the corpus folder, so runs from different
checkouts compare equal. `--crdtool-jobs N` runs each command with `--jobs N`: its outputs must be
those of one process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
FORMATS = ("text", "json", "sarif", "kubectl")
#: Custom resource folders whose CRDs are in a folder of another name.
CRDS_OF = {"gateway-api": "gateway-api-experimental"}


def commands(crdtool: str, jobs: int = 1) -> dict[str, list[str]]:
    """Each output's file name and the command that makes it (with `--jobs` when `jobs` > 1)."""
    out: dict[str, list[str]] = {}
    options = ["--no-color", *(["--jobs", str(jobs)] if jobs > 1 else [])]
    for project in sorted(p.name for p in (CORPUS / "crds").iterdir() if p.is_dir()):
        for fmt in FORMATS:
            out[f"lint-{project}.{fmt}"] = [crdtool, "lint", *options, "--format", fmt, f"crds/{project}"]
    for project in sorted(p.name for p in (CORPUS / "crs").iterdir() if p.is_dir()):
        crds = f"crds/{CRDS_OF.get(project, project)}"
        for fmt in FORMATS:
            out[f"validate-{project}.{fmt}"] = [crdtool, "validate", *options, "--format", fmt,
                                                "-c", crds, f"crs/{project}"]
    return out


def run(cmd: list[str]) -> bytes:
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    if "CRDTOOL_CACHE_DIR" in os.environ:  # a cache of its own, to compare cold and warm runs
        env["CRDTOOL_CACHE_DIR"] = os.environ["CRDTOOL_CACHE_DIR"]
    proc = subprocess.run(cmd, cwd=CORPUS, capture_output=True, env=env)
    return proc.stdout + b"\n--- stderr\n" + proc.stderr + f"\n--- exit {proc.returncode}\n".encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--crdtool", default=shutil.which("crdtool") or "crdtool")
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once")
    parser.add_argument("--crdtool-jobs", type=int, default=1, help="each command's --jobs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    todo = commands(args.crdtool, args.crdtool_jobs)
    with ThreadPoolExecutor(args.jobs) as pool:
        for name, output in zip(todo, pool.map(run, todo.values()), strict=True):
            (args.out / name).write_bytes(output)
    print(f"{len(todo)} outputs in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
