#!/usr/bin/env python3
"""Write crdtool/data/discovery-1.36.json: the kinds a default Kubernetes 1.36 kube-apiserver serves.

    python scripts/gen_discovery.py --discovery K8S/api/discovery \\
        --types K8S_API --types APIEXTENSIONS/pkg/apis --types KUBE_AGGREGATOR/pkg/apis \\
        --older-types K8S_API_1_35 > crdtool/data/discovery-1.36.json

Inputs (all public Kubernetes sources):
- `--discovery`: kubernetes/kubernetes `api/discovery/` of a 1.36 tree: `aggregated_v2.json` (every
  group under /apis) and `api__v1.json` (the core group). hack/update-openapi-spec.sh records both
  from a kube-apiserver started with every API and feature gate on (`--runtime-config=api/all=true`,
  `AllAlpha=true,AllBeta=true`), so they list every group version that has REST storage, served by
  default or not, with each resource's scope, plural, singular, short names and subresources.
  The committed file was made from the stored versions at kubernetes/kubernetes commits
  2096ca7bdd4260e989d7882d87211fc94e9133e8 (aggregated_v2.json) and
  7c554ea1d91eddac32fcd89f37d7ed0347e1f311 (api__v1.json), cross-checked below against the v0.36.0
  types.
- `--types`: API type trees at their 1.36 tags: k8s.io/api v0.36.0, k8s.io/apiextensions-apiserver
  v0.36.0 `pkg/apis`, k8s.io/kube-aggregator v0.36.0 `pkg/apis`. Each `GROUP/VERSION/` folder gives
  the group name (doc.go `+groupName=` or register.go `GroupName`), its kinds (register.go) and,
  from zz_generated.prerelease-lifecycle.go, the release that stopped serving each kind and its
  replacement.
- `--older-types`: older trees (k8s.io/api v0.35.0) for group versions whose types were since
  deleted (autoscaling/v2beta1 and v2beta2 left k8s.io/api in 1.36); only those versions are read.

Which group versions a default 1.36 apiserver serves is DEFAULT_ENABLED below: kubernetes/kubernetes
pkg/controlplane/instance.go `stableAPIGroupVersionsEnabledByDefault` (read at commit
0b1dcaba0a3f1fdcfe5fbb6516d68ffc8e625d81) plus resource.k8s.io/v1 (GA and on by default since 1.34),
with apiextensions.k8s.io/v1 and apiregistration.k8s.io/v1 from their own servers. Every beta and
alpha version is off by default (KEP-3136; the last legacy beta resources, flowcontrol v1beta3, were
removed in 1.32). Every resource of those versions is on in 1.36: the feature gates that guard
some of them (MutatingAdmissionPolicy GA in 1.36, DynamicResourceAllocation, VolumeAttributesClass,
MultiCIDRServiceAllocator) are all on by default.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

TARGET = (1, 36)

DEFAULT_ENABLED = frozenset({
    "v1", "admissionregistration.k8s.io/v1", "apps/v1", "authentication.k8s.io/v1", "authorization.k8s.io/v1",
    "autoscaling/v1", "autoscaling/v2", "batch/v1", "certificates.k8s.io/v1", "coordination.k8s.io/v1",
    "discovery.k8s.io/v1", "events.k8s.io/v1", "networking.k8s.io/v1", "node.k8s.io/v1", "policy/v1",
    "rbac.authorization.k8s.io/v1", "storage.k8s.io/v1", "scheduling.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1",
    "resource.k8s.io/v1", "apiextensions.k8s.io/v1", "apiregistration.k8s.io/v1",
})

# Subresources added after the stored api__v1.json: pods/resize (in-place pod resize; the
# subresource since 1.33, the feature GA in 1.35, kubectl 1.36 lists it among its --subresource values).
ADDED_SUBRESOURCES = {("", "v1", "pods"): ("resize",)}

# API groups of k8s.io/api whose types are never served as resources (webhook payloads, discovery
# documents): a document of these groups is not a built-in object kubectl could map.
NON_RESOURCE_GROUPS = frozenset({"admission.k8s.io", "apidiscovery.k8s.io", "imagepolicy.k8s.io"})

_KIND = re.compile(r"&(\w+)\{\}")
_LIFECYCLE = re.compile(r"func \(in \*(\w+)\) APILifecycle(Removed|Replacement)\(\)[^{]*\{\s*return ([^\n]*)\n")
_REPLACEMENT = re.compile(r'Group: "([^"]*)", Version: "([^"]*)", Kind: "([^"]*)"')


def gv_text(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def read_discovery(folder: Path) -> list[tuple[str, list[tuple[str, list[dict]]]]]:
    """Groups in discovery order (core first), each with its versions in preference order and each
    version's top-level resources as {kind, resource, singular, namespaced, shortNames, ...}."""
    core = json.loads((folder / "api__v1.json").read_text(encoding="utf-8"))
    subs: dict[str, list[str]] = {}
    for res in core["resources"]:
        name, _, sub = res["name"].partition("/")
        if sub:
            subs.setdefault(name, []).append(sub)
    core_kinds = [
        _resource(res["kind"], res["name"], res["singularName"], res["namespaced"], res.get("shortNames"),
                  subs.get(res["name"], []) + list(ADDED_SUBRESOURCES.get(("", "v1", res["name"]), ())),
                  res.get("categories"))
        for res in core["resources"] if "/" not in res["name"]]
    groups = [("", [("v1", core_kinds)])]
    aggregated = json.loads((folder / "aggregated_v2.json").read_text(encoding="utf-8"))
    for item in aggregated["items"]:
        versions = []
        for v in item["versions"]:
            kinds = [_resource(r["responseKind"]["kind"], r["resource"], r["singularResource"],
                               r["scope"] == "Namespaced", r.get("shortNames"),
                               [s["subresource"] for s in r.get("subresources", [])], r.get("categories"))
                     for r in v["resources"]]
            versions.append((v["version"], kinds))
        groups.append((item["metadata"]["name"], versions))
    return groups


