"""`crdtool convert` without a network: strategy None, --converter commands, --write, and the
pieces that word failures as the apiserver and Go do (JSON syntax, the webhook client's reading of an
answer, TLS certificate names, durations)."""

from __future__ import annotations

import json
import os
import ssl
import sys
import time
from pathlib import Path

import pytest
import trustme
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.convert import review, roundtrip, stored, tls, webhook
from crdtool.model import gojson
from crdtool.schema.structural.structural import new_structural

REPO = Path(__file__).resolve().parents[3]
PIZZA = REPO / "fixtures" / "pizza"
PIZZA_CRD, MARGHERITA = str(PIZZA / "crd.yaml"), str(PIZZA / "margherita.yaml")
CONVERTER = f"{sys.executable} {PIZZA / 'convert.py'}"
GROUP = "restaurant.programming-kubernetes.info"
HEAD = f"conversion webhook for {GROUP}/v1alpha1, Kind=Pizza"

WIDGETS = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: string, default: M}
                legacyColor: {type: string}
    - name: v2
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: string}
                tier: {type: string, default: gold}
                replicas: {type: integer, maximum: 5}
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def run_json(*args: str) -> tuple[int, list[dict]]:
    res = CliRunner().invoke(cli, ["--format", "json", *args])
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, json.loads(res.stdout)["results"]


@pytest.fixture
def widgets(tmp_path: Path) -> tuple[str, Path]:
    crd = tmp_path / "crd.yaml"
    crd.write_text(WIDGETS, encoding="utf-8")
    obj = tmp_path / "w.yaml"
    obj.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\n"
                   "spec:\n  legacyColor: red   # only v1 knows it\n  replicas: 9\n", encoding="utf-8")
    return str(crd), obj


# ---------------------------------------------------------------- strategy None

def test_none_strategy_loses_fields_the_target_does_not_know(widgets) -> None:
    crd, obj = widgets
    code, [r] = run_json("convert", "-c", crd, str(obj), "--to", "v2")
    assert code == 0
    assert r["conversionStrategy"] == "None" and r["storedVersion"] == "v1" and r["version"] == "v2"
    # v1's default applied before converting, v1-only and unknown fields pruned, v2's default not applied
    assert r["object"]["spec"] == {"size": "M"}
    assert r["object"]["apiVersion"] == "example.com/v2"
    assert r["pruned"] == ["spec.replicas", "spec.legacyColor"] and r["prunedByTarget"] == ["spec.legacyColor"]
    assert r["defaulted"] == ["spec.size"]
    text = run("convert", "--no-color", "-c", crd, str(obj), "--to", "v2")
    assert (f"{obj}:7:3: warning: spec.legacyColor: not in the schema of example.com/v2: pruned, its value is lost"
            in text.output)
    assert "-  legacyColor: red" in text.output and "+apiVersion: example.com/v2" in text.output


def test_target_defaults_are_an_opt_in(widgets) -> None:
    crd, obj = widgets
    _, [r] = run_json("convert", "-c", crd, str(obj), "--to", "v2", "--target-defaults")
    assert r["object"]["spec"] == {"size": "M", "tier": "gold"}
    assert r["defaulted"] == ["spec.size", "spec.tier"]


def test_validation_in_the_target_version_as_validate_prints_it(widgets, tmp_path) -> None:
    crd, _ = widgets
    obj = tmp_path / "big.yaml"
    obj.write_text("apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w2, namespace: default}\n"
                   "spec:\n  replicas: 9\n", encoding="utf-8")
    code, [r] = run_json("convert", "-c", crd, str(obj), "--to", "v2")
    assert code == 1 and r["status"] is None and r["valid"] is False
    assert [e["error"] for e in r["errors"]] == [
        "spec.replicas: Invalid value: 9: spec.replicas in body should be less than or equal to 5"]
    assert r["errors"][0]["line"] == 5
    assert r["validationStatus"] == ('Widget.example.com "w2" is invalid: spec.replicas: Invalid value: 9: '
                                     "spec.replicas in body should be less than or equal to 5")
    text = run("convert", "--no-color", "-c", crd, str(obj), "--to", "v2")
    assert f"{obj}:5:3: error: spec.replicas: Invalid value: 9" in text.output
    assert "1 of them would be rejected in v2" in text.output


