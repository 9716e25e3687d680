"""The apiserver's runtime cost limits on admission CEL (k8s.io/apiserver pkg/apis/cel/config.go), which
crdtool bounds from both sides: a limit certainly passed is the apiserver's error (`operation cancelled:
actual cost limit exceeded` for one call, `validation failed due to running out of cost budget, ...` for
an evaluation's budget, under the policy's failurePolicy); one that lies between the bounds is named in a
note with them; a cheap policy gives none. Loops past the CEL engine's 10,000 iterations are evaluated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: menus.restaurant.example.com
spec:
  group: restaurant.example.com
  scope: Namespaced
  names: {plural: menus, singular: menu, kind: Menu}
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
              dishes: {type: array, items: {type: string}}
"""

RULES = """\
    resourceRules:
    - apiGroups: ["restaurant.example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["menus"]
"""

POLICY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: menu-rules
spec:
  failurePolicy: Fail
  matchConstraints:
""" + RULES + """\
  validations:
{validations}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: menu-rules-binding
spec:
  policyName: menu-rules
  validationActions: [Deny]
"""

UNIQUE = "object.spec.dishes.all(a, object.spec.dishes.exists_one(b, a == b))"
# A regular expression of 400 characters: each character of a dish costs 10 (cel-go's matches), so that
# long dishes take a call past its limit in few iterations, which crdtool still evaluates.
PATTERN = "^(" + "|".join(f"dish{i:03}" for i in range(50)) + "|[a-z ]+)$"
NAMES = f"object.spec.dishes.all(d, d.matches('{PATTERN}'))"


def files(tmp_path: Path, validations: list[str], dishes: list[str]) -> tuple[str, str, str]:
    crd, policy, menu = tmp_path / "crd.yaml", tmp_path / "policy.yaml", tmp_path / "menu.json"
    crd.write_text(CRD, encoding="utf-8")
    policy.write_text(POLICY.format(validations="\n".join(f"  - expression: {json.dumps(v)}" for v in validations)),
                      encoding="utf-8")
    menu.write_text(json.dumps({"apiVersion": "restaurant.example.com/v1", "kind": "Menu",
                                "metadata": {"name": "lunch", "namespace": "default"}, "spec": {"dishes": dishes}}),
                    encoding="utf-8")
    return str(crd), str(policy), str(menu)


def validate(*args: str):
    return CliRunner().invoke(cli, ["validate", "--no-color", *args])


def test_a_cheap_policy_gives_no_note(tmp_path: Path) -> None:
    crd, policy, menu = files(tmp_path, [UNIQUE, NAMES], ["soup", "salad", "pasta al forno"])
    res = validate("-c", crd, "--admission", policy, menu)
    assert res.exit_code == 0, res.output
    assert "note:" not in res.output


def kubectl(*args: str):
    return CliRunner().invoke(cli, ["validate", "--no-color", "--format", "kubectl", *args])


def denial(message: str) -> str:
    return ('menus.restaurant.example.com "lunch" is forbidden: ValidatingAdmissionPolicy \'menu-rules\' with '
            f"binding 'menu-rules-binding' denied request: {message}")


@pytest.mark.parametrize("failure_policy", ["Fail", "Ignore"])
def test_a_call_certainly_past_its_limit_is_cancelled_as_the_apiserver_cancels_it(tmp_path: Path,
                                                                                   failure_policy: str) -> None:
    crd, policy, menu = files(tmp_path, [UNIQUE], [f"dish {i}" for i in range(600)])
    Path(policy).write_text(Path(policy).read_text().replace("failurePolicy: Fail", f"failurePolicy: {failure_policy}"))
    res, shown = validate("-c", crd, "--admission", policy, menu), kubectl("-c", crd, "--admission", policy, menu)
    assert "note:" not in res.output + shown.output
    if failure_policy == "Ignore":
        assert res.exit_code == shown.exit_code == 0, res.output
        return
    assert res.exit_code == shown.exit_code == 1, res.output
    message = denial(f"expression '{UNIQUE}' resulted in error: operation cancelled: actual cost limit exceeded")
    assert f"{menu}:1:1: error: {message}\n" in res.output
    assert shown.output == f'The menus "lunch" is invalid: : {message.split(" is forbidden: ")[1]}\n'


def test_a_call_perhaps_past_its_limit_is_named_with_crdtools_bounds(tmp_path: Path) -> None:
    crd, policy, menu = files(tmp_path, [UNIQUE], [f"dish {i}" for i in range(500)])
    res = validate("-c", crd, "--admission", policy, menu)
    assert res.exit_code == 0, res.output
    note = next(line for line in res.output.splitlines() if "per-call limit" in line)
    lower, upper = (int(n.replace(",", "")) for n in note.split(" between ")[1].split(" (")[0].split(" and "))
    assert lower == 500 * 500 * 3 + 500 * 2 <= 1_000_000 < upper  # every pair of dishes
    assert note == (
        "note: not checked: ValidatingAdmissionPolicy 'menu-rules' with binding 'menu-rules-binding': crdtool bounds "
        f"the cost of validation '{UNIQUE}' over this request between {lower:,} and {upper:,} (it cannot count "
        "cel-go's actual cost exactly): the apiserver's per-call limit of 1,000,000 lies between the two, so whether "
        "the apiserver would stop it with 'operation cancelled: actual cost limit exceeded' is unknown")


def test_crdtools_answer_stands_beside_the_note(tmp_path: Path) -> None:
    long_dishes = ["pasta " * 500 + "x"] * 50 + ["Soup"]
    crd, policy, menu = files(tmp_path, [NAMES], long_dishes)
    res = validate("--format", "kubectl", "-c", crd, "--admission", policy, menu)
    assert res.exit_code == 1, res.output
    assert "denied request: failed expression: " + NAMES in res.output
    assert ("crdtool: note: not checked: ValidatingAdmissionPolicy 'menu-rules' with binding 'menu-rules-binding': "
            f"crdtool bounds the cost of validation '{NAMES}' over this request between 0 and ") in res.stderr


# 12,000 iterations, each certainly costing 73 in cel-go's units: 876,000 a call (its estimate within the
# per-call limit too), 12 calls past the budget of 10,000,000.
COSTLY = "object.spec.dishes.exists_one(d, [{'a': d}, {'b': d}].size() == 0) == false"


@pytest.mark.parametrize("failure_policy", ["Fail", "Ignore"])
def test_a_budget_certainly_spent_stops_the_policy(tmp_path: Path, failure_policy: str) -> None:
    crd, policy, menu = files(tmp_path, [COSTLY] * 12 + ["false"], [f"d{i}" for i in range(12_000)])
    Path(policy).write_text(Path(policy).read_text().replace("failurePolicy: Fail", f"failurePolicy: {failure_policy}"))
    res, shown = validate("-c", crd, "--admission", policy, menu), kubectl("-c", crd, "--admission", policy, menu)
    assert "note:" not in res.output + shown.output
    if failure_policy == "Ignore":  # the validations' one decision: admit (the `false` is never reached)
        assert res.exit_code == shown.exit_code == 0, res.output
        return
    assert res.exit_code == shown.exit_code == 1, res.output
    message = denial("validation failed due to running out of cost budget, no further validation rules will be run")
    assert f"{menu}:1:1: error: {message}\n" in res.output
    assert shown.output == f'The menus "lunch" is invalid: : {message.split(" is forbidden: ")[1]}\n'


def test_expressions_within_their_limits_may_still_exceed_the_policys_budget(tmp_path: Path) -> None:
    dishes = ["pasta " * 100 + "x"] * 100  # 60,000 characters: about 600,000 per validation
    crd, policy, menu = files(tmp_path, [NAMES] * 20, dishes)
    res = validate("-c", crd, "--admission", policy, menu)
    assert res.exit_code == 0, res.output
    notes = [line for line in res.output.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, notes
    assert notes[0].startswith("note: not checked: ValidatingAdmissionPolicy 'menu-rules' with binding "
                               "'menu-rules-binding': crdtool bounds the cost of its validations over this request "
                               "between 0 and ")
    assert notes[0].endswith(" (it cannot count cel-go's actual cost exactly): the apiserver's runtime budget of "
                             "10,000,000 for them lies between the two, so whether the apiserver would stop with "
                             "'validation failed due to running out of cost budget, no further validation rules will "
                             "be run' is unknown")


@pytest.mark.parametrize(("validation", "code"), [
    ("object.spec.dishes.all(d, d != 'd11999')", 1), ("object.spec.dishes.all(d, d != 'x')", 0)])
def test_loops_past_the_engines_10000_iterations_are_evaluated(tmp_path: Path, validation: str, code: int) -> None:
    crd, policy, menu = files(tmp_path, [validation], [f"d{i}" for i in range(12_000)])
    res = validate("-c", crd, "--admission", policy, menu)
    assert res.exit_code == code, res.output
    assert "note:" not in res.output
    assert (denial(f"failed expression: {validation}") in res.output) is bool(code)


WEBHOOK = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: menus.restaurant.example.com
webhooks:
- name: menus.restaurant.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  failurePolicy: Fail
  rules:
  - apiGroups: ["restaurant.example.com"]
    apiVersions: ["v1"]
    operations: ["CREATE"]
    resources: ["menus"]
  clientConfig:
    url: https://127.0.0.1:9/validate
  matchConditions:
  - name: only-named-dishes
    expression: {expression}
"""


