"""`crdtool validate` with admission around built-in objects, and matchPolicy Equivalent with the CRD's
conversion: webhooks served here over HTTPS on 127.0.0.1 (tests/https_server.py, the CA of conftest).

What the apiserver does is k8s.io/apiserver pkg/admission/plugin/webhook/mutating/dispatcher.go
(a built-in object's patch decoded back into its Go type by a non-strict json serializer, then its
defaults), validating/dispatcher.go (every webhook called in parallel, one refusal answered),
pkg/admission/conversion.go (the object in the version a webhook matched), and
apiextensions-apiserver pkg/apiserver/conversion/converter.go (the CRD's converter).
"""

from __future__ import annotations

import base64
import copy
import json
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import trustme
from builtin_cases import deployment_yaml
from click.testing import CliRunner
from files import write_file
from https_server import HTTPSServer

from crdtool.cli import cli

REPO = Path(__file__).resolve().parents[2]
PIZZA_CRD = REPO / "fixtures" / "pizza" / "crd.yaml"
PLAIN = REPO / "fixtures" / "pizza-admission" / "plain-pizza.yaml"

DEPLOYMENT = deployment_yaml(metadata="  namespace: shop\n")


def _patch(ops: list) -> str:
    return base64.b64encode(json.dumps(ops).encode()).decode()


#: What the webhooks on each path answer, besides `allowed: true` (the path's last segment).
ANSWERS = {
    "mutate": {"patchType": "JSONPatch", "patch": _patch([
        {"op": "add", "path": "/metadata/labels", "value": {"team": "web"}},
        {"op": "replace", "path": "/spec/replicas", "value": 3},
        {"op": "remove", "path": "/spec/strategy"},  # defaulted again after the patch
        {"op": "add", "path": "/spec/notAField", "value": True},  # dropped by the Go type's decoding
    ])},
    "bad-type": {"patchType": "JSONPatch", "patch": _patch([{"op": "replace", "path": "/spec/replicas",
                                                             "value": "three"}])},
    "deny": {"allowed": False, "status": {"code": 403, "reason": "Forbidden", "message": "no deployments today"}},
    "deny-later": {"allowed": False, "status": {"code": 403, "reason": "Forbidden", "message": "closed"},
                   "warnings": ["the first webhook"]},
    "deny-sooner": {"allowed": False, "status": {"code": 403, "reason": "Forbidden", "message": "full"},
                    "warnings": ["the second webhook"]},
    "warn": {"warnings": ["seen"]},
    "double-toppings": {},  # answered by _double below
}


def _convert(review: dict) -> dict:
    """The pizza conversion webhook: v1alpha1 toppings are names, v1beta1 ones {name, quantity}."""
    request = review["request"]
    desired = request["desiredAPIVersion"]
    out = []
    for obj in request["objects"]:
        obj = copy.deepcopy(obj)
        toppings = (obj.get("spec") or {}).get("toppings")
        if toppings is not None:
            if desired.endswith("/v1beta1"):
                obj["spec"]["toppings"] = [{"name": t, "quantity": 1} for t in toppings]
            else:
                obj["spec"]["toppings"] = [t["name"] for t in toppings for _ in range(t["quantity"])]
        obj["apiVersion"] = desired
        out.append(obj)
    return {"apiVersion": review["apiVersion"], "kind": "ConversionReview",
            "response": {"uid": request["uid"], "convertedObjects": out, "result": {"status": "Success"}}}


def _double(review: dict) -> dict:
    """In v1beta1: every topping's quantity doubled, or tomato added when there are none."""
    toppings = review["request"]["object"]["spec"].get("toppings")
    if toppings:
        ops = [{"op": "replace", "path": f"/spec/toppings/{i}/quantity", "value": 2 * t["quantity"]}
               for i, t in enumerate(toppings)]
    else:
        ops = [{"op": "add", "path": "/spec/toppings", "value": [{"name": "tomato", "quantity": 2}]}]
    return {"patchType": "JSONPatch", "patch": _patch(ops)}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        name = self.path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        self.server.requests.append({"path": self.path.split("?")[0], "review": review, "at": time.monotonic()})
        if name == "convert":
            answer = _convert(review)
        else:
            if name == "deny-later":
                time.sleep(0.5)  # answers after the webhook configured after it
            response = {"uid": review["request"]["uid"], "allowed": True}
            response.update(_double(review) if name == "double-toppings" else ANSWERS[name])
            answer = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response}
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server(ca):
    running = HTTPSServer(_Handler, ca.issue_cert("127.0.0.1"))
    yield running
    running.close()