def _resource(kind, plural, singular, namespaced, short, subresources, categories) -> dict:
    out = {"kind": kind, "resource": plural, "singular": singular, "namespaced": namespaced}
    for key, value in (("shortNames", short), ("subresources", sorted(subresources or ())),
                       ("categories", categories)):
        if value:
            out[key] = list(value)
    return out


def read_types(root: Path) -> dict[str, dict]:
    """`group/version` -> {"group", "version", "kinds": set, "lifecycle": {kind: (removed, replacement)}}."""
    out = {}
    for register in sorted(root.glob("*/*/register.go")):
        folder = register.parent
        group = _group_name(folder)
        if group is None:
            continue
        kinds = {k for k in _KIND.findall(register.read_text(encoding="utf-8")) if not k.endswith("List")}
        lifecycle: dict[str, list] = {}
        generated = folder / "zz_generated.prerelease-lifecycle.go"
        if generated.exists():
            for kind, what, value in _LIFECYCLE.findall(generated.read_text(encoding="utf-8")):
                if kind.endswith("List"):
                    continue
                entry = lifecycle.setdefault(kind, [None, None])
                if what == "Removed":
                    major, minor = (int(x) for x in value.split(","))
                    entry[0] = (major, minor)
                elif m := _REPLACEMENT.search(value):
                    # replacement tags name the kind; one upstream tag (networking.k8s.io/v1beta1
                    # IngressClass) names its List by mistake
                    entry[1] = (m.group(1), m.group(2), m.group(3).removesuffix("List") if not kind.endswith("List")
                                else m.group(3))
        out[gv_text(group, folder.name)] = {"group": group, "version": folder.name, "kinds": kinds,
                                            "lifecycle": lifecycle}
    return out


def _group_name(folder: Path) -> str | None:
    for name, pattern in (("doc.go", r"\+groupName=(\S*)"), ("register.go", r'const GroupName = "([^"]*)"')):
        path = folder / name
        if path.exists() and (m := re.search(pattern, path.read_text(encoding="utf-8"))):
            return m.group(1)
    return None


