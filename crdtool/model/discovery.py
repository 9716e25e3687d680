"""The built-in kinds of a default Kubernetes 1.36 kube-apiserver, as kubectl's discovery sees them.

kubectl maps a document's apiVersion and kind to a resource through its RESTMapper, built from the
apiserver's discovery: a kind is found only in a group version the server serves, under exactly
that name (case-sensitive), and only as a top-level resource (Scale, Eviction or TokenRequest live
only as subresources, so no document of theirs maps). Anything else is cli-runtime's
"resource mapping not found ... no matches for kind" error.

The data (crdtool/data/discovery-1.36.json, made by scripts/gen_discovery.py from the upstream
discovery documents and API types) holds every group version served by default with its kinds,
and the group versions of built-in groups that are not served (removed, or alpha/beta and off by
default), with the release that stopped serving each kind and the version that replaced it.
It is read on first use and kept.

- `lookup_kind(api_version, kind)`: what kubectl finds for a document (`KindLookup`).
- `resources_for(name, group)`: the resources a `kubectl get/explain NAME` argument names.
- `no_kind_match_message`, `mapping_not_found_message`: kubectl's texts for a kind it cannot map.

Built-in groups come before custom resource groups in discovery; merging these answers with the
served CRDs' is the caller's.
"""

from __future__ import annotations

import json
import os
from enum import Enum
from functools import cache
from typing import Any

from crdtool.model.gofmt import go_quote
from crdtool.model.groupversion import GroupVersion, GroupVersionError, group_of, parse_group_version
from crdtool.model.record import FrozenRecord

KUBERNETES_VERSION = "1.36"
_DATA_FILE = f"discovery-{KUBERNETES_VERSION}.json"


class Status(Enum):
    """What a default apiserver's discovery says of an apiVersion and kind."""

    SERVED = "served"              # a built-in kind, served
    NOT_SERVED = "not-served"      # a built-in group version the server does not serve by default
    NO_SUCH_KIND = "no-such-kind"  # a built-in group: no such version, or the version has no such kind
    CUSTOM = "custom"              # not a built-in group: a custom resource (or an aggregated API)
    INVALID = "invalid"            # empty, or an apiVersion ParseGroupVersion refuses


class BuiltinKind(FrozenRecord):
    """One served resource as discovery describes it."""

    __slots__ = ("group", "version", "kind", "resource", "singular", "namespaced", "short_names", "subresources",
                 "categories")

    group: str
    version: str
    kind: str
    resource: str  # plural
    singular: str
    namespaced: bool
    short_names: tuple[str, ...]
    subresources: tuple[str, ...]
    categories: tuple[str, ...]

    def __init__(self, group: str, version: str, kind: str, resource: str, singular: str, namespaced: bool,
                 short_names: tuple[str, ...] = (), subresources: tuple[str, ...] = (),
                 categories: tuple[str, ...] = ()) -> None:
        self.group = group
        self.version = version
        self.kind = kind
        self.resource = resource
        self.singular = singular
        self.namespaced = namespaced
        self.short_names = short_names
        self.subresources = subresources
        self.categories = categories

    @property
    def api_version(self) -> str:
        """GroupVersion.String(): `v1` for the core group, `group/version` otherwise."""
        return str(GroupVersion(self.group, self.version))


