"""convert.jsonl: the real apiserver's conversions, replayed through `crdtool --format json convert`.

The webhook cases run against the webhook they were recorded with (../shared/conformance/convert/
pizza_webhook.py, started here on a free port with its own certificates and a request log). As
SERVER.md says: the recorded port is replaced by the real one in the CRD and `127.0.0.1:PORT` by
`{{WEBHOOK}}` (and the request uid by `{{REQUEST_UID}}`) in the answer; the requests the webhook
received are compared as JSON, request uids aside. A case whose URL names another port (nothing
listening there) gets a closed port.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conformance_cases import CONFORMANCE, load_cases

from crdtool.cli import cli

SERVER_DIR = CONFORMANCE / "convert"
CASES = load_cases("convert")
requires_server = pytest.mark.skipif(not (SERVER_DIR / "pizza_webhook.py").is_file() or not CASES,
                                     reason=f"shared conversion cases not found at {CONFORMANCE}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def webhook(tmp_path_factory):
    """The recording webhook, on a free port, logging every request it receives."""
    log = tmp_path_factory.mktemp("webhook") / "requests.jsonl"
    log.touch()
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "pizza_webhook.py", "--port", str(port), "--cert", "server.pem", "--key", "server.key",
         "--log", str(log)], cwd=SERVER_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port, log
    finally:
        proc.terminate()
        proc.wait(timeout=5)


def _without_uid(body):
    body = json.loads(json.dumps(body))
    if isinstance(body, dict) and isinstance(body.get("request"), dict):
        body["request"].pop("uid", None)
    return body


def _run(case: dict, tmp_path: Path, port: int, closed_port: int, *extra: str):
    recorded = case.get("webhookPort")
    crd_text = json.dumps(case["crd"])

    def swap(m: re.Match) -> str:
        return f"127.0.0.1:{port if int(m.group(1)) == recorded else closed_port}"

    crd_text = re.sub(r"127\.0\.0\.1:(\d+)", swap, crd_text)
    crd = tmp_path / "crd.json"
    obj = tmp_path / "object.json"
    crd.write_text(crd_text, encoding="utf-8")
    obj.write_text(json.dumps(case["object"]), encoding="utf-8")
    res = CliRunner().invoke(cli, ["--format", "json", "convert", "-c", str(crd), str(obj), "--to", case["to"], *extra])
    assert res.exit_code in (0, 1), res.output
    results = json.loads(res.stdout)["results"]
    assert len(results) == 1
    return results[0]


@requires_server
@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_convert_case(case: dict, tmp_path: Path, webhook) -> None:
    port, log = webhook
    closed_port = _free_port()
    expected = case["expected"]
    before = log.read_text(encoding="utf-8").count("\n")
    got = _run(case, tmp_path, port, closed_port)
    requests = [json.loads(line)["body"] for line in log.read_text(encoding="utf-8").splitlines()[before:]]

    assert got["object"] == expected.get("object")
    status = got["status"]
    if status is not None:
        for p in (port, closed_port):
            status = status.replace(f"127.0.0.1:{p}", "{{WEBHOOK}}")
        for body in requests:
            uid = (body.get("request") or {}).get("uid") if isinstance(body, dict) else None
            if uid:
                status = status.replace(uid, "{{REQUEST_UID}}")
    assert status == (expected.get("statusTemplate") or expected.get("status"))
    assert [_without_uid(b) for b in requests] == [_without_uid(b) for b in expected.get("webhookRequests") or []]
    assert got["conversionStrategy"] == expected["conversionStrategy"]
    assert got["storedVersion"] == expected["storageVersion"]

    if "objectWithTargetDefaults" in expected:
        with_defaults = _run(case, tmp_path, port, closed_port, "--target-defaults")
        assert with_defaults["object"] == expected["objectWithTargetDefaults"]
