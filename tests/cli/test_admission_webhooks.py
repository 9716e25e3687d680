"""`crdtool validate` with admission webhooks: the pizza restaurant of "Programming Kubernetes"
(chapter 9) served here over HTTPS on 127.0.0.1 with a certificate of a test CA (trustme).

The webhooks are fixtures/pizza-admission/webhooks.py's: the mutating one defaults toppings, the
validating one refuses toppings the restaurant does not know (the path's last segment lists the
known ones). Other paths misbehave as their name says; each failure must read as the apiserver's
(k8s.io/apiserver pkg/admission/plugin/webhook/{mutating,validating}/dispatcher.go,
request/admissionreview.go, errors/statuserror.go; pkg/util/webhook/error.go).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import trustme
from click.testing import CliRunner
from https_server import HTTPSServer

from crdtool.cli import cli

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "pizza-admission"
CRD = REPO / "fixtures" / "pizza" / "crd.yaml"
MARGHERITA = REPO / "fixtures" / "pizza" / "margherita.yaml"
PLAIN = FIXTURES / "plain-pizza.yaml"
NAME = "restaurant.programming-kubernetes.info"


def _fixture_webhooks():
    spec = importlib.util.spec_from_file_location("pizza_admission", FIXTURES / "webhooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PIZZA = _fixture_webhooks()


def _patch(ops) -> str:
    return base64.b64encode(json.dumps(ops).encode()).decode()


def _misbehave(behaviour: str, review: dict) -> dict | None:
    """The answer of a misbehaving webhook (None: sleep past the timeout)."""
    uid = review["request"]["uid"]
    ok = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": uid, "allowed": True}}
    if behaviour == "slow":
        return None
    if behaviour == "bad-uid":
        ok["response"]["uid"] = "not-the-uid"
    elif behaviour == "no-kind":
        del ok["kind"]
    elif behaviour == "invalid-patch":
        ok["response"].update(patchType="JSONPatch", patch=_patch([{"op": "remove", "path": "/spec/cheese"}]))
    elif behaviour == "undecodable-patch":
        ok["response"].update(patchType="JSONPatch", patch=_patch({"op": "add"}))
    elif behaviour == "patch-without-type":
        ok["response"].update(patch=_patch([{"op": "add", "path": "/spec/x", "value": 1}]))
    elif behaviour == "deny-with-code":
        ok["response"].update(allowed=False, status={"code": 403, "reason": "Forbidden", "message": "closed today"})
    elif behaviour == "deny-bare":
        ok["response"].update(allowed=False)
    elif behaviour == "warn":
        ok["response"].update(warnings=["the oven is cold"], auditAnnotations={"oven": "cold"})
    elif behaviour == "add-unknown-field":
        ok["response"].update(patchType="JSONPatch", patch=_patch(
            [{"op": "add", "path": "/spec/crust", "value": "thin"}, {"op": "add", "path": "/spec/toppings/-",
                                                                    "value": "basil"}]))
    return ok


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        server = self.server
        review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server.requests.append({"path": self.path, "review": review})
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[:2] == ["admit", "mutate"]:
            answer = PIZZA.mutate(review)
        elif parts[:2] == ["admit", "validate"]:
            answer = PIZZA.validate(review, set(parts[2].split(",")) if len(parts) > 2 else PIZZA.DEFAULT_TOPPINGS)
        else:
            answer = _misbehave(parts[-1], review)
        if answer is None:
            server.release.wait(5)
            return
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(HTTPSServer):
    """The restaurant's webhooks on 127.0.0.1 over HTTPS."""

    def __init__(self, cert: trustme.LeafCert) -> None:
        super().__init__(_Handler, cert)


@pytest.fixture(scope="module")
def server(ca):
    # the service's name, as the apiserver checks it, and the address it is served at here
    running = Server(ca.issue_cert("webhook.pizza-crd.svc", "127.0.0.1"))
    yield running
    running.close()


@pytest.fixture
def fresh(server):
    server.requests.clear()
    return server


