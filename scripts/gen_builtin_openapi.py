"""Regenerate crdtool/data/builtin-types-1.36.json.gz and builtin-descriptions-1.36.json.gz.

The built-in kinds' types as kube-apiserver 1.36 decodes them: for every OpenAPI definition (keyed by
Go type name, e.g. io.k8s.api.apps.v1.DeploymentSpec), its Go struct fields in Go's order with their
json names, Go types as reflect prints them (`*int32` is `int32`, `[]v1.Container`, `v1.PullPolicy`),
pointer and omitempty tags, and the OpenAPI facts decoding, defaulting, explain and validation need
(format, required, list type and map keys, patch strategy, enum). Descriptions, needed only by
`explain`, go to a second file.

Two public sources, both at the 1.36.0 release:
- the Go types: k8s.io/api, k8s.io/apimachinery and k8s.io/kube-aggregator (APIService; git
  repositories, tag v0.36.0), read for struct fields, json tags and named types;
- the OpenAPI: kubernetes-validate's `kubernetes-json-schema/v1.36.0-local/_definitions.json` (the
  apiserver's OpenAPI v2 definitions, as JSON Schema), for descriptions, formats, list types, enums.

Usage:
  pip download --no-deps kubernetes-validate -d /tmp/kv && unzip -o /tmp/kv/*.whl -d /tmp/kv
  git clone --bare https://github.com/kubernetes/api /tmp/api.git
  git clone --bare https://github.com/kubernetes/apimachinery /tmp/apimachinery.git
  git clone --bare https://github.com/kubernetes/kube-aggregator /tmp/kube-aggregator.git
  python scripts/gen_builtin_openapi.py \\
      /tmp/kv/kubernetes_validate/kubernetes-json-schema/v1.36.0-local/_definitions.json \\
      /tmp/api.git /tmp/apimachinery.git /tmp/kube-aggregator.git
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

TAG = "v0.36.0"
OUT = Path(__file__).resolve().parent.parent / "crdtool" / "data"

#: Go import path prefix -> (repository key, path inside it); OpenAPI names are the import paths reversed.
_REPOS = {"k8s.io/api/": "api", "k8s.io/apimachinery/": "apimachinery", "k8s.io/kube-aggregator/": "kube-aggregator"}
#: Types decoded by their own UnmarshalJSON, by OpenAPI name: how the runtime reads them.
CUSTOM = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "intstr",
    "io.k8s.apimachinery.pkg.api.resource.Quantity": "quantity",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time": "time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": "microtime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Duration": "duration",
    "io.k8s.apimachinery.pkg.runtime.RawExtension": "any",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": "any",
}
_BASIC = {"string", "bool", "int32", "int64", "int", "float64", "uint8", "byte", "uint16", "uint32", "uint64",
          "float32", "int16", "int8"}
_FIELD = re.compile(r"^\t(?:(\w+)\s+)?([^\s`]+)\s*`([^`]*)`", re.M)
_TYPE = re.compile(r"^type (\w+) (.+)$", re.M)
_IMPORT = re.compile(r'^\s*(?:(\w+)\s+)?"([^"]+)"\s*$', re.M)


def git_files(repo: str, directory: str) -> list[str]:
    """The non-test .go files of one package at TAG."""
    out = subprocess.run(["git", "--git-dir", repo, "ls-tree", "--name-only", f"{TAG}:{directory}"],
                         capture_output=True, text=True, check=False).stdout.split()
    return [f"{directory}/{name}" for name in out if name.endswith(".go") and not name.endswith("_test.go")]


def git_show(repo: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, "show", f"{TAG}:{path}"], capture_output=True, text=True,
                          check=True).stdout


class Package:
    """One Go package's type declarations: structs (fields in order) and named types."""

    def __init__(self, import_path: str, repos: dict[str, str]) -> None:
        self.path = import_path
        self.name = import_path.rsplit("/", 1)[1]
        prefix = next(p for p in _REPOS if import_path.startswith(p))
        repo = repos[_REPOS[prefix]]
        self.structs: dict[str, list[tuple]] = {}  # name -> [(field, type, tag, imports, +default)]
        self.named: dict[str, tuple[str, dict]] = {}  # name -> (underlying type, imports)
        self.consts: dict[str, str] = {}  # string constants, for `+default=ref(Name)`
        for file in git_files(repo, import_path[len(prefix):]):
            self._read(git_show(repo, file))

    def _read(self, text: str) -> None:
        imports = {}
        block = re.search(r"^import \((.*?)^\)", text, re.M | re.S)
        lines = block.group(1) if block else ""
        lines += "\n".join(re.findall(r'^import (\w*\s*"[^"]+")', text, re.M))
        for alias, path in _IMPORT.findall(lines):
            imports[alias or path.rsplit("/", 1)[-1]] = path
        for m in re.finditer(r"^type (\w+) struct \{\n(.*?)^\}", text, re.M | re.S):
            fields = []
            default = None
            for line in m.group(2).splitlines(keepends=True):
                marker = re.match(r"\t// \+default=(.*)", line)
                if marker:
                    default = marker.group(1).strip()
                    continue
                if line.startswith("\t//") or not line.strip():
                    continue
                found = _FIELD.match(line)
                if found:
                    fields.append((*found.groups(), imports, default))
                default = None
            self.structs[m.group(1)] = fields
        self.consts.update(re.findall(r'^\t(\w+)\s+(?:\w+\s+)?=\s+"([^"]*)"', text, re.M))
        for name in re.findall(r"^type (\w+) struct\s*\{\s*\}", text, re.M):
            self.structs[name] = []
        for name, rest in _TYPE.findall(text):
            if not rest.startswith(("struct", "interface", "func")):
                self.named[name] = (rest.split("//")[0].strip(), imports)


