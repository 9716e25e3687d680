"""The CRDs a run knows: each linted once, each served version compiled once, found by
group/version/kind as the apiserver's REST mapping finds them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from crdtool.cache import Cache, disabled
from crdtool.engine.crdcache import checked_crd, document_key, v1_versions
from crdtool.engine.lint import is_crd
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.groupversion import from_api_version_and_kind
from crdtool.model.record import IdentityRecord, Record

#: The cache's namespace of decodes_as_written's answers, by schema_key.
_AS_WRITTEN = "schema-as-written"


class ServedVersion(IdentityRecord):
    """One version of a CRD, with its schema compiled on first use."""

    # `__dict__` holds the cached properties (the schema as written, the compiled schema and rules).
    __slots__ = ("crd_name", "group", "version", "kind", "plural", "singular", "namespaced", "served", "document",
                 "place", "subresources", "printer_columns", "store", "schema_key", "__dict__")

    crd_name: str
    group: str
    version: str
    kind: str
    plural: str
    singular: str
    namespaced: bool
    served: bool
    #: The CRD's document (None: a version the CRD does not have, without a schema).
    document: Document | None
    #: Its place among the document's spec.versions (crdcache.v1_versions).
    place: int
    subresources: dict
    #: additionalPrinterColumns of this version (None: the default Age column).
    printer_columns: list[dict] | None
    #: The persistent cache its compiled rules are read from and written to (None: none).
    store: Cache | None
    #: Its schema's key in `store` (None: not cached): the CRD document as read, and the version's place.
    schema_key: bytes | None

    def __init__(self, crd_name: str, group: str, version: str, kind: str, plural: str, singular: str,
                 namespaced: bool, served: bool, document: Document | None, place: int, subresources: dict,
                 printer_columns: list[dict] | None = None, store: Cache | None = None,
                 schema_key: bytes | None = None) -> None:
        self.crd_name = crd_name
        self.group = group
        self.version = version
        self.kind = kind
        self.plural = plural
        self.singular = singular
        self.namespaced = namespaced
        self.served = served
        self.document = document
        self.place = place
        self.subresources = subresources
        self.printer_columns = printer_columns
        self.store = store
        self.schema_key = schema_key

    @cached_property
    def raw_schema(self) -> dict | None:
        """The version's openAPIV3Schema as written: read from the CRD's document only when an object
        of the version arrives (the documents of CRDs whose kinds a run does not use stay unread:
        load.cached)."""
        if self.document is None:
            return None
        versions = v1_versions(self.document.data)
        return (versions[self.place].get("schema") or {}).get("openAPIV3Schema") if self.place < len(versions) else None

    @cached_property
    def schema(self) -> dict | None:
        """The schema as the apiserver stored it: the document's, decoded into JSONSchemaProps (a null
        list element or map value is its zero value, `required: [null]` an empty name; null fields,
        `items: "x"` and unknown keys are gone)."""
        if self.raw_schema is None or self._decodes_as_written(self.raw_schema):
            return self.raw_schema
        from crdtool.model.gounmarshal import unmarshal
        from crdtool.schema.crd.decode import SCHEMA

        decoded = unmarshal(self.raw_schema, SCHEMA)
        return decoded.value if decoded.error is None else self.raw_schema

    def _decodes_as_written(self, raw_schema: dict) -> bool:
        """decodes_as_written, from the persistent cache when it holds the answer: asking walks the whole
        schema, which for the large schemas of some projects costs more than reading the answer."""
        store, key = self.store, self.schema_key
        known = store.get(_AS_WRITTEN, key) if store is not None and key is not None else None
        if isinstance(known, bool):
            return known
        from crdtool.schema.crd.decode import decodes_as_written  # imported when the answer is not known

        answer = decodes_as_written(raw_schema)
        if store is None or key is None:
            return answer
        store.put(_AS_WRITTEN, key, answer)
        return answer

    @cached_property
    def structural(self) -> Any:
        from crdtool.schema.structural.structural import new_structural

        return new_structural(self.schema) if self.schema is not None else None

    @cached_property
    def validator(self) -> Any:
        from crdtool.schema.values.validation import compile_schema

        return compile_schema(self.schema or {})

    @cached_property
    def context(self) -> Any:
        """What the create and update strategies know of this version (list types prepared once)."""
        from crdtool.schema.customresource.strategy import ResourceContext, ScaleSubresource

        scale = self.scale
        return ResourceContext(
            group=self.group, version=self.version, kind=self.kind, plural=self.plural,
            namespaced=self.namespaced, structural=self.structural, validator=self.validator,
            status_enabled=self.status_enabled,
            scale=None if scale is None else ScaleSubresource(
                scale.get("specReplicasPath", ""), scale.get("statusReplicasPath", ""),
                scale.get("labelSelectorPath")))

    @property
    def status_enabled(self) -> bool:
        return self.subresources.get("status") is not None

    @property
    def scale(self) -> dict | None:
        return self.subresources.get("scale")

    @property
    def qualified_kind(self) -> str:
        """The kind as the apiserver's status texts name it: `CronTab.stable.example.com`."""
        return f"{self.kind}.{self.group}"


