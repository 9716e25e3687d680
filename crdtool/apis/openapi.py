"""The built-in kinds' types of Kubernetes 1.36, read lazily from the vendored data.

`crdtool/data/builtin-types-1.36.json.gz` (made by scripts/gen_builtin_openapi.py from k8s.io/api and
k8s.io/apimachinery v0.36.0 and the 1.36 OpenAPI) holds each OpenAPI definition, keyed by Go type name
(`io.k8s.api.apps.v1.DeploymentSpec`), with its Go struct fields in Go's order: json name, Go type as
reflect prints it, pointer and omitempty tags, and the OpenAPI facts (format, list type, map keys,
patch strategy, map type, enum), and the map type of a type that has one (`+structType=atomic`).
Descriptions, which only `explain` needs, are in a second file.

The file is read on first use (a run without built-in objects never opens it), and a kind's Go types
(model.gounmarshal) are built only for the definitions its root reaches, once.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from crdtool.model import gounmarshal as gu
from crdtool.model.metav1 import TIME

if TYPE_CHECKING:
    from crdtool.model.discovery import BuiltinKind

KUBERNETES_VERSION = "1.36"
_TYPES_FILE = f"builtin-types-{KUBERNETES_VERSION}.json.gz"
_DESCRIPTIONS_FILE = f"builtin-descriptions-{KUBERNETES_VERSION}.json.gz"


def _read(name: str) -> dict[str, Any]:
    raw = resources.files("crdtool").joinpath("data", name).read_bytes()
    data: dict[str, Any] = json.loads(gzip.decompress(raw))
    return data


@cache
def _types() -> dict[str, Any]:
    return _read(_TYPES_FILE)


@cache
def descriptions() -> dict[str, dict[str, str]]:
    """Definition -> {"": the type's description, field json name -> the field's description}."""
    found: dict[str, dict[str, str]] = _read(_DESCRIPTIONS_FILE)["definitions"]
    return found


def definition_name(group: str, version: str, kind: str) -> str | None:
    """The OpenAPI definition of a served kind's root type (`io.k8s.api.apps.v1.Deployment`)."""
    name: str | None = _types()["kinds"].get(f"{group}/{version}/{kind}")
    return name


def kind_definition(kind: BuiltinKind) -> str:
    """The root definition of a kind discovery serves: every one has it
    (tests/unit/apis/test_openapi_data.py)."""
    name = definition_name(kind.group, kind.version, kind.kind)
    assert name is not None, "served kinds have a definition"
    return name


def definition(name: str) -> dict[str, Any]:
    """One definition's entry: `go` (its Go name), `fields` (in Go order), `required`, `mapType`, or
    `custom`."""
    entry: dict[str, Any] = _types()["definitions"][name]
    return entry


_built: dict[str, gu.GoType] = {}


def go_type(name: str) -> gu.GoType:
    """The Go type of a definition, for model.gounmarshal (built once; recursive types share nodes)."""
    found = _built.get(name)
    if found is not None:
        return found
    entry = definition(name)
    if "custom" in entry:
        t = _custom_type(entry["custom"])
        _built[name] = t
        return t
    t = _built[name] = gu.struct(entry["go"])
    fields = {f["n"]: _node(f) for f in entry["fields"]}
    gu.define(t, fields, pointers=" ".join(f["n"] for f in entry["fields"] if f.get("ptr")),
              omitempty=" ".join(f["n"] for f in entry["fields"] if f.get("oe")))
    return t


_INTS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1), "int": (-(2**63), 2**63 - 1),
         "int16": (-(2**15), 2**15 - 1), "int8": (-128, 127), "uint8": (0, 255), "uint16": (0, 2**16 - 1),
         "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}
_SHARED = {"string": gu.STRING, "bool": gu.BOOL, "int32": gu.INT32, "int64": gu.INT64, "float64": gu.FLOAT64,
           "[]uint8": gu.BYTES}


def _node(node: dict[str, Any]) -> gu.GoType:
    """A field's (or element's) Go type; plain types are the shared ones (the decoder's fast path)."""
    kind, go = node["k"], node["go"]
    if kind == "ref":
        return go_type(node["ref"])
    if go in _SHARED and kind in ("string", "bool", "int32", "int64", "float64", "bytes"):
        return _SHARED[go]
    if kind == "string":
        return gu.string_type(go)
    if kind == "bool":
        return gu.GoType(gu.K_BOOL, go)
    if kind in _INTS:
        lo, hi = _INTS[kind]
        return gu.GoType(gu.K_INT, go, lo=lo, hi=hi)
    if kind in ("float64", "float32"):
        return gu.GoType(gu.K_FLOAT, go)
    if kind == "bytes":
        return gu.BYTES
    if kind == "slice":
        return gu.slice_of(_node(node["e"]), go)
    if kind == "map":
        return gu.map_of(_node(node["e"]), go)
    raise ValueError(f"unknown type node {node}")


def _custom_type(how: str) -> gu.GoType:
    from crdtool.apis import gotypes

    if how == "time":
        return TIME
    return gotypes.CUSTOM[how]