@pytest.fixture
def fresh(server):
    server.requests.clear()
    return server


def _bundle(ca: trustme.CA) -> str:
    return base64.b64encode(ca.cert_pem.bytes()).decode()


def _config(kind: str, name: str, path: str, port: int, ca: trustme.CA, rules: list[dict], **extra) -> dict:
    hook = {"name": f"{name}.example.com", "admissionReviewVersions": ["v1"], "sideEffects": "None",
            "clientConfig": {"url": f"https://127.0.0.1:{port}/{path}", "caBundle": _bundle(ca)}, "rules": rules,
            **extra}
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": {"name": name},
            "webhooks": [hook]}


DEPLOYMENTS = [{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]}]


def validate(*args: str):
    return CliRunner().invoke(cli, ["validate", *args])


def _result(result, kind: str) -> dict:
    found = [r for r in json.loads(result.stdout)["results"] if r["kind"] == kind]
    assert len(found) == 1, result.output
    return found[0]


# ---------------------------------------------------------------- built-in objects


def test_a_deployment_is_mutated_as_its_go_type_decodes_the_patch(tmp_path, ca, fresh) -> None:
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("MutatingWebhookConfiguration", "a-mutate", "mutate", fresh.port, ca, DEPLOYMENTS),
                         _config("ValidatingWebhookConfiguration", "b-warn", "warn", fresh.port, ca, DEPLOYMENTS))
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    result = validate("--admission", configs, deployment, "--format", "json")
    assert result.exit_code == 0, result.output
    stored = _result(result, "Deployment")
    assert stored["warnings"] == ["seen"]
    obj = stored["object"]
    assert obj["metadata"]["labels"] == {"team": "web"}
    assert obj["spec"]["replicas"] == 3
    assert "notAField" not in obj["spec"]  # unknown to the Go type: dropped, silently
    assert obj["spec"]["strategy"] == {"type": "RollingUpdate",
                                       "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}
    mutate, check = fresh.requests
    request = mutate["review"]["request"]
    assert request["kind"] == {"group": "apps", "version": "v1", "kind": "Deployment"}
    assert request["resource"] == {"group": "apps", "version": "v1", "resource": "deployments"}
    assert request["namespace"] == "shop" and request["name"] == "web" and "subResource" not in request
    sent = request["object"]
    # the defaulted object as json.Marshal writes its Go type: zero structs present, no creationTimestamp
    assert sent["spec"]["replicas"] == 1 and sent["spec"]["revisionHistoryLimit"] == 10
    assert sent["status"] == {} and sent["spec"]["template"]["spec"]["containers"][0]["resources"] == {}
    assert "creationTimestamp" not in sent["metadata"]
    assert "creationTimestamp" not in sent["spec"]["template"]["metadata"]
    # the validating webhook sees the mutated object, without the field the Go type does not have
    seen = check["review"]["request"]["object"]
    assert seen["spec"]["replicas"] == 3 and "notAField" not in seen["spec"]


def test_a_deployment_refused_by_a_validating_webhook(tmp_path, ca, fresh) -> None:
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("MutatingWebhookConfiguration", "a-mutate", "mutate", fresh.port, ca, DEPLOYMENTS),
                         _config("ValidatingWebhookConfiguration", "b-deny", "deny", fresh.port, ca, DEPLOYMENTS))
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    result = validate("--admission", configs, deployment, "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'Error from server (Forbidden): error when creating "{deployment}": admission webhook '
                             '"b-deny.example.com" denied the request: no deployments today\n')
    assert [r["path"] for r in fresh.requests] == ["/mutate", "/deny"]