def json_tag(tag: str) -> tuple[str | None, bool, bool]:
    """(json name, omitempty, inline) from a struct tag."""
    m = re.search(r'json:"([^"]*)"', tag)
    if m is None:
        return None, False, False
    name, *opts = m.group(1).split(",")
    return name, "omitempty" in opts, "inline" in opts


class Generator:
    def __init__(self, definitions: dict, repos: dict[str, str]) -> None:
        self.defs = definitions
        self.repos = repos
        self.packages: dict[str, Package] = {}

    def package(self, import_path: str) -> Package:
        if import_path not in self.packages:
            self.packages[import_path] = Package(import_path, self.repos)
        return self.packages[import_path]

    def type_node(self, typ: str, pkg: Package, imports: dict) -> dict:
        """A Go type expression as a node: go (reflect's String()), k (kind), e (element), ref (definition)."""
        if typ.startswith("*"):
            return self.type_node(typ[1:], pkg, imports)
        if typ.startswith("[]"):
            elem = self.type_node(typ[2:], pkg, imports)
            if elem["k"] == "uint8":
                return {"go": "[]uint8", "k": "bytes"}
            return {"go": "[]" + elem["go"], "k": "slice", "e": elem}
        if typ.startswith("map["):
            key, value = typ[4:].split("]", 1)
            key_node = self.type_node(key, pkg, imports)
            elem = self.type_node(value, pkg, imports)
            return {"go": f"map[{key_node['go']}]{elem['go']}", "k": "map", "e": elem}
        if typ in _BASIC:
            return {"go": "uint8" if typ == "byte" else typ, "k": "uint8" if typ == "byte" else typ}
        if "." in typ:
            alias, name = typ.split(".", 1)
            target = self.package(imports[alias])
        else:
            target, name = pkg, typ
        openapi = self.openapi_name(target.path, name)
        if openapi in CUSTOM or self.struct_of(target, name) is not None:
            return {"go": f"{target.name}.{name}", "k": "ref", "ref": openapi}
        underlying, inner_imports = target.named[name]
        if underlying.startswith("= "):  # an alias: the same type, under its own name
            return self.type_node(underlying[2:], target, inner_imports)
        node = dict(self.type_node(underlying, target, inner_imports))
        node["go"] = f"{target.name}.{name}"
        return node

    @staticmethod
    def openapi_name(import_path: str, name: str) -> str:
        host, *rest = import_path.split("/")
        return ".".join([*reversed(host.split(".")), *rest, name])

    def struct_of(self, pkg: Package, name: str) -> tuple[Package, str] | None:
        """Where a struct type's fields are declared (`type MatchCondition v1.MatchCondition` has v1's)."""
        if name in pkg.structs:
            return pkg, name
        underlying, imports = pkg.named.get(name, ("", {}))
        underlying = underlying.removeprefix("= ")
        if re.fullmatch(r"\w+\.\w+", underlying):
            alias, inner = underlying.split(".")
            return self.struct_of(self.package(imports[alias]), inner)
        if re.fullmatch(r"\w+", underlying) and underlying not in _BASIC:
            return self.struct_of(pkg, underlying)
        return None

    def fields(self, pkg: Package, struct: str) -> list[dict]:
        """The json fields of a struct in Go order, embedded (inline) structs flattened."""
        out = []
        pkg, struct = self.struct_of(pkg, struct)
        for name, typ, tag, imports, default in pkg.structs[struct]:
            json_name, omitempty, inline = json_tag(tag)
            if json_name == "-" or (json_name is None and name):
                continue
            if inline or (not name and not json_name):  # embedded, its fields promoted
                base = typ.lstrip("*")
                if "." in base:
                    alias, inner = base.split(".", 1)
                    out.extend(self.fields(self.package(imports[alias]), inner))
                else:
                    out.extend(self.fields(pkg, base))
                continue
            node = self.type_node(typ, pkg, imports)
            field = {"n": json_name or name, **node}
            if typ.startswith("*"):
                field["ptr"] = 1
            if omitempty:
                field["oe"] = 1
            if default is not None:  # a declarative default (+default=), as defaulter-gen reads it
                ref = re.fullmatch(r"ref\((\w+)\)", default)
                field["default"] = pkg.consts[ref.group(1)] if ref else json.loads(default)
            out.append(field)
        return out

    def definition(self, key: str, schema: dict) -> tuple[dict, dict]:
        """(types entry, descriptions entry) of one OpenAPI definition."""
        if key in CUSTOM:
            return {"custom": CUSTOM[key]}, {"": schema.get("description", "")}
        import_path, name = _go_name(key)
        pkg = self.package(import_path)
        entry: dict = {"go": f"{pkg.name}.{name}"}
        props = schema.get("properties", {})
        fields = self.fields(pkg, name)
        missing = set(props) - {f["n"] for f in fields}
        if missing:
            raise SystemExit(f"{key}: OpenAPI properties without a Go field: {sorted(missing)}")
        for f in fields:
            prop = props.get(f["n"], {})
            for src, dst in (("format", "format"), ("x-kubernetes-list-type", "listType"),
                             ("x-kubernetes-list-map-keys", "mapKeys"), ("x-kubernetes-patch-strategy", "patch"),
                             ("x-kubernetes-patch-merge-key", "mergeKey"), ("enum", "enum"),
                             ("x-kubernetes-map-type", "mapType")):
                if src in prop and not (src == "enum" and f["n"] in ("apiVersion", "kind")):
                    f[dst] = prop[src]
        entry["fields"] = fields
        if schema.get("required"):
            entry["required"] = schema["required"]
        gvk = schema.get("x-kubernetes-group-version-kind")
        if gvk:
            entry["gvk"] = [[g["group"], g["version"], g["kind"]] for g in gvk]
        descriptions = {"": schema.get("description", "")}
        descriptions.update({p: v["description"] for p, v in props.items() if v.get("description")})
        return entry, descriptions