def build(discovery: list, types: dict[str, dict]) -> dict:
    top_level_kinds = {k["kind"] for _, versions in discovery for _, kinds in versions for k in kinds}
    discovered = {gv_text(g, v): kinds for g, versions in discovery for v, kinds in versions}
    ga = {gv for gv in discovered if re.fullmatch(r"v[0-9]+", gv.rpartition("/")[2])}
    if ga != DEFAULT_ENABLED:
        sys.exit(f"GA versions in discovery {sorted(ga ^ DEFAULT_ENABLED)} differ from DEFAULT_ENABLED")

    served = []
    for group, versions in discovery:
        enabled = [(v, kinds) for v, kinds in versions if gv_text(group, v) in DEFAULT_ENABLED]
        for v, kinds in enabled:
            typed = types.get(gv_text(group, v))
            missing = {k["kind"] for k in kinds} - typed["kinds"] if typed else set()
            if missing:
                sys.exit(f"{gv_text(group, v)}: discovery kinds {sorted(missing)} have no 1.36 types")
        if enabled:
            served.append({"group": group, "versions": [{"version": v, "kinds": kinds} for v, kinds in enabled]})

    groups = {g for g, _ in discovery} | {t["group"] for t in types.values() if t["group"] not in NON_RESOURCE_GROUPS
                                          and any(_removed(lc[0]) for lc in t["lifecycle"].values())}
    not_served = {}
    for gv in sorted(set(discovered) | {gv for gv, t in types.items() if t["group"] in groups}):
        if gv in DEFAULT_ENABLED:
            continue
        typed = types.get(gv)
        lifecycle = typed["lifecycle"] if typed else {}
        # kinds of the stored discovery that the 1.36 types do not have are not 1.36's
        kinds = {k["kind"] for k in discovered.get(gv, []) if typed is None or k["kind"] in typed["kinds"]}
        kinds |= (typed["kinds"] if typed else set()) & top_level_kinds
        entry: dict = {"enableable": gv in discovered, "kinds": {}}
        for kind in sorted(kinds):
            removed, replacement = lifecycle.get(kind, (None, None))
            removed = removed if _removed(removed) else None
            entry["kinds"][kind] = [
                f"{removed[0]}.{removed[1]}" if removed else None,
                gv_text(*replacement[:2]) if replacement and replacement[2] == kind else None,
            ]
        not_served[gv] = entry
    return {"kubernetes": f"{TARGET[0]}.{TARGET[1]}", "groups": served, "notServed": not_served}


def _removed(release: tuple[int, int] | None) -> bool:
    return release is not None and release <= TARGET


def dump(data: dict) -> str:
    """Compact JSON with one kind or one not-served group version a line, for readable diffs."""
    def one(value) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    lines = ["{", f'"kubernetes":{one(data["kubernetes"])},', '"groups":[']
    for gi, group in enumerate(data["groups"]):
        lines.append(f'{{"group":{one(group["group"])},"versions":[')
        for vi, version in enumerate(group["versions"]):
            lines.append(f'{{"version":{one(version["version"])},"kinds":[')
            kinds = version["kinds"]
            lines += [one(k) + ("," if i < len(kinds) - 1 else "") for i, k in enumerate(kinds)]
            lines.append("]}" + ("," if vi < len(group["versions"]) - 1 else ""))
        lines.append("]}" + ("," if gi < len(data["groups"]) - 1 else ""))
    lines += ["],", '"notServed":{']
    items = list(data["notServed"].items())
    lines += [f"{one(gv)}:{one(entry)}" + ("," if i < len(items) - 1 else "") for i, (gv, entry) in enumerate(items)]
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--discovery", type=Path, required=True)
    parser.add_argument("--types", type=Path, action="append", default=[])
    parser.add_argument("--older-types", type=Path, action="append", default=[])
    args = parser.parse_args()
    types: dict[str, dict] = {}
    for root in args.types:
        types.update(read_types(root))
    for root in args.older_types:
        for gv, t in read_types(root).items():
            types.setdefault(gv, t)
    sys.stdout.write(dump(build(read_discovery(args.discovery), types)))


if __name__ == "__main__":
    main()
