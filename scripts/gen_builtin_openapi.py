"""Regenerate crdtool/data/builtin-types-1.36.json.gz and builtin-descriptions-1.36.json.gz.

The built-in kinds' types as kube-apiserver 1.36 decodes them: for every OpenAPI definition (keyed by
Go type name, e.g. io.k8s.api.apps.v1.DeploymentSpec), its Go struct fields in Go's order with their
json names, Go types as reflect prints them (`*int32` is `int32`, `[]v1.Container`, `v1.PullPolicy`),
pointer and omitempty tags, and the OpenAPI facts decoding, defaulting, explain, validation and
structured merge need (format, required, list type and map keys, patch strategy, map type of a field
and of a type, enum). Descriptions, needed only by `explain`, go to a second file.

Two public sources, both at the 1.36.0 release:
- the Go types: k8s.io/api, k8s.io/apimachinery and k8s.io/kube-aggregator (APIService; git
  repositories, tag v0.36.0), read for struct fields, json tags, named types and doc comments;
- the OpenAPI: kubernetes-validate's `kubernetes-json-schema/v1.36.0-local/_definitions.json` (the
  apiserver's OpenAPI v2 definitions, as JSON Schema), for descriptions, formats and list types.

That JSON Schema lacks what openapi-gen adds from the Go source (scripts/openapigen.py): the `enum`
values of fields of `+enum` string types and the `Possible enum values:` lines appended to their
descriptions (built from the constants of every k8s.io/api package), and the descriptions of
IntOrString and Quantity (their doc comments, published with their OpenAPI v3 shapes). Every other
description is checked against the one built from its Go doc comment; differences are reported.

Usage (with crdtool importable, e.g. after `pip install -e .`):
  pip download --no-deps kubernetes-validate -d /tmp/kv && unzip -o /tmp/kv/*.whl -d /tmp/kv
  git clone --bare https://github.com/kubernetes/api /tmp/api.git
  git clone --bare https://github.com/kubernetes/apimachinery /tmp/apimachinery.git
  git clone --bare https://github.com/kubernetes/kube-aggregator /tmp/kube-aggregator.git
  python scripts/gen_builtin_openapi.py \\
      /tmp/kv/kubernetes_validate/kubernetes-json-schema/v1.36.0-local/_definitions.json \\
      /tmp/api.git /tmp/apimachinery.git /tmp/kube-aggregator.git
"""

from __future__ import annotations

import ast
import gzip
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import openapigen

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
_CONST = re.compile(r"(\w+)(?:\s+(\*?[\w.]+))?(?:\s*=\s*(.+?))?\s*$")


def git_files(repo: str, directory: str) -> list[str]:
    """The non-test .go files of one package at TAG."""
    out = subprocess.run(["git", "--git-dir", repo, "ls-tree", "--name-only", f"{TAG}:{directory}"],
                         capture_output=True, text=True, check=False).stdout.split()
    return [f"{directory}/{name}" for name in out if name.endswith(".go") and not name.endswith("_test.go")]


def api_packages(repo: str) -> list[str]:
    """Every package of k8s.io/api at TAG: openapi-gen loads them all, so each one's constants count."""
    files = subprocess.run(["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", TAG], capture_output=True,
                           text=True, check=True).stdout.split()
    return sorted({"k8s.io/api/" + f.rsplit("/", 1)[0] for f in files
                   if "/" in f and f.endswith(".go") and not f.endswith("_test.go") and "testdata" not in f})


def git_show(repo: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, "show", f"{TAG}:{path}"], capture_output=True, text=True,
                          check=True).stdout


