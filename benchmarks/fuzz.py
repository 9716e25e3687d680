#!/usr/bin/env python3
"""A long fuzz run: real documents of the fixtures and ../shared/corpus, mutated, through crdtool.

    python benchmarks/fuzz.py --minutes 30             # until the time is up
    python benchmarks/fuzz.py --documents 50000        # until so many mutated documents were checked
    python benchmarks/fuzz.py --seed 7 --jobs 2 --out /tmp/fuzz

Each mutated document (see tests/fuzz/hostile.py) goes through `lint` (a CRD) or `validate` (an
object, against its original CRD; or a CRD with its original objects), and now and then `prune`,
`default` or `columns`: one command per document (one unreadable file ends a run with exit code 2,
so documents are not checked together), in-process, in worker processes that take batches of
documents. A command must end with exit code 0, 1 or 2, without a traceback or `crdtool: internal
error`, within --doc-timeout seconds. faulthandler is the watchdog inside a worker: on a hang it
dumps the stacks (where the hang is) and ends the worker, which the parent replaces; the parent
also kills a worker that stops answering altogether.

Every crash and hang is saved under OUT/findings/<class>/ (the mutated input, the command, the
output or stack dump), a few examples per class, and the figures go to OUT/report.json:
documents per second, crashes by class (known ones, listed in tests/fuzz/clirun.py, apart) and hangs.
Batch N of seed S is always the same documents: `--seed S --first-batch N --documents 1` replays it.
Memory stays within a 2 GiB address space per process (`ulimit -v 2097152`).
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import os
import pickle
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "fuzz"))

import corpus  # noqa: E402
import hostile  # noqa: E402

#: How often each command is run; lint and validate are the point, the others take a share.
MODES = (("lint", 40), ("validate", 40), ("validate-crd", 8), ("prune", 4), ("default", 4), ("columns", 4))
EXAMPLES_PER_CLASS = 5
#: Batches a worker process takes before a fresh one replaces it (under `ulimit -v` a long-lived
#: process runs out of room for the 512 MiB stack each run gets, as in `crdtool.cli.run_command`).
RETIRE_AFTER = 100
COLUMNS_NOW = "2026-01-01T00:00:00Z"


# ---------------------------------------------------------------- a batch: documents for one command


def plan_batch(inventory: corpus.Inventory, seed: int, number: int, size: int, folder: Path) -> dict:
    """Batch `number` of `seed`: mutated documents written into `folder`, and the command for them.

    Each unit is one mutated document (for validate-crd: a folder with a mutated CRD and its
    objects, unchanged); `prefix` + [unit path] is the command for it. A batch mutates few source
    documents several times each, to spend the time on crdtool rather than on reading sources.
    """
    rng = random.Random(f"{seed}:{number}")
    mode = rng.choices([m for m, _ in MODES], [w for _, w in MODES])[0]
    with_objects = sorted(inventory.objects_of)
    if mode == "lint":
        prefix = ["lint"]
        sources = [rng.choice(inventory.crds) for _ in range(max(1, size // 4))]
        units = [_write_unit(rng, folder, i, rng.choice(sources)) for i in range(size)]
    elif mode == "validate-crd":
        prefix = ["validate"]
        crd = rng.choice(with_objects)
        crd_place = next(p for p in inventory.crds if p.path == crd)
        objects = rng.sample(inventory.objects_of[crd], min(3, len(inventory.objects_of[crd])))
        units = []
        for i in range(max(1, size // 2)):
            unit = _write_unit(rng, folder / f"u{i:04d}", 0, crd_place)
            for j, place in enumerate(objects):
                (folder / f"u{i:04d}" / f"object{j}.json").write_text(json.dumps(corpus.document(place)))
            unit["path"] = str(folder / f"u{i:04d}")
            units.append(unit)
    else:
        crd = rng.choice(with_objects)
        prefix = [mode, "-c", crd]
        if mode == "default" and rng.random() < 0.5:
            prefix += ["-o", "yaml"]
        if mode == "columns":
            prefix += ["-A", "--now", COLUMNS_NOW] + (["-o", "wide"] if rng.random() < 0.3 else [])
        if mode == "validate" and rng.random() < 0.3:
            prefix += ["--field-validation", rng.choice(("Warn", "Ignore"))]
        units = [_write_unit(rng, folder, i, rng.choice(inventory.objects_of[crd])) for i in range(size)]
    return {"number": number, "mode": mode, "prefix": ["--no-config", "--no-color", *prefix], "units": units}


def _write_unit(rng: random.Random, folder: Path, i: int, place: corpus.Place) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    mutant = hostile.mutate(rng, corpus.document(place))
    path = folder / f"doc{i:04d}{mutant.suffix}"
    path.write_bytes(mutant.data)
    return {"path": str(path), "source": f"{place.path}#{place.index}", "steps": mutant.steps}


# ---------------------------------------------------------------- the worker process


def worker(args: argparse.Namespace) -> None:
    """Take batch numbers on stdin; answer on the original stdout with one JSON line per event."""
    import clirun

    answer = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # whatever writes to file descriptor 1 cannot garble the answers
    with open(args.out / "inventory.pickle", "rb") as f:
        inventory = pickle.load(f)
    work = Path(tempfile.mkdtemp(prefix="batch-", dir=args.out / "work"))
    dump = open(args.out / "work" / f"stacks-{os.getpid()}.txt", "w")  # noqa: SIM115 - open for the process
    batches = 0
    for line in sys.stdin:
        number = int(line)
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        began = time.perf_counter()
        try:
            batch = plan_batch(inventory, args.seed, number, args.batch, work)
        except Exception:  # a fault of the harness, not of crdtool: say so and go on
            traceback.print_exc()
            print(json.dumps({"done": number, "seconds": 0, "findings": [], "harness_error": True}), file=answer)
            continue
        findings = []
        for unit in batch["units"]:
            print(json.dumps({"unit": unit, "mode": batch["mode"], "prefix": batch["prefix"]}), file=answer)
            dump.seek(0)
            dump.truncate()
            faulthandler.dump_traceback_later(args.doc_timeout, exit=True, file=dump)
            try:
                outcome = clirun.invoke([*batch["prefix"], unit["path"]], args.doc_timeout + 30)
            except RuntimeError:  # no room left in this process for the run's large stack: a fresh one goes on
                faulthandler.cancel_dump_traceback_later()
                print(json.dumps({"retire": True}), file=answer)
                return
            faulthandler.cancel_dump_traceback_later()
            problem = outcome.problem()
            if problem is not None:
                known = outcome.known()
                findings.append({"kind": "hang" if outcome.hung else "crash", "class": outcome.signature,
                                 "problem": problem, "known": known.name if known else None, "unit": unit,
                                 "prefix": batch["prefix"], "output": (outcome.traceback or outcome.output)[-6000:]})
        print(json.dumps({"done": number, "seconds": time.perf_counter() - began, "findings": findings}),
              file=answer)
        batches += 1
        if batches >= RETIRE_AFTER:  # a fresh process now and then keeps the address space unfragmented
            return


# ---------------------------------------------------------------- the parent: watchdog and report


class Findings:
    """Crashes and hangs by class, with a few saved examples each."""

    def __init__(self, out: Path) -> None:
        self.folder = out / "findings"
        self.classes: Counter[str] = Counter()
        self.known: dict[str, str | None] = {}
        self.kinds: dict[str, str] = {}

    def add(self, finding: dict) -> None:
        name = finding["class"]
        self.classes[name] += 1
        self.known[name] = finding.get("known")
        self.kinds[name] = finding["kind"]
        if self.classes[name] > EXAMPLES_PER_CLASS:
            return
        slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{finding['kind']}-{name}").strip("-")[:100]
        target = self.folder / slug / f"{self.classes[name]:02d}"
        target.mkdir(parents=True, exist_ok=True)
        source = Path(finding["unit"]["path"])
        if source.is_dir():
            shutil.copytree(source, target / source.name, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy(source, target / source.name)
        command = ["crdtool", *finding["prefix"], str(target / source.name)]
        (target / "command.txt").write_text(" ".join(_quote(a) for a in command) + "\n")
        (target / "finding.json").write_text(json.dumps({**finding, "output": None}, indent=1, default=str))
        (target / "output.txt").write_text(finding["output"], errors="replace")

    def summary(self) -> list[dict]:
        return [{"class": c, "kind": self.kinds[c], "count": n, "known": self.known[c]}
                for c, n in self.classes.most_common()]


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./:=@,+-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


class Worker:
    """One worker process and the batch it is on."""

    def __init__(self, args: argparse.Namespace, index: int) -> None:
        self.args = args
        self.index = index
        self.log = open(args.out / "work" / f"worker-{index}.log", "ab")  # noqa: SIM115 - kept for the process
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", "--out", str(args.out), "--seed",
                                      str(args.seed), "--batch", str(args.batch), "--doc-timeout",
                                      str(args.doc_timeout)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, cwd=REPO, bufsize=0)
        self.pending = b""
        self.batch: int | None = None
        self.current: dict | None = None
        self.deadline = float("inf")

    def give(self, number: int) -> None:
        self.batch, self.current = number, None
        self.deadline = time.monotonic() + 600  # planning a batch of the largest CRDs takes a while
        with contextlib.suppress(BrokenPipeError):  # it has just ended: its end of output comes next
            self.proc.stdin.write(f"{number}\n".encode())

    def read_lines(self) -> list[str] | None:
        """The complete lines the worker has written since the last call (None once it has ended).

        Read straight from the pipe: a buffered reader would keep lines that select() no longer sees.
        """
        data = os.read(self.proc.stdout.fileno(), 1 << 16)
        if not data:
            return None
        *lines, self.pending = (self.pending + data).split(b"\n")
        return [line.decode() for line in lines]

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _ended(w: Worker, dump: str, doc_timeout: float) -> dict:
    """The finding of a worker that ended on a document: a hang (faulthandler's dump) or a death."""
    import clirun

    unit, prefix = w.current["unit"], w.current["prefix"]
    if "Timeout (" in dump:
        return {"kind": "hang", "class": f"hang at {clirun.hang_site(dump)}", "known": None, "unit": unit,
                "prefix": prefix, "problem": f"no answer within {doc_timeout:g} s", "output": dump[-20000:]}
    return {"kind": "crash", "class": f"process ended (exit code {w.proc.returncode})", "known": None, "unit": unit,
            "prefix": prefix, "problem": f"exit code {w.proc.returncode}", "output": dump[-20000:]}


def parent(args: argparse.Namespace) -> int:
    (args.out / "work").mkdir(parents=True, exist_ok=True)
    roots = [corpus.FIXTURES]
    shared = args.corpus
    if shared.is_dir():
        roots += [shared / "crds", shared / "crs"]
    else:
        print(f"note: {shared} not found, fuzzing the fixtures only", file=sys.stderr)
    began = time.monotonic()
    inventory = corpus.scan(roots)
    print(f"{len(inventory.crds)} CRDs and {len(inventory.objects)} objects indexed in "
          f"{time.monotonic() - began:.1f} s", file=sys.stderr)
    with open(args.out / "inventory.pickle", "wb") as f:
        pickle.dump(inventory, f)
    findings = Findings(args.out)
    documents: Counter[str] = Counter()
    restarts = harness_errors = 0
    next_batch = args.first_batch
    workers = [Worker(args, i) for i in range(args.jobs)]
    start = time.monotonic()
    end = start + args.minutes * 60 if args.minutes else float("inf")
    last_note = start

    def target_reached() -> bool:
        total = documents["lint"] + documents["validate"] + documents["validate-crd"]
        return time.monotonic() >= end or (args.documents is not None and total >= args.documents)

    for w in workers:
        w.give(next_batch)
        next_batch += 1
    while any(w.batch is not None for w in workers):
        streams = {w.proc.stdout: w for w in workers if w.batch is not None}
        ready, _, _ = select.select(list(streams), [], [], 1.0)
        now = time.monotonic()
        for stream in ready:
            w = streams[stream]
            lines = w.read_lines()
            if lines is None:  # the worker ended: faulthandler's watchdog, or it died
                w.kill()
                restarts += 1
                stacks = args.out / "work" / f"stacks-{w.proc.pid}.txt"
                dump = stacks.read_text(errors="replace") if stacks.exists() else ""
                if w.current is not None:
                    findings.add(_ended(w, dump, args.doc_timeout))
                workers[w.index] = w = Worker(args, w.index)
                lines = []
            for line in lines:
                message = json.loads(line)
                if "retire" in message:  # the unit it was on was not checked; a fresh worker follows
                    documents[w.current["mode"]] -= 1
                    w.current = None
                    continue
                if "unit" in message:
                    w.current = message
                    w.deadline = now + args.doc_timeout + 60
                    documents[message["mode"]] += 1
                    continue
                harness_errors += bool(message.get("harness_error"))
                for finding in message["findings"]:
                    findings.add(finding)
                w.batch, w.current = None, None
            if w.batch is None and not target_reached():
                w.give(next_batch)
                next_batch += 1
        for w in workers:
            if w.batch is not None and now > w.deadline:  # not even faulthandler answered: kill it
                w.proc.kill()
        if now - last_note > 30:
            last_note = now
            _progress(documents, findings, now - start)
    for w in workers:
        w.kill()
    elapsed = time.monotonic() - start
    report = _report(args, documents, findings, elapsed, restarts, next_batch)
    report["harness_errors"] = harness_errors
    (args.out / "report.json").write_text(json.dumps(report, indent=1))
    _progress(documents, findings, elapsed)
    print(json.dumps(report, indent=1))
    shutil.rmtree(args.out / "work", ignore_errors=True)
    new = [c for c in report["classes"] if not c["known"]]
    return 1 if new else 0


def _progress(documents: Counter[str], findings: Findings, elapsed: float) -> None:
    total = sum(documents.values())
    print(f"{elapsed / 60:5.1f} min  {total} documents ({total / max(elapsed, 1e-9):.1f}/s)  "
          f"{dict(documents)}  findings: {dict(findings.classes)}", file=sys.stderr, flush=True)


def _report(args: argparse.Namespace, documents: Counter[str], findings: Findings, elapsed: float,
            restarts: int, next_batch: int) -> dict:
    total = sum(documents.values())
    classes = findings.summary()
    return {
        "seed": args.seed, "batches": [args.first_batch, next_batch - 1], "jobs": args.jobs,
        "seconds": round(elapsed, 1), "documents": total, "documents_by_command": dict(documents),
        "lint_and_validate_documents": documents["lint"] + documents["validate"] + documents["validate-crd"],
        "documents_per_second": round(total / max(elapsed, 1e-9), 2),
        "tracebacks": sum(c["count"] for c in classes if c["kind"] == "crash"),
        "tracebacks_unknown": sum(c["count"] for c in classes if c["kind"] == "crash" and not c["known"]),
        "hangs": sum(c["count"] for c in classes if c["kind"] == "hang"),
        "worker_restarts": restarts, "classes": classes, "findings": str(findings.folder),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=None, help="stop after so many minutes")
    parser.add_argument("--documents", type=int, default=None,
                        help="stop after so many mutated documents through lint and validate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--batch", type=int, default=10, help="documents per batch (default 10)")
    parser.add_argument("--first-batch", type=int, default=0, help="the number of the first batch (to replay one)")
    parser.add_argument("--doc-timeout", type=float, default=20.0,
                        help="seconds one document may take before it counts as a hang (default 20)")
    parser.add_argument("--corpus", type=Path, default=corpus.SHARED_CORPUS, help="the shared corpus folder")
    parser.add_argument("--out", type=Path, default=None, help="where findings and report.json go")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return 0
    if args.minutes is None and args.documents is None:
        args.minutes = 30
    args.out = (args.out or Path(tempfile.mkdtemp(prefix="crdtool-fuzz-"))).resolve()
    print(f"findings and report: {args.out}", file=sys.stderr)
    return parent(args)


if __name__ == "__main__":
    sys.exit(main())