def _hook(kind: str, path: str, *, port: int, ca: trustme.CA, service: bool = False, name: str | None = None,
          **extra) -> str:
    spec = {"name": NAME, "admissionReviewVersions": ["v1", "v1beta1"], "sideEffects": "None",
            "rules": [{"apiGroups": [NAME], "apiVersions": ["v1alpha1", "v1beta1"],
                       "operations": ["CREATE", "UPDATE"], "resources": ["pizzas"]}]}
    if service:
        spec["clientConfig"] = {"service": {"namespace": "pizza-crd", "name": "webhook", "path": path}}
    else:
        spec["clientConfig"] = {"url": f"https://127.0.0.1:{port}{path}"}
    spec["clientConfig"]["caBundle"] = base64.b64encode(ca.cert_pem.bytes()).decode()
    spec.update(extra)
    default_name = f"{kind.lower()}-{path.strip('/').replace('/', '-').replace(',', '-')}"
    return json.dumps({"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
                       "metadata": {"name": name or default_name},
                       "webhooks": [spec]})


def _configs(tmp_path: Path, *hooks: str) -> str:
    path = tmp_path / "webhooks.yaml"
    path.write_text("\n---\n".join(hooks), encoding="utf-8")
    return str(path)


def validate(*args: str):
    return CliRunner().invoke(cli, ["validate", "-c", str(CRD), *args])


def _stored(result) -> dict:
    out = json.loads(result.stdout)
    objects = [r for r in out["results"] if r.get("kind") == "Pizza"]
    assert len(objects) == 1, out
    return objects[0]


# ---------------------------------------------------------------- the chapter's flow


def test_the_margherita_with_an_unknown_topping_is_refused(tmp_path, ca, fresh) -> None:
    configs = _configs(tmp_path, _hook("MutatingWebhookConfiguration", "/admit/mutate", port=fresh.port, ca=ca),
                       _hook("ValidatingWebhookConfiguration", "/admit/validate/mozzarella,salami",
                             port=fresh.port, ca=ca))
    result = validate("--admission", configs, str(MARGHERITA), "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'Error from server: error when creating "{MARGHERITA}": admission webhook '
                             f'"{NAME}" denied the request: topping "tomato" not known\n')
    assert [r["path"].split("?")[0] for r in fresh.requests] == ["/admit/mutate",
                                                                 "/admit/validate/mozzarella,salami"]


def test_a_pizza_without_toppings_is_stored_with_the_defaulted_ones(tmp_path, ca, fresh) -> None:
    """Configurations among the inputs are used; the service reference is served locally."""
    configs = _configs(tmp_path, _hook("MutatingWebhookConfiguration", "/admit/mutate", port=fresh.port, ca=ca,
                                       service=True),
                       _hook("ValidatingWebhookConfiguration", "/admit/validate", port=fresh.port, ca=ca,
                             service=True))
    result = validate(configs, str(PLAIN), "--format", "json",
                      "--webhook-service", f"pizza-crd/webhook=https://127.0.0.1:{fresh.port}")
    assert result.exit_code == 0, result.output
    assert _stored(result)["object"]["spec"] == {"toppings": ["tomato", "mozzarella", "salami"]}
    mutate, check = fresh.requests
    sent = mutate["review"]
    assert mutate["path"] == "/admit/mutate?timeout=10s"
    assert sent["kind"] == "AdmissionReview" and sent["apiVersion"] == "admission.k8s.io/v1"
    request = sent["request"]
    assert request["operation"] == "CREATE" and request["dryRun"] is True
    assert request["resource"] == {"group": NAME, "version": "v1alpha1", "resource": "pizzas"}
    assert request["namespace"] == "pizzeria" and request["name"] == "plain"
    # the validating webhook sees the mutated object
    assert check["review"]["request"]["object"]["spec"]["toppings"] == ["tomato", "mozzarella", "salami"]


def test_the_chapters_configurations_with_the_fixture_server(ca, fresh) -> None:
    result = validate("--admission", str(FIXTURES / "configurations.yaml"), str(PLAIN), "--format", "json",
                      "--webhook-service", f"pizza-crd/webhook=https://127.0.0.1:{fresh.port}",
                      "--ca-bundle", _ca_file(ca))
    assert result.exit_code == 0, result.output
    assert _stored(result)["object"]["spec"]["toppings"] == ["tomato", "mozzarella", "salami"]


def _ca_file(ca: trustme.CA) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("wb", suffix=".pem", delete=False) as f:
        f.write(ca.cert_pem.bytes())
    return f.name


def test_a_service_without_a_local_address_is_said_loudly(tmp_path, ca) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/admit/validate", port=1, ca=ca,
                                       service=True, timeoutSeconds=2))
    result = validate("--admission", configs, str(PLAIN), "--format", "kubectl")
    assert result.exit_code == 1
    assert "which no --webhook-service maps to a local address" in result.stderr
    assert (f'Error from server (InternalError): error when creating "{PLAIN}": Internal error occurred: failed '
            f'calling webhook "{NAME}": failed to call webhook: Post '
            f'"https://webhook.pizza-crd.svc:443/admit/validate?timeout=2s": ') in result.stderr