class Package:
    """One Go package's declarations: structs (fields in order), named types, string constants, and the
    doc comments openapi-gen reads (fields', types', constants')."""

    def __init__(self, import_path: str, sources: list[str]) -> None:
        self.path = import_path
        self.name = import_path.rsplit("/", 1)[1]
        self.structs: dict[str, list[tuple]] = {}  # name -> [(field, type, tag, imports, +default, doc)]
        self.named: dict[str, tuple[str, dict]] = {}  # name -> (underlying type, imports)
        self.consts: dict[str, str] = {}  # string constants, for `+default=ref(Name)`
        self.docs: dict[str, list[str]] = {}  # type name -> its doc comment lines
        self.const_specs: list[tuple] = []  # (name, declared type or None, expression, imports, doc)
        for text in sources:
            self._read(text)

    def _read(self, text: str) -> None:
        go = openapigen.GoFile(text)
        imports = {}
        block = re.search(r"^import \((.*?)^\)", text, re.M | re.S)
        lines = block.group(1) if block else ""
        lines += "\n".join(re.findall(r'^import (\w*\s*"[^"]+")', text, re.M))
        for alias, path in _IMPORT.findall(lines):
            imports[alias or path.rsplit("/", 1)[-1]] = path
        for m in re.finditer(r"^type (\w+) struct \{\n(.*?)^\}", text, re.M | re.S):
            fields = []
            default = None
            offset = m.start(2)
            for line in m.group(2).splitlines(keepends=True):
                start, offset = offset, offset + len(line)
                marker = re.match(r"\t// \+default=(.*)", line)
                if marker:
                    default = marker.group(1).strip()
                    continue
                if line.startswith("\t//") or not line.strip():
                    continue
                found = _FIELD.match(line)
                if found:
                    fields.append((*found.groups(), imports, default, go.doc(go.line(start))))
                default = None
            self.structs[m.group(1)] = fields
        self.consts.update(re.findall(r'^\t(\w+)\s+(?:\w+\s+)?=\s+"([^"]*)"', text, re.M))
        for name in re.findall(r"^type (\w+) struct\s*\{\s*\}", text, re.M):
            self.structs[name] = []
        for m in _TYPE.finditer(text):
            name, rest = m.groups()
            self.docs[name] = go.doc(go.line(m.start()))
            if not rest.startswith(("struct", "interface", "func")):
                self.named[name] = (rest.split("//")[0].strip(), imports)
        self._read_consts(go, imports)

    def _read_consts(self, go: openapigen.GoFile, imports: dict) -> None:
        """The constant specs, in blocks (`const (...)`, a spec without `=` repeating the one before, as
        Go does) and alone (`const X T = v`), read from the code without its comments."""
        for m in re.finditer(r"^const \((.*?)^\)|^const (\w+[^\n]*)$", go.code, re.M | re.S):
            previous = None
            offset = m.start(1) if m.group(1) is not None else m.start(2)
            for line in (m.group(1) or m.group(2)).splitlines(keepends=True):
                start, offset = offset, offset + len(line)
                spec = _CONST.match(line.strip())
                if spec is None:
                    continue
                name, typ, expr = spec.groups()
                if expr is None:
                    if previous is None:
                        continue
                    typ, expr = previous
                previous = (typ, expr)
                self.const_specs.append((name, typ, expr, imports, go.doc(go.line(start))))


def json_tag(tag: str) -> tuple[str | None, bool, bool]:
    """(json name, omitempty, inline) from a struct tag."""
    m = re.search(r'json:"([^"]*)"', tag)
    if m is None:
        return None, False, False
    name, *opts = m.group(1).split(",")
    return name, "omitempty" in opts, "inline" in opts


