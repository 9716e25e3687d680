"""ApplyConfiguration mutations of built-in objects: the structured-merge types of the built-in kinds
(k8s.io/api v0.36.0's `+listType`, `+listMapKey`, `+mapType`, `+structType`, `+patchStrategy`
markers and openapi-gen's defaults, as /openapi/v3 publishes them), and k8s.io/apiserver
pkg/admission/plugin/policy/mutating/patch/smd_test.go (TestApplyConfiguration, its cases by name, on
the real apps/v1 Deployment types) and plugin_test.go (TestSSAPatch on a ConfigMap, TestSSAMapList
on a Pod)."""

from __future__ import annotations

from typing import Any

import pytest
from smd_cases import IN_CONTAINER, REFUSED, Case, assert_applies, smd_test_go_cases

from crdtool.admission.policy import smd
from crdtool.admission.policy.model import Policy
from crdtool.admission.policy.patchers import compile_mutator

DEPLOYMENT = smd.types_for_builtin("apps", "v1", "Deployment")
POD = ["spec", "template", "spec"]
CONTAINER = [*POD, "containers", "[]"]


def _atom(types: smd.Types | None, *path: str) -> smd.Atom:
    """The atom at a path of field names (`[]`: a list's items)."""
    assert types is not None
    ref = types.root
    for step in path:
        atom = types.resolve(ref)
        assert atom is not None
        if step == "[]":
            assert atom.list is not None
            ref = atom.list.element
        else:
            assert atom.map is not None
            ref = atom.map.fields[step].type
    found = types.resolve(ref)
    assert found is not None
    return found


# (path, relationship, keys): each list's merge as k8s.io/api's markers give it
LISTS = [
    ((*POD, "containers"), "associative", ["name"]),  # +listType=map +listMapKey=name
    ((*CONTAINER, "env"), "associative", ["name"]),
    ((*POD, "volumes"), "associative", ["name"]),  # patchStrategy merge,retainKeys
    ((*CONTAINER, "ports"), "associative", ["containerPort", "protocol"]),  # listType wins over patchMergeKey
    ((*POD, "tolerations"), "atomic", []),  # +listType=atomic
    ((*CONTAINER, "args"), "atomic", []),  # +listType=atomic
    (("metadata", "finalizers"), "associative", []),  # +listType=set
    (("metadata", "ownerReferences"), "associative", ["uid"]),
]


@pytest.mark.parametrize(("path", "relationship", "keys"), LISTS, ids=[p[-1] for p, _, _ in LISTS])
def test_the_list_types_of_a_deployment(path: tuple[str, ...], relationship: str, keys: list[str]) -> None:
    lst = _atom(DEPLOYMENT, *path).list
    assert lst is not None and (lst.relationship, lst.keys) == (relationship, keys)


def test_the_map_and_struct_types_of_a_deployment() -> None:
    selector = _atom(DEPLOYMENT, "spec", "selector").map  # LabelSelector: +structType=atomic
    node_selector = _atom(DEPLOYMENT, *POD, "nodeSelector").map  # the field's +mapType=atomic
    labels = _atom(DEPLOYMENT, "metadata", "labels").map
    pull_secret = _atom(DEPLOYMENT, *POD, "imagePullSecrets", "[]").map  # LocalObjectReference
    assert selector is not None and node_selector is not None and labels is not None and pull_secret is not None
    assert (selector.relationship, node_selector.relationship, labels.relationship,
            pull_secret.relationship) == ("atomic", "atomic", "", "atomic")


def test_a_fields_map_type_overrides_its_types() -> None:
    """PersistentVolumeSpec.claimRef: an ObjectReference (+structType=atomic) made granular."""
    claim = _atom(smd.types_for_builtin("", "v1", "PersistentVolume"), "spec", "claimRef").map
    reference = _atom(smd.types_for_builtin("", "v1", "Pod"), "spec", "containers", "[]", "env", "[]", "valueFrom",
                      "fieldRef").map
    assert claim is not None and reference is not None
    assert (claim.relationship, reference.relationship) == ("separable", "atomic")


def test_key_fields_default_as_openapi_gen_writes_them() -> None:
    """A `+default` marker's value (ContainerPort.protocol), else the zero value of a field neither a
    pointer nor omitempty (containerPort, a container's name), else none (hostPort)."""
    port = _atom(DEPLOYMENT, *CONTAINER, "ports", "[]").map
    container = _atom(DEPLOYMENT, *CONTAINER).map
    assert port is not None and container is not None
    assert {k: f.default for k, f in port.fields.items() if k in ("protocol", "containerPort", "hostPort")} == {
        "protocol": "TCP", "containerPort": 0, "hostPort": None}
    assert container.fields["name"].default == ""


def test_a_kind_the_vendored_types_lack_has_none() -> None:
    assert smd.types_for_builtin("stable.example.com", "v1", "CronTab") is None


def _deployment(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "default"},
            "spec": spec}


def _pod(**spec: Any) -> dict[str, Any]:
    return {"template": {"metadata": {}, "spec": spec}}


