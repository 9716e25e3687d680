"""`crdtool validate` with admission, where what admission sees or uses follows the apiserver's store
and handlers (k8s.io/apiserver pkg/registry/generic/registry/store.go, pkg/registry/rest
create.go/update.go, pkg/endpoints/handlers/create.go; apiextensions-apiserver
pkg/registry/customresource/strategy.go; pkg/admission/plugin/webhook/matchconditions)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

CRD = """\
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
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
          status: {type: object, properties: {ready: {type: boolean}}}
"""

RULES = ('[{"apiGroups": ["example.com"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], '
         '"resources": ["widgets"]}]')

#: A policy that refuses every widget, saying what it saw.
SEEN = f"""\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: seen}}
spec:
  matchConstraints: {{resourceRules: {RULES}}}
  validations:
  - expression: "false"
    messageExpression: >-
      'status: ' + (has(object.status) ? string(object.status.ready) : 'none') +
      ', generation: ' + string(object.metadata.generation) +
      ', managedFields: ' + string(has(object.metadata.managedFields))
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {{name: seen}}
spec: {{policyName: seen, validationActions: [Deny]}}
"""


def widget(size: int, ready: bool, generation: int | None = None) -> str:
    meta = {"name": "w", "namespace": "default"}
    if generation is not None:
        meta["generation"] = generation
    return json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta,
                       "spec": {"size": size}, "status": {"ready": ready}})


def validate(tmp_path: Path, *args: str):
    return CliRunner().invoke(cli, ["validate", "-c", write_file(tmp_path, "crd.yaml", CRD), *args])


def denial(result) -> str:
    (line,) = [line for line in result.stderr.splitlines() if "denied request" in line]
    return line.rpartition("denied request: ")[2]


# ---------------------------------------------------------------- 1. the object the strategy prepared


def test_validating_admission_sees_a_created_custom_resource_as_prepared(tmp_path: Path) -> None:
    """store.go: BeforeCreate (PrepareForCreate: status dropped with the status subresource,
    generation 1) comes before createValidation, the validating plugins."""
    result = validate(tmp_path, "--admission", write_file(tmp_path, "p.yaml", SEEN),
                      write_file(tmp_path, "w.yaml", widget(2, True)), "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert denial(result) == "status: none, generation: 1, managedFields: false"


def test_validating_admission_sees_an_updated_custom_resource_as_prepared(tmp_path: Path) -> None:
    """BeforeUpdate gives the stored generation, PrepareForUpdate keeps the stored status and adds
    one to the generation when anything but metadata changed."""
    policy = write_file(tmp_path, "p.yaml", SEEN)
    old = write_file(tmp_path, "old.yaml", widget(1, False, generation=4))
    changed = validate(tmp_path, "--admission", policy, "--old", old, write_file(tmp_path, "w.yaml", widget(2, True)),
                       "--format", "kubectl")
    assert denial(changed) == "status: false, generation: 5, managedFields: false"
    # only the status differs, and the stored one is kept: nothing changed
    same = validate(tmp_path, "--admission", policy, "--old", old, write_file(tmp_path, "s.yaml", widget(1, True)),
                    "--format", "kubectl")
    assert denial(same) == "status: false, generation: 4, managedFields: false"


# ---------------------------------------------------------------- 3. refused configurations are not used


REFUSED_WEBHOOK = f"""\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: zero}}
webhooks:
- name: zero.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  timeoutSeconds: 0
  clientConfig: {{url: "https://127.0.0.1:1/refuse"}}
  rules: {RULES}
