#!/usr/bin/env python3
"""crdtool's wall times and peak memory, measured the way a user meets them: whole CLI processes.

    python benchmarks/bench.py            # all figures
    python benchmarks/bench.py --repeat 5
    python benchmarks/bench.py --instructions --baseline OTHER/bin/crdtool

Figures (best and median of N runs, peak resident memory of the best-measured command):
- `crdtool --help` and `crdtool lint` on the bundled CronTab fixture; `crdtool validate` of one
  Deployment (a built-in kind) and of the mixed app folder (tests/data/mixed-app);
- `crdtool lint` over the real CRDs of ../shared/corpus/crds, and the time to only read them: the
  YAML floor (PyYAML's C loader alone, `yaml.load_all` with CSafeLoader), lint's time as a multiple
  of it, and crdtool's own reader;
- `crdtool validate` of every custom resource in ../shared/corpus/crs against those CRDs, in one
  process: objects per second, with and without the time to lint the CRDs; and with `--jobs` as
  many as the machine has cores, against one process and against the machine's own ceiling (as
  many one-process runs side by side), in alternating rounds;
- `crdtool validate` of 1,000 copies of one small CronTab (schema-only validation): objects per
  second, the start-up of a one-object run subtracted;
- `crdtool columns` of 1,000 CronTabs with printer columns (a filter, a date): rows per second,
  start-up subtracted;
- the runs a CRD author makes on every commit, with the cache cold (emptied before each run) and
  warm: one HTTPRoute against the gateway-api CRD folder, `lint` of the small CronTab CRD, and the
  kyverno custom resources against their CRDs. With `--baseline CRDTOOL` (another build's
  executable), its runs alternate with this build's, and both medians are shown.

`--instructions` counts, instead of timing, the instructions the warm-cache runs execute (valgrind's
callgrind, which must be installed): a count does not move with the machine's load or speed, so two
builds compare to a fraction of a percent on a machine whose wall times wander by a third. It is a
proxy: memory stalls and I/O do not count, so the wall-time ratio of two builds differs somewhat.

The figures above these run with `--no-cache`, so that they measure the work itself; the cache
used is a temporary folder, never the user's. The commands run as an installed crdtool does: with
the checkout's modules compiled to bytecode once (an environment's PYTHONDONTWRITEBYTECODE would
otherwise make every run compile every module again, some 0.1 s a run).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
CRDS, CRS = CORPUS / "crds", CORPUS / "crs"
SMALL_CRD = REPO / "fixtures" / "crontab-validated" / "crd.yaml"
MIXED_APP = REPO / "tests" / "data" / "mixed-app"
SMALL_CR = """apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: cron-{i}
spec:
  cronSpec: "*/5 * * * *"
  image: my-awesome-cron-image
  replicas: 3
"""


def run_env() -> dict[str, str]:
    """The environment of a measured run: this one's (the cache folder set in main), bytecode written
    and reused, as pip's installs have it."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_bytecode() -> None:
    """Compile the checkout's modules once, so that no measured run pays for it."""
    import compileall

    compileall.compile_dir(REPO / "crdtool", quiet=1)


def measure(cmd: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, peak resident MB, stdout) of one run."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO, env=run_env())
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return time.perf_counter() - t0, usage.ru_maxrss / 1024, out


def repeated(cmd: list[str], repeat: int) -> tuple[float, float, float, bytes]:
    """(best, median, peak MB, stdout) over `repeat` runs."""
    return repeated_of([measure(cmd) for _ in range(repeat)])


def repeated_of(runs: list[tuple[float, float, bytes]]) -> tuple[float, float, float, bytes]:
    """(best, median, peak MB, stdout) of `measure`'s runs."""
    times = [t for t, _, _ in runs]
    return min(times), statistics.median(times), max(m for _, m, _ in runs), runs[0][2]


def row(label: str, best: float, median: float, peak: float, n: int, extra: str = "") -> None:
    print(f"{label:<58} best {best:6.3f} s  median {median:6.3f} s  peak {peak:6.0f} MB  ({n} runs){extra}")


