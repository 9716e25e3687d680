"""The Kubernetes 1.36 discovery of built-in kinds: the data file and its lookups."""

from __future__ import annotations

import importlib.util
import json
import re
from importlib import resources
from pathlib import Path

import pytest
from imported import imported_by

from crdtool.model import discovery
from crdtool.model.discovery import Status, lookup_kind, resources_for

S, NS, NK, CR, INV = Status.SERVED, Status.NOT_SERVED, Status.NO_SUCH_KIND, Status.CUSTOM, Status.INVALID


@pytest.mark.parametrize(("api_version", "kind", "status", "namespaced"), [
    ("v1", "ConfigMap", S, True),
    ("v1", "configmap", NK, None),             # kinds are case-sensitive
    ("v1", "Namespace", S, False),
    ("v1", "Binding", S, True),
    ("apps/v1", "Deployment", S, True),
    ("extensions/v1beta1", "Deployment", NS, None),
    ("extensions/v1beta1", "Ingress", NS, None),
    ("apps/v1beta1", "Deployment", NS, None),
    ("apps/v1beta2", "StatefulSet", NS, None),
    ("apps/v2", "Deployment", NK, None),        # a built-in group without such a version
    ("policy/v1beta1", "PodSecurityPolicy", NS, None),
    ("policy/v1beta1", "PodDisruptionBudget", NS, None),
    ("policy/v1", "PodDisruptionBudget", S, True),
    ("policy/v1", "Eviction", NK, None),        # a subresource's kind maps no document
    ("batch/v1", "CronJob", S, True),
    ("batch/v1beta1", "CronJob", NS, None),
    ("autoscaling/v2", "HorizontalPodAutoscaler", S, True),
    ("autoscaling/v1", "HorizontalPodAutoscaler", S, True),
    ("autoscaling/v2beta1", "HorizontalPodAutoscaler", NS, None),
    ("autoscaling/v2beta2", "HorizontalPodAutoscaler", NS, None),
    ("autoscaling/v1", "Scale", NK, None),
    ("networking.k8s.io/v1beta1", "Ingress", NS, None),
    ("networking.k8s.io/v1", "IngressClass", S, False),
    ("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", NS, None),
    ("flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema", NS, None),
    ("flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration", NS, None),
    ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", S, False),
    ("storage.k8s.io/v1beta1", "CSIStorageCapacity", NS, None),
    ("storage.k8s.io/v1", "CSIStorageCapacity", S, True),
    ("storage.k8s.io/v1", "VolumeAttributesClass", S, False),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", S, False),
    ("admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy", S, False),   # GA in 1.36
    ("admissionregistration.k8s.io/v1beta1", "MutatingAdmissionPolicy", NS, None),
    ("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicy", NS, None),
    ("resource.k8s.io/v1", "ResourceClaim", S, True),                           # DRA GA since 1.34
    ("resource.k8s.io/v1", "ResourceSlice", S, False),
    ("resource.k8s.io/v1beta2", "DeviceTaintRule", NS, None),
    ("coordination.k8s.io/v1beta1", "LeaseCandidate", NS, None),
    ("storagemigration.k8s.io/v1beta1", "StorageVersionMigration", NS, None),
    ("internal.apiserver.k8s.io/v1alpha1", "StorageVersion", NS, None),
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition", S, False),
    ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", NS, None),
    ("apiregistration.k8s.io/v1", "APIService", S, False),
    ("stable.example.com/v1", "CronTab", CR, None),
    ("gateway.networking.k8s.io/v1", "HTTPRoute", CR, None),
    ("apps/v1/extra", "Deployment", INV, None),
    ("", "ConfigMap", INV, None),
    ("v1", "", INV, None),
])
def test_lookup_table(api_version, kind, status, namespaced):
    found = lookup_kind(api_version, kind)
    assert found.status is status
    if status is S:
        assert found.builtin is not None and found.builtin.kind == kind
        assert found.builtin.namespaced is namespaced
    else:
        assert found.builtin is None
    assert found.no_match is (status in (NS, NK))
    assert found.is_builtin is (status in (S, NS, NK))


