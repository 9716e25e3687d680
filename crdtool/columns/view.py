"""From documents to Tables: each custom resource as the apiserver stores it (pruned, its
metadata decoded, defaulted) in the version it is read in, grouped by kind and version, filtered
by namespace as `kubectl get` lists them. An object the apiserver could not decode (metadata that
is not an ObjectMeta) is never stored, so it is not listed: its 400 answer is reported instead."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from crdtool.columns.table import Convertor, Row, Table
from crdtool.engine.registry import Registry, ServedVersion
from crdtool.load.document import Document
from crdtool.model.groupversion import group_of, try_parse_group_version
from crdtool.model.jsonvalue import json_copy


@dataclass(frozen=True)
class Listing:
    """Which objects a listing shows: `namespace` None lists every namespace."""

    namespace: str | None = "default"
    api_version: str | None = None  # group/version (or a bare version) to read objects in


@dataclass
class View:
    tables: list[Table] = field(default_factory=list)
    #: Objects the apiserver would not list, with the reason: no served CRD version defines their
    #: kind, or it refuses them with a 400 (their metadata does not decode).
    refused: list[tuple[Document, str]] = field(default_factory=list)


def build_view(docs: list[Document], registry: Registry, listing: Listing, now: datetime) -> View:
    from crdtool.engine.builtin import is_builtin
    from crdtool.engine.lint import is_crd
    from crdtool.engine.validate import unknown_kind
    from crdtool.load.sources import refuse_unsupported_values

    view = View()
    tables: dict[tuple[str, str, str], Table] = {}
    convertors: dict[int, Convertor] = {}
    for doc in docs:
        if is_crd(doc) or is_builtin(doc):
            continue
        refuse_unsupported_values(doc)
        served = _served_version(registry, doc, listing.api_version)
        if served is None:
            view.refused.append((doc, unknown_kind(doc, registry).status or "unknown kind"))
            continue
        try:
            obj = stored_object(doc, served)
        except UndecodableObject as err:
            view.refused.append((doc, str(err)))
            continue
        if served.namespaced:
            meta = obj.setdefault("metadata", {})
            if not meta.get("namespace"):
                meta["namespace"] = "default"
            if listing.namespace is not None and meta.get("namespace") != listing.namespace:
                continue
        convertor = convertors.get(id(served))
        if convertor is None:
            convertor = convertors[id(served)] = Convertor(served.printer_columns)
        key = (served.group, served.kind, served.version)
        table = tables.get(key)
        if table is None:
            table = tables[key] = Table(served.group, served.kind, served.version, served.namespaced,
                                        convertor.columns)
            view.tables.append(table)
        table.rows.append(Row(convertor.cells(obj, now), obj))
    return view


def _served_version(registry: Registry, doc: Document, api_version: str | None) -> ServedVersion | None:
    if not isinstance(doc.api_version, str) or not isinstance(doc.kind, str):
        return None
    group = group_of(doc.api_version)
    wanted = try_parse_group_version(api_version) if api_version else None
    if api_version and wanted is not None and ("/" not in api_version or wanted.group == group):
        return registry.version_of(group, doc.kind, wanted.version)
    return registry.lookup(doc.api_version, doc.kind)


class UndecodableObject(Exception):
    """The apiserver's whole 400 message for an object it cannot decode (so never stores)."""


def stored_object(doc: Document, served: ServedVersion) -> dict[str, Any]:
    """The object as the apiserver would store and list it: unknown fields pruned, metadata decoded
    into ObjectMeta and back (embedded resources' too), defaults applied; UndecodableObject when the
    metadata does not decode."""
    from crdtool.schema.defaulting import algorithm as defaulting
    from crdtool.schema.objectmeta import coerce as objectmeta
    from crdtool.schema.pruning import algorithm as pruning

    obj: dict[str, Any] = json_copy(doc.data)
    if served.structural is not None:
        pruning.prune(obj, served.structural)
    problem = objectmeta.coerce_metadata(obj, served.structural, served.kind, served.version)
    if problem is not None:
        raise UndecodableObject(objectmeta.handling_error(served.kind, served.version, problem))
    if served.structural is not None:
        defaulting.apply_defaults(obj, served.structural)
    return obj