def c_loader_seconds() -> float:
    """The YAML floor: every corpus CRD file read by PyYAML's C loader alone (`yaml.load_all` with
    CSafeLoader; the `=` key some files use, YAML 1.1's value key, read as a string), in this process."""
    import yaml

    class FloorLoader(yaml.CSafeLoader):
        """PyYAML's C loader, taking the `=` key as text."""

    FloorLoader.add_constructor("tag:yaml.org,2002:value", FloorLoader.construct_scalar)
    texts = [p.read_text(encoding="utf-8") for p in sorted(CRDS.rglob("*")) if p.suffix in (".yaml", ".yml", ".json")]
    t0 = time.perf_counter()
    for text in texts:
        list(yaml.load_all(text, Loader=FloorLoader))
    return time.perf_counter() - t0


def floor_in_subprocess() -> float:
    """c_loader_seconds in a process of its own (this script with --floor), so that it can alternate
    with the runs it is compared with."""
    out = subprocess.run([sys.executable, __file__, "--floor"], capture_output=True, text=True, check=True, cwd=REPO)
    return float(out.stdout)


def read_only_seconds() -> float:
    """crdtool's own reading (parse + construct, positions kept) of every corpus CRD, in this process."""
    sys.path.insert(0, str(REPO))
    from crdtool.load import load_inputs

    t0 = time.perf_counter()
    load_inputs([str(CRDS)])
    return time.perf_counter() - t0


def objects_in(output: bytes) -> int:
    return sum(1 for r in json.loads(output)["results"] if r["kind"] != "CustomResourceDefinition")


def wall_and_cpu(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, user + system CPU seconds) of one run: CPU time is what a loaded machine distorts least."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=run_env())
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def side_by_side(cmds: list[list[str]]) -> float:
    """The wall seconds until the last of `cmds`, started together, ends."""
    t0 = time.perf_counter()
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=run_env())
             for cmd in cmds]
    for proc in procs:
        os.wait4(proc.pid, 0)
        proc.returncode = 0
    return time.perf_counter() - t0


def parallel_rows(cmd: list[str], jobs: int, repeat: int) -> None:
    """`cmd --jobs N` against `cmd` in one process, and what the machine itself allows: N independent
    one-process runs side by side (cores that share caches, memory bandwidth or a host give each
    process less than one core alone does, and `--jobs` cannot beat that). The three alternate,
    round by round, and each round's ratios are taken, so that a machine whose speed drifts from
    minute to minute (shared hosts do) skews neither; the medians of the ratios are shown."""
    rounds = []
    for _ in range(repeat):
        alone = side_by_side([cmd])
        together = side_by_side([cmd] * jobs)
        parallel = side_by_side([[*cmd, "--jobs", str(jobs)]])
        rounds.append((alone, together, parallel))
    walls = [p for _, _, p in rounds]
    speedup = statistics.median(a / p for a, _, p in rounds)
    ceiling = statistics.median(jobs * a / t for a, t, _ in rounds)
    label = f"crdtool validate --jobs {jobs} -c corpus/crds corpus/crs"
    print(f"{label:<58} best {min(walls):6.3f} s  median {statistics.median(walls):6.3f} s  ({repeat} runs)"
          f"\n  {speedup:.2f}x the one-process time ({jobs} cores; median of {repeat} alternating rounds)"
          f"\n  the machine's own ceiling: {jobs} one-process runs side by side do {ceiling:.2f}x the work of one"
          f"\n  in the same time, so --jobs {jobs} reaches {speedup / ceiling:.0%} of what these cores allow")


ONE_ROUTE = CRS / "gateway-api" / "conformance__tests__httproute-303-redirect.yaml"


def commit_runs() -> list[tuple[str, list[str]]]:
    """(label, arguments) of the runs a CRD author makes on every commit."""
    runs = [("lint fixtures/crontab/crd.yaml", ["lint", "fixtures/crontab/crd.yaml"])]
    if CRDS.is_dir() and CRS.is_dir():
        runs.insert(0, ("validate one HTTPRoute -c gateway-api-experimental",
                        ["validate", "-c", str(CRDS / "gateway-api-experimental"), str(ONE_ROUTE)]))
        runs.append(("validate kyverno's custom resources", ["validate", "-c", str(CRDS / "kyverno"),
                                                             str(CRS / "kyverno")]))
    return runs