def test_a_patch_the_go_type_cannot_hold_is_an_internal_error(tmp_path, ca, fresh) -> None:
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("MutatingWebhookConfiguration", "m", "bad-type", fresh.port, ca, DEPLOYMENTS))
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    result = validate("--admission", configs, deployment, "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'Error from server (InternalError): error when creating "{deployment}": Internal error '
                             "occurred: json: cannot unmarshal string into Go struct field "
                             "DeploymentSpec.spec.replicas of type int32\n")


def test_a_webhook_for_other_resources_is_not_called(tmp_path, ca, fresh) -> None:
    rules = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["configmaps"]}]
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("ValidatingWebhookConfiguration", "v", "deny", fresh.port, ca, rules))
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    assert validate("--admission", configs, deployment).exit_code == 0
    assert fresh.requests == []


def test_admission_configurations_are_never_sent_to_webhooks(tmp_path, ca, fresh) -> None:
    """IsExemptAdmissionConfigurationResource: a webhook matching everything is not called for the
    configurations among the inputs."""
    everything = [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["*"], "resources": ["*"]}]
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("ValidatingWebhookConfiguration", "v", "deny", fresh.port, ca, everything))
    result = validate(configs, "--format", "json")
    assert result.exit_code == 0, result.output
    assert fresh.requests == []


CONFIGMAP = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"},
             "data": {"mode": "open"}}


def _policy(reason: str | None = None) -> list[dict]:
    validation = {"expression": "object.data.mode != 'open'", "message": "the shop is closed"}
    if reason:
        validation["reason"] = reason
    return [
        {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
         "metadata": {"name": "no-open"},
         "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"],
                                                          "operations": ["CREATE"], "resources": ["configmaps"]}]},
                  "validations": [validation]}},
        {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
         "metadata": {"name": "no-open-binding"}, "spec": {"policyName": "no-open", "validationActions": ["Deny"]}},
    ]


def test_a_configmap_refused_by_a_validating_admission_policy(tmp_path) -> None:
    policy = write_file(tmp_path, "policy.yaml", *_policy("Forbidden"))
    configmap = write_file(tmp_path, "configmap.yaml", CONFIGMAP)
    result = validate("--admission", policy, configmap, "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'Error from server (Forbidden): error when creating "{configmap}": configmaps '
                             "\"settings\" is forbidden: ValidatingAdmissionPolicy 'no-open' with binding "
                             "'no-open-binding' denied request: the shop is closed\n")
    closed = write_file(tmp_path, "closed.yaml", {**CONFIGMAP, "data": {"mode": "closed"}})
    assert validate("--admission", policy, closed).exit_code == 0


def test_a_policy_over_a_built_in_kind_sees_the_object_as_its_go_type_is_written(tmp_path) -> None:
    """The Deployment's defaults are there for the policy's CEL (object is dyn: no schema needed)."""
    policy = _policy()
    policy[0]["spec"]["matchConstraints"]["resourceRules"] = DEPLOYMENTS
    policy[0]["spec"]["validations"] = [{"expression": "object.spec.replicas == 1 && object.status == {} && "
                                                       "object.spec.strategy.type == 'RollingUpdate'"}]
    path = write_file(tmp_path, "policy.yaml", *policy)
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    result = validate("--admission", path, deployment, "--format", "json")
    assert result.exit_code == 0, result.output
    policy[0]["spec"]["validations"] = [{"expression": "object.spec.replicas == 2"}]
    path = write_file(tmp_path, "policy.yaml", *policy)
    result = validate("--admission", path, deployment, "--format", "json")
    assert _result(result, "Deployment")["status"] == (
        "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'no-open' with binding 'no-open-binding' "
        "denied request: failed expression: object.spec.replicas == 2")


def test_a_built_in_object_invalid_in_itself_never_reaches_validating_admission(tmp_path, ca, fresh) -> None:
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("ValidatingWebhookConfiguration", "v", "warn", fresh.port, ca, DEPLOYMENTS))
    bad = write_file(tmp_path, "deployment.yaml",
                     DEPLOYMENT.replace("name: web\n  namespace", "name: Web\n  namespace"))
    result = validate("--admission", configs, bad, "--format", "json")
    assert result.exit_code == 1
    assert _result(result, "Deployment")["status"].startswith('Deployment.apps "Web" is invalid')
    assert fresh.requests == []


