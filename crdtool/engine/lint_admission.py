"""`crdtool lint` of admission configurations: the apiserver's answer to creating (or updating) each
ValidatingAdmissionPolicy, MutatingAdmissionPolicy, their bindings, and each Validating or
MutatingWebhookConfiguration among the inputs.

These are built-in objects: their answer is the built-in handler's (apis.check, with the kinds'
validation of pkg/apis/admissionregistration/validation, CEL compile errors included), the same
one `crdtool validate` gives, so that lint and validate cannot disagree. A version of the group
that 1.36 does not serve (v1beta1, v1alpha1) gets kubectl's "no matches for kind" answer, as a
v1beta1 CustomResourceDefinition does.
"""

from __future__ import annotations

from collections.abc import Iterable

from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.groupversion import group_of

ADMISSION_GROUP = "admissionregistration.k8s.io"
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
            and group_of(doc.api_version) == ADMISSION_GROUP)


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
    from crdtool.engine.lint import find_old

    results = []
    for doc in docs:
        if not is_admission_configuration(doc):
            continue
        old = find_old(old_docs, doc, same_kind(doc)) if old_docs else None
        results.append(lint_configuration(doc, old, field_validation))
    return results
