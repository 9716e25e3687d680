#!/usr/bin/env python3
"""crdtool's wall times, measured the way a user meets them: whole CLI processes.

    python benchmarks/bench.py            # all figures
    python benchmarks/bench.py --repeat 5

Figures: `crdtool --help`, `crdtool lint` on the bundled CronTab fixture, and
`crdtool lint` over the real CRDs of ../shared/corpus/crds (best of N runs each), plus
the time to only read that corpus (the floor set by YAML parsing).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "crds"


def wall(cmd: list[str], repeat: int) -> tuple[float, float]:
    """(best, median) wall seconds of a command over `repeat` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, check=False)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def read_only_seconds() -> float:
    """Reading (parse + construct, positions kept) every corpus file, in this process."""
    sys.path.insert(0, str(REPO))
    from crdtool.load import load_inputs

    t0 = time.perf_counter()
    docs = load_inputs([str(CORPUS)])
    elapsed = time.perf_counter() - t0
    print(f"  ({len(docs)} documents read)")
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    crdtool = [sys.executable, "-m", "crdtool"]
    rows = [
        ("crdtool --help", crdtool + ["--help"], a.repeat * 3),
        ("crdtool lint fixtures/crontab/crd.yaml", crdtool + ["lint", "fixtures/crontab/crd.yaml"], a.repeat * 3),
    ]
    if CORPUS.is_dir():
        rows.append((f"crdtool lint {CORPUS}", crdtool + ["lint", "--format", "json", str(CORPUS)], a.repeat))
    for label, cmd, n in rows:
        best, median = wall(cmd, n)
        print(f"{label:<60} best {best:6.3f} s   median {median:6.3f} s   ({n} runs)")
    if CORPUS.is_dir():
        print(f"{'read the corpus only (in process)':<60} {read_only_seconds():6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