# ---------------------------------------------------------------- validating webhooks: which refusal


def test_every_validating_webhook_is_called_and_the_first_refusal_in_order_answers(tmp_path, ca, fresh) -> None:
    """The first configuration's webhook answers last; the apiserver would answer whichever refusal
    arrived first, crdtool always the first in the configurations' order."""
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("ValidatingWebhookConfiguration", "a", "deny-later", fresh.port, ca, DEPLOYMENTS),
                         _config("ValidatingWebhookConfiguration", "b", "deny-sooner", fresh.port, ca, DEPLOYMENTS))
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    start = time.monotonic()
    result = validate("--admission", configs, deployment, "--format", "json")
    assert time.monotonic() - start < 5
    found = _result(result, "Deployment")
    assert found["status"] == 'admission webhook "a.example.com" denied the request: closed'
    assert found["warnings"] == ["the first webhook", "the second webhook"]
    assert sorted(r["path"] for r in fresh.requests) == ["/deny-later", "/deny-sooner"]


def test_validating_webhooks_are_called_at_the_same_time(tmp_path, ca, fresh) -> None:
    configs = write_file(tmp_path, "hooks.yaml", *[
        _config("ValidatingWebhookConfiguration", name, "deny-later", fresh.port, ca, DEPLOYMENTS)
        for name in ("a", "b", "c")])
    deployment = write_file(tmp_path, "deployment.yaml", DEPLOYMENT)
    result = validate("--admission", configs, deployment, "--format", "json")
    assert _result(result, "Deployment")["status"] == 'admission webhook "a.example.com" denied the request: closed'
    arrivals = sorted(r["at"] for r in fresh.requests)
    assert len(arrivals) == 3
    assert arrivals[-1] - arrivals[0] < 0.45  # all three called before the first answered (each takes 0.5 s)


# ---------------------------------------------------------------- matchPolicy Equivalent


def _pizza_crd(tmp_path: Path, port: int, ca: trustme.CA, strategy: str = "Webhook") -> str:
    text = PIZZA_CRD.read_text(encoding="utf-8")
    if strategy == "Webhook":
        text = text.replace("url: https://127.0.0.1:8443/convert",
                            f"url: https://127.0.0.1:{port}/convert\n        caBundle: {_bundle(ca)}")
    else:
        text = text[:text.index("  conversion:")] + "  conversion:\n    strategy: None\n"
    path = tmp_path / "crd.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


V1BETA1 = [{"apiGroups": ["restaurant.programming-kubernetes.info"], "apiVersions": ["v1beta1"],
            "operations": ["CREATE"], "resources": ["pizzas"]}]


def test_a_webhook_matching_another_version_gets_the_object_converted_by_the_crds_webhook(tmp_path, ca, fresh):
    crd = _pizza_crd(tmp_path, fresh.port, ca)
    pizza = write_file(tmp_path, "pizza.yaml", {
        "apiVersion": "restaurant.programming-kubernetes.info/v1alpha1", "kind": "Pizza",
        "metadata": {"name": "margherita", "namespace": "pizzeria"}, "spec": {"toppings": ["tomato", "mozzarella"]}})
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("MutatingWebhookConfiguration", "double", "double-toppings", fresh.port, ca, V1BETA1),
                         _config("ValidatingWebhookConfiguration", "warn", "warn", fresh.port, ca, V1BETA1))
    result = validate("-c", crd, "--admission", configs, pizza, "--format", "json")
    assert result.exit_code == 0, result.output
    assert _result(result, "Pizza")["object"]["spec"]["toppings"] == ["tomato", "tomato", "mozzarella", "mozzarella"]
    paths = [r["path"] for r in fresh.requests]
    # to v1beta1 for the mutating webhook, its patch back to v1alpha1, to v1beta1 for the validating one
    assert paths == ["/convert", "/double-toppings", "/convert", "/convert", "/warn"]
    mutate = fresh.requests[1]["review"]["request"]
    assert mutate["kind"]["version"] == "v1beta1" and mutate["requestKind"]["version"] == "v1alpha1"
    assert mutate["object"]["spec"]["toppings"] == [{"name": "tomato", "quantity": 1},
                                                    {"name": "mozzarella", "quantity": 1}]
    check = fresh.requests[4]["review"]["request"]
    assert check["object"]["apiVersion"].endswith("/v1beta1")
    # converted again from the stored version (this converter writes each name as quantity 1)
    assert check["object"]["spec"]["toppings"] == [{"name": "tomato", "quantity": 1}] * 2 + [
        {"name": "mozzarella", "quantity": 1}] * 2


