"""Which documents lint checks as admission configurations, and which stored one an update replaces."""

from __future__ import annotations

from crdtool.engine.lint import find_old
from crdtool.engine.lint_admission import is_admission_configuration, lint_configurations, same_kind
from crdtool.load import read_source

BINDING = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: {name}
spec:
  policyName: {policy}
  validationActions: [Deny]
"""


def docs(text: str):
    return read_source("in.yaml", text)


def test_the_group_and_kind_decide_not_the_version() -> None:
    inputs = docs(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n---\n"
        "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicy\n---\n"
        "apiVersion: example.com/v1\nkind: ValidatingAdmissionPolicy\n---\n"
        "apiVersion: admissionregistration.k8s.io/v1\nkind: CustomResourceDefinition\n---\n"
        "apiVersion: admissionregistration.k8s.io/v1\nkind: {a: b}\n")  # a kind that is no string
    assert [is_admission_configuration(d) for d in inputs] == [True, True, False, False, False]


def test_an_update_replaces_the_stored_object_of_its_kind_and_name() -> None:
    [new] = docs(BINDING.format(name="b", policy="p"))
    [other, same] = docs(BINDING.format(name="a", policy="p") + "---\n" + BINDING.format(name="b", policy="q"))
    assert find_old([other, same], new, same_kind(new)) is same
    assert find_old([other], new, same_kind(new)) is other  # the only one of its kind: a rename
    [policy] = docs("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
                    "metadata:\n  name: b\n")
    assert find_old([policy], new, same_kind(new)) is None  # another kind is never the stored object


def test_results_follow_the_documents_and_pass_over_the_rest() -> None:
    inputs = docs(BINDING.format(name="one", policy="p") + "---\napiVersion: v1\nkind: ConfigMap\n---\n"
                  + BINDING.format(name="two", policy=""))
    results = lint_configurations(inputs)
    assert [(r.name, r.valid) for r in results] == [("one", True), ("two", False)]
    assert [e.field for e in results[1].errors] == ["spec.policyName"]
