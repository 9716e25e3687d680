"""`crdtool convert` against a real HTTPS conversion webhook started here on 127.0.0.1.

The webhook serves the pizza conversion of fixtures/pizza/convert.py with a certificate from a test
CA (trustme), and misbehaves on request: the last segment of the URL path names the behaviour. Every
misbehaviour must give the apiserver's error text and exit code 1, and nothing may hang.
"""

from __future__ import annotations

import base64
import datetime
import importlib.util
import json
import re
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import trustme
from click.testing import CliRunner
from https_server import HTTPSServer

from crdtool.cli import cli

REPO = Path(__file__).resolve().parents[3]
PIZZA = REPO / "fixtures" / "pizza"
GROUP = "restaurant.programming-kubernetes.info"
HEAD = f"conversion webhook for {GROUP}/v1alpha1, Kind=Pizza"


def _pizza_module():
    spec = importlib.util.spec_from_file_location("pizza_convert", PIZZA / "convert.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PIZZA_CONVERT = _pizza_module()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def _send(self, code: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        server = self.server
        data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        review = json.loads(data)
        server.requests.append({"path": self.path, "headers": dict(self.headers), "body": review})
        behaviour = self.path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        if behaviour == "slow":
            server.release.wait(10)
        if behaviour == "http-500":
            return self._send(500, b"internal webhook error: oven on fire\n", "text/plain; charset=utf-8")
        if behaviour == "invalid-json":
            return self._send(200, b"{this is not json")
        if behaviour in _HOSTILE:
            return _HOSTILE[behaviour](self)
        answer = PIZZA_CONVERT.answer(review)
        response = answer["response"]
        if behaviour == "wrong-uid":
            response["uid"] = "00000000-0000-0000-0000-000000000000"
        elif behaviour == "fewer":
            response["convertedObjects"] = response["convertedObjects"][:-1]
        elif behaviour == "failure":
            response["result"] = {"status": "Failure", "message": "pizza conversion failed: pineapple is not a topping"}
            response["convertedObjects"] = []
        for obj in response["convertedObjects"]:
            if behaviour == "changed-name":
                obj["metadata"]["name"] += "-renamed"
            elif behaviour == "changed-kind":
                obj["kind"] = "Calzone"
            elif behaviour == "drop-quantity" and obj["apiVersion"].endswith("/v1alpha1"):
                # a lossy converter: v1beta1 -> v1alpha1 keeps one of each topping
                obj["spec"]["toppings"] = list(dict.fromkeys(obj["spec"].get("toppings") or []))
        self._send(200, json.dumps(answer).encode())


def _claims_a_gigabyte(handler: _Handler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(1 << 30))
    handler.end_headers()
    handler.wfile.write(b"{" * 1000)


def _endless_chunks(handler: _Handler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b" " * (1 << 20)
    try:
        for _ in range(1 << 12):  # 4 GiB, unless the reader stops first
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    except OSError:
        pass


def _gzip_bomb(handler: _Handler) -> None:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = b"0" * (1 << 20)
    body = b"".join(packer.compress(zeros) for _ in range(1 << 10)) + packer.flush()  # 1 GiB in ~1 MiB
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Encoding", "gzip")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _deep_array(handler: _Handler) -> None:
    handler._send(200, b"[" * 200_000 + b"]" * 200_000)


_HOSTILE = {"gigabyte": _claims_a_gigabyte, "endless": _endless_chunks, "gzip-bomb": _gzip_bomb,
            "deep-array": _deep_array}


class Webhook(HTTPSServer):
    """A threaded HTTPS webhook on 127.0.0.1 with a trustme certificate."""

    def __init__(self, cert: trustme.LeafCert) -> None:
        super().__init__(_Handler, cert)

    def url(self, behaviour: str = "correct") -> str:
        return f"https://127.0.0.1:{self.port}/convert/{behaviour}"


@pytest.fixture(scope="module")
def webhook(ca):
    hook = Webhook(ca.issue_cert("127.0.0.1"))
    yield hook
    hook.close()


def crd_yaml(url: str | None, ca_pem: bytes | None = None, service: bool = False, review_versions="[v1, v1beta1]"):
    """The pizza CRD with its webhook at `url` (or a service)."""
    text = (PIZZA / "crd.yaml").read_text(encoding="utf-8")
    if service:
        client = "service:\n          namespace: pizzeria\n          name: pizza-webhook\n          path: /convert"
    else:
        client = f"url: {url}"
    if ca_pem is not None:
        client += f"\n        caBundle: {base64.b64encode(ca_pem).decode()}"
    text = text.replace("url: https://127.0.0.1:8443/convert", client)
    return text.replace('conversionReviewVersions: ["v1", "v1beta1"]', f"conversionReviewVersions: {review_versions}")


def write_crd(tmp_path: Path, url: str | None, ca: trustme.CA | None, **kw) -> str:
    path = tmp_path / "crd.yaml"
    pem = ca.cert_pem.bytes() if ca is not None else None
    path.write_text(crd_yaml(url, pem, **kw), encoding="utf-8")
    return str(path)


def convert(*args: str):
    return CliRunner().invoke(cli, ["convert", *args])


def convert_json(*args: str) -> tuple[int, list[dict]]:
    res = CliRunner().invoke(cli, ["--format", "json", "convert", *args])
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, json.loads(res.stdout)["results"]


MARGHERITA = str(PIZZA / "margherita.yaml")


# ---------------------------------------------------------------- the pizza conversion, for real

def test_pizza_converts_through_the_webhook(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), ca)
    before = len(webhook.requests)
    code, results = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert code == 0
    [r] = results
    assert r["status"] is None and r["valid"] is True and r["conversionStrategy"] == "Webhook"
    assert r["object"]["apiVersion"] == f"{GROUP}/v1beta1"
    assert r["object"]["spec"] == {
        "toppings": [{"name": "mozzarella", "quantity": 1}, {"name": "tomato", "quantity": 2}]}
    assert r["object"]["metadata"]["labels"] == {"app": "pizza"}
    [request] = webhook.requests[before:]
    assert request["path"] == "/convert/correct?timeout=30s"
    assert request["headers"]["User-Agent"] == "kube-apiserver-admission"
    assert request["headers"]["Content-Type"] == "application/json"
    body = request["body"]
    assert body["apiVersion"] == "apiextensions.k8s.io/v1" and body["kind"] == "ConversionReview"
    assert body["request"]["desiredAPIVersion"] == f"{GROUP}/v1beta1"
    assert re.fullmatch(r"[0-9a-f-]{36}", body["request"]["uid"])
    assert body["response"] == {"uid": "", "convertedObjects": None, "result": {"metadata": {}}}
    sent = body["request"]["objects"][0]
    assert sent["spec"] == {"toppings": ["mozzarella", "tomato", "tomato"]}


def test_review_version_is_the_first_the_apiserver_supports(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), ca, review_versions="[v9, v1beta1, v1]")
    before = len(webhook.requests)
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert code == 0 and r["status"] is None
    assert webhook.requests[before]["body"]["apiVersion"] == "apiextensions.k8s.io/v1beta1"


