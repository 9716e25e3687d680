#!/usr/bin/env python3
"""`crdtool convert` of 1,000 objects through a local HTTPS conversion webhook: time per object.

    python benchmarks/bench_convert.py            # needs trustme (pip install -e '.[test]')
    python benchmarks/bench_convert.py --repeat 5 --objects 2000

The webhook runs in this process on 127.0.0.1 (fixtures/pizza/convert.py's conversion behind a
certificate from a test CA); crdtool runs as the user runs it, one CLI process per measurement. All
objects are in one file, so the apiserver's webhook client (and crdtool) sends one ConversionReview
for all of them: the script checks the count of requests. The time per object is the run's time with
the start-up of a one-object run subtracted. Also measured: the same through `--converter` (the
converter as a local command), with `--roundtrip` (two requests), and strategy None (no webhook).
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import ssl
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from coldrun import run_cold

REPO = Path(__file__).resolve().parent.parent
PIZZA = REPO / "fixtures" / "pizza"
GROUP = "restaurant.programming-kubernetes.info"


def _pizza():
    spec = importlib.util.spec_from_file_location("pizza_convert", PIZZA / "convert.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Webhook:
    """The pizza webhook over HTTPS in a thread, counting the ConversionReviews it answers."""

    def __init__(self) -> None:
        import trustme

        pizza = _pizza()
        self.requests: list[int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, fmt, *args):
                pass

            def do_POST(self):
                review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(len(review["request"]["objects"]))
                body = json.dumps(pizza.answer(review)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.ca = trustme.CA()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ca.issue_cert("127.0.0.1").configure_cert(context)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/convert"


def write_inputs(folder: Path, webhook: Webhook, count: int) -> tuple[Path, Path, Path, Path]:
    crd_text = (PIZZA / "crd.yaml").read_text(encoding="utf-8")
    bundle = base64.b64encode(webhook.ca.cert_pem.bytes()).decode()
    crd = folder / "crd.yaml"
    crd.write_text(crd_text.replace("url: https://127.0.0.1:8443/convert",
                                    f"url: {webhook.url}\n        caBundle: {bundle}"), encoding="utf-8")
    none_crd = folder / "crd-none.yaml"
    none_crd.write_text(crd_text.split("  conversion:")[0], encoding="utf-8")
    doc = ("---\napiVersion: " + GROUP + "/v1alpha1\nkind: Pizza\nmetadata:\n  name: pizza-{i}\n  namespace: pizzeria\n"
           "  labels: {{app: pizza}}\nspec:\n  toppings: [mozzarella, tomato, tomato, basil]\n")
    many, one = folder / "many.yaml", folder / "one.yaml"
    many.write_text("".join(doc.format(i=i) for i in range(count)), encoding="utf-8")
    one.write_text(doc.format(i=0), encoding="utf-8")
    return crd, none_crd, many, one


def timed(cmd: list[str]) -> float:
    started = time.perf_counter()
    proc = run_cold(cmd, capture_output=True, cwd=REPO)
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):  # 1: findings (strategy None leaves v1alpha1 toppings invalid in v1beta1)
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
    return elapsed


def measure(label: str, args: list[str], many: Path, one: Path, count: int, repeat: int,
            webhook: Webhook | None, expected_requests: int) -> None:
    base = [sys.executable, "-m", "crdtool", "--format", "json", "convert", *args, "--to", "v1beta1"]
    start_up = min(timed([*base, str(one)]) for _ in range(repeat))
    runs = []
    for _ in range(repeat):
        before = len(webhook.requests) if webhook else 0
        runs.append(timed([*base, str(many)]))
        if webhook is not None and len(webhook.requests) - before != expected_requests:
            sys.exit(f"{label}: expected {expected_requests} request(s) per run, got {len(webhook.requests) - before}")
    best, median = min(runs), statistics.median(runs)
    per_object = (best - start_up) / (count - 1) * 1000
    requests = f"{expected_requests} request(s) per run" if webhook is not None else "no webhook"
    print(f"{label:<42} best {best:6.3f} s  median {median:6.3f} s  start-up {start_up:5.3f} s  "
          f"{per_object:6.3f} ms/object  ({count} objects, {requests})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--objects", type=int, default=1000)
    args = parser.parse_args()
    try:
        webhook = Webhook()
    except ImportError:
        sys.exit("bench_convert.py needs trustme for the webhook's certificate: pip install -e '.[test]'")
    with tempfile.TemporaryDirectory() as tmp:
        crd, none_crd, many, one = write_inputs(Path(tmp), webhook, args.objects)
        n, r = args.objects, args.repeat
        measure("convert through the HTTPS webhook", ["-c", str(crd)], many, one, n, r, webhook, 1)
        measure("convert --roundtrip through the webhook", ["-c", str(crd), "--roundtrip"], many, one, n, r,
                webhook, 2)
        measure("convert --converter (a local command)",
                ["-c", str(crd), "--converter", f"{sys.executable} {PIZZA / 'convert.py'}"], many, one, n, r, None, 0)
        measure("convert, strategy None", ["-c", str(none_crd)], many, one, n, r, None, 0)


if __name__ == "__main__":
    main()