def test_conversion_errors_of_the_converter(widgets) -> None:
    crd, obj = widgets
    _, [r] = run_json("convert", "-c", crd, str(obj), "--to", "v3")
    assert r["status"] == "request to convert CR to an invalid group/version: example.com/v3"
    _, [r] = run_json("convert", "-c", crd, str(obj), "--to", "other.example.com/v2")
    assert r["status"] == ('example.com/v1, Kind=Widget is unstructured and is not suitable for converting to '
                           '"other.example.com/v2"')
    unserved = Path(crd).with_name("unserved.yaml")
    unserved.write_text(WIDGETS.replace("- name: v2\n      served: true", "- name: v2\n      served: false"),
                        encoding="utf-8")
    _, [r] = run_json("convert", "-c", str(unserved), str(obj), "--to", "v2")
    assert r["status"] == "the server could not find the requested resource"
    code, [r] = run_json("convert", "-c", crd, str(PIZZA / "margherita.yaml"), "--to", "v2")
    assert code == 1 and r["status"].startswith("no CustomResourceDefinition for") and r["valid"] is False
    assert run("convert", "-c", crd, MARGHERITA, "--to", "v2", "--skip-unknown-kinds").exit_code == 2
    assert run("convert", "-c", crd, MARGHERITA, "--to", "v2", "--skip-unknown-kinds", "--allow-empty").exit_code == 0