@pytest.mark.parametrize(("length", "noted"), [(5, False), (1000, True)])
def test_webhook_match_conditions_have_a_budget_of_their_own(tmp_path: Path, length: int, noted: bool) -> None:
    condition = NAMES.replace(".all(d, d.", ".exists(d, !d.")  # false: the webhook is not called
    crd, _, menu = files(tmp_path, [], ["pasta " * length + "x"] * 50)
    hooks = tmp_path / "webhooks.yaml"
    hooks.write_text(WEBHOOK.format(expression=json.dumps(condition)), encoding="utf-8")
    res = validate("-c", crd, "--admission", str(hooks), menu)
    assert res.exit_code == 0, res.output
    assert ("runtime budget of 2,500,000 for them" in res.output) is noted
    if noted:
        assert f"note: not checked: {hooks}: webhook \"menus.restaurant.example.com\": crdtool bounds the cost of " \
               "its matchConditions over this request between 0 and " in res.output


def test_webhook_match_conditions_certainly_past_their_budget_refuse_under_fail(tmp_path: Path) -> None:
    crd, _, menu = files(tmp_path, [], [f"d{i}" for i in range(12_000)])
    hooks = tmp_path / "webhooks.yaml"
    text = WEBHOOK.format(expression=json.dumps(COSTLY))
    hooks.write_text(text + "".join(f"  - name: c{i}\n    expression: {json.dumps(COSTLY)}\n" for i in range(2)),
                     encoding="utf-8")
    res = validate("-c", crd, "--admission", str(hooks), menu)
    assert res.exit_code == 1, res.output
    assert (f'{menu}:1:1: error: menus.restaurant.example.com "lunch" is forbidden: validation failed due to running '
            "out of cost budget, no further validation rules will be run\n") in res.output


MUTATING = """\
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: tag-dishes
spec:
  matchConstraints:
""" + RULES + """\
  failurePolicy: Fail
  reinvocationPolicy: Never
  variables:
  - name: plain
    expression: {variable}
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        variables.plain ? [] : [JSONPatch{{op: "add", path: "/metadata/labels", value: {{"plain": "no"}}}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: tag-dishes-binding
spec:
  policyName: tag-dishes
"""


@pytest.mark.parametrize(("length", "noted"), [(5, False), (1000, True)])
def test_a_mutation_and_the_variables_it_reads_have_a_budget_of_their_own(tmp_path: Path, length: int,
                                                                          noted: bool) -> None:
    crd, _, menu = files(tmp_path, [], ["pasta " * length + "x"] * 50)
    policy = tmp_path / "mutating.yaml"
    policy.write_text(MUTATING.format(variable=json.dumps(NAMES)), encoding="utf-8")
    res = validate("-c", crd, "--admission", str(policy), menu)
    assert res.exit_code == 0, res.output
    assert (f"note: not checked: MutatingAdmissionPolicy 'tag-dishes' with binding 'tag-dishes-binding': crdtool "
            f"bounds the cost of variable \"plain\" '{NAMES}' over this request between 0 and " in res.output) is noted