# ---------------------------------------------------------------- failure modes


def _one(tmp_path, ca, server, kind: str, behaviour: str, *args: str, **extra):
    configs = _configs(tmp_path, _hook(kind, f"/x/{behaviour}", port=server.port, ca=ca, **extra))
    return validate("--admission", configs, str(PLAIN), "--format", "kubectl", *args)


def _internal(server, behaviour: str, reason: str) -> str:
    return (f'Error from server (InternalError): error when creating "{PLAIN}": Internal error occurred: '
            f'failed calling webhook "{NAME}": {reason}\n')


@pytest.mark.parametrize("kind", ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"])
def test_a_wrong_uid(tmp_path, ca, server, kind) -> None:
    result = _one(tmp_path, ca, server, kind, "bad-uid")
    assert result.exit_code == 1
    uid = server.requests[-1]["review"]["request"]["uid"]
    assert result.stderr == _internal(server, "bad-uid", "received invalid webhook response: expected "
                                      f'response.uid="{uid}", got "not-the-uid"')


def test_an_answer_without_kind(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "no-kind")
    assert result.stderr == _internal(server, "no-kind", "received invalid webhook response: expected webhook "
                                      "response of admission.k8s.io/v1, Kind=AdmissionReview, got "
                                      "admission.k8s.io/v1, Kind=")


def test_unreachable(tmp_path, ca) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x", port=1, ca=ca))
    result = validate("--admission", configs, str(PLAIN), "--format", "kubectl")
    assert result.exit_code == 1
    assert result.stderr == (f'Error from server (InternalError): error when creating "{PLAIN}": Internal error '
                             f'occurred: failed calling webhook "{NAME}": failed to call webhook: Post '
                             '"https://127.0.0.1:1/x?timeout=10s": dial tcp 127.0.0.1:1: connect: connection '
                             "refused\n")


def test_unreachable_with_failure_policy_ignore_passes_and_says_so(tmp_path, ca) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x", port=1, ca=ca,
                                       failurePolicy="Ignore"))
    result = validate("--admission", configs, str(PLAIN))
    assert result.exit_code == 0, result.output
    assert "failurePolicy Ignore" in result.stdout and "connection refused" in result.stdout


def test_timeout(tmp_path, ca, server) -> None:
    start = time.monotonic()
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "slow", timeoutSeconds=1)
    assert time.monotonic() - start < 4
    assert result.stderr == _internal(server, "slow", "failed to call webhook: Post "
                                      f'"https://127.0.0.1:{server.port}/x/slow?timeout=1s": context deadline '
                                      "exceeded")


def test_a_patch_that_does_not_apply(tmp_path, ca, server) -> None:
    # not a call failure: failurePolicy Ignore does not apply (mutating/dispatcher.go returns it as it is)
    result = _one(tmp_path, ca, server, "MutatingWebhookConfiguration", "invalid-patch", failurePolicy="Ignore")
    assert result.stderr == (f'Error from server (InternalError): error when creating "{PLAIN}": Internal error '
                             "occurred: error in remove for path: '/spec/cheese': Unable to remove nonexistent "
                             "key: cheese: missing value\n")


def test_an_undecodable_patch(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "MutatingWebhookConfiguration", "undecodable-patch")
    assert result.stderr == _internal(server, "", "received undecodable patch in webhook response: json: cannot "
                                      "unmarshal object into Go value of type jsonpatch.Patch")


def test_a_patch_without_its_type(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "MutatingWebhookConfiguration", "patch-without-type")
    assert result.stderr == _internal(server, "", "received invalid webhook response: webhook returned "
                                      "response.patch but not response.patchType")


def test_a_validating_webhook_may_not_patch(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "patch-without-type")
    assert result.stderr == _internal(server, "", "received invalid webhook response: validating webhook may "
                                      "not return response.patch")


def test_denial_with_a_status_code_and_reason(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "deny-with-code", "--format", "json")
    assert result.exit_code == 1
    found = _stored(result)
    assert found["status"] == f'admission webhook "{NAME}" denied the request: closed today'
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "deny-with-code")
    assert result.stderr == (f'Error from server (Forbidden): error when creating "{PLAIN}": admission webhook '
                             f'"{NAME}" denied the request: closed today\n')