def test_served_kind_carries_discovery_names():
    deploy = lookup_kind("apps/v1", "Deployment").builtin
    assert (deploy.resource, deploy.singular, deploy.short_names) == ("deployments", "deployment", ("deploy",))
    assert deploy.subresources == ("scale", "status")
    assert deploy.api_version == "apps/v1"
    assert lookup_kind("v1", "Pod").builtin.short_names == ("po",)
    assert "resize" in lookup_kind("v1", "Pod").builtin.subresources
    assert lookup_kind("v1", "PersistentVolumeClaim").builtin.short_names == ("pvc",)
    assert lookup_kind("apiextensions.k8s.io/v1", "CustomResourceDefinition").builtin.short_names == ("crd", "crds")


def test_removed_versions_name_release_and_replacement():
    ext = lookup_kind("extensions/v1beta1", "Ingress")
    assert (ext.removed_in, ext.replacement, ext.enableable) == ("1.22", "networking.k8s.io/v1", False)
    assert lookup_kind("batch/v1beta1", "CronJob").removed_in == "1.25"
    assert lookup_kind("autoscaling/v2beta2", "HorizontalPodAutoscaler").removed_in == "1.26"
    assert lookup_kind("storage.k8s.io/v1beta1", "CSIStorageCapacity").removed_in == "1.27"
    assert lookup_kind("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema").removed_in == "1.32"
    off = lookup_kind("admissionregistration.k8s.io/v1beta1", "MutatingAdmissionPolicy")
    assert (off.removed_in, off.enableable) == (None, True)   # beta, off by default, not yet removed


def test_no_match_texts_are_kubectls():
    assert lookup_kind("v1", "configmap").message() == 'no matches for kind "configmap" in version "v1"'
    assert (lookup_kind("extensions/v1beta1", "Deployment").message()
            == 'no matches for kind "Deployment" in version "extensions/v1beta1"')
    assert discovery.no_kind_match_message('Con"fig\n', "", "v1") == r'no matches for kind "Con\"fig\n" in version "v1"'
    assert discovery.mapping_not_found_message("x", "", "file.yaml", lookup_kind("v1", "configmap").message()) == (
        'resource mapping not found for name: "x" namespace: "" from "file.yaml": '
        'no matches for kind "configmap" in version "v1"\nensure CRDs are installed first')


def test_alternatives_point_at_the_served_kind():
    assert [k.api_version for k in lookup_kind("v1", "configmap").alternatives()] == ["v1"]
    assert [k.api_version for k in lookup_kind("apps/v1beta2", "Deployment").alternatives()] == ["apps/v1"]
    assert [k.api_version for k in lookup_kind("autoscaling/v2beta1", "HorizontalPodAutoscaler").alternatives()] == [
        "autoscaling/v2", "autoscaling/v1"]


def test_versionless_api_version_takes_the_preferred_version():
    # ParseGroupVersion("apps/") has no version: the RESTMapper then takes the kind's preferred version
    assert lookup_kind("apps/", "Deployment").builtin.api_version == "apps/v1"
    assert lookup_kind("autoscaling/", "HorizontalPodAutoscaler").builtin.version == "v2"
    assert lookup_kind("apps/", "Pod").message() == 'no matches for kind "Pod" in version "apps/"'


def _names(found):
    return [(k.api_version, k.resource) for k in found]


@pytest.mark.parametrize(("name", "group", "expected"), [
    ("deploy", None, [("apps/v1", "deployments")]),
    ("deployments", None, [("apps/v1", "deployments")]),
    ("Deployment", None, [("apps/v1", "deployments")]),       # plural and singular ignore case
    ("DEPLOY", None, []),                                     # short names do not
    ("svc", None, [("v1", "services")]),
    ("cm", None, [("v1", "configmaps")]),
    ("po", None, [("v1", "pods")]),
    ("ns", None, [("v1", "namespaces")]),
    ("pvc", None, [("v1", "persistentvolumeclaims")]),
    ("pdb", None, [("policy/v1", "poddisruptionbudgets")]),
    ("crds", None, [("apiextensions.k8s.io/v1", "customresourcedefinitions")]),
    ("hpa", None, [("autoscaling/v2", "horizontalpodautoscalers"), ("autoscaling/v1", "horizontalpodautoscalers")]),
    ("ev", None, [("v1", "events"), ("events.k8s.io/v1", "events")]),
    ("events", "events.k8s.io", [("events.k8s.io/v1", "events")]),
    ("ev", "events.k8s.io", [("events.k8s.io/v1", "events")]),
    ("deploy", "extensions", []),
    ("crontabs", None, []),
])
def test_resources_for(name, group, expected):
    assert _names(resources_for(name, group)) == expected