def test_pizza_round_trip_through_the_webhook(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), ca)
    before = len(webhook.requests)
    code, results = convert_json("-c", crd, MARGHERITA, str(PIZZA / "menu.yaml"), "--to", "v1beta1", "--roundtrip")
    assert code == 1  # the diavola's toppings come back in another order
    by_name = {r["name"]: r for r in results}
    assert by_name["margherita"]["lost"] == [] and by_name["marinara"]["lost"] == []
    assert by_name["margherita"]["roundTrip"]["spec"] == {"toppings": ["mozzarella", "tomato", "tomato"]}
    assert by_name["diavola"]["lost"] == [
        {"path": "spec.toppings[1]", "before": "salami", "after": "tomato"},
        {"path": "spec.toppings[2]", "before": "tomato", "after": "salami"},
    ]
    # one request per input file and direction: margherita.yaml and menu.yaml, there and back
    requests = webhook.requests[before:]
    assert len(requests) == 4
    assert sorted(len(r["body"]["request"]["objects"]) for r in requests) == [1, 1, 2, 2]


def test_a_lossy_webhook_shows_in_the_round_trip(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url("drop-quantity"), ca)
    beta = tmp_path / "beta.yaml"
    beta.write_text(f"apiVersion: {GROUP}/v1beta1\nkind: Pizza\nmetadata: {{name: p, namespace: n}}\n"
                    "spec: {toppings: [{name: olive, quantity: 3}]}\n", encoding="utf-8")
    res = convert("--no-color", "-c", crd, str(beta), "--to", "v1alpha1", "--roundtrip")
    assert res.exit_code == 1
    assert ("spec.toppings[0].quantity: lost in the round trip v1beta1 -> v1alpha1 -> v1beta1: was 3, now 1"
            in res.output)


