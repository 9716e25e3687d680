"""Kinds the apiserver serves itself: which documents are built-in objects, and kubectl's answer for
a built-in group's kind or version that a 1.36 apiserver does not serve (`apiVersion: v1, kind:
configmap`, `extensions/v1beta1` Deployment), decided by the 1.36 discovery (model.discovery)."""

from __future__ import annotations

from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.discovery import KindLookup, Status, lookup_kind
from crdtool.model.findings import Finding
from crdtool.model.path import Path


def builtin_lookup(doc: Document) -> KindLookup | None:
    """What discovery says of a document of a built-in group; None for a custom resource (and for a
    document without a usable apiVersion or kind, which the custom-resource path answers)."""
    if not isinstance(doc.api_version, str) or not isinstance(doc.kind, str):
        return None
    found = lookup_kind(doc.api_version, doc.kind)
    return found if found.is_builtin else None


def is_builtin(doc: Document) -> bool:
    """Whether the document's apiVersion belongs to a group kube-apiserver serves without any CRD."""
    return builtin_lookup(doc) is not None


def no_kind_match(doc: Document, found: KindLookup) -> Result:
    """kubectl's refusal of a built-in group's kind that 1.36 does not serve: its RESTMapper finds no
    resource, so nothing reaches the apiserver. A finding says what the document probably meant."""
    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version, status_kind=doc.kind)
    result.status = found.message()
    result.reason = "NotFound"
    result.checks = "none"
    hint = _hint(found)
    if hint:
        result.findings.append(Finding("kind-not-served", "error", Path.root("apiVersion"), hint))
    return result


def _hint(found: KindLookup) -> str | None:
    """What to write instead: the replacement of a removed version, or the kind's right spelling."""
    if found.status is Status.NOT_SERVED and found.removed_in:
        instead = f": use {found.replacement}" if found.replacement else ""
        return (f"{found.kind} is not served in {found.group}/{found.version} since Kubernetes "
                f"{found.removed_in}{instead}")
    alternatives = found.alternatives()
    if alternatives:
        names = " or ".join(f"{k.api_version} {k.kind}" for k in alternatives[:2])
        return f"no {found.kind} in {found.group + '/' if found.group else ''}{found.version}; did you mean {names}?"
    return None
