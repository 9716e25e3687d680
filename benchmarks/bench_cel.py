#!/usr/bin/env python3
"""CEL figures: compile time per rule, rules evaluated per second, and validating HTTPRoutes.

    python benchmarks/bench_cel.py
    python benchmarks/bench_cel.py --repeat 5

- compile: every x-kubernetes-validations rule of every CRD in ../shared/corpus/crds, type-checked
  and costed (as `crdtool lint` does), in this process: microseconds per rule;
- evaluate: every gateway-api and envoy-gateway custom resource of ../shared/corpus/crs validated
  against its CRD, in this process, counting each rule evaluation: rules per second;
- `crdtool validate` of one HTTPRoute against the gateway-api HTTPRoute CRD, a cold process;
- `crdtool validate` of 1,000 HTTPRoutes (copies of the real ones, renamed), one process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coldrun import run_cold

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
HTTPROUTE_CRD = CORPUS / "crds" / "gateway-api-standard" / "httproutes.gateway.networking.k8s.io.yaml"
sys.path.insert(0, str(REPO))


def compile_figures() -> None:
    """Every rule of the corpus CRDs compiled once (no cache shared between nodes)."""
    from crdtool.cel import compiler
    from crdtool.engine.lint import is_crd, lint_document
    from crdtool.load import load_inputs

    docs = [d for d in load_inputs([str(CORPUS / "crds")]) if is_crd(d)]
    compiled_rules = 0
    compile_seconds = 0.0
    original = compiler._compile_rule

    def counting(*args, **kwargs):
        nonlocal compiled_rules, compile_seconds
        compiled_rules += 1
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            compile_seconds += time.perf_counter() - t0

    compiler._compile_rule = counting
    t0 = time.perf_counter()
    for doc in docs:
        lint_document(doc)
    elapsed = time.perf_counter() - t0
    compiler._compile_rule = original
    print(f"lint {len(docs)} corpus CRDs: {elapsed:.2f} s, of which compiling {compiled_rules} distinct rules "
          f"(type check, literal checks, cost, messageExpression): {compile_seconds:.2f} s, "
          f"{compile_seconds / max(compiled_rules, 1) * 1e6:,.0f} us per rule")


def evaluate_figures() -> None:
    """Rules evaluated per second over the real gateway-api and envoy-gateway objects."""
    from crdtool.cel import compiler
    from crdtool.engine.registry import Registry
    from crdtool.engine.validate import Request, find_version, process
    from crdtool.load import load_inputs

    registry = Registry()
    for project in ("gateway-api-standard", "gateway-api-experimental", "envoy-gateway"):
        for doc in load_inputs([str(CORPUS / "crds" / project)]):
            registry.add(doc)
    objects = [d for project in ("gateway-api", "envoy-gateway")
               for d in load_inputs([str(CORPUS / "crs" / project)]) if d.kind]
    evaluations = 0
    program = compiler.CompiledRule.program

    class Counting:
        def __init__(self, inner):
            self.inner = inner

        def eval(self, **kwargs):
            nonlocal evaluations
            evaluations += 1
            return self.inner.eval(**kwargs)

    request = Request()
    served = [(doc, find_version(registry, doc, request)) for doc in objects]
    served = [(doc, s) for doc, s in served if s is not None]
    for doc, s in served:  # warm: compile every program once
        process(doc, s, request, op="validate")
    compiler.CompiledRule.program = property(lambda self: None if program.fget(self) is None
                                             else Counting(program.fget(self)))
    t0 = time.perf_counter()
    for doc, s in served:
        process(doc, s, request, op="validate")
    elapsed = time.perf_counter() - t0
    compiler.CompiledRule.program = program
    print(f"validate {len(served)} gateway-api/envoy-gateway objects (programs compiled): {elapsed:.2f} s, "
          f"{evaluations} rule evaluations: {evaluations / elapsed:,.0f} rules/s, "
          f"{len(served) / elapsed:,.0f} objects/s")


def cli_seconds(args: list[str], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run_cold([sys.executable, "-m", "crdtool", *args], cwd=REPO, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def httproute_figures(repeat: int) -> None:
    from crdtool.load import load_inputs

    routes = [d.data for d in load_inputs([str(CORPUS / "crs" / "gateway-api")])
              if d.kind == "HTTPRoute" and isinstance(d.data, dict) and str(d.api_version).endswith("/v1")]
    with tempfile.TemporaryDirectory(prefix="crdtool-bench-") as tmp:
        one, many = Path(tmp, "one.yaml"), Path(tmp, "many.yaml")
        one.write_text(json.dumps(routes[0]))
        docs = []
        for i in range(1000):
            route = dict(routes[i % len(routes)])
            route["metadata"] = {**route.get("metadata", {}), "name": f"route-{i}"}
            docs.append(json.dumps(route))
        many.write_text("\n---\n".join(docs))
        best, median = cli_seconds(["validate", "-c", str(HTTPROUTE_CRD), str(one)], repeat)
        print(f"crdtool validate 1 HTTPRoute (cold process): best {best:.3f} s, median {median:.3f} s")
        best, median = cli_seconds(["validate", "-c", str(HTTPROUTE_CRD), str(many)], repeat)
        print(f"crdtool validate 1,000 HTTPRoutes ({len(routes)} real ones, renamed): best {best:.3f} s, "
              f"median {median:.3f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}")
        return 1
    compile_figures()
    evaluate_figures()
    httproute_figures(a.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