class KindLookup(FrozenRecord):
    """The answer for one apiVersion and kind.

    `builtin` is set when SERVED. For NOT_SERVED, `removed_in` is the release that stopped serving
    this kind in this version (None: never served by default, or a kind the version did not have),
    `replacement` the apiVersion that serves it instead where upstream names one, and `enableable`
    whether a 1.36 apiserver can still serve the version (`--runtime-config`). For INVALID, `error`
    is ParseGroupVersion's message (None for an empty apiVersion or kind).
    """

    __slots__ = ("status", "group", "version", "kind", "builtin", "removed_in", "replacement", "enableable", "error")

    status: Status
    group: str
    version: str
    kind: str
    builtin: BuiltinKind | None
    removed_in: str | None
    replacement: str | None
    enableable: bool
    error: str | None

    def __init__(self, status: Status, group: str, version: str, kind: str, builtin: BuiltinKind | None = None,
                 removed_in: str | None = None, replacement: str | None = None, enableable: bool = False,
                 error: str | None = None) -> None:
        self.status = status
        self.group = group
        self.version = version
        self.kind = kind
        self.builtin = builtin
        self.removed_in = removed_in
        self.replacement = replacement
        self.enableable = enableable
        self.error = error

    @property
    def is_builtin(self) -> bool:
        """Whether the apiVersion belongs to a built-in group (the object is not a custom resource)."""
        return self.status in (Status.SERVED, Status.NOT_SERVED, Status.NO_SUCH_KIND)

    @property
    def no_match(self) -> bool:
        """Whether kubectl answers that there is no such kind."""
        return self.status in (Status.NOT_SERVED, Status.NO_SUCH_KIND)

    def message(self) -> str:
        """meta.NoKindMatchError's text for this lookup."""
        return no_kind_match_message(self.kind, self.group, self.version)

    def alternatives(self) -> tuple[BuiltinKind, ...]:
        """The served kinds of this name compared without case, in discovery priority: what a
        document that found no match probably meant (`configmap` -> v1 ConfigMap)."""
        wanted = self.kind.lower()
        return tuple(k for k in _catalog().ordered if k.kind.lower() == wanted)


def lookup_kind(api_version: str, kind: str) -> KindLookup:
    """What kubectl's RESTMapper finds for a document of this apiVersion and kind."""
    if not api_version or not kind:
        return KindLookup(Status.INVALID, "", "", kind)
    try:
        group, version = parse_group_version(api_version)
    except GroupVersionError as err:
        return KindLookup(Status.INVALID, "", "", kind, error=str(err))
    catalog = _catalog()
    if group not in catalog.groups:
        return KindLookup(Status.CUSTOM, group, version, kind)
    if not version:
        # RESTMapping without a version takes the kind's highest-priority served version
        found = next((k for k in catalog.ordered if (k.group, k.kind) == (group, kind)), None)
        return KindLookup(Status.SERVED if found else Status.NO_SUCH_KIND, group, version, kind, builtin=found)
    served = catalog.served.get((group, version))
    if served is not None:
        found = served.get(kind)
        return KindLookup(Status.SERVED if found else Status.NO_SUCH_KIND, group, version, kind, builtin=found)
    absent = catalog.not_served.get((group, version))
    if absent is None:
        return KindLookup(Status.NO_SUCH_KIND, group, version, kind)
    removed_in, replacement = absent["kinds"].get(kind, (None, None))
    return KindLookup(Status.NOT_SERVED, group, version, kind, removed_in=removed_in, replacement=replacement,
                      enableable=absent["enableable"])


def is_builtin_group(group: str) -> bool:
    """Whether kube-apiserver 1.36 has, or had, resources of this API group ("" is the core group)."""
    return group in _catalog().groups


def served_kinds() -> tuple[BuiltinKind, ...]:
    """Every served resource in discovery priority (each group's preferred version first)."""
    return _catalog().ordered


def resources_for(name: str, group: str | None = None) -> list[BuiltinKind]:
    """The served resources a `kubectl get/explain NAME` argument names, best first (the first is kubectl's pick).

    kubectl's shortcut expander runs first: a name that is no resource's plural or singular (exactly)
    but is a short name (exactly, case-sensitive) stands for that short name's first resource in
    discovery order (`ev` is the core group's events, and an empty group matches every group, so
    events.k8s.io's events follow). Otherwise the RESTMapper lowercases the name and matches plurals and singulars.
    `group` restricts the search, as `NAME.GROUP` does (the caller splits kubectl's
    `resource.version.group` argument). Order: every group's preferred version in group order, then
    the other versions.
    """
    kinds = [k for k in _catalog().ordered if group is None or k.group == group]
    if not any(name in (k.resource, k.singular) for k in kinds):
        expanded = next((k for k in kinds if name in k.short_names), None)
        if expanded is not None:
            # the expanded name keeps the short name's group, and the core group's "" matches any group
            return [k for k in kinds if k.resource == expanded.resource and expanded.group in ("", k.group)]
    wanted = name.lower()
    return [k for k in kinds if wanted in (k.resource, k.singular)]


