"""`crdtool validate` of webhook configurations among its inputs: each is created as the apiserver
creates it (pkg/apis/admissionregistration/validation: ValidateValidatingWebhookConfiguration,
ValidateMutatingWebhookConfiguration and their Update variants with `--old`), so a configuration the
apiserver refuses is refused with its 422 and exit code 1, and the pizza example's are accepted
after their kind's whole validation."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

REPO = Path(__file__).resolve().parents[2]
PIZZA = REPO / "fixtures" / "pizza-admission" / "configurations.yaml"

BAD = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: toppings
webhooks:
- name: toppings
  admissionReviewVersions: [v2]
  timeoutSeconds: 60
  rules:
  - apiGroups: [restaurant.programming-kubernetes.info]
    apiVersions: [v1alpha1]
    operations: [CREATE, PATCH]
    resources: [pizzas]
  clientConfig:
    url: http://webhook.example.com/validate
  matchConditions:
  - name: not-deleted
    expression: "!has(object.metadata.deletionTimestamp) &&"
"""


def run(*args: str):
    return CliRunner().invoke(cli, ["validate", *args])


def test_a_bad_configuration_gets_the_apiservers_messages_and_exit_1(tmp_path) -> None:
    path = write_file(tmp_path, "webhooks.yaml", BAD)
    kubectl = run("--format", "kubectl", path)
    assert kubectl.exit_code == 1, kubectl.output
    assert kubectl.stderr == (
        'The ValidatingWebhookConfiguration "toppings" is invalid: \n'
        '* webhooks[0].name: Invalid value: "toppings": should be a domain with at least three segments separated '
        "by dots\n"
        '* webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", '
        '"CREATE", "DELETE", "UPDATE"\n'
        "* webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n"
        "* webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds\n"
        "* webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired "
        "format: https://host[/path]\n"
        '* webhooks[0].matchConditions[0].expression: Invalid value: "!has(object.metadata.deletionTimestamp) &&": '
        "compilation failed: ERROR: <input>:1:43: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', "
        "'.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
        " | !has(object.metadata.deletionTimestamp) &&\n"
        " | " + "." * 42 + "^\n"
        '* webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1\n')
    text = run("--no-color", path)
    assert text.exit_code == 1
    assert f"{path}:8:3: error: webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be " \
           "between 1 and 30 seconds" in text.output
    assert f"{path}:7:3: error: webhooks[0].admissionReviewVersions: Invalid value: [\"v2\"]" in text.output


def test_the_json_output_has_the_422_and_every_error(tmp_path) -> None:
    result = run("--format", "json", write_file(tmp_path, "webhooks.yaml", BAD))
    assert result.exit_code == 1
    [doc] = json.loads(result.stdout)["results"]
    assert (doc["valid"], doc["checks"]) == (False, "validation")
    assert doc["status"].startswith(
        'ValidatingWebhookConfiguration.admissionregistration.k8s.io "toppings" is invalid: [webhooks[0].name: ')
    assert [e["field"] for e in doc["errors"]] == [
        "webhooks[0].name", "webhooks[0].rules[0].operations[1]", "webhooks[0].sideEffects",
        "webhooks[0].timeoutSeconds", "webhooks[0].clientConfig.url", "webhooks[0].matchConditions[0].expression",
        "webhooks[0].admissionReviewVersions"]


def test_the_pizza_configurations_are_accepted_after_their_whole_validation() -> None:
    result = run("--format", "json", str(PIZZA))
    assert result.exit_code == 0, result.output
    docs = json.loads(result.stdout)["results"]
    assert [(d["kind"], d["valid"], d["checks"]) for d in docs] == [
        ("MutatingWebhookConfiguration", True, "validation"), ("ValidatingWebhookConfiguration", True, "validation")]
    mutating = docs[0]["object"]["webhooks"][0]
    assert (mutating["timeoutSeconds"], mutating["reinvocationPolicy"], mutating["matchPolicy"],
            mutating["clientConfig"]["service"]["port"], mutating["rules"][0]["scope"]) == (
        10, "Never", "Equivalent", 443, "*")
    assert "webhooks[0].timeoutSeconds" in docs[1]["defaulted"]


def test_a_mutating_configurations_own_fields_are_checked(tmp_path) -> None:
    text = PIZZA.read_text(encoding="utf-8").split("---")[0]
    text = text.replace("    failurePolicy: Fail\n", "    failurePolicy: Fail\n    reinvocationPolicy: Always\n")
    text = text.replace("        name: webhook\n", "        name: \"\"\n        port: 70000\n")
    result = run("--format", "kubectl", write_file(tmp_path, "webhooks.yaml", text))
    assert result.exit_code == 1
    assert result.stderr == (
        'The MutatingWebhookConfiguration "restaurant.programming-kubernetes.info" is invalid: \n'
        '* webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"\n'
        # ValidateWebhookService is handed the service's name as its namespace
        "* webhooks[0].clientConfig.service.namespace: Required value\n"
        "* webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and "
        "65535, inclusive\n")


def test_an_update_keeps_what_the_stored_configuration_allowed(tmp_path) -> None:
    """ValidateValidatingWebhookConfigurationUpdate: side effects the stored webhooks had stay allowed;
    a stored configuration without them makes them an error again."""
    new = write_file(tmp_path, "webhooks.yaml",
                     PIZZA.read_text(encoding="utf-8").replace("sideEffects: None", "sideEffects: Some"))
    old_with = write_file(tmp_path, "old-with.yaml",
                          PIZZA.read_text(encoding="utf-8").replace("sideEffects: None", "sideEffects: Unknown"))
    assert run("--format", "kubectl", "--old", old_with, new).exit_code == 0
    refused = run("--format", "kubectl", "--old", str(PIZZA), new)
    assert refused.exit_code == 1
    assert refused.stderr.count('webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", '
                                '"NoneOnDryRun"') == 2


def test_a_refused_configuration_among_the_inputs_is_answered_with_its_refusal(tmp_path) -> None:
    """As a refused ValidatingAdmissionPolicy among the inputs: the configuration's own answer is the
    apiserver's 422 (and the run exits 1), whatever its webhooks do to the other objects."""
    text = PIZZA.read_text(encoding="utf-8").split("---")[1]
    text = text.replace("failurePolicy: Fail", "failurePolicy: Ignore\n    timeoutSeconds: 0")
    reference = "      service:\n        namespace: pizza-crd\n        name: webhook\n        path: /admit/validate"
    text = text.replace(reference, "      url: https://127.0.0.1:1/admit/validate")
    configs = write_file(tmp_path, "webhooks.yaml", text)
    plain = REPO / "fixtures" / "pizza-admission" / "plain-pizza.yaml"
    result = run("--format", "json", "-c", str(REPO / "fixtures" / "pizza" / "crd.yaml"), configs, str(plain))
    assert result.exit_code == 1
    config, pizza = json.loads(result.stdout)["results"]
    assert config["status"] == ('ValidatingWebhookConfiguration.admissionregistration.k8s.io '
                                '"restaurant.programming-kubernetes.info" is invalid: webhooks[0].timeoutSeconds: '
                                "Invalid value: 0: the timeout value must be between 1 and 30 seconds")
    assert (pizza["kind"], pizza["valid"]) == ("Pizza", True)