def test_denial_without_a_status(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "MutatingWebhookConfiguration", "deny-bare")
    assert result.stderr == (f'Error from server: error when creating "{PLAIN}": admission webhook "{NAME}" '
                             "denied the request without explanation\n")


def test_warnings_are_kubectls(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "warn")
    assert result.exit_code == 0, result.output
    assert result.stderr == "Warning: the oven is cold\n"


def test_audit_annotations_are_in_the_json_output(tmp_path, ca, server) -> None:
    """A webhook's auditAnnotations go to the audit event under its name (mutating/dispatcher.go,
    validating/dispatcher.go), which only `--format json` shows."""
    result = _one(tmp_path, ca, server, "ValidatingWebhookConfiguration", "warn", "--format", "json")
    assert result.exit_code == 0, result.output
    assert _stored(result)["auditAnnotations"] == {f"{NAME}/oven": "cold"}


def test_a_webhook_with_side_effects_is_not_called_in_a_dry_run(tmp_path, ca, server) -> None:
    """Only a configuration stored with them keeps side effects (an update ratchets them); one created
    with them is refused, and not used."""
    server.requests.clear()
    hook = _hook("ValidatingWebhookConfiguration", "/x/warn", port=server.port, ca=ca, sideEffects="Some")
    stored = tmp_path / "stored.yaml"
    stored.write_text(hook, encoding="utf-8")
    configs = _configs(tmp_path, hook)
    result = validate(configs, str(PLAIN), "--old", str(stored), "--format", "kubectl")
    assert (f'Error from server (BadRequest): error when creating "{PLAIN}": admission webhook '
            f'"{NAME}" does not support dry run\n') in result.stderr
    assert server.requests == []
    created = validate(configs, str(PLAIN), "--format", "kubectl")
    assert "is not used: the apiserver refuses it" in created.stderr
    assert "does not support dry run" not in created.stderr


def test_what_a_webhook_adds_outside_the_schema_is_pruned_when_stored(tmp_path, ca, server) -> None:
    result = _one(tmp_path, ca, server, "MutatingWebhookConfiguration", "add-unknown-field", "--format", "json")
    assert result.exit_code == 1  # spec.toppings does not exist: the add to its end fails
    configs = _configs(tmp_path, _hook("MutatingWebhookConfiguration", "/admit/mutate", port=server.port, ca=ca),
                       _hook("MutatingWebhookConfiguration", "/x/add-unknown-field", port=server.port, ca=ca))
    result = validate("--admission", configs, str(PLAIN), "--format", "json")
    assert result.exit_code == 0, result.output
    assert _stored(result)["object"]["spec"] == {"toppings": ["tomato", "mozzarella", "salami", "basil"]}


# ---------------------------------------------------------------- matching


@pytest.mark.parametrize(("rules", "called"), [
    ({"resources": ["pizzas"]}, True),
    ({"resources": ["*"]}, True),
    ({"resources": ["pizzas/status"]}, False),
    ({"resources": ["pizzas/*"]}, True),  # "*" matches the main resource's empty subresource too
    ({"resources": ["toppings"]}, False),
    ({"operations": ["UPDATE"]}, False),
    ({"operations": ["*"]}, True),
    ({"apiGroups": ["*"]}, True),
    ({"apiGroups": [""]}, False),
    ({"scope": "Cluster"}, False),
    ({"scope": "Namespaced"}, True),
])
def test_rules(tmp_path, ca, fresh, rules, called) -> None:
    rule = {"apiGroups": [NAME], "apiVersions": ["v1alpha1"], "operations": ["CREATE"], "resources": ["pizzas"],
            **rules}
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       rules=[rule]))
    result = validate("--admission", configs, str(PLAIN))
    assert result.exit_code == 0, result.output
    assert bool(fresh.requests) is called


def test_match_policy_equivalent_without_a_reachable_conversion_webhook(tmp_path, ca, fresh) -> None:
    """Exact: not called. Equivalent: the object must be converted to v1beta1 by the CRD's conversion
    webhook, a service no --webhook-service maps here: crdtool cannot convert, does not call, says so
    (tests/cli/test_admission_builtin.py calls it through a reachable converter)."""
    rule = {"apiGroups": [NAME], "apiVersions": ["v1beta1"], "operations": ["CREATE"], "resources": ["pizzas"]}
    exact = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                     rules=[rule], matchPolicy="Exact"))
    assert validate("--admission", exact, str(PLAIN)).exit_code == 0
    assert fresh.requests == []
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD.read_text(encoding="utf-8").replace(
        "url: https://127.0.0.1:8443/convert", "service: {namespace: pizza-crd, name: converter}"), encoding="utf-8")
    equivalent = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                          rules=[rule]))
    result = CliRunner().invoke(cli, ["validate", "-c", str(crd), "--admission", equivalent, str(PLAIN)])
    assert result.exit_code == 0, result.output
    assert "crdtool cannot convert the object to that version" in result.stdout
    assert fresh.requests == []