def test_one_request_for_a_thousand_objects(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), ca)
    many = tmp_path / "many.yaml"
    many.write_text("".join(
        f"---\napiVersion: {GROUP}/v1alpha1\nkind: Pizza\nmetadata: {{name: p{i}, namespace: n}}\n"
        f"spec: {{toppings: [cheese, tomato, cheese]}}\n" for i in range(1000)), encoding="utf-8")
    before = len(webhook.requests)
    code, results = convert_json("-c", crd, str(many), "--to", "v1beta1")
    assert code == 0 and len(results) == 1000
    assert all(r["object"]["spec"]["toppings"][0] == {"name": "cheese", "quantity": 2} for r in results)
    [request] = webhook.requests[before:]
    assert len(request["body"]["request"]["objects"]) == 1000


# ---------------------------------------------------------------- misbehaving webhooks: the apiserver's words

@pytest.mark.parametrize(("behaviour", "message"), [
    ("wrong-uid", HEAD + ' failed: expected response.uid="{uid}", got "00000000-0000-0000-0000-000000000000"'),
    ("fewer", HEAD + " returned 0 objects, expected 1"),
    ("changed-name", HEAD + " returned invalid object: must have the same name: margherita != margherita-renamed"),
    ("changed-kind", HEAD + " returned invalid object at index 0: invalid kind (expected Pizza, received Calzone)"),
    ("failure", HEAD + " failed: pizza conversion failed: pineapple is not a topping"),
    ("http-500", HEAD + ' failed: an error on the server ("internal webhook error: oven on fire") has prevented the '
                        "request from succeeding"),
    ("invalid-json", HEAD + " failed: couldn't get version/kind; json parse error: invalid character 't' looking "
                            "for beginning of object key string"),
])
def test_misbehaving_webhook(tmp_path, ca, webhook, behaviour, message) -> None:
    crd = write_crd(tmp_path, webhook.url(behaviour), ca)
    before = len(webhook.requests)
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert code == 1
    uid = webhook.requests[before]["body"]["request"]["uid"]
    assert r["status"] == message.format(uid=uid)
    assert r["object"] is None and r["valid"] is False
    text = convert("--no-color", "-c", crd, MARGHERITA, "--to", "v1beta1")
    assert text.exit_code == 1 and "error: " + HEAD in text.output
    kubectl = CliRunner().invoke(cli, ["--format", "kubectl", "convert", "-c", crd, MARGHERITA, "--to", "v1beta1"])
    assert kubectl.exit_code == 1 and kubectl.stderr.startswith("Error from server: " + HEAD)


TOO_LARGE = (f"{HEAD} failed: the answer is larger than 67108864 bytes, more than crdtool reads (64 MiB, or four "
             "times the request)")


