"""PersistentVolumeClaim, Namespace, ServiceAccount and Endpoints validation against the expectations
of kubernetes' own tests (pkg/apis/core/validation validation_test.go, 1.36:
TestValidatePersistentVolumeClaim, TestValidatePersistentVolumeClaimUpdate, TestValidateNamespace,
TestValidateNamespaceFinalizeUpdate, TestValidateEndpointsCreate)."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import claims, endpoints, kinds
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.errors import ErrorType

R, IV, NS, F = ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN


def claim(**spec) -> dict:
    """testVolumeClaim: a claim of 10G, ReadWriteOnce and ReadOnlyMany, defaulted as stored."""
    obj = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "foo", "namespace": "ns"},
           "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"],
                    "resources": {"requests": {"storage": "10G"}}, **spec}}
    set_object_defaults(obj, "io.k8s.api.core.v1.PersistentVolumeClaim")
    return obj


CLAIM_CASES = [
    ("missing-access-modes", {"accessModes": []}, (R, "spec.accessModes"), "at least 1 access mode is required"),
    ("invalid-access-mode", {"accessModes": ["fakemode"]}, (NS, "spec.accessModes"), None),
    ("ReadWriteOncePod with others", {"accessModes": ["ReadWriteOncePod", "ReadWriteMany"]},
     (F, "spec.accessModes"), "may not use ReadWriteOncePod with other access modes"),
    ("missing-resource-storage-req", {"resources": {"requests": {"memory": "10G"}}}, (R, "spec.resources[storage]"),
     None),
    ("negative-storage-request", {"resources": {"requests": {"storage": "-10G"}}}, (IV, "spec.resources[storage]"),
     "must be greater than zero"),
    ("zero-storage-request", {"resources": {"requests": {"storage": "0G"}}}, (IV, "spec.resources[storage]"),
     "must be greater than zero"),
    ("invalid-storage-class-name", {"storageClassName": "-invalid-"}, (IV, "spec.storageClassName"), None),
    ("invalid-volume-mode", {"volumeMode": "fakeVolumeMode"}, (NS, "spec.volumeMode"), None),
    ("invalid-claim-label-selector",
     {"selector": {"matchExpressions": [{"key": "key2", "operator": "InvalidOp", "values": ["value1"]}]}},
     (IV, "spec.selector.matchExpressions[0].operator"), None),
    ("missing-data-source-name", {"dataSource": {"kind": "PersistentVolumeClaim"}}, (R, "spec.dataSource.name"),
     None),
    ("invalid-data-source-kind", {"dataSource": {"kind": "Snapshot", "name": "s"}}, (IV, "spec.dataSource"),
     "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
    ("invalid-data-source-api-group", {"dataSource": {"apiGroup": "-bad", "kind": "Snapshot", "name": "s"}},
     (IV, "spec.dataSource.apiGroup"), None),
    ("mismatched-data-source-and-ref", {"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
                                        "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}},
     (IV, "spec"), "must match dataSourceRef"),
    ("data-source-with-namespaced-ref", {"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
                                         "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "a",
                                                           "namespace": "other"}},
     (IV, "spec"), "may not be specified when dataSourceRef.namespace is specified"),
    ("invalid-data-source-ref-namespace", {"dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "a",
                                                             "namespace": "Bad_NS"}},
     (IV, "spec.dataSourceRef.namespace"), None),
    ("invalid-volume-attributes-class", {"volumeAttributesClassName": "-bad-"},
     (IV, "spec.volumeAttributesClassName"), None),
]


@pytest.mark.parametrize(("go_test", "changes", "expected", "text"), CLAIM_CASES, ids=[c[0] for c in CLAIM_CASES])
def test_claim(go_test: str, changes: dict, expected: tuple, text: str | None) -> None:
    errors = claims.validate_claim(claim(**changes))
    matching = [e for e in errors if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in errors]}"
    if text is not None:
        assert any(text in e.detail for e in matching)


def test_valid_claims() -> None:
    for changes in ({}, {"accessModes": ["ReadWriteOncePod"]}, {"volumeMode": "Block"},
                    {"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
                     "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "a"}},
                    {"dataSourceRef": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot",
                                       "name": "s", "namespace": "other"}}):
        assert claims.validate_claim(claim(**changes)) == [], changes


def bound(obj: dict, capacity: str | None = None) -> dict:
    obj = copy.deepcopy(obj)
    obj["status"] = {"phase": "Bound", **({"capacity": {"storage": capacity}} if capacity else {})}
    return obj


def test_claim_update_rules() -> None:
    """TestValidatePersistentVolumeClaimUpdate: an unbound claim's spec is immutable; a bound claim's
    storage request may grow; volumeName may be set once; volumeMode is immutable."""
    old = claim()
    grown = claim(resources={"requests": {"storage": "15G"}})
    unbound = [(e.type, e.field) for e in claims.validate_claim_update(grown, old)]
    assert unbound == [(F, "spec")]
    assert claims.validate_claim_update(bound(grown), bound(old)) == []
    assert claims.validate_claim_update(claim(volumeName="pv"), old) == []
    assert [(e.type, e.field) for e in claims.validate_claim_update(claim(volumeName="other"),
                                                                     claim(volumeName="pv"))] == [(F, "spec")]
    block = claim(volumeMode="Block")
    assert [str(e) for e in claims.validate_claim_update(block, old)][-1] == (
        'volumeMode: Invalid value: "Block": field is immutable')
    # shrinking a bound claim: allowed above status.capacity (RecoverVolumeExpansionFailure), not to it
    shrunk = claim(resources={"requests": {"storage": "5G"}})
    assert claims.validate_claim_update(bound(shrunk), bound(old, "1G")) == []
    assert [str(e) for e in claims.validate_claim_update(bound(shrunk), bound(old, "5G"))] == [
        "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity"]


def test_claim_update_message_starts_with_the_apiservers_text() -> None:
    error = claims.validate_claim_update(claim(storageClassName="fast"), claim(storageClassName="slow"))[0]
    assert error.detail.startswith("spec is immutable after creation except resources.requests and "
                                   "volumeAttributesClassName for bound claims\n")


def test_claim_storage_class_from_beta_annotation() -> None:
    """validateStorageClassUpgradeFromAnnotation: the class named by the beta annotation may move to
    storageClassName; a changed annotation is immutable."""
    old = claim()
    old["metadata"]["annotations"] = {"volume.beta.kubernetes.io/storage-class": "fast"}
    assert claims.validate_claim_update(claim(storageClassName="fast"), old) == []
    changed = claim()
    changed["metadata"]["annotations"] = {"volume.beta.kubernetes.io/storage-class": "slow"}
    assert [str(e) for e in claims.validate_claim_update(changed, old)] == [
        'metadata.annotations.volume.beta.kubernetes.io/storage-class: Invalid value: "slow": field is immutable']


def test_namespace_finalizers() -> None:
    """TestValidateNamespace: spec finalizers are qualified and standard or fully qualified names,
    reported at spec.finalizers."""
    assert kinds.validate_namespace({"spec": {"finalizers": ["kubernetes", "example.com/x"]}}) == []
    assert [str(e) for e in kinds.validate_namespace({"spec": {"finalizers": ["foo.com/bar/baz", "mine"]}})] == [
        'spec.finalizers: Invalid value: "foo.com/bar/baz": a valid label key must consist of alphanumeric '
        "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
        "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
        "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        'spec.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified']
    assert kinds.validate_namespace_update({"spec": {"finalizers": ["bad finalizer"]}}, {}) == []
    assert kinds.validate_service_account({"secrets": [{"name": "Not A Name"}]}) == []


ENDPOINTS_CASES = [
    ("empty subsets", [{}], (R, "subsets[0]"), "must specify `addresses` or `notReadyAddresses`"),
    ("invalid IP", [{"addresses": [{"ip": "[2001:0db8:85a3:0042:1000:8a2e:0370:7334]"}], "ports": []}],
     (IV, "subsets[0].addresses[0].ip"), "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
    ("multiple ports without names", [{"addresses": [{"ip": "10.10.1.1"}],
                                      "ports": [{"port": 93, "protocol": "TCP"}, {"port": 76, "protocol": "TCP"}]}],
     (R, "subsets[0].ports[0].name"), None),
    ("invalid port", [{"addresses": [{"ip": "10.10.1.1"}], "ports": [{"name": "a", "port": 66000, "protocol": "TCP"}]}],
     (IV, "subsets[0].ports[0].port"), None),
    ("invalid protocol", [{"addresses": [{"ip": "10.10.1.1"}],
                          "ports": [{"name": "a", "port": 93, "protocol": "Protocol"}]}],
     (NS, "subsets[0].ports[0].protocol"), None),
    ("address hostname invalid", [{"addresses": [{"ip": "10.10.1.1", "hostname": "Bad_Host"}]}],
     (IV, "subsets[0].addresses[0].hostname"), None),
    ("invalid node name", [{"addresses": [{"ip": "10.10.1.1", "nodeName": "Bad!"}]}],
     (IV, "subsets[0].addresses[0].nodeName"), None),
    ("loopback", [{"notReadyAddresses": [{"ip": "127.0.0.1"}]}], (IV, "subsets[0].notReadyAddresses[0].ip"),
     "may not be in the loopback range (127.0.0.0/8, ::1/128)"),
    ("link-local multicast", [{"addresses": [{"ip": "224.0.0.1"}]}], (IV, "subsets[0].addresses[0].ip"),
     "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"),
    ("invalid appProtocol", [{"addresses": [{"ip": "10.10.1.1"}],
                              "ports": [{"port": 93, "protocol": "TCP", "appProtocol": "lots-of[invalid]-{chars}"}]}],
     (IV, "subsets[0].ports[0].appProtocol"), None),
]


@pytest.mark.parametrize(("go_test", "subsets", "expected", "text"), ENDPOINTS_CASES,
                         ids=[c[0] for c in ENDPOINTS_CASES])
def test_endpoints(go_test: str, subsets: list, expected: tuple, text: str | None) -> None:
    errors = endpoints.validate_endpoints({"subsets": subsets})
    matching = [e for e in errors if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in errors]}"
    if text is not None:
        assert any(text in e.detail for e in matching)


def test_valid_endpoints() -> None:
    """TestValidateEndpointsCreate's valid cases: named ports, IPv6, empty subsets, a headless subset."""
    for subsets in ([], [{"addresses": [{"ip": "10.10.1.1"}, {"ip": "2001:db8::1"}],
                          "ports": [{"name": "a", "port": 8675, "protocol": "TCP"},
                                    {"name": "b", "port": 309, "protocol": "UDP"}]}],
                    [{"notReadyAddresses": [{"ip": "10.10.1.1", "hostname": "pod-0", "nodeName": "node.a"}]}]):
        assert endpoints.validate_endpoints({"subsets": subsets}) == [], subsets
