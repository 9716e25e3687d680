#!/usr/bin/env python3
"""Reading speed for many documents in one file: documents per second, and whether it stays linear.

    python benchmarks/bench_reading.py                 # 25,000, 50,000 and 100,000 documents
    python benchmarks/bench_reading.py --docs 100000 --repeat 3

For each size N, one file of N small objects (each `---`-separated, as `helm template` prints
them) is read by the loader in this process (best of `--repeat` runs) and by a whole
`crdtool lint FILE` process (which reads every document and checks none of them). Then a file of
200,000 `---` lines. The last column, microseconds per document, stays flat when reading is linear.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coldrun import run_cold

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from crdtool.load import load_inputs  # noqa: E402

DOC = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-{i}\ndata:\n  key: value-{i}\n"


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        gc.unfreeze()
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def cli_seconds(path: str) -> float:
    start = time.perf_counter()
    run_cold([sys.executable, "-m", "crdtool", "lint", path], cwd=REPO, stdout=subprocess.DEVNULL,
             stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, nargs="*", default=[25_000, 50_000, 100_000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'documents':>10} {'read s':>8} {'docs/s':>9} {'lint s':>8} {'us/doc':>7}")
        for n in args.docs:
            path = os.path.join(tmp, f"{n}.yaml")
            Path(path).write_text("".join(DOC.format(i=i) for i in range(n)))
            read = best_of(args.repeat, lambda p=path: load_inputs([p]))
            print(f"{n:>10,} {read:>8.2f} {n / read:>9,.0f} {cli_seconds(path):>8.2f} {read / n * 1e6:>7.1f}")
        dashes = os.path.join(tmp, "dashes.yaml")
        Path(dashes).write_text("---\n" * 200_000)
        print(f"200,000 `---` lines: crdtool lint in {cli_seconds(dashes):.2f} s")


if __name__ == "__main__":
    main()