@pytest.mark.parametrize(("behaviour", "message"), [
    ("gigabyte", TOO_LARGE), ("endless", TOO_LARGE), ("gzip-bomb", TOO_LARGE),
    ("deep-array", f"{HEAD} failed: error converting YAML to JSON: yaml: exceeded max depth of 10000"),
])
def test_hostile_answers_stop_at_crdtools_bounds(tmp_path, ca, webhook, behaviour, message) -> None:
    import resource

    crd = write_crd(tmp_path, webhook.url(behaviour), ca)
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert time.monotonic() - started < 30
    assert code == 1 and r["status"] == message
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 512 * 1024  # the limit is 64 MiB: never the gigabyte


def test_slow_webhook_times_out(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url("slow"), ca)
    started = time.monotonic()
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1", "--timeout", "1s")
    assert time.monotonic() - started < 5
    assert code == 1
    assert r["status"] == (f'{HEAD} failed: Post "https://127.0.0.1:{webhook.port}/convert/slow?timeout=1s": '
                           "context deadline exceeded (Client.Timeout exceeded while awaiting headers)")


def test_certificate_not_signed_by_the_ca_bundle(tmp_path, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), trustme.CA())
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert code == 1
    assert r["status"] == (f'{HEAD} failed: Post "https://127.0.0.1:{webhook.port}/convert/correct?timeout=30s": '
                           "tls: failed to verify certificate: x509: certificate signed by unknown authority")


def test_ca_bundle_option_and_insecure_opt_out(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), trustme.CA())  # the CRD trusts another CA
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(ca.cert_pem.bytes())
    assert convert_json("-c", crd, MARGHERITA, "--to", "v1beta1", "--ca-bundle", str(bundle))[0] == 0
    assert convert_json("-c", crd, MARGHERITA, "--to", "v1beta1", "--insecure-skip-tls-verify")[0] == 0


def test_ca_bundle_with_bytes_outside_ascii_around_its_certificates(tmp_path, ca, webhook) -> None:
    # PEM decoding skips what lies outside its blocks, whatever the bytes: the certificate is trusted.
    pem = "# Café CA, ©\n".encode() + ca.cert_pem.bytes() + b"\xff\n"
    crd = tmp_path / "crd.yaml"
    crd.write_text(crd_yaml(webhook.url(), pem), encoding="utf-8")
    assert convert_json("-c", str(crd), MARGHERITA, "--to", "v1beta1")[0] == 0
    other = write_crd(tmp_path, webhook.url(), trustme.CA())
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(pem)
    assert convert_json("-c", other, MARGHERITA, "--to", "v1beta1", "--ca-bundle", str(bundle))[0] == 0
    bundle.write_bytes(b"\xff\xfe not a certificate")
    code, [r] = convert_json("-c", other, MARGHERITA, "--to", "v1beta1", "--ca-bundle", str(bundle))
    assert code == 1 and r["status"].endswith("x509: certificate signed by unknown authority")


def test_certificate_for_another_host(tmp_path, ca) -> None:
    hook = Webhook(ca.issue_cert("webhook.pizzeria.svc", "10.0.0.7"))
    try:
        crd = write_crd(tmp_path, hook.url(), ca)
        code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
        assert code == 1
        assert r["status"].endswith("tls: failed to verify certificate: x509: certificate is valid for 10.0.0.7, "
                                    "not 127.0.0.1")
        # the certificate of a service, reached through --webhook-url: verified for the service's name
        service_crd = write_crd(tmp_path, None, ca, service=True)
        code, [r] = convert_json("-c", service_crd, MARGHERITA, "--to", "v1beta1", "--webhook-url", hook.url(),
                                 "--tls-server-name", "webhook.pizzeria.svc")
        assert code == 0 and r["status"] is None
    finally:
        hook.close()