# ---------------------------------------------------------------- the data file

def _data() -> dict:
    text = resources.files("crdtool").joinpath("data", "discovery-1.36.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_data_file_is_consistent():
    data = _data()
    assert data["kubernetes"] == "1.36"
    groups = [g["group"] for g in data["groups"]]
    assert groups[0] == "" and len(groups) == len(set(groups))
    served = set()
    for group in data["groups"]:
        for version in group["versions"]:
            gv = f"{group['group']}/{version['version']}" if group["group"] else version["version"]
            assert re.fullmatch(r"v[0-9]+", version["version"]), f"{gv}: only GA versions are on by default"
            served.add(gv)
            kinds = [k["kind"] for k in version["kinds"]]
            assert kinds and len(kinds) == len(set(kinds))
            for k in version["kinds"]:
                assert set(k) <= {"kind", "resource", "singular", "namespaced", "shortNames", "subresources",
                                  "categories"}
                assert re.fullmatch(r"[A-Z][A-Za-z0-9]*", k["kind"])
                assert re.fullmatch(r"[a-z0-9]+", k["resource"]) and re.fullmatch(r"[a-z0-9]+", k["singular"])
                assert k["singular"] == k["kind"].lower()
                assert isinstance(k["namespaced"], bool)
                assert all(re.fullmatch(r"[a-z0-9]+", s) for s in k.get("shortNames", []) + k.get("subresources", []))
    assert not served & set(data["notServed"])
    for gv, entry in data["notServed"].items():
        assert isinstance(entry["enableable"], bool)
        for removed, replacement in entry["kinds"].values():
            assert removed is None or tuple(map(int, removed.split("."))) <= (1, 36), gv
            assert replacement is None or replacement in served or replacement in data["notServed"], gv


def test_data_counts():
    data = _data()
    versions = [v for g in data["groups"] for v in g["versions"]]
    assert (len(data["groups"]), len(versions), sum(len(v["kinds"]) for v in versions)) == (21, 22, 68)


def test_help_does_not_load_the_discovery():
    assert imported_by(["--help"], ("crdtool.model.discovery",)).modules == []


# ---------------------------------------------------------------- the generator

def _generator():
    path = Path(__file__).resolve().parents[3] / "scripts" / "gen_discovery.py"
    spec = importlib.util.spec_from_file_location("gen_discovery", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generator_reads_types_and_lifecycle(tmp_path):
    gen = _generator()
    folder = tmp_path / "networking" / "v1beta1"
    folder.mkdir(parents=True)
    (folder / "doc.go").write_text("// +groupName=networking.k8s.io\npackage v1beta1\n")
    (folder / "register.go").write_text("scheme.AddKnownTypes(SchemeGroupVersion,\n&Ingress{},\n&IngressList{},\n"
                                        "&IngressClass{},\n&IPAddress{},\n)\n")
    (folder / "zz_generated.prerelease-lifecycle.go").write_text(
        "func (in *Ingress) APILifecycleRemoved() (major, minor int) {\n\treturn 1, 22\n}\n"
        "func (in *IngressClass) APILifecycleReplacement() schema.GroupVersionKind {\n"
        '\treturn schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClassList"}\n}\n'
        "func (in *IPAddress) APILifecycleRemoved() (major, minor int) {\n\treturn 1, 37\n}\n")
    types = gen.read_types(tmp_path)
    entry = types["networking.k8s.io/v1beta1"]
    assert entry["kinds"] == {"Ingress", "IngressClass", "IPAddress"}
    assert entry["lifecycle"]["Ingress"] == [(1, 22), None]
    assert entry["lifecycle"]["IngressClass"] == [None, ("networking.k8s.io", "v1", "IngressClass")]
    assert not gen._removed(entry["lifecycle"]["IPAddress"][0])   # removed after 1.36: still enableable
