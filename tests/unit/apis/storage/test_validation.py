"""storage.k8s.io validation (crdtool.apis.storage.validation) against the cases of kubernetes'
pkg/apis/storage/validation/validation_test.go (1.36): TestValidateStorageClass,
TestValidateStorageClassUpdate, TestValidateAllowedTopologies, TestVolumeBindingMode."""

from __future__ import annotations

import pytest
from builtin_cases import assert_errors

T = "pkg/apis/storage/validation/validation_test.go "


def sc(provisioner: str = "kubernetes.io/foo-provisioner", **more) -> dict:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "foo"},
            "provisioner": provisioner, **more}


def topology(*terms: list) -> list:
    return [{"matchLabelExpressions": list(t)} for t in terms]


ZONE = {"key": "failure-domain.beta.kubernetes.io/zone", "values": ["zone1"]}
CASES = [
    (T + "TestValidateStorageClass success", sc(parameters={"kubernetes.io/foo-parameter": "free/form/string"}), []),
    (T + "TestValidateStorageClass Retain", sc(reclaimPolicy="Retain"), []),
    (T + "TestValidateStorageClass empty parameters", sc(parameters={}), []),
    (T + "TestValidateStorageClass namespace present (rest.BeforeCreate clears it for a cluster-scoped kind first)",
     {**sc(), "metadata": {"name": "foo", "namespace": "bar"}}, []),
    (T + "TestValidateStorageClass invalid provisioner", sc("kubernetes.io/invalid/provisioner"),
     ['provisioner: Invalid value: "kubernetes.io/invalid/provisioner": a valid label key must consist']),
    (T + "TestValidateStorageClass invalid empty provisioner", sc(""), ["provisioner: Required value"]),
    (T + "TestValidateStorageClass provisioner in upper case is lowered first", sc("Example.com/FOO"), []),
    (T + "TestValidateStorageClass invalid empty parameter name", sc(parameters={"": "value"}),
     ['parameters: Invalid value: "": field can not be empty.']),
    (T + "TestValidateStorageClass provider parameters too long",
     sc(parameters={"k": "a" * (256 * 1024)}), ["parameters: Too long: may not be more than 262144 bytes"]),
    (T + "TestValidateStorageClass invalid reclaimpolicy", sc(reclaimPolicy="invalid"),
     ['reclaimPolicy: Unsupported value: "invalid": supported values: "Delete", "Retain"']),
    (T + "TestVolumeBindingMode WaitForFirstConsumer", sc(volumeBindingMode="WaitForFirstConsumer"), []),
    (T + "TestVolumeBindingMode invalid mode", sc(volumeBindingMode="foo"),
     ['volumeBindingMode: Unsupported value: "foo": supported values: "Immediate", "WaitForFirstConsumer"']),
    (T + "TestValidateAllowedTopologies valid", sc(allowedTopologies=topology([ZONE])), []),
    (T + "TestValidateAllowedTopologies multiple terms",
     sc(allowedTopologies=topology([ZONE], [{**ZONE, "values": ["zone2"]}])), []),
    (T + "TestValidateAllowedTopologies empty values",
     sc(allowedTopologies=topology([{"key": "failure-domain.beta.kubernetes.io/zone", "values": []}])),
     ["allowedTopologies[0].matchLabelExpressions[0].values: Required value"]),
    (T + "TestValidateAllowedTopologies wrong key",
     sc(allowedTopologies=topology([{"key": "/invalid", "values": ["zone1"]}])),
     ['allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "/invalid": prefix part must be non-empty']),
    (T + "TestValidateAllowedTopologies duplicate values",
     sc(allowedTopologies=topology([{**ZONE, "values": ["zone1", "zone1"]}])),
     ['allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "zone1"']),
    (T + "TestValidateAllowedTopologies duplicate keys", sc(allowedTopologies=topology([ZONE, ZONE])),
     ['allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "failure-domain.beta.kubernetes.io/zone"']),
    (T + "TestValidateAllowedTopologies duplicate terms", sc(allowedTopologies=topology([ZONE], [ZONE])),
     ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""']),
    (T + "TestValidateAllowedTopologies empty MatchLabelExpressions (equal to Go's seeded nil maps)",
     sc(allowedTopologies=[{"matchLabelExpressions": []}, {"matchLabelExpressions": []}]),
     ['allowedTopologies[0].matchLabelExpressions: Duplicate value: ""'] * 2
     + ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""'] * 3),
]


@pytest.mark.parametrize(("name", "obj", "expected"), CASES, ids=[c[0] for c in CASES])
def test_storage_class(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected)


OLD = sc(parameters={"foo": "bar"}, reclaimPolicy="Delete", volumeBindingMode="Immediate")
UPDATES = [
    ("TestValidateStorageClassUpdate no change", OLD, []),
    ("TestValidateStorageClassUpdate parameters changed", {**OLD, "parameters": {"foo": "baz"}},
     ["parameters: Forbidden: updates to parameters are forbidden."]),
    ("TestValidateStorageClassUpdate provisioner changed", {**OLD, "provisioner": "example.com/other"},
     ["provisioner: Forbidden: updates to provisioner are forbidden."]),
    ("TestValidateStorageClassUpdate reclaimPolicy changed", {**OLD, "reclaimPolicy": "Retain"},
     ["reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden."]),
    ("TestValidateStorageClassUpdate volumeBindingMode changed", {**OLD, "volumeBindingMode": "WaitForFirstConsumer"},
     ['volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable']),
    ("TestValidateStorageClassUpdate allowVolumeExpansion may change", {**OLD, "allowVolumeExpansion": True}, []),
]


@pytest.mark.parametrize(("name", "obj", "expected"), UPDATES, ids=[c[0] for c in UPDATES])
def test_storage_class_update(name: str, obj: dict, expected: list[str]) -> None:
    assert_errors(obj, expected, old=OLD)