def _go_name(key: str) -> tuple[str, str]:
    """io.k8s.api.apps.v1.DeploymentSpec -> (k8s.io/api/apps/v1, DeploymentSpec)."""
    parts = key.split(".")
    return f"{parts[1]}.{parts[0]}/" + "/".join(parts[2:-1]), parts[-1]


def main(definitions_path: str, api_repo: str, apimachinery_repo: str, aggregator_repo: str) -> None:
    raw = json.loads(Path(definitions_path).read_text(encoding="utf-8"))
    definitions = raw.get("$defs") or raw.get("definitions")
    gen = Generator(definitions, {"api": api_repo, "apimachinery": apimachinery_repo,
                                  "kube-aggregator": aggregator_repo})
    types, descriptions = {}, {}
    for key in sorted(definitions):
        if not key.startswith(("io.k8s.api.", "io.k8s.apimachinery.", "io.k8s.kube-aggregator.")):
            continue
        entry, described = gen.definition(key, definitions[key])
        types[key] = entry
        descriptions[key] = described
    kinds = {}
    for key, entry in types.items():
        for group, version, kind in entry.get("gvk", ()):
            if not key.startswith("io.k8s.apimachinery."):
                kinds[f"{group}/{version}/{kind}"] = key
    _write("builtin-types-1.36.json.gz", {"kubernetes": "1.36.0", "kinds": kinds, "definitions": types})
    _write("builtin-descriptions-1.36.json.gz", {"kubernetes": "1.36.0", "definitions": descriptions})


def _write(name: str, data: dict) -> None:
    text = json.dumps(data, separators=(",", ":"), sort_keys=False).encode()
    # mtime=0: the same sources give the same bytes
    (OUT / name).write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    print(f"{name}: {len(text)} bytes of JSON, {(OUT / name).stat().st_size} gzip'd")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