def test_equivalent_with_the_none_strategy(tmp_path, ca, fresh) -> None:
    crd = _pizza_crd(tmp_path, fresh.port, ca, strategy="None")
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("ValidatingWebhookConfiguration", "warn", "warn", fresh.port, ca, V1BETA1))
    result = validate("-c", crd, "--admission", configs, str(PLAIN), "--format", "json")
    assert result.exit_code == 0, result.output
    (call,) = fresh.requests
    assert call["review"]["request"]["object"]["apiVersion"] == "restaurant.programming-kubernetes.info/v1beta1"
    exact = write_file(tmp_path, "exact.yaml", _config("ValidatingWebhookConfiguration", "warn", "warn", fresh.port, ca,
                                                       V1BETA1, matchPolicy="Exact"))
    fresh.requests.clear()
    assert validate("-c", crd, "--admission", exact, str(PLAIN)).exit_code == 0
    assert fresh.requests == []


def test_a_conversion_that_fails_is_the_apiservers_internal_error(tmp_path, ca, fresh) -> None:
    """The mutating accessor wraps the converter's error in an internal error, and Dispatch once more."""
    crd = _pizza_crd(tmp_path, 1, ca)  # nothing listens on port 1
    configs = write_file(tmp_path, "hooks.yaml",
                         _config("MutatingWebhookConfiguration", "double", "double-toppings", fresh.port, ca, V1BETA1))
    result = validate("-c", crd, "--admission", configs, str(PLAIN), "--format", "json")
    assert result.exit_code == 1
    assert _result(result, "Pizza")["status"] == (
        "Internal error occurred: Internal error occurred: conversion webhook for "
        "restaurant.programming-kubernetes.info/v1alpha1, Kind=Pizza failed: Post "
        '"https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused')
    assert fresh.requests == []


def _pizza_policy(expression: str) -> list[dict]:
    policy = _policy()
    policy[0]["spec"]["matchConstraints"]["resourceRules"] = V1BETA1
    policy[0]["spec"]["validations"] = [{"expression": expression}]
    return policy


def test_a_policy_matching_another_version_sees_the_converted_object(tmp_path, ca, fresh) -> None:
    crd = _pizza_crd(tmp_path, fresh.port, ca, strategy="None")
    policy = write_file(tmp_path, "policy.yaml", *_pizza_policy("object.apiVersion.endsWith('/v1beta1')"))
    assert validate("-c", crd, "--admission", policy, str(PLAIN)).exit_code == 0
    policy = write_file(tmp_path, "policy.yaml", *_pizza_policy("object.apiVersion.endsWith('/v1alpha1')"))
    assert validate("-c", crd, "--admission", policy, str(PLAIN)).exit_code == 1


def test_a_policy_whose_conversion_fails_denies_as_a_configuration_error(tmp_path, ca) -> None:
    crd = _pizza_crd(tmp_path, 1, ca)  # nothing listens on port 1
    policy = write_file(tmp_path, "policy.yaml", *_pizza_policy("true"))
    result = validate("-c", crd, "--admission", policy, str(PLAIN), "--format", "json")
    assert result.exit_code == 1
    assert _result(result, "Pizza")["status"] == (
        'pizzas.restaurant.programming-kubernetes.info "plain" is forbidden: ValidatingAdmissionPolicy \'no-open\' '
        "with binding 'no-open-binding' denied request: failed to configure binding: failed to convert object "
        "version: conversion webhook for restaurant.programming-kubernetes.info/v1alpha1, Kind=Pizza failed: Post "
        '"https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused')