def test_output_objects_and_kubectl(widgets) -> None:
    crd, obj = widgets
    res = run("convert", "-c", crd, str(obj), "--to", "v2", "-o", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["spec"] == {"size": "M"}
    res = run("--format", "kubectl", "convert", "-c", crd, str(obj), "--to", "v2")
    assert res.stdout.startswith("apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  generation: 1\n")


def test_write_rewrites_the_manifest_atomically_keeping_comments(tmp_path) -> None:
    obj = tmp_path / "margherita.yaml"
    obj.write_text((PIZZA / "margherita.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    res = run("convert", "-c", PIZZA_CRD, str(obj), "--to", "v1beta1", "--converter", CONVERTER, "--write")
    assert res.exit_code == 0, res.output
    text = obj.read_text(encoding="utf-8")
    assert text.startswith(f"apiVersion: {GROUP}/v1beta1\n")
    assert "  toppings:\n    - name: mozzarella\n      quantity: 1\n    - name: tomato\n      quantity: 2\n" in text
    assert "generation" not in text and "labels:\n    app: pizza" in text
    assert sorted(os.listdir(tmp_path)) == ["margherita.yaml"]  # no temporary file left behind
    # written in the new version, it converts to itself
    again = run("convert", "-c", PIZZA_CRD, str(obj), "--to", "v1beta1", "--converter", CONVERTER, "--write")
    assert again.exit_code == 0 and obj.read_text(encoding="utf-8") == text


def test_write_keeps_the_files_line_endings_and_byte_order_mark(tmp_path) -> None:
    obj = tmp_path / "margherita.yaml"
    text = "# the house pizza\n" + (PIZZA / "margherita.yaml").read_text(encoding="utf-8")
    obj.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    res = run("convert", "-c", PIZZA_CRD, str(obj), "--to", "v1beta1", "--converter", CONVERTER, "--write")
    assert res.exit_code == 0, res.output
    raw = obj.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf# the house pizza\r\napiVersion: " + GROUP.encode() + b"/v1beta1\r\n")
    assert raw.count(b"\n") == raw.count(b"\r\n") > 10 and b"\r\r" not in raw


# ---------------------------------------------------------------- --converter

def test_converter_command(tmp_path) -> None:
    code, [r] = run_json("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", CONVERTER)
    assert code == 0 and r["object"]["spec"]["toppings"][1] == {"name": "tomato", "quantity": 2}


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "conv.py"
    path.write_text(body, encoding="utf-8")
    return f"{sys.executable} {path}"


def test_converter_that_fails_or_answers_garbage(tmp_path) -> None:
    failing = _script(tmp_path, "import sys\nsys.stderr.write('no pineapple\\n')\nsys.exit(3)\n")
    _, [r] = run_json("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", failing)
    assert r["status"] == f'{HEAD} failed: converter "{failing}" exited with status 3: no pineapple'
    garbage = _script(tmp_path, "print('{\"apiVersion\": 5}')\n")
    _, [r] = run_json("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", garbage)
    assert r["status"] == (f"{HEAD} failed: couldn't get version/kind; json parse error: json: cannot unmarshal "
                           "number into Go struct field .apiVersion of type string")


@pytest.mark.parametrize(("answer", "problem"), [
    ("sys.stdout.write('[' * 200000 + ']' * 200000)",
     "error converting YAML to JSON: yaml: exceeded max depth of 10000"),
    ("sys.stdout.write('[' * 9000 + ']' * 9000)",  # as deep as go-yaml allows: a list, not a review
     "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct"),
    ("sys.stdout.write('[' * 200000 + 'x' + ']' * 200000)",  # YAML, not JSON
     "error converting YAML to JSON: yaml: exceeded max depth of 10000"),
    ("sys.stdout.write('- ' * 20000 + 'x')", "crdtool cannot read a YAML answer nested deeper than 1000 levels"),
    ("chunk = ' ' * (1 << 20)\nwhile True:\n    sys.stdout.write(chunk)",
     "the answer is larger than 67108864 bytes, more than crdtool reads (64 MiB, or four times the request) "
     "(killed)"),
])
def test_converter_answers_are_read_in_bounded_time_and_size(tmp_path, answer: str, problem: str) -> None:
    import time

    converter = _script(tmp_path, f"import sys\nsys.stdin.read()\n{answer}\n")
    started = time.monotonic()
    _, [r] = run_json("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", converter,
                      "--timeout", "20s")
    assert time.monotonic() - started < 20
    assert r["status"].startswith(f"{HEAD} failed: ")
    assert problem in r["status"]


def test_converter_that_hangs_is_killed(tmp_path) -> None:
    hanging = _script(tmp_path, "import time\ntime.sleep(60)\n")
    started = time.monotonic()
    code, [r] = run_json("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", hanging,
                         "--timeout", "500ms")
    assert time.monotonic() - started < 5
    assert code == 1 and r["status"] == f'{HEAD} failed: converter "{hanging}" did not answer within 500ms (killed)'


def test_converter_that_cannot_run(tmp_path) -> None:
    res = run("convert", "-c", PIZZA_CRD, MARGHERITA, "--to", "v1beta1", "--converter", str(tmp_path / "missing"))
    assert res.exit_code == 2 and "cannot run it" in res.stderr


# ---------------------------------------------------------------- Go's words

@pytest.mark.parametrize(("data", "message"), [
    (b"{this is not json", "invalid character 't' looking for beginning of object key string"),
    (b"", "unexpected end of JSON input"),
    (b'{"a": 1,}', "invalid character '}' looking for beginning of object key string"),
    (b"[1,]", "invalid character ']' looking for beginning of value"),
    (b'{"a" 1}', "invalid character '1' after object key"),
    (b'{"a": 1 "b": 2}', "invalid character '\"' after object key:value pair"),
    (b"[1 2]", "invalid character '2' after array element"),
    (b"{} x", "invalid character 'x' after top-level value"),
    (b"nul", "unexpected end of JSON input"),
    (b"trve", "invalid character 'v' in literal true (expecting 'u')"),
    (b'"a\\qb"', "invalid character 'q' in string escape code"),
    (b'"\x01"', "invalid character '\\x01' in string literal"),
    (b"-x", "invalid character 'x' in numeric literal"),
    (b"1.e5", "invalid character 'e' after decimal point in numeric literal"),
    (b'{"a": [1, {"b": null}], "c": "\\u00e9"}', None),
])
def test_go_json_syntax_errors(data: bytes, message: str | None) -> None:
    assert gojson.syntax_error(data) == message


def test_raw_items_keep_the_webhook_bytes() -> None:
    body = b'{"response": {"convertedObjects": [ {"a": "]"} , null ]}}'
    response = gojson.raw_member(body, 0, "response")
    objects = gojson.raw_member(body, response[0], "convertedObjects")
    assert gojson.raw_items(body, objects[0]) == [b'{"a": "]"}', b"null"]


@pytest.mark.parametrize(("answer", "message"), [
    (webhook.Answer(500, {"content-type": "application/json"}, b"oops\n"),
     'an error on the server ("unknown") has prevented the request from succeeding'),
    (webhook.Answer(503, {}, b"busy"), "the server is currently unable to handle the request"),
    (webhook.Answer(418, {"content-type": "text/plain"}, b"teapot"),
     "the server responded with the status code 418 but did not return more information"),
    (webhook.Answer(500, {"content-type": "application/json"},
                    b'{"kind":"Status","apiVersion":"v1","status":"Failure","message":"oven on fire"}'),
     "oven on fire"),
    (webhook.Answer(200, {"content-type": "application/json"}, b""),
     "0-length response with status code: 200 and content type: application/json"),
    (webhook.Answer(200, {"content-type": "text/plain; charset"}, b"{}"),
     "Internal error occurred: mime: invalid media parameter"),
    (webhook.Answer(200, {}, b'{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "ConversionReview"}'),
     "converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion"),
    (webhook.Answer(200, {}, b'{"apiVersion": "v1", "kind": "Status", "status": "Success"}'),
     "converting (v1.Status) to (v1.ConversionReview): unknown conversion"),
    (webhook.Answer(200, {}, b'{"apiVersion": "example.com/v1", "kind": "Pizza"}'),
     'no kind "Pizza" is registered for version "example.com/v1" in scheme '
     '"k8s.io/apiserver/pkg/util/webhook/client.go:72"'),
    (webhook.Answer(200, {}, b'{"apiVersion": "a/b/c"}'), "unexpected GroupVersion string: a/b/c"),
    (webhook.Answer(200, {}, b'[1]'), "couldn't get version/kind; json parse error: json: cannot unmarshal array "
                                      'into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty'
                                      '\\""; Kind string "json:\\"kind,omitempty\\"" }'),
    (webhook.Answer(200, {}, b'{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", '
                             b'"response": {"uid": 7}}'),
     "json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID"),
])
def test_the_webhook_clients_reading_of_an_answer(answer: webhook.Answer, message: str) -> None:
    with pytest.raises(review.CallError) as err:
        webhook.into_review(answer, "v1")
    assert str(err.value) == message


def test_response_checks() -> None:
    def decoded(text: str) -> review.Review:
        return review.decode_review(text.encode(), "v1")

    with pytest.raises(review.CallError, match="^expected webhook response of apiextensions.k8s.io/v1, "
                                               "Kind=ConversionReview, got /, Kind=ConversionReview$"):
        review.converted_objects(decoded('{"kind": "ConversionReview", "response": {}}'), "v1", "u")
    answer = decoded('{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", '
                     '"response": {"uid": "u", "result": {}}}')
    with pytest.raises(review.CallError, match="^response.result.status was '', not 'Success'$"):
        review.converted_objects(answer, "v1", "u")
    # v1beta1 answers are not checked for their kind and uid
    beta = review.decode_review(b'{"response": {"uid": "x", "result": {"status": "Success"}}}', "v1beta1")
    assert review.converted_objects(beta, "v1beta1", "u") == []


def test_checks_of_each_converted_object() -> None:
    sent = {"apiVersion": f"{GROUP}/v1alpha1", "kind": "Pizza",
            "metadata": {"name": "p", "namespace": "n", "uid": "1", "labels": {"a": "b"}}}
    desired = (GROUP, "v1beta1")
    good = {"apiVersion": f"{GROUP}/v1beta1", "kind": "Pizza",
            "metadata": {"name": "p", "namespace": "n", "uid": "1", "generation": 9, "annotations": {"x": "y"}}}
    restored = review.check_converted(sent, good, None, desired)
    assert restored["metadata"] == {"name": "p", "namespace": "n", "uid": "1", "annotations": {"x": "y"}}
    with pytest.raises(review.ConversionError, match=r"^Object 'Kind' is missing in '\{\"a\": 1\}'$"):
        review.check_converted(sent, {"a": 1}, b'{"a": 1}', desired)
    with pytest.raises(review.ConversionError, match="must have the same namespace: n != m$"):
        review.check_converted(sent, {**good, "metadata": {**good["metadata"], "namespace": "m"}}, None, desired)
    with pytest.raises(review.ConversionError, match="returned invalid metadata: metadata.labels\\[a\\] must be a "
                                                     "string, but is int64 in converted object$"):
        review.check_converted(sent, {**good, "metadata": {**good["metadata"], "labels": {"a": 1}}}, None, desired)
    bare = {"apiVersion": f"{GROUP}/v1alpha1", "kind": "Pizza", "spec": {}}
    with pytest.raises(review.ConversionError, match="returned invalid metadata: missing metadata in converted"):
        review.check_converted(bare, {"apiVersion": f"{GROUP}/v1beta1", "kind": "Pizza"}, None, desired)


def test_certificate_names_as_go_checks_them() -> None:
    ca = trustme.CA()

    def leaf(*names: str) -> tls.Leaf:
        pem = ca.issue_cert(*names).cert_chain_pems[0].bytes().decode()
        return tls.parse_leaf(ssl.PEM_cert_to_DER_cert(pem))

    assert tls.hostname_error(leaf("127.0.0.1"), "127.0.0.1") is None
    assert tls.hostname_error(leaf("webhook.ns.svc"), "127.0.0.1") == (
        "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs")
    assert tls.hostname_error(leaf("a.example.com", "b.example.com"), "c.example.com") == (
        "x509: certificate is valid for a.example.com, b.example.com, not c.example.com")
    assert tls.hostname_error(leaf("*.example.com"), "hook.example.com") is None
    assert tls.hostname_error(leaf("::1"), "[::1]") is None


# ---------------------------------------------------------------- pieces

def test_stored_objects_are_read_as_the_storage_decoder_reads_them() -> None:
    schema = new_structural({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "size": {"type": "string", "default": "M"}}}}})
    data = {"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "labels": {"ok": "yes", "n": 5}, "annotations": "oops", "junk": 1},
            "spec": {"extra": True}}
    decoded = stored.decode_stored(data, schema)
    assert decoded.obj == {"apiVersion": "example.com/v1", "kind": "Widget",
                           "metadata": {"name": "w", "generation": 1}, "spec": {"size": "M"}}
    assert decoded.pruned == ["spec.extra"] and decoded.defaulted == ["spec.size"]
    with pytest.raises(review.ConversionError, match="^invalid metadata: expected object, got string$"):
        stored.decode_stored({**data, "metadata": "x"}, schema)


