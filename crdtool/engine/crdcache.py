"""A CRD's lint verdict and the names it registers, from the persistent cache (crdtool.cache) when a
run has met the same document before.

Linting a CRD compiles every CEL rule of every version: it is most of what a one-object run against a
folder of CRDs costs, and its answer depends only on the document. The key is the document as read
(a hash of its file's text, its index in the stream, its item in a List), so an entry stands for
exactly the values and duplicate keys the reader gives; crdtool's build is part of every key
(crdtool.cache). A Result is stored without its Document: positions are looked up, when a finding is
rendered, in the document of this run, re-read from the same text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crdtool.engine.results import Result
from crdtool.model.record import Record, replace

if TYPE_CHECKING:
    from crdtool.cache import Cache
    from crdtool.load.document import Document

__all__ = ["CrdNames", "VersionHead", "cached_comparison", "cached_lint", "checked_crd", "v1_versions"]

_NAMESPACE = "crd-verdict"


class VersionHead(Record):
    """What registering one of a CRD's versions takes from the document as written: its name, whether
    it is served, its subresources and printer columns (its schema is read from the document when an
    object of the version first arrives: engine.registry.ServedVersion)."""

    __slots__ = ("name", "served", "subresources", "printer_columns")

    name: str
    served: bool
    subresources: dict
    #: additionalPrinterColumns (None: the default Age column).
    printer_columns: list[dict] | None

    def __init__(self, name: str, served: bool, subresources: dict, printer_columns: list[dict] | None) -> None:
        self.name = name
        self.served = served
        self.subresources = subresources
        self.printer_columns = printer_columns


class CrdNames(Record):
    """What registering a CRD takes from its internal form (None of it when it does not decode), and
    its versions' heads: stored with its verdict, so that registering a CRD whose kind a run does not
    use never reads its document's values."""

    __slots__ = ("group", "kind", "plural", "singular", "namespaced", "decoded", "versions")

    group: str
    kind: str
    plural: str
    singular: str
    namespaced: bool
    decoded: bool
    #: spec.versions as written, in order (those that are mappings).
    versions: tuple[VersionHead, ...]

    def __init__(self, group: str, kind: str, plural: str, singular: str, namespaced: bool, decoded: bool,
                 versions: tuple[VersionHead, ...] = ()) -> None:
        self.group = group
        self.kind = kind
        self.plural = plural
        self.singular = singular
        self.namespaced = namespaced
        self.decoded = decoded
        self.versions = versions


def names_of(doc: Document) -> CrdNames:
    """The group, names and scope of a CRD, as the apiserver's internal form holds them, and its
    versions as written."""
    from crdtool.engine.lint import decode_internal

    decoded, _ = decode_internal(doc, create=False)
    spec = ((decoded or {}).get("spec")) or {}
    names = spec.get("names") or {}
    versions = tuple(VersionHead(v.get("name", ""), bool(v.get("served")), v.get("subresources") or {},
                                 v.get("additionalPrinterColumns") or None) for v in v1_versions(doc.data))
    return CrdNames(group=spec.get("group", ""), kind=names.get("kind", ""), plural=names.get("plural", ""),
                    singular=names.get("singular", ""), namespaced=spec.get("scope") == "Namespaced",
                    decoded=decoded is not None, versions=versions)


def v1_versions(data: Any) -> list[dict]:
    """A CRD document's spec.versions as written: those that are mappings, in order."""
    spec = data.get("spec") if isinstance(data, dict) else None
    versions = spec.get("versions") if isinstance(spec, dict) else None
    return [v for v in versions if isinstance(v, dict)] if isinstance(versions, list) else []


def document_key(doc: Document, *parts: object) -> bytes | None:
    """The cache key of a document as read, with `parts` (what else the value depends on); None for a
    document that was not read from a text (one built in memory has nothing to key it by)."""
    digest = doc.content_digest()
    if digest is None:
        return None
    return digest + repr((doc.index, doc.item, *parts)).encode()


def _stored(result: Result) -> Result:
    """The result as stored: without its document (re-attached on reading)."""
    return replace(result, document=None)


def checked_crd(doc: Document, store: Cache) -> tuple[Result, CrdNames]:
    """The lint Result of a CRD (a create) and the names it registers: from the cache, else computed
    (and stored)."""
    key = document_key(doc, "create")
    if key is not None and store.enabled:
        hit = store.get(_NAMESPACE, key)
        if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[0], Result) and isinstance(hit[1], CrdNames):
            hit[0].document = doc
            return hit[0], hit[1]
    from crdtool.engine.lint import lint_document

    result, names = lint_document(doc), names_of(doc)
    if key is not None and store.enabled:
        store.put(_NAMESPACE, key, (_stored(result), names))
    return result, names


def cached_lint(doc: Document, store: Cache, costs: bool = False, old: Document | None = None) -> Result:
    """`lint_document(doc, old, costs)` (a create, or an update over `old`), from the cache when it holds it."""
    if old is None:
        key = document_key(doc, "lint", costs)
    else:
        old_key = document_key(old)
        key = None if old_key is None else document_key(doc, "update", costs, old_key)

    def lint() -> Result:
        from crdtool.engine.lint import lint_document

        return lint_document(doc, old, costs)
    return _through_cache(doc, key, store, lint)


def cached_comparison(doc: Document, old: Document, store: Cache, costs: bool, compare: Callable[[], Result]) -> Result:
    """`lint --against`'s Result for `doc` over the stored `old` (the update's verdict and the upgrade
    findings, crdtool.upgrade.check): `compare()`'s, from the cache when it holds it. Keyed by both
    documents as read: the old CRD is taken as installed from its document alone."""
    old_key = document_key(old)
    key = None if old_key is None else document_key(doc, "against", costs, old_key)
    return _through_cache(doc, key, store, compare)


def _through_cache(doc: Document, key: bytes | None, store: Cache, compute: Callable[[], Result]) -> Result:
    """The Result stored under `key` (now `doc`'s), else `compute()`'s, stored (no key: never cached)."""
    if key is not None and store.enabled:
        hit = store.get(_NAMESPACE, key)
        if isinstance(hit, Result):
            hit.document = doc
            return hit
    result = compute()
    if key is not None and store.enabled:
        store.put(_NAMESPACE, key, _stored(result))
    return result
