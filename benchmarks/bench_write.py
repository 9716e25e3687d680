#!/usr/bin/env python3
"""`default --write` and `prune --write` on one large file: seconds, and the bytes written.

    python benchmarks/bench_write.py                      # a 10 MB file, this checkout's crdtool
    python benchmarks/bench_write.py --mb 2 --repeat 3
    python benchmarks/bench_write.py --crdtool /path/to/old/crdtool --crdtool "python -m crdtool"
    python benchmarks/bench_write.py --keep /tmp/big      # keep the input and each build's results

The file is made of the kyverno ClusterPolicies of ../shared/corpus/crs/kyverno (comments, quoting
and layout as their authors wrote them), repeated as `---`-separated documents until it reaches
`--mb` megabytes; most of them gain defaults (`default`) and some lose unknown fields (`prune`).
Each command runs on a fresh copy of the file, the builds alternating run by run; the table gives
the median and best wall time, and whether every build wrote the same bytes as the first.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coldrun import run_cold

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
KYVERNO_CRS, KYVERNO_CRDS = CORPUS / "crs" / "kyverno", CORPUS / "crds" / "kyverno"


def policies() -> list[str]:
    """The corpus files that hold ClusterPolicies and nothing else, in name order."""
    found = []
    for path in sorted(KYVERNO_CRS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        docs = [d for d in text.split("\n---") if d.strip(" \n-")]
        if docs and all("\nkind: ClusterPolicy" in "\n" + d for d in docs):
            found.append(text if text.endswith("\n") else text + "\n")
    return found


def large_file(megabytes: float) -> str:
    """The policies, repeated until the text is `megabytes` long."""
    pool = policies()
    parts: list[str] = []
    size = 0
    while size < megabytes * 1_000_000:
        for text in pool:
            parts.append(text if text.startswith("---") else "---\n" + text)
            size += len(parts[-1])
            if size >= megabytes * 1_000_000:
                break
    return "".join(parts)


def run_write(crdtool: list[str], op: str, source: Path, work: Path) -> tuple[float, str]:
    """(wall seconds, sha256 of the file after) of `crdtool OP --write` on a fresh copy of `source`."""
    shutil.copyfile(source, work)
    cmd = [*crdtool, op, "--write", "-c", str(KYVERNO_CRDS), str(work)]
    start = time.perf_counter()
    run_cold(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    return seconds, hashlib.sha256(work.read_bytes()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=10.0, help="size of the file (default 10)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--crdtool", action="append", help="a crdtool command to measure (repeatable; "
                    "default: this checkout's, `python -m crdtool`)")
    ap.add_argument("--keep", help="a folder for the input and each build's last results")
    a = ap.parse_args()
    builds = [shlex.split(c) for c in a.crdtool] if a.crdtool else [[sys.executable, "-m", "crdtool"]]
    with tempfile.TemporaryDirectory(prefix="crdtool-bench-write-") as tmp:
        folder = Path(a.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        source = folder / "policies.yaml"
        source.write_text(large_file(a.mb), encoding="utf-8")
        size = source.stat().st_size
        print(f"{source}: {size / 1e6:.1f} MB, {source.read_text().count(chr(10) + '---') + 1} documents")
        for op in ("default", "prune"):
            times: list[list[float]] = [[] for _ in builds]
            digests: list[set[str]] = [set() for _ in builds]
            for _ in range(a.repeat):
                for i, build in enumerate(builds):
                    seconds, digest = run_write(build, op, source, folder / f"{op}-{i}.yaml")
                    times[i].append(seconds)
                    digests[i].add(digest)
            for i, build in enumerate(builds):
                same = "same bytes as the first build" if digests[i] == digests[0] else "DIFFERENT bytes"
                changed = "unchanged" if digests[i] == {hashlib.sha256(source.read_bytes()).hexdigest()} else (
                    "rewritten")
                print(f"{op} --write  {shlex.join(build)[-40:]:>40}  median {statistics.median(times[i]):7.2f} s"
                      f"  best {min(times[i]):7.2f} s  ({a.repeat} runs; {changed}, {same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