def _apply(expression: str, obj: dict[str, Any], old: dict[str, Any] | None = None) -> dict[str, Any]:
    policy = Policy("p", {"mutations": [{"patchType": "ApplyConfiguration",
                                         "applyConfiguration": {"expression": expression}}]})
    mutator = compile_mutator(policy)
    activation = {"object": obj, "oldObject": old, "request": {}, "namespaceObject": None, "params": None}
    notes: list[str] = []
    decision, matches = mutator.matches(activation, notes)
    assert decision is None and matches
    patched = mutator.apply(0, obj, activation, notes, DEPLOYMENT)
    assert notes == []
    return patched


NGINX = [{"name": "nginx", "image": "nginx", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]

CASES: list[Case] = [*smd_test_go_cases(_deployment, _pod),
    # beyond smd_test.go: what the Go types' markers make of other fields
    ("a port without its protocol is the TCP port of the object (the key's +default)",
     IN_CONTAINER % 'ports: [Object.spec.template.spec.containers.ports{containerPort: 80, name: "http"}]',
     _deployment(_pod(containers=NGINX)), None, _deployment(_pod(containers=[
         {"name": "nginx", "image": "nginx", "ports": [{"containerPort": 80, "protocol": "TCP", "name": "http"}]}]))),
    ("a container without a name is keyed by the name's zero value, not refused",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{'
     'containers: [Object.spec.template.spec.containers{image: "busybox"}]}}}}',
     _deployment(_pod(containers=NGINX)), None,
     _deployment(_pod(containers=[*NGINX, {"image": "busybox"}]))),
    ("tolerations are an atomic list",
     "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
     'tolerations: [Object.spec.template.spec.tolerations{key: "k", operator: "Exists"}]}}}}',
     _deployment({}), None, REFUSED + ".spec.template.spec.tolerations"),
    ("a container's args are an atomic list", IN_CONTAINER % 'args: ["-v"]', _deployment(_pod(containers=NGINX)),
     None, REFUSED + ".spec.template.spec.containers[0].args"),
    ("an imagePullSecret is an atomic struct (LocalObjectReference) in a map list",
     "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
     'imagePullSecrets: [Object.spec.template.spec.imagePullSecrets{name: "r"}]}}}}',
     _deployment({}), None, REFUSED + ".spec.template.spec.imagePullSecrets[0]"),
    ("nodeSelector is an atomic map",
     "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
     'nodeSelector: {"disk": "ssd"}}}}}', _deployment({}), None, REFUSED + ".spec.template.spec.nodeSelector"),
    ("a field of the wrong scalar type",
     'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{hostNetwork: "yes"}}}}',
     _deployment({}), None,
     "error applying patch: failed to convert patch object to typed object: .spec.template.spec.hostNetwork: "
     "expected boolean, got &{yes}"),
]


@pytest.mark.parametrize(("expression", "obj", "old", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_apply_configuration_of_a_deployment(expression: str, obj: dict[str, Any], old: dict[str, Any] | None,
                                             expected: dict[str, Any] | str) -> None:
    assert_applies(_apply, expression, obj, old, expected)


def test_ssa_patch_of_a_config_map() -> None:
    """plugin_test.go TestSSAPatch: an annotation and a data key merged into an empty ConfigMap."""
    types = smd.types_for_builtin("", "v1", "ConfigMap")
    assert types is not None
    patch = {"metadata": {"annotations": {"foo": "bar"}}, "data": {"myfield": "myvalue"}}
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "annotations": {"a": "b"}},
           "data": {"x": "y"}}
    assert smd.apply(types, obj, patch) == {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "cm", "annotations": {"a": "b", "foo": "bar"}}, "data": {"x": "y", "myfield": "myvalue"}}


def test_ssa_map_list_of_a_pod() -> None:
    """plugin_test.go TestSSAMapList: an init container added beside the Pod's own, by name."""
    types = smd.types_for_builtin("", "v1", "Pod")
    assert types is not None
    patch = {"metadata": {"annotations": {"foo": "bar"}},
             "spec": {"initContainers": [{"name": "injected-init-container", "image": "injected-image"}]}}
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {},
           "spec": {"initContainers": [{"name": "init-container", "image": "image"}]}}
    assert smd.apply(types, obj, patch) == {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "annotations": {"foo": "bar"}}, "spec": {"initContainers": [
            {"name": "init-container", "image": "image"},
            {"name": "injected-init-container", "image": "injected-image"}]}}


def test_an_atomic_list_a_map_holds_is_replaced() -> None:
    """findAtomics follows declared fields only: a CertificateSigningRequest's `extra` (map[string]ExtraValue,
    a []string) merges key by key, and the atomic list of a key the configuration sets replaces the object's."""
    types = smd.types_for_builtin("certificates.k8s.io", "v1", "CertificateSigningRequest")
    assert types is not None
    obj = {"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest", "metadata": {"name": "c"},
           "spec": {"extra": {"k": ["a", "b"], "j": ["x"]}}}
    assert smd.apply(types, obj, {"spec": {"extra": {"k": ["c"]}}})["spec"] == {"extra": {"k": ["c"], "j": ["x"]}}
    with pytest.raises(smd.ApplyError, match=r"may not mutate atomic arrays, maps or structs: \.spec\.groups$"):
        smd.apply(types, obj, {"spec": {"groups": ["g"]}})  # the same kind of list as a declared field
