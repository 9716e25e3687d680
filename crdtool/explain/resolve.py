"""Which resource, version and field path `kubectl explain` picks for its argument.

kubectl finds a resource through its RESTMapper, built from the apiserver's discovery:
groups in discovery order, each group's versions sorted by Kubernetes version priority
(v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > anything else), only served versions, the first
one being the preferred version. A name matches a resource's plural or singular in any
case (the mapper lowercases it); a short name must match exactly, as kubectl's shortcut
expander compares it before lowercasing. Without --api-version `plural.group.field...`
selects that group's resource; with it, everything after the first dot is a field path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from crdtool.load.document import Document
from crdtool.model.groupversion import GroupVersionError, parse_group_version


class ExplainError(Exception):
    """What kubectl prints on stderr (after `error: `) when it cannot explain the argument."""


@dataclass(frozen=True)
class ServedCRD:
    """A CRD the apiserver would serve, as discovery describes it."""

    group: str
    kind: str
    plural: str
    singular: str
    short_names: tuple[str, ...]
    # served version -> its openAPIV3Schema (None without one), in discovery order
    versions: dict[str, dict[str, Any] | None] = field(hash=False)
    #: a built-in resource (its schema is the vendored types', explain.builtin)
    builtin: bool = False


@dataclass(frozen=True)
class Target:
    """The resource version and field path to explain."""

    crd: ServedCRD
    group: str
    version: str
    field_path: tuple[str, ...]

    @property
    def gvr(self) -> str:
        """GroupVersionResource.String(), as kubectl's messages print it."""
        return f"{self.group}/{self.version}, Resource={self.crd.plural}"


# ---------------------------------------------------------------- served CRDs

class Catalog:
    """The CRDs among the inputs the apiserver would serve, each validated only when a lookup
    could involve it (a folder of CRDs is read whole, but explain needs one or two of them).

    The apiserver validates a CRD before it serves anything of it; the check here is the lint's
    without compiling CEL rules (their errors would not stop a stored CRD from serving either).
    Of two CRDs of one name the first valid one wins, as creating the second would fail.
    """

    def __init__(self, documents: Iterable[Document]) -> None:
        from crdtool.engine.lint import is_crd

        self._by_name: dict[str, list[Document]] = {}
        for doc in documents:
            if is_crd(doc):
                self._by_name.setdefault(str(doc.name), []).append(doc)
        self._served: dict[str, ServedCRD | None] = {}

    def find(self, mentions: str, accept: Callable[[ServedCRD], bool]) -> list[ServedCRD]:
        """The served CRDs that `accept` takes, among those whose names or group mention `mentions`
        (compared without case: the cheap filter that spares validating the others)."""
        needle = mentions.lower()
        out = []
        for name, docs in self._by_name.items():
            if any(needle in _raw_names(doc) for doc in docs):
                crd = self._serve(name)
                if crd is not None and accept(crd):
                    out.append(crd)
        return out

    def _serve(self, name: str) -> ServedCRD | None:
        if name not in self._served:
            self._served[name] = next(
                (crd for crd in map(_validated, self._by_name[name]) if crd is not None), None)
        crd = self._served[name]
        return crd if crd is not None and crd.versions else None


def _raw_names(doc: Document) -> set[str]:
    """The lowercased names and group a CRD document gives, valid or not."""
    spec = doc.data.get("spec") if isinstance(doc.data, dict) else None
    names = spec.get("names") if isinstance(spec, dict) else None
    if not isinstance(spec, dict) or not isinstance(names, dict):
        return set()
    values = [spec.get("group"), names.get("plural"), names.get("singular"), names.get("kind")]
    short = names.get("shortNames")
    values += short if isinstance(short, list) else []
    return {v.lower() for v in values if isinstance(v, str)}


def _validated(doc: Document) -> ServedCRD | None:
    """The CRD as discovery shows it, or None when the apiserver would refuse it."""
    from crdtool.engine.lint import decode_internal
    from crdtool.schema.crd import schema as crd_schema
    from crdtool.schema.crd import validation as crd_validation

    validate_schema = functools.partial(crd_schema.validate_crd_validation, rule_compiler=None)
    internal, _ = decode_internal(doc)
    if internal is None or crd_validation.validate_crd(internal, validate_schema):
        return None
    spec = internal.get("spec") or {}
    names = spec.get("names") or {}
    schemas = {v["name"]: (v.get("schema") or {}).get("openAPIV3Schema")
               for v in (doc.data.get("spec") or {}).get("versions") or [] if v.get("served")}
    return ServedCRD(group=spec.get("group", ""), kind=names.get("kind", ""),
                     plural=names.get("plural", ""), singular=names.get("singular", ""),
                     short_names=tuple(names.get("shortNames") or ()),
                     versions={v: schemas[v] for v in sorted(schemas, key=version_priority)})


_KUBE_VERSION = re.compile(r"v([0-9]+)(?:(alpha|beta)([0-9]+))?\Z")
_STAGE = {None: 0, "beta": 1, "alpha": 2}