class Registry(Record):
    """Valid CRDs by (group, version, kind); invalid ones keep their lint Result."""

    __slots__ = ("versions", "lint_results", "rejected")

    versions: dict[tuple[str, str, str], ServedVersion]
    lint_results: list[Result]
    rejected: dict[tuple[str, str], Result]

    def __init__(self, versions: dict[tuple[str, str, str], ServedVersion] | None = None,
                 lint_results: list[Result] | None = None,
                 rejected: dict[tuple[str, str], Result] | None = None) -> None:
        self.versions = {} if versions is None else versions
        self.lint_results = [] if lint_results is None else lint_results
        self.rejected = {} if rejected is None else rejected

    def add(self, doc: Document, serve_rejected: bool = False, store: Cache | None = None) -> Result:
        """Lint a CRD and, if the apiserver would accept it (or `serve_rejected` says to serve it
        anyway, as `columns` does to show what its columns would print), register its versions. Its
        versions' schemas and rules are compiled only when an object of theirs arrives; its verdict
        comes from `store` when it holds it."""
        result, crd = checked_crd(doc, store or disabled())
        self.lint_results.append(result)
        group, kind = crd.group, crd.kind
        refused = result.status is not None and not _only_rule_errors(result) and not serve_rejected
        if not crd.decoded or refused:
            # Unknown fields alone do not stop its registration, nor do errors in its CEL rules alone: a
            # CRD stored before its rules stopped compiling (or fitting the budget) still serves, its
            # broken rules reporting `rule compile error` on every object, as the apiserver's validator does.
            self.rejected[(group, kind)] = result
            return result
        for place, head in enumerate(crd.versions):
            served = ServedVersion(
                crd_name=result.name or "", group=group, version=head.name, kind=kind, plural=crd.plural,
                singular=crd.singular, namespaced=crd.namespaced, served=head.served, document=doc, place=place,
                subresources=head.subresources, printer_columns=head.printer_columns, store=store,
                schema_key=document_key(doc, _AS_WRITTEN, place))
            key = (group, served.version, kind)
            known = self.versions.get(key)
            if known is None or served.served or not known.served:  # of two CRDs of one name, a serving one wins
                self.versions[key] = served
        return result

    def lookup(self, api_version: str, kind: str) -> ServedVersion | None:
        group, version = from_api_version_and_kind(api_version, "").group_version
        found = self.versions.get((group, version, kind))
        return found if found is not None and found.served else None

    def version_of(self, group: str, kind: str, version: str) -> ServedVersion | None:
        found = self.versions.get((group, version, kind))
        return found if found is not None and found.served else None


def _only_rule_errors(result: Result) -> bool:
    """Whether every error of a rejected CRD is about its x-kubernetes-validations."""
    return bool(result.errors) and all(
        "x-kubernetes-validations" in e.field or "x-kubernetes-validations" in e.detail for e in result.errors)


def unique_crds(named: list[Document], docs: list[Document]) -> list[Document]:
    """The CRDs named with -c and those among the inputs, each once (a file both named and among
    the inputs is read once)."""
    seen: set[tuple[str, int, int | None]] = set()
    out = []
    for doc in [*named, *docs]:
        if not is_crd(doc):
            continue
        key = (os.path.realpath(doc.source), doc.index, doc.item)
        if key not in seen:
            seen.add(key)
            out.append(doc)
    return out


def registry_of(crds: Iterable[Document], serve_rejected: bool = False, store: Cache | None = None) -> Registry:
    """A registry of these CRDs, each linted once (or its verdict read from `store`); `serve_rejected`
    serves CRDs the apiserver would refuse too."""
    registry = Registry()
    for doc in crds:
        registry.add(doc, serve_rejected=serve_rejected, store=store)
    return registry


def load_registry(named: list[Document], docs: list[Document], serve_rejected: bool = False,
                  store: Cache | None = None) -> Registry:
    """The registry of the CRDs named with -c and those among the inputs."""
    return registry_of(unique_crds(named, docs), serve_rejected, store)
