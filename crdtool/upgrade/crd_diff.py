"""Compare an old and a new CustomResourceDefinition version by version (by name, never by position):
what a served version, a subresource, a storage version or a schema change does to stored objects
and existing clients. Changes the apiserver itself refuses (a stored version dropped from
spec.versions, a new scope, group, kind or plural) are its update validation's to report, not ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from crdtool.model.path import Path
from crdtool.upgrade.rules import RULES, Change
from crdtool.upgrade.schema_diff import diff_schemas, same_schema

_VERSIONS = Path.root("spec", "versions")
#: How many schema differences a storage-version finding spells out before counting the rest.
_LISTED = 3
_SUBRESOURCE_WHY = {
    "status": "clients that read or write /status get 404 NotFound, and status becomes writable through "
              "the main resource",
    "scale": "clients of /scale (kubectl scale, HorizontalPodAutoscalers) get 404 NotFound",
}


#: name -> (index in spec.versions, version)
_Versions = dict[str, tuple[int, dict[str, Any]]]


def _versions(crd: dict[str, Any]) -> _Versions:
    """name -> (index in spec.versions, version) for a v1 CRD's data."""
    spec = v if isinstance(v := crd.get("spec"), dict) else {}
    versions = v if isinstance(v := spec.get("versions"), list) else []
    out: _Versions = {}
    for i, version in enumerate(versions):
        if isinstance(version, dict) and isinstance(version.get("name"), str):
            out.setdefault(version["name"], (i, version))
    return out


def _storage_version(crd: dict[str, Any]) -> str | None:
    return next((name for name, (_, v) in _versions(crd).items() if v.get("storage") is True), None)


def stored_versions(crd: dict[str, Any]) -> list[str]:
    """status.storedVersions of the stored CRD, or its storage version when the file has no status
    (as the apiserver records it on create)."""
    status = v if isinstance(v := crd.get("status"), dict) else {}
    stored = status.get("storedVersions")
    if isinstance(stored, list) and stored:
        return [v for v in stored if isinstance(v, str)]
    storage = _storage_version(crd)
    return [storage] if storage else []


def _schema(version: dict[str, Any]) -> Any:
    schema = version.get("schema")
    return schema.get("openAPIV3Schema") if isinstance(schema, dict) else None


def _group(crd: dict[str, Any]) -> str:
    spec = v if isinstance(v := crd.get("spec"), dict) else {}
    return spec.get("group") or ""


def diff_crds(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    """Every upgrade hazard of replacing the CRD `old` by `new` (both the v1 documents' data)."""
    old_versions, new_versions = _versions(old), _versions(new)
    yield from _served(old, new, old_versions, new_versions)
    for name, (j, new_version) in new_versions.items():
        if name not in old_versions:
            continue
        old_version = old_versions[name][1]
        base = _VERSIONS.index(j)
        yield from _subresources(old_version, new_version, base, name)
        yield from diff_schemas(_schema(old_version), _schema(new_version),
                                base.child("schema", "openAPIV3Schema"), name)
    yield from _storage(old, new, old_versions, new_versions)


def _served(old: dict[str, Any], new: dict[str, Any], old_versions: _Versions,
            new_versions: _Versions) -> Iterator[Change]:
    stored = set(stored_versions(old))
    group = _group(new) or _group(old)
    for name, (_, old_version) in old_versions.items():
        if old_version.get("served") is not True:
            continue
        why = f"clients and controllers that use {group}/{name} get 404 NotFound"
        if name not in new_versions:
            if name not in stored:  # else the apiserver refuses the update itself (status.storedVersions)
                yield Change("served-version-removed", _VERSIONS, f"version {name} removed from spec.versions",
                             why=why)
        elif new_versions[name][1].get("served") is not True:
            j = new_versions[name][0]
            yield Change("served-version-removed", _VERSIONS.index(j).child("served"),
                         f"version {name} no longer served", why=why)


def _subresources(old_version: dict[str, Any], new_version: dict[str, Any], base: Path, name: str) -> Iterator[Change]:
    old_sub = v if isinstance(v := old_version.get("subresources"), dict) else {}
    new_sub = v if isinstance(v := new_version.get("subresources"), dict) else {}
    for key, why in _SUBRESOURCE_WHY.items():
        if old_sub.get(key) is not None and new_sub.get(key) is None:
            yield Change("subresource-removed", base.child("subresources", key), f"{key} subresource removed",
                         name, why)


def _strategy(crd: dict[str, Any]) -> str:
    spec = v if isinstance(v := crd.get("spec"), dict) else {}
    conversion = v if isinstance(v := spec.get("conversion"), dict) else {}
    return conversion.get("strategy") or "None"


def _storage(old: dict[str, Any], new: dict[str, Any], old_versions: _Versions,
             new_versions: _Versions) -> Iterator[Change]:
    """A new storage version under conversion strategy None: objects stored in the old one are read as
    the new one with only apiVersion changed, so the new schema prunes, defaults and validates them."""
    was, now = _storage_version(old), _storage_version(new)
    if was is None or now is None or was == now or _strategy(new) != "None":
        return
    source = new_versions.get(was) or old_versions.get(was)
    if source is None:
        return
    was_schema, (j, now_version) = _schema(source[1]), new_versions[now]
    now_schema = _schema(now_version)
    if was_schema is None or now_schema is None or same_schema(was_schema, now_schema):
        return
    root = Path.root("openAPIV3Schema")
    changes = [c for c in diff_schemas(was_schema, now_schema, root, now)
               if (c.severity or RULES[c.code].severity) != "info"]
    what = f"storage version changed from {was} to {now} with conversion strategy None"
    if not changes:
        yield Change("storage-version-changed", _VERSIONS.index(j).child("storage"), what,
                     why=f"objects stored as {was} are read as {now} unchanged but for apiVersion; {now}'s schema "
                         f"only adds to {was}'s, so they read as before", severity="info")
        return
    listed = "; ".join(f"{c.path}: {c.what}" for c in changes[:_LISTED])
    more = f" (and {len(changes) - _LISTED} more)" if len(changes) > _LISTED else ""
    severe = any((c.severity or RULES[c.code].severity) == "error" for c in changes)
    yield Change("storage-version-changed", _VERSIONS.index(j).child("storage"), what,
                 why=f"objects stored as {was} are read as {now} unchanged but for apiVersion, and {now}'s schema "
                     f"differs: {listed}{more}; add a conversion webhook or keep the schemas compatible",
                 severity="error" if severe else "warning")