"""

REFUSED_POLICY = f"""\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: refuses}}
spec:
  matchConstraints: {{resourceRules: {RULES}}}
  validations:
  - expression: "false"
  - expression: "object.spec.size <= "
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {{name: refuses}}
spec: {{policyName: refuses, validationActions: [Deny]}}
"""


def test_a_webhook_configuration_the_apiserver_refuses_is_not_called(tmp_path: Path) -> None:
    configuration = write_file(tmp_path, "hooks.yaml", REFUSED_WEBHOOK)
    result = validate(tmp_path, "--no-color", configuration, write_file(tmp_path, "w.yaml", widget(2, True)))
    assert result.exit_code == 1, result.output  # the configuration's own 422
    assert "webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds" \
        in result.output
    assert "ok " in result.output and ": Widget w" in result.output
    assert f'note: {configuration}: ValidatingWebhookConfiguration "zero" is not used: the apiserver refuses it ' \
           "(its errors are among the results), so it does not exist to admit or refuse anything" in result.output


def test_a_refused_configuration_named_apart_is_not_used_and_says_why(tmp_path: Path) -> None:
    configuration = write_file(tmp_path, "hooks.yaml", REFUSED_WEBHOOK)
    result = validate(tmp_path, "--admission", configuration, write_file(tmp_path, "w.yaml", widget(2, True)),
                      "--format", "kubectl")
    assert result.exit_code == 0, result.output
    assert result.stdout == "widget.example.com/w created (server dry run)\n"
    assert (f'crdtool: note: {configuration}: ValidatingWebhookConfiguration "zero" is not used: the apiserver '
            'refuses it (ValidatingWebhookConfiguration.admissionregistration.k8s.io "zero" is invalid: '
            "webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds), "
            "so it does not exist to admit or refuse anything\n") == result.stderr


def test_a_refused_policy_does_not_refuse_and_its_binding_still_is_created(tmp_path: Path) -> None:
    policies = write_file(tmp_path, "policies.yaml", REFUSED_POLICY)
    result = validate(tmp_path, "--admission", policies, write_file(tmp_path, "w.yaml", widget(2, True)),
                      "--format", "kubectl")
    assert result.exit_code == 0, result.output
    assert 'ValidatingAdmissionPolicy "refuses" is not used' in result.stderr
    assert "ValidatingAdmissionPolicyBinding" not in result.stderr  # a binding to no policy is a valid one


# ---------------------------------------------------------------- 4. the authorizer in a webhook's matchConditions


def test_a_webhook_whose_match_condition_reads_the_authorizer_is_not_called_and_not_checked(tmp_path: Path) -> None:
    expression = "authorizer.group('example.com').resource('widgets').check('approve').allowed()"
    hooks = REFUSED_WEBHOOK.replace("timeoutSeconds: 0", "failurePolicy: Fail\n  matchConditions:\n"
                                    f'  - {{name: approvers, expression: "{expression}"}}')
    configuration = write_file(tmp_path, "hooks.yaml", hooks)
    result = validate(tmp_path, "--admission", configuration, write_file(tmp_path, "w.yaml", widget(2, True)),
                      "--format", "kubectl")
    assert result.exit_code == 0, result.output  # the unreachable webhook was not called
    assert result.stderr == (f'crdtool: note: {configuration}: not checked: webhook "zero.example.com": '
                             f"matchCondition '{expression}' reads the authorizer, which crdtool cannot consult "
                             "without a cluster, so crdtool did not call it\n")


# ---------------------------------------------------------------- 5. the stored objects as kubectl reads them


def test_an_old_list_whose_items_are_not_a_list_is_unreadable(tmp_path: Path) -> None:
    old = write_file(tmp_path, "list.yaml", "apiVersion: v1\nkind: List\nitems: 5\n")
    result = validate(tmp_path, "--old", old, write_file(tmp_path, "w.yaml", widget(2, True)))
    assert result.exit_code == 2, result.output
    assert (f'{old}:3:1: error: unable to decode "{old}": json: cannot unmarshal number into Go struct field '
            "decodeList.items of type []json.RawMessage") in result.stderr


def test_an_input_list_whose_items_are_not_a_list_is_kubectls_decoding_error(tmp_path: Path) -> None:
    path = write_file(tmp_path, "list.yaml", 'apiVersion: v1\nkind: List\nitems: {"a": 1}\n')
    result = validate(tmp_path, path, "--format", "kubectl")
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'error: unable to decode "{path}": json: cannot unmarshal object into Go struct '
                             "field decodeList.items of type []json.RawMessage\n")


def test_a_stored_object_of_another_kind_is_not_the_one_an_update_replaces(tmp_path: Path) -> None:
    """The only stored object is the old one of the object of its kind, not of a ConfigMap beside it."""
    config_map = write_file(tmp_path, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: "
                                                 "default}\n")
    old = write_file(tmp_path, "old.yaml", widget(1, False))
    result = validate(tmp_path, "--old", old, config_map, write_file(tmp_path, "w.yaml", widget(2, True)),
                      "--format", "json")
    assert result.exit_code == 0, result.output


def test_the_json_format_carries_the_runs_notes(tmp_path: Path) -> None:
    """What crdtool could not do as the apiserver would is in every format, JSON included."""
    configuration = write_file(tmp_path, "hooks.yaml", REFUSED_WEBHOOK)
    result = validate(tmp_path, "--admission", configuration, write_file(tmp_path, "w.yaml", widget(2, True)),
                      "--format", "json")
    assert result.exit_code == 0, result.output
    (note,) = json.loads(result.stdout)["notes"]
    assert note.startswith(f'{configuration}: ValidatingWebhookConfiguration "zero" is not used: the apiserver ')