def cache_rows(repeat: int, baseline: str | None) -> None:
    """The commit-time runs, cold and warm cache, alternating with `baseline` when given."""
    from crdtool.cache import clean

    crdtool = [sys.executable, "-m", "crdtool", "--format", "json"]
    for label, args in commit_runs():
        times: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": [], "baseline": []}
        for _ in range(repeat):
            clean()
            for state in ("cold", "warm"):
                times[state].append(wall_and_cpu(crdtool + args))
            if baseline:
                times["baseline"].append(wall_and_cpu([baseline, "--format", "json", *args]))
        for state in ("cold", "warm"):
            wall, cpu = (statistics.median(t[i] for t in times[state]) for i in (0, 1))
            extra = ""
            if baseline:
                b_wall, b_cpu = (statistics.median(t[i] for t in times["baseline"]) for i in (0, 1))
                extra = (f"  baseline: wall {b_wall:.3f} s, cpu {b_cpu:.3f} s ({b_wall / wall:.2f}x, "
                         f"cpu {b_cpu / cpu:.2f}x)")
            print(f"{label + f' ({state} cache)':<58} median wall {wall:6.3f} s  cpu {cpu:6.3f} s  ({repeat} runs)"
                  f"{extra}")
    clean()


def instructions(cmd: list[str]) -> int:
    """The instructions one run of `cmd` executes (callgrind's total, over the processes it starts)."""
    with tempfile.TemporaryDirectory(prefix="crdtool-bench-callgrind-") as tmp:
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        f"--callgrind-out-file={tmp}/callgrind.%p", *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=run_env(), check=False)
        total = 0
        for out in Path(tmp).iterdir():
            for line in out.read_text(errors="replace").splitlines():
                if line.startswith(("summary:", "totals:")):
                    total += int(line.split()[1])
                    break
        return total


def _script_command(executable: str) -> list[str]:
    """A command running `executable`; a script (a console script's `#!`) with its own interpreter named,
    so that valgrind counts the interpreter's instructions, not a shell's."""
    with open(executable, "rb") as f:
        first = f.readline()
    return [*first[2:].decode().split(), executable] if first.startswith(b"#!") else [executable]


