#!/usr/bin/env python3
"""`crdtool lint` of one CRD with thousands of CEL rules: seconds, and milliseconds per rule.

    python benchmarks/bench_rules.py                     # 1,250, 2,500 and 5,000 rules
    python benchmarks/bench_rules.py --rules 5000 --repeat 5
    python benchmarks/bench_rules.py --crdtool /path/to/old/crdtool --crdtool "python -m crdtool"

Each CRD puts its rules in two places, the two ways a rule count grows: four in five on one object
with a string field per rule (`!has(self.fN) || self.fN.size() > k`: the node's type grows with the
rules), one in five on a small object (`self.name.size() > k || self.items.all(...)`: many rules, one
small type). The last column, milliseconds per rule, stays flat when linting is linear in the rules.
The builds alternate run by run; the figures are medians.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coldrun import run_cold

REPO = Path(__file__).resolve().parent.parent

HEAD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
"""


def crd(rules: int) -> str:
    """A CRD with `rules` rules, four in five on a wide object and the rest on a small one."""
    wide = rules * 4 // 5
    small = rules - wide
    lines = [HEAD, "          spec:\n            type: object\n            properties:\n"]
    lines += [f"              f{i}: {{type: string, maxLength: 64}}\n" for i in range(wide)]
    lines.append("            x-kubernetes-validations:\n")
    lines += [f"            - rule: \"!has(self.f{i}) || self.f{i}.size() > {i % 7}\"\n" for i in range(wide)]
    lines.append("          status:\n            type: object\n            properties:\n"
                 "              name: {type: string, maxLength: 64}\n"
                 "              items: {type: array, maxItems: 10, items: {type: string, maxLength: 20}}\n"
                 "            x-kubernetes-validations:\n")
    lines += [f"            - rule: \"self.name.size() > {i % 50} || self.items.all(x, x.size() < {i + 10})\"\n"
              f"              message: rule {i}\n" for i in range(small)]
    return "".join(lines)


def seconds(cmd: list[str]) -> float:
    start = time.perf_counter()
    run_cold(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=int, nargs="*", default=[1250, 2500, 5000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--crdtool", action="append", help="a crdtool command to measure (repeatable; "
                    "default: this checkout's, `python -m crdtool`)")
    a = ap.parse_args()
    builds = [shlex.split(c) for c in a.crdtool] if a.crdtool else [[sys.executable, "-m", "crdtool"]]
    print(f"{'rules':>6} {'crdtool':>40} {'median s':>9} {'ms/rule':>8}")
    with tempfile.TemporaryDirectory(prefix="crdtool-bench-rules-") as tmp:
        for n in a.rules:
            path = Path(tmp, f"rules-{n}.yaml")
            path.write_text(crd(n))
            times: list[list[float]] = [[] for _ in builds]
            for _ in range(a.repeat):
                for i, build in enumerate(builds):
                    times[i].append(seconds([*build, "lint", str(path)]))
            for i, build in enumerate(builds):
                median = statistics.median(times[i])
                print(f"{n:>6,} {shlex.join(build)[-40:]:>40} {median:>9.2f} {1000 * median / n:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