def no_kind_match_message(kind: str, group: str, version: str) -> str:
    """meta.NoKindMatchError.Error() for one searched version (kubectl searches the document's own)."""
    return f"no matches for kind {go_quote(kind)} in version {go_quote(str(GroupVersion(group, version)))}"


def mapping_not_found_message(name: str, namespace: str, source: str, no_match: str) -> str:
    """cli-runtime's resource mapper error for a document whose kind does not map (kubectl prints
    it after `error: `): `name` and `namespace` are the object's metadata ("" when absent), `source`
    the file name as given (STDIN for `-`), `no_match` the NoKindMatchError text."""
    return (f"resource mapping not found for name: {go_quote(name)} namespace: {go_quote(namespace)} "
            f"from {go_quote(source)}: {no_match}\nensure CRDs are installed first")



def printed_kind(api_version: object, kind: object) -> str:
    """What kubectl's name printer writes before `/NAME created`: the object's kind in lower case,
    then `.group` unless the group is the core one (cli-runtime's NamePrinter, `crontab.stable.example.com`)."""
    group = group_of(api_version)
    kind_text = (kind if isinstance(kind, str) else "").lower()
    return f"{kind_text}.{group}" if group else kind_text

# ---------------------------------------------------------------- the data

class _Catalog(FrozenRecord):
    __slots__ = ("groups", "served", "not_served", "ordered")

    groups: frozenset[str]
    served: dict[tuple[str, str], dict[str, BuiltinKind]]
    not_served: dict[tuple[str, str], dict[str, Any]]
    ordered: tuple[BuiltinKind, ...]

    def __init__(self, groups: frozenset[str], served: dict[tuple[str, str], dict[str, BuiltinKind]],
                 not_served: dict[tuple[str, str], dict[str, Any]], ordered: tuple[BuiltinKind, ...]) -> None:
        self.groups = groups
        self.served = served
        self.not_served = not_served
        self.ordered = ordered


@cache
def _catalog() -> _Catalog:
    # A plain path (crdtool is installed as files): importlib.resources would cost every run its imports.
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", _DATA_FILE), encoding="utf-8") as f:
        data = json.load(f)
    served: dict[tuple[str, str], dict[str, BuiltinKind]] = {}
    preferred: list[BuiltinKind] = []
    others: list[BuiltinKind] = []
    for entry in data["groups"]:
        for index, version in enumerate(entry["versions"]):
            kinds = [BuiltinKind(group=entry["group"], version=version["version"], kind=k["kind"],
                                 resource=k["resource"], singular=k["singular"], namespaced=k["namespaced"],
                                 short_names=tuple(k.get("shortNames", ())),
                                 subresources=tuple(k.get("subresources", ())),
                                 categories=tuple(k.get("categories", ())))
                     for k in version["kinds"]]
            served[(entry["group"], version["version"])] = {k.kind: k for k in kinds}
            (preferred if index == 0 else others).extend(kinds)
    not_served: dict[tuple[str, str], dict[str, Any]] = {}
    for gv, entry in data["notServed"].items():
        not_served[parse_group_version(gv)] = {
            "enableable": entry["enableable"],
            "kinds": {kind: tuple(value) for kind, value in entry["kinds"].items()},
        }
    groups = frozenset(g for g, _ in served) | frozenset(g for g, _ in not_served)
    return _Catalog(groups, served, not_served, tuple(preferred + others))
