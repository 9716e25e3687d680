"""The apiserver's defaulting of a decoded built-in object: the generated SetObjectDefaults_<Kind>.

defaulter-gen writes, per kind, a walk over the Go type that calls at every struct its hand-written
`SetDefaults_<Type>` (pkg/apis/<group>/v1/defaults.go), then sets the struct's declarative defaults
(`+default=` markers of k8s.io/api, in the vendored type data), then goes on into its fields in Go
order: a non-pointer struct is always visited (a Deployment without a template still gets its pod
spec's defaults), a pointer, list or map only when present. `walk` is that walk over the types of
crdtool/data; the hand-written functions are in crdtool/apis/<group>/defaults.py, registered by the
OpenAPI name of the type they take (a named map type, which has no definition of its own, by its Go
type as the data spells it: `v1.ResourceList`).

Paths of what was set are rendered as the custom-resource path renders them (`spec.replicas`,
`spec.template.spec.containers[0].imagePullPolicy`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.apis import openapi


class Defaulted:
    """What a defaulting run set: one path per field given a value, in the order it was set."""

    __slots__ = ("paths",)

    def __init__(self) -> None:
        self.paths: list[str] = []

    def set(self, obj: dict[str, Any], key: str, value: Any, at: str) -> None:
        """obj[key] = value, recorded at `at.key`."""
        obj[key] = value
        self.paths.append(f"{at}.{key}" if at else key)

    def empty(self, obj: dict[str, Any], key: str, value: Any, at: str) -> None:
        """Go's `if obj.X == "" { obj.X = value }` (and `== nil` for a pointer): set when absent or empty."""
        if obj.get(key) in (None, ""):
            self.set(obj, key, value, at)


Defaulter = Callable[[dict[str, Any], Defaulted, str], None]
#: OpenAPI definition name -> its SetDefaults_ function; filled by the group modules.
_REGISTRY: dict[str, Defaulter] = {}
_LOADED: list[bool] = []


def register(definition: str) -> Callable[[Defaulter], Defaulter]:
    """Mark a function as SetDefaults_ of the Go type named `definition`."""
    def add(fn: Defaulter) -> Defaulter:
        _REGISTRY[definition] = fn
        return fn
    return add


def _registry() -> dict[str, Defaulter]:
    if not _LOADED:
        from crdtool.apis.admissionregistration import defaults as _admissionregistration  # noqa: F401
        from crdtool.apis.apps import defaults as _apps  # noqa: F401  (registers)
        from crdtool.apis.autoscaling import defaults as _autoscaling  # noqa: F401
        from crdtool.apis.batch import defaults as _batch  # noqa: F401
        from crdtool.apis.core import defaults as _core  # noqa: F401
        from crdtool.apis.discovery import defaults as _discovery  # noqa: F401
        from crdtool.apis.networking import defaults as _networking  # noqa: F401
        from crdtool.apis.rbac import defaults as _rbac  # noqa: F401
        from crdtool.apis.scheduling import defaults as _scheduling  # noqa: F401
        from crdtool.apis.storage import defaults as _storage  # noqa: F401
        _LOADED.append(True)
    return _REGISTRY


def set_object_defaults(obj: dict[str, Any], definition: str) -> list[str]:
    """SetObjectDefaults_<Kind> of a decoded object of the root type `definition`, in place; the
    paths set, in order."""
    done = Defaulted()
    walk(obj, definition, "", done, _registry(), set())
    return done.paths


def _child(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key


def walk(obj: dict[str, Any], definition: str, at: str, done: Defaulted, registry: dict[str, Defaulter],
         visiting: set[str]) -> None:
    """One struct: its SetDefaults_, its declarative defaults, then its fields."""
    entry = openapi.definition(definition)
    fn = registry.get(definition)
    if fn is not None:
        fn(obj, done, at)
    fields = entry.get("fields", ())
    for f in fields:
        if "default" in f:
            _declarative(obj, f, done, at)
    for f in fields:
        name = f["n"]
        kind = f["k"]
        if kind == "ref":
            ref = f["ref"]
            if "fields" not in openapi.definition(ref):
                continue
            value = obj.get(name)
            if isinstance(value, dict):
                walk(value, ref, _child(at, name), done, registry, visiting)
            elif value is None and not f.get("ptr") and _may_default(ref, registry, visiting):
                fresh: dict[str, Any] = {}
                walk(fresh, ref, _child(at, name), done, registry, visiting)
                if fresh:
                    obj[name] = fresh
        elif kind == "map" and f.get("go") in registry and isinstance(obj.get(name), dict):
            registry[f["go"]](obj[name], done, _child(at, name))  # a named map type's SetDefaults_
        elif kind in ("slice", "map") and f["e"]["k"] == "ref" and isinstance(obj.get(name), (list, dict)):
            ref = f["e"]["ref"]
            if "fields" not in openapi.definition(ref):
                continue
            items = obj[name]
            pairs = enumerate(items) if isinstance(items, list) else items.items()
            for key, item in pairs:
                if isinstance(item, dict):
                    step = f"{_child(at, name)}[{key}]" if isinstance(items, list) else f"{_child(at, name)}.{key}"
                    walk(item, ref, step, done, registry, visiting)


def _declarative(obj: dict[str, Any], f: dict[str, Any], done: Defaulted, at: str) -> None:
    """A `+default=` marker: the field gets the value when it is nil (a pointer) or its zero value
    (a value field; a zero default then changes nothing Go would write)."""
    value = f["default"]
    current = obj.get(f["n"])
    if f.get("ptr"):
        if current is None:
            done.set(obj, f["n"], value, at)
    elif current in (None, "", 0, False) and current is not True and value not in ("", 0, False):
        done.set(obj, f["n"], value, at)


_REACHES: dict[str, bool] = {}


def _may_default(definition: str, registry: dict[str, Defaulter], visiting: set[str]) -> bool:
    """Whether an absent value struct of this type can get any default (else it is not built)."""
    known = _REACHES.get(definition)
    if known is not None:
        return known
    if definition in visiting:
        return False
    visiting.add(definition)
    entry = openapi.definition(definition)
    found = definition in registry or any(
        ("default" in f and f["default"] not in ("", 0, False))
        or (f["k"] == "ref" and not f.get("ptr") and "fields" in openapi.definition(f["ref"])
            and _may_default(f["ref"], registry, visiting))
        for f in entry.get("fields", ()))
    visiting.discard(definition)
    _REACHES[definition] = found
    return found