class Generator:
    def __init__(self, definitions: dict, read_package: Callable[[str], list[str]], universe: list[str]) -> None:
        self.defs = definitions
        self.read_package = read_package
        self.universe = universe  # the packages openapi-gen loads: every constant of theirs is an enum value
        self.packages: dict[str, Package] = {}
        self._enums: dict[tuple[str, str], list[openapigen.EnumValue]] | None = None
        self.disagreements: list[str] = []  # descriptions the two sources give differently

    def package(self, import_path: str) -> Package:
        if import_path not in self.packages:
            self.packages[import_path] = Package(import_path, self.read_package(import_path))
        return self.packages[import_path]

    def named_type(self, typ: str, pkg: Package, imports: dict) -> tuple[Package, str] | None:
        """The defined type a type name denotes, through aliases (`type ScopeType = v1.ScopeType`); None
        for a type outside the read repositories."""
        if "." in typ:
            alias, typ = typ.split(".", 1)
            if not imports.get(alias, "").startswith(tuple(_REPOS)):
                return None
            pkg = self.package(imports[alias])
        underlying, inner = pkg.named.get(typ, ("", {}))
        if underlying.startswith("= "):
            return self.named_type(underlying[2:], pkg, inner)
        return pkg, typ

    def _is_string(self, pkg: Package, name: str) -> bool:
        """Whether a defined type's underlying type is string."""
        underlying, imports = pkg.named.get(name, ("", {}))
        if underlying == "string":
            return True
        if underlying in _BASIC or not re.fullmatch(r"[\w.]+", underlying):
            return False
        target = self.named_type(underlying, pkg, imports)
        return target is not None and self._is_string(*target)

    def enums(self) -> dict[tuple[str, str], list[openapigen.EnumValue]]:
        """Every enum type (package path, name) with its values: a string type whose doc comment has
        `+enum`, and every constant of that type in the universe (openapi-gen's parseEnums)."""
        if self._enums is not None:
            return self._enums
        enums: dict[tuple[str, str], list[openapigen.EnumValue]] = {}
        aliases = []
        for path in self.universe:
            pkg = self.package(path)
            for name, (underlying, imports) in pkg.named.items():
                if underlying.startswith("= "):
                    aliases.append((pkg, name, underlying[2:], imports))
                elif openapigen.has_tag(pkg.docs.get(name, []), "enum") and self._is_string(pkg, name):
                    enums[(path, name)] = []
        for pkg, name, target, imports in aliases:
            # gengo gives a defined type the doc comment of an alias of it: they must agree on `+enum`
            found = self.named_type(target, pkg, imports)
            if found is not None and self._is_string(*found) and (
                    openapigen.has_tag(pkg.docs.get(name, []), "enum") != ((found[0].path, found[1]) in enums)):
                raise SystemExit(f"{pkg.path}.{name}: an alias and its type disagree on +enum")
        for path in self.universe:
            pkg = self.package(path)
            for name, *_, doc in sorted(pkg.const_specs):
                key, value = self.constant(pkg, name)
                if key in enums:
                    if value is None:
                        raise SystemExit(f"{path}.{name}: the value of an enum constant is not understood")
                    openapigen.add_value(enums[key], openapigen.EnumValue(name, value, " ".join(doc)))
        self._enums = enums
        return enums

    def constant(self, pkg: Package, name: str) -> tuple[tuple[str, str] | None, str | None]:
        """A constant's type (package path, name; None when untyped) and string value (None if not a string)."""
        spec = next((s for s in pkg.const_specs if s[0] == name), None)
        if spec is None:
            return None, None
        _, typ, expr, imports, _ = spec
        key, value = self.expression(pkg, expr, imports)
        if typ:
            found = self.named_type(typ, pkg, imports)
            key = (found[0].path, found[1]) if found else None
        return key, value

    def expression(self, pkg: Package, expr: str, imports: dict) -> tuple[tuple[str, str] | None, str | None]:
        """The type and string value of a constant expression: a literal, a conversion, or a constant."""
        if re.fullmatch(r'"(?:[^"\\]|\\.)*"', expr):
            return None, ast.literal_eval(expr)
        if re.fullmatch(r"`[^`]*`", expr):
            return None, expr[1:-1]
        conversion = re.fullmatch(r"([\w.]+)\((.+)\)", expr)
        if conversion:
            found = self.named_type(conversion.group(1), pkg, imports)
            _, value = self.expression(pkg, conversion.group(2), imports)
            return ((found[0].path, found[1]) if found else None), value
        if re.fullmatch(r"\w+", expr):
            return self.constant(pkg, expr)
        qualified = re.fullmatch(r"(\w+)\.(\w+)", expr)
        if qualified and imports.get(qualified.group(1), "").startswith(tuple(_REPOS)):
            return self.constant(self.package(imports[qualified.group(1)]), qualified.group(2))
        return None, None

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
        values = self.enums().get((target.path, name))
        if values:
            node["enum"] = openapigen.enum_values(values)
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
        for name, typ, tag, imports, default, doc in pkg.structs[struct]:
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
            own = self.named_type(typ.lstrip("*"), pkg, imports) if re.fullmatch(r"\*?[\w.]+", typ) else None
            field = {"n": json_name or name, **node, "_doc": doc,
                     "_enum": self.enums().get((own[0].path, own[1])) if own else None}
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
        import_path, name = _go_name(key)
        pkg = self.package(import_path)
        described = self.described(key, schema.get("description", ""), pkg.docs.get(name, []))
        if key in CUSTOM:
            # IntOrString and Quantity publish their OpenAPI v3 shape with their doc comment, which
            # the OpenAPI v2 document read here leaves out
            return {"custom": CUSTOM[key]}, {"": described or openapigen.description(pkg.docs.get(name, []))}
        entry: dict = {"go": f"{pkg.name}.{name}"}
        props = schema.get("properties", {})
        fields = self.fields(pkg, name)
        missing = set(props) - {f["n"] for f in fields}
        if missing:
            raise SystemExit(f"{key}: OpenAPI properties without a Go field: {sorted(missing)}")
        descriptions = {"": described}
        descriptions.update({p: v["description"] for p, v in props.items() if v.get("description")})
        for f in fields:
            doc, values = f.pop("_doc"), f.pop("_enum")
            prop = props.get(f["n"], {})
            for src, dst in (("format", "format"), ("x-kubernetes-list-type", "listType"),
                             ("x-kubernetes-list-map-keys", "mapKeys"), ("x-kubernetes-patch-strategy", "patch"),
                             ("x-kubernetes-patch-merge-key", "mergeKey"), ("x-kubernetes-map-type", "mapType")):
                if src in prop:
                    f[dst] = prop[src]
            if f["n"] not in props:
                continue
            text = self.described(f"{key}.{f['n']}", prop.get("description", ""), doc)
            if values:  # openapi-gen appends the enum's lines to the field's doc comment
                text = openapigen.description(doc + openapigen.enum_lines(values))
            if text:
                descriptions[f["n"]] = text
        entry["fields"] = fields
        if schema.get("required"):
            entry["required"] = schema["required"]
        if "x-kubernetes-map-type" in schema:  # +structType / +mapType of the type itself
            entry["mapType"] = schema["x-kubernetes-map-type"]
        gvk = schema.get("x-kubernetes-group-version-kind")
        if gvk:
            entry["gvk"] = [[g["group"], g["version"], g["kind"]] for g in gvk]
        return entry, descriptions

    def described(self, where: str, published: str, doc: list[str]) -> str:
        """The published description, checked against the one built from the Go doc comment (the two
        sources must agree; a difference is reported)."""
        built = openapigen.description(doc)
        if published and built != published:
            self.disagreements.append(where)
        return published

def _go_name(key: str) -> tuple[str, str]:
    """io.k8s.api.apps.v1.DeploymentSpec -> (k8s.io/api/apps/v1, DeploymentSpec)."""
    parts = key.split(".")
    return f"{parts[1]}.{parts[0]}/" + "/".join(parts[2:-1]), parts[-1]


def main(definitions_path: str, api_repo: str, apimachinery_repo: str, aggregator_repo: str) -> None:
    raw = json.loads(Path(definitions_path).read_text(encoding="utf-8"))
    definitions = raw.get("$defs") or raw.get("definitions")
    repos = {"api": api_repo, "apimachinery": apimachinery_repo, "kube-aggregator": aggregator_repo}

    def read_package(import_path: str) -> list[str]:
        prefix = next(p for p in _REPOS if import_path.startswith(p))
        repo = repos[_REPOS[prefix]]
        return [git_show(repo, file) for file in git_files(repo, import_path[len(prefix):])]

    gen = Generator(definitions, read_package, api_packages(api_repo))
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
    if gen.disagreements:
        print(f"{len(gen.disagreements)} descriptions differ from their Go doc comments: {gen.disagreements[:20]}")
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
