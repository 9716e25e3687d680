"""From documents to Tables: each custom resource as the apiserver stores it (pruned and
defaulted) in the version it is read in, grouped by kind and version, filtered by namespace
as `kubectl get` lists them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from crdtool.columns.table import Convertor, Row, Table
from crdtool.engine.registry import Registry, ServedVersion
from crdtool.load.document import Document
from crdtool.model.groupversion import group_of, try_parse_group_version


@dataclass(frozen=True)
class Listing:
    """Which objects a listing shows: `namespace` None lists every namespace."""

    namespace: str | None = "default"
    api_version: str | None = None  # group/version (or a bare version) to read objects in


@dataclass
class View:
    tables: list[Table] = field(default_factory=list)
    #: Objects whose kind no served CRD version defines, with the reason.
    unknown: list[tuple[Document, str]] = field(default_factory=list)


def build_view(docs: list[Document], registry: Registry, listing: Listing, now: datetime) -> View:
    from crdtool.engine.builtin import is_builtin
    from crdtool.engine.lint import is_crd
    from crdtool.engine.validate import unknown_kind

    view = View()
    tables: dict[tuple[str, str, str], Table] = {}
    convertors: dict[int, Convertor] = {}
    for doc in docs:
        if is_crd(doc) or is_builtin(doc):
            continue
        served = _served_version(registry, doc, listing.api_version)
        if served is None:
            view.unknown.append((doc, unknown_kind(doc, registry).status or "unknown kind"))
            continue
        obj = stored_object(doc, served)
        if served.namespaced:
            meta = obj.setdefault("metadata", {})
            if isinstance(meta, dict) and not meta.get("namespace"):
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
    if wanted is not None and ("/" not in api_version or wanted.group == group):
        return registry.version_of(group, doc.kind, wanted.version)
    return registry.lookup(doc.api_version, doc.kind)


def stored_object(doc: Document, served: ServedVersion) -> dict:
    """The object as the apiserver would store and list it: unknown fields pruned, defaults applied."""
    from crdtool.schema import defaulting, pruning

    obj = defaulting.json_copy(doc.data)
    if served.structural is not None:
        pruning.prune(obj, served.structural)
        defaulting.apply_defaults(obj, served.structural)
    return obj