def instruction_rows(baseline: str | None) -> None:
    """The commit-time runs with a warm cache (a run before each count fills it), in instructions, and
    against `baseline` when given."""
    from crdtool.cache import clean

    crdtool = [sys.executable, "-m", "crdtool", "--format", "json"]
    others = [*_script_command(baseline), "--format", "json"] if baseline else None
    for label, args in commit_runs():
        subprocess.run(crdtool + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=run_env())
        count = instructions(crdtool + args)
        extra = ""
        if others is not None:
            subprocess.run(others + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
                           env=run_env())
            base = instructions(others + args)
            extra = f"  baseline {base / 1e9:7.3f} G ({base / count:.2f}x)"
        print(f"{label + ' (warm cache)':<58} {count / 1e9:7.3f} G instructions{extra}")
    clean()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", metavar="CRDTOOL", help="another build's crdtool, to alternate with in the "
                                                          "cache figures")
    ap.add_argument("--only-cache", action="store_true", help="only the cache figures")
    ap.add_argument("--floor", action="store_true", help="only the YAML floor's seconds (one reading)")
    ap.add_argument("--instructions", action="store_true", help="only the commit-time runs' instruction counts "
                                                                "(valgrind)")
    a = ap.parse_args()
    if a.floor:
        print(c_loader_seconds())
        return 0
    compile_bytecode()
    if a.instructions:
        if shutil.which("valgrind") is None:
            print("bench.py: --instructions needs valgrind (callgrind) on the PATH", file=sys.stderr)
            return 2
        os.environ["CRDTOOL_CACHE_DIR"] = tempfile.mkdtemp(prefix="crdtool-bench-cache-")
        instruction_rows(a.baseline)
        return 0
    if a.only_cache:
        os.environ["CRDTOOL_CACHE_DIR"] = tempfile.mkdtemp(prefix="crdtool-bench-cache-")
        cache_rows(a.repeat * 3, a.baseline)
        return 0
    os.environ["CRDTOOL_CACHE_DIR"] = tempfile.mkdtemp(prefix="crdtool-bench-cache-")
    crdtool = [sys.executable, "-m", "crdtool", "--no-cache"]
    for label, cmd, n in [
        ("crdtool --help", crdtool + ["--help"], a.repeat * 3),
        ("crdtool lint fixtures/crontab/crd.yaml", crdtool + ["lint", "fixtures/crontab/crd.yaml"], a.repeat * 3),
        ("crdtool validate one Deployment (built-in)", crdtool + ["validate", str(MIXED_APP / "manifests" /
                                                                                  "deployment.yaml")], a.repeat * 3),
        ("crdtool validate -c crds/ manifests/ (mixed app, 12 objects)",
         crdtool + ["validate", "-c", str(MIXED_APP / "crds"), str(MIXED_APP / "manifests")], a.repeat * 3),
    ]:
        row(label, *repeated(cmd, n)[:3], n)

    if CRDS.is_dir():
        lint_runs, floors = [], []
        for _ in range(a.repeat):  # alternating with the floor: a drifting machine skews their ratio less
            lint_runs.append(measure(crdtool + ["lint", "--format", "json", str(CRDS)]))
            floors.append(floor_in_subprocess())
        lint = repeated_of(lint_runs)
        row("crdtool lint corpus/crds (450 files, 39 MB)", *lint[:3], a.repeat)
        ratio = statistics.median(t / floor for (t, _, _), floor in zip(lint_runs, floors, strict=True))
        print(f"{'read corpus/crds with PyYAML C loader (the YAML floor)':<58} {min(floors):6.3f} s"
              f"\n  crdtool lint corpus/crds (no cache): {ratio:.2f}x the floor (median of {a.repeat} "
              "alternating rounds: lint's whole process, the floor's reading alone)")
    if CRDS.is_dir() and CRS.is_dir():
        best, median, peak, out = repeated(
            crdtool + ["validate", "--format", "json", "-c", str(CRDS), str(CRS)], a.repeat)
        count = objects_in(out)
        row("crdtool validate -c corpus/crds corpus/crs", best, median, peak, a.repeat,
            f"\n  {count} objects: {count / best:,.0f} objects/s overall, "
            f"{count / max(best - lint[0], 1e-9):,.0f} objects/s beyond linting the CRDs")
        jobs = os.cpu_count() or 1
        if jobs > 1:
            parallel_rows(crdtool + ["validate", "--format", "json", "-c", str(CRDS), str(CRS)], jobs, a.repeat)

    with tempfile.TemporaryDirectory(prefix="crdtool-bench-") as tmp:
        one, many = Path(tmp, "one.yaml"), Path(tmp, "many.yaml")
        one.write_text(SMALL_CR.format(i=0))
        many.write_text("---\n".join(SMALL_CR.format(i=i) for i in range(1000)))
        cmd = crdtool + ["validate", "--format", "json", "-c", str(SMALL_CRD)]
        base = repeated(cmd + [str(one)], a.repeat * 3)
        best, median, peak, out = repeated(cmd + [str(many)], a.repeat * 3)
        count = objects_in(out)
        row("crdtool validate 1,000 small CronTabs", best, median, peak, a.repeat * 3,
            f"\n  {count} objects: {count / best:,.0f} objects/s overall, "
            f"{(count - 1) / max(best - base[0], 1e-9):,.0f} objects/s beyond start-up ({base[0]:.3f} s)")
        columns_crd = REPO / "fixtures" / "crontab-columns" / "crd.yaml"
        cmd = [*crdtool, "columns", "-c", str(columns_crd), "--now", "2026-01-01T00:00:00Z"]
        base = repeated(cmd + [str(one)], a.repeat * 3)
        best, median, peak, out = repeated(cmd + [str(many)], a.repeat * 3)
        rows = out.count(b"\n") - 1
        row("crdtool columns 1,000 CronTabs", best, median, peak, a.repeat * 3,
            f"\n  {rows} rows: {(rows - 1) / max(best - base[0], 1e-9):,.0f} rows/s beyond start-up "
            f"({base[0]:.3f} s), {1000 * (best - base[0]) / max(rows - 1, 1):.3f} s per 1,000 rows")
    cache_rows(a.repeat * 3, a.baseline)
    if CRDS.is_dir():  # last: a child forked after this would inherit its peak memory
        own = min(read_only_seconds() for _ in range(a.repeat))
        print(f"{'read corpus/crds with crdtool reader (positions kept)':<58} {own:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