def test_a_stored_object_is_read_in_another_version_defaulted_by_its_own_schema() -> None:
    from crdtool.convert.none import NoneConverter

    v1 = new_structural({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "size": {"type": "string", "default": "S"}, "old": {"type": "string"}}}}})
    v2 = new_structural({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "size": {"type": "string", "default": "L"}}}}})
    data = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"old": "x"}}
    read = stored.read_stored(data, v1, v2, "Widget", ("example.com", "v2"), NoneConverter())
    assert read.obj == {"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "w", "generation": 1},
                        "spec": {"size": "S"}}
    assert read.defaulted == ["spec.size"] and read.pruned == ["spec.old"]
    same = stored.read_stored({**data, "apiVersion": "example.com/v2"}, v2, v2, "Widget", ("example.com", "v2"),
                              NoneConverter())
    assert same.obj["spec"] == {"size": "L"} and same.pruned == ["spec.old"]

    class Failing:
        def convert(self, objects: list[dict], desired: tuple[str, str]) -> list:
            return [review.ConversionError("conversion webhook failed")]

    with pytest.raises(review.ConversionError, match="^conversion webhook failed$"):
        stored.read_stored(data, v1, v2, "Widget", ("example.com", "v2"), Failing())


def test_round_trip_losses() -> None:
    before = {"apiVersion": "v1", "spec": {"a": 1, "b": [1, 2, 3], "c": {"d": True}, "e": 1}}
    after = {"apiVersion": "v2", "spec": {"a": 1.0, "b": [1, 3], "c": {}, "e": True, "new": 1}}
    assert [loss.as_json() for loss in roundtrip.losses(before, after)] == [
        {"path": "spec.b[1]", "before": 2, "after": 3},
        {"path": "spec.b[2]", "before": 3, "vanished": True},
        {"path": "spec.c.d", "before": True, "vanished": True},
        {"path": "spec.e", "before": 1, "after": True},
    ]


def test_help_stays_light() -> None:
    code = ("import sys; from crdtool.cli import cli\n"
            "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('crdtool.convert', 'jsonschema', 'cel'))))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]"