@pytest.mark.parametrize(("selector", "called"), [
    ({"matchLabels": {"team": "kitchen"}}, True),
    ({"matchLabels": {"team": "bar"}}, False),
    ({"matchExpressions": [{"key": "team", "operator": "In", "values": ["kitchen", "bar"]}]}, True),
    ({"matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["kitchen"]}]}, False),
    ({"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]}, False),
    ({"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "Exists"}]}, True),
])
def test_namespace_selector_from_a_namespace_among_the_inputs(tmp_path, ca, fresh, selector, called) -> None:
    namespace = tmp_path / "namespace.yaml"
    namespace.write_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: pizzeria\n  labels:\n"
                         "    team: kitchen\n    kubernetes.io/metadata.name: pizzeria\n", encoding="utf-8")
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       namespaceSelector=selector))
    result = validate("--admission", configs, str(namespace), str(PLAIN))
    assert result.exit_code == 0, result.output
    assert bool(fresh.requests) is called


def test_namespace_labels_option(tmp_path, ca, fresh) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       namespaceSelector={"matchLabels": {"team": "kitchen"}}))
    assert validate("--admission", configs, str(PLAIN)).exit_code == 0
    assert fresh.requests == []
    assert validate("--admission", configs, str(PLAIN), "--namespace-labels", "pizzeria=team=kitchen").exit_code == 0
    assert len(fresh.requests) == 1


def test_object_selector(tmp_path, ca, fresh) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       objectSelector={"matchLabels": {"app": "pizza"}}))
    validate("--admission", configs, str(PLAIN))
    assert fresh.requests == []
    validate("--admission", configs, str(MARGHERITA))
    assert len(fresh.requests) == 1


@pytest.mark.parametrize(("expression", "called"), [
    ("object.metadata.name == 'plain'", True),
    ("object.metadata.name == 'margherita'", False),
    ("request.operation == 'CREATE' && oldObject == null", True),
])
def test_match_conditions(tmp_path, ca, fresh, expression, called) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       matchConditions=[{"name": "c", "expression": expression}]))
    result = validate("--admission", configs, str(PLAIN))
    assert result.exit_code == 0, result.output
    assert bool(fresh.requests) is called


def test_a_match_condition_error_fails_closed(tmp_path, ca, fresh) -> None:
    configs = _configs(tmp_path, _hook("ValidatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca,
                                       matchConditions=[{"name": "c", "expression": "object.spec.nothing == 1"}]))
    result = validate("--admission", configs, str(PLAIN), "--format", "kubectl")
    assert result.stderr == (f'Error from server (Forbidden): error when creating "{PLAIN}": pizzas.{NAME} "plain" '
                             "is forbidden: expression 'object.spec.nothing == 1' resulted in error: no such key: "
                             "nothing\n")
    assert fresh.requests == []


def test_reinvocation_if_needed(tmp_path, ca, fresh) -> None:
    """Configurations run in the order of their names; the first webhook is called again after the second
    changed the object (reinvocationPolicy IfNeeded), the second is not (Never, the default)."""
    first = _hook("MutatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca, name="a",
                  reinvocationPolicy="IfNeeded")
    second = _hook("MutatingWebhookConfiguration", "/admit/mutate", port=fresh.port, ca=ca, name="b")
    result = validate("--admission", _configs(tmp_path, second, first), str(PLAIN))
    assert result.exit_code == 0, result.output
    assert [r["path"].split("?")[0] for r in fresh.requests] == ["/x/warn", "/admit/mutate", "/x/warn"]
    fresh.requests.clear()
    never = _hook("MutatingWebhookConfiguration", "/x/warn", port=fresh.port, ca=ca, name="a")
    assert validate("--admission", _configs(tmp_path, second, never), str(PLAIN)).exit_code == 0
    assert [r["path"].split("?")[0] for r in fresh.requests] == ["/x/warn", "/admit/mutate"]


def test_bad_options_exit_2(tmp_path) -> None:
    assert validate("--webhook-service", "nonsense", str(PLAIN)).exit_code == 2
    assert validate("--namespace-labels", "pizzeria=team", str(PLAIN)).exit_code == 2