def test_expired_certificate(tmp_path, ca) -> None:
    old = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    hook = Webhook(ca.issue_cert("127.0.0.1", not_before=old, not_after=old + datetime.timedelta(days=30)))
    try:
        code, [r] = convert_json("-c", write_crd(tmp_path, hook.url(), ca), MARGHERITA, "--to", "v1beta1")
        assert code == 1
        assert re.search(r"tls: failed to verify certificate: x509: certificate has expired or is not yet valid: "
                         r"current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after 2020-01-31T00:00:00Z$", r["status"])
    finally:
        hook.close()


def test_connection_refused(tmp_path, ca) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    crd = write_crd(tmp_path, f"https://127.0.0.1:{port}/convert", ca)
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert code == 1
    assert r["status"] == (f'{HEAD} failed: Post "https://127.0.0.1:{port}/convert?timeout=30s": '
                           f"dial tcp 127.0.0.1:{port}: connect: connection refused")


def test_servers_that_do_not_speak_tls(tmp_path, ca) -> None:
    """One never answers the TLS handshake (the timeout ends it), one answers in plain HTTP."""
    silent, plain = socket.socket(), socket.socket()
    for s in (silent, plain):
        s.bind(("127.0.0.1", 0))
        s.listen(4)

    def answer_plain() -> None:
        conn, _ = plain.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=answer_plain, daemon=True).start()
    try:
        crd = write_crd(tmp_path, "https://127.0.0.1:8443/convert", ca)
        for sock, cause in ((silent, "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"),
                            (plain, "http: server gave HTTP response to HTTPS client")):
            url = f"https://127.0.0.1:{sock.getsockname()[1]}/convert"
            code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1beta1", "--webhook-url", url, "--timeout", "1s")
            assert code == 1 and r["status"] == f'{HEAD} failed: Post "{url}?timeout=1s": {cause}'
    finally:
        silent.close()
        plain.close()


def test_objects_in_the_target_version_need_no_call(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url("failure"), ca)
    before = len(webhook.requests)
    code, [r] = convert_json("-c", crd, MARGHERITA, "--to", "v1alpha1")
    assert code == 0 and r["status"] is None and webhook.requests[before:] == []


# ---------------------------------------------------------------- usage

def test_a_service_needs_webhook_url(tmp_path, ca) -> None:
    crd = write_crd(tmp_path, None, ca, service=True)
    res = convert("-c", crd, MARGHERITA, "--to", "v1beta1")
    assert res.exit_code == 2
    assert "converts through the webhook service pizzeria/pizza-webhook:443/convert" in res.stderr
    assert "--webhook-url" in res.stderr and "Traceback" not in res.output


def test_usage_errors_exit_2(tmp_path) -> None:
    crd = str(PIZZA / "crd.yaml")
    assert convert("-c", crd, MARGHERITA).exit_code == 2  # no --to
    assert convert("-c", crd, MARGHERITA, "--to", "a/b/c").exit_code == 2
    assert convert("-c", crd, MARGHERITA, "--to", "v1beta1", "--timeout", "soon").exit_code == 2
    both = convert("-c", crd, MARGHERITA, "--to", "v1beta1", "--converter", "x", "--webhook-url", "https://h/")
    assert both.exit_code == 2
    missing = convert("-c", crd, str(tmp_path / "nope.yaml"), "--to", "v1beta1")
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    bad_url = convert("-c", crd, MARGHERITA, "--to", "v1beta1", "--webhook-url", "http://127.0.0.1:1/")
    assert bad_url.exit_code == 2 and "must be https" in bad_url.stderr


# ---------------------------------------------------------------- the CLI as a user runs it

def test_cli_in_a_real_process_round_trips_through_the_webhook(tmp_path, ca, webhook) -> None:
    crd = write_crd(tmp_path, webhook.url(), ca)
    proc = subprocess.run(
        [sys.executable, "-m", "crdtool", "convert", "-c", crd, MARGHERITA, "--to", "v1beta1", "--roundtrip",
         "--no-color"], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert "+  - name: tomato" in proc.stdout and "+    quantity: 2" in proc.stdout
    assert "1 object converted to v1beta1; nothing lost in the round trip" in proc.stdout