def version_priority(version: str) -> tuple[int, int, int, str]:
    """Sort key putting versions in apimachinery's CompareKubeAwareVersionStrings order, highest first:
    GA, then beta, then alpha (each by major, then minor, descending), then other names alphabetically."""
    m = _KUBE_VERSION.match(version)
    if m is None:
        return (3, 0, 0, version)
    major, stage, minor = m.groups()
    return (_STAGE[stage], -int(major), -int(minor or 0), "")


# ---------------------------------------------------------------- the argument

def parse_field_nodes(text: str) -> list[str | None]:
    """The nodes of kubectl's JSONPath `{.TEXT}` (a trailing dot dropped): field names, and None
    for any other node (`..` recursive descent, `*`, `[...]`), which explain refuses."""
    source = "." + text.removesuffix(".")
    nodes: list[str | None] = []
    i = 0
    while i < len(source):
        if source.startswith("..", i):
            nodes.append(None)
            i += 1
        elif source[i] == ".":
            j = i + 1
            while j < len(source) and source[j] not in _TERMINATORS:
                j += 1
            value = source[i + 1:j].replace("\\", "")
            nodes.append(None if value == "*" else value)
            i = j
        else:
            nodes.append(None)
            close = source.find("]", i)
            i = len(source) if close < 0 else close + 1
    return nodes


_TERMINATORS = frozenset(".[],{}$@")


def _fields(nodes: list[str | None], message: str) -> tuple[str, ...]:
    if any(node is None for node in nodes):
        raise ExplainError(message)
    return tuple(nodes)  # type: ignore[arg-type]


class Mapper:
    """kubectl's RESTMapper over the discovery of the served CRDs."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def _find(self, mentions: str, accept: Callable[[ServedCRD], bool]) -> list[ServedCRD]:
        # groups in discovery order: the built-in groups first, in theirs; CRD groups share one
        # priority, then go by name
        found = [r for r in builtin_resources() if accept(r)]
        return found + sorted(self.catalog.find(mentions, accept), key=lambda c: c.group)

    def resources_for(self, resource: str) -> list[tuple[ServedCRD, str]]:
        """ResourcesFor: every (CRD, version) the name matches, highest priority first."""
        crds = self._expand_short_name(resource)
        if crds is None:
            wanted = resource.lower()
            crds = self._find(wanted, lambda c: wanted in (c.plural, c.singular))
        if not crds:
            raise ExplainError(f'the server doesn\'t have a resource type "{resource}"')
        return [(c, v) for c in crds for v in c.versions]

    def _expand_short_name(self, resource: str) -> list[ServedCRD] | None:
        """The shortcut expander: a short name stands for its resource unless the name is a resource's own."""
        if self._find(resource, lambda c: resource in (c.plural, c.singular)):
            return None
        found = self._find(resource, lambda c: resource in c.short_names)
        return found[:1] or None

    def group_version(self, group: str, version: str, plural: str | None = None) -> list[ServedCRD]:
        """The CRDs a served group version holds (the paths of its OpenAPI v3 document), or the one
        with this plural."""
        if plural is not None:
            return self._find(plural, lambda c: (c.group, c.plural) == (group, plural) and version in c.versions)
        return self._find(group, lambda c: c.group == group and version in c.versions)

    def explain_target(self, argument: str, api_version: str | None) -> Target:
        """What `kubectl explain ARGUMENT [--api-version=...]` explains."""
        nodes = parse_field_nodes(argument)
        if nodes[0] is None:
            raise ExplainError("invalid jsonpath syntax, first node must be field node")
        resources = self.resources_for(nodes[0])
        if api_version:
            crd, version = resources[0]
            path = _fields(nodes[1:], "invalid jsonpath syntax, all nodes must be field nodes")
            group, version = _parse_group_version(api_version)
            return Target(crd, group, version, path)
        message = "invalid jsonpath syntax, first node must be field node"
        for crd, version in resources:  # the first whose `plural.group` starts the argument
            group_resource = f"{crd.plural}.{crd.group}" if crd.group else crd.plural
            if argument.startswith(group_resource):
                suffix = argument[len(group_resource):]
                path = _fields(parse_field_nodes(suffix)[1:], message) if suffix else ()
                return Target(crd, crd.group, version, path)
        crd, version = resources[0]
        return Target(crd, crd.group, version, _fields(nodes[1:], message))


@functools.cache
def builtin_resources() -> tuple[ServedCRD, ...]:
    """The resources kube-apiserver 1.36 serves, in discovery order, each with its served versions
    (preferred first), as the RESTMapper sees them beside the CRDs'."""
    from crdtool.model.discovery import served_kinds

    by_resource: dict[tuple[str, str], list[Any]] = {}
    for kind in served_kinds():
        by_resource.setdefault((kind.group, kind.resource), []).append(kind)
    return tuple(ServedCRD(group=group, kind=kinds[0].kind, plural=resource, singular=kinds[0].singular,
                           short_names=kinds[0].short_names, versions={k.version: None for k in kinds},
                           builtin=True)
                 for (group, resource), kinds in by_resource.items())


def _parse_group_version(text: str) -> tuple[str, str]:
    """schema.ParseGroupVersion, its error as ExplainError."""
    try:
        return parse_group_version(text)
    except GroupVersionError as err:
        raise ExplainError(str(err)) from None
