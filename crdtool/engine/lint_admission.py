"""`crdtool lint` of admission configurations: the apiserver's answer to creating (or updating) each
ValidatingAdmissionPolicy, MutatingAdmissionPolicy, their bindings, and each Validating or
MutatingWebhookConfiguration among the inputs.

These are built-in objects: their answer is the built-in handler's (apis.check, with the kinds'
validation of pkg/apis/admissionregistration/validation, CEL compile errors included), the same
one `crdtool validate` gives, so that lint and validate cannot disagree. A version of the group
that 1.36 does not serve (v1beta1, v1alpha1) gets kubectl's "no matches for kind" answer, as a
v1beta1 CustomResourceDefinition does.

A ValidatingAdmissionPolicy the apiserver stores is then type-checked as its status controller
checks it (admission.policy.typecheck), against the built-in kinds and the CRDs among the inputs:
the status.typeChecking warnings, never a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from crdtool.admission import CONFIGURATION_GROUP
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.groupversion import group_of

#: The kinds lint checks: admission policies, their bindings and webhook configurations.
ADMISSION_KINDS = frozenset({
    "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
    "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
})
#: What the text format's closing line counts them as.
NOUN = "admission configuration"


def is_admission_configuration(doc: Document) -> bool:
    """Whether a document is an admission policy, binding or webhook configuration of any version
    of admissionregistration.k8s.io."""
    return (isinstance(doc.kind, str) and doc.kind in ADMISSION_KINDS and isinstance(doc.api_version, str)
            and group_of(doc.api_version) == CONFIGURATION_GROUP)


def same_kind(doc: Document):
    """A test for the documents of `doc`'s kind: the stored objects an update of it may replace."""
    return lambda other: is_admission_configuration(other) and other.kind == doc.kind


def lint_configuration(doc: Document, old: Document | None = None, field_validation: str = "Strict") -> Result:
    """The apiserver's answer to `kubectl create` of this configuration (or an update over `old`)."""
    from crdtool.apis import check
    from crdtool.engine.builtin import builtin_lookup, no_kind_match
    from crdtool.engine.validate import Request

    found = builtin_lookup(doc)
    assert found is not None, "admissionregistration.k8s.io is a built-in group"
    if found.builtin is None:
        return no_kind_match(doc, found)
    result = check(doc, found.builtin, Request(field_validation=field_validation), old)
    result.replaces = old is not None
    return result


def lint_configurations(docs: Iterable[Document], old_docs: list[Document] | None = None,
                        field_validation: str = "Strict") -> list[Result]:
    """A Result for every admission configuration among the documents, in their order; with
    `old_docs` each is an update over the stored one of its kind and name (or the only one of its kind)."""
    from crdtool.engine.lint import find_old, is_crd

    docs = list(docs)
    cluster = PolicyCluster([d for d in docs if is_crd(d)])
    results = []
    for doc in docs:
        if not is_admission_configuration(doc):
            continue
        old = find_old(old_docs, doc, same_kind(doc)) if old_docs else None
        result = lint_configuration(doc, old, field_validation)
        cluster.type_check(result)
        results.append(result)
    return results


class PolicyCluster:
    """The cluster a stored ValidatingAdmissionPolicy is type-checked against: the built-in kinds and
    these CRDs (made when the first policy needs it)."""

    def __init__(self, crds: Iterable[Document]) -> None:
        self.crds = list(crds)
        self._cluster: Any = None

    def type_check(self, result: Result) -> None:
        """The status controller's type checking of the policy `result` is the answer for (when the
        apiserver stores it): the warnings in `result.type_checking`, what crdtool could not check in its notes."""
        doc = result.document
        if (not result.valid or doc.kind != "ValidatingAdmissionPolicy"
                or doc.api_version != f"{CONFIGURATION_GROUP}/v1" or not isinstance(doc.data, dict)):
            return
        from crdtool.admission.policy.kinds import Cluster
        from crdtool.admission.policy.typecheck import check

        if self._cluster is None:
            self._cluster = Cluster(d.data for d in self.crds)
        checked = check(doc.data, self._cluster)
        result.type_checking = checked.warnings
        result.notes.extend(checked.notes)
