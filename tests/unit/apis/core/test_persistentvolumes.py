"""PersistentVolume validation against the expectations of kubernetes' own tests (pkg/apis/core/
validation validation_test.go, 1.36: TestValidatePersistentVolumes, TestValidatePersistentVolumeSpec,
TestValidateLocalVolumes, TestValidateVolumeNodeAffinityUpdate, TestValidatePersistentVolumeSourceUpdate,
TestValidateCSIPersistentVolumeSource, TestValidatePVSecretReference; pkg/volume/validation
TestValidatePersistentVolume's mount options). Each row: the Go case, the change to a valid PV,
the expected (type, field) and, where the Go test states it, the text."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import persistentvolumes as pvs
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.errors import ErrorType

R, IV, NS, F, TL = (ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN,
                    ErrorType.TOO_LONG)
AFFINITY = {"required": {"nodeSelectorTerms": [{"matchExpressions": [
    {"key": "test-label-key", "operator": "In", "values": ["test-label-value"]}]}]}}
CSI = {"driver": "test-driver", "volumeHandle": "test-123"}


def pv(name: str = "foo", annotations: dict | None = None, **spec) -> dict:
    """testVolume: 10G, ReadWriteOnce, a hostPath source unless the case names another, defaulted."""
    sources = set(spec) & set(pvs.SOURCES)
    base = {"capacity": {"storage": "10G"}, "accessModes": ["ReadWriteOnce"]}
    if not sources and "noSource" not in spec:
        base["hostPath"] = {"path": "/foo", "type": "DirectoryOrCreate"}
    spec.pop("noSource", None)
    obj = {"apiVersion": "v1", "kind": "PersistentVolume",
           "metadata": {"name": name, **({"annotations": annotations} if annotations else {})},
           "spec": {**base, **spec}}
    set_object_defaults(obj, "io.k8s.api.core.v1.PersistentVolume")
    return obj


VALID = [
    ("good-volume", {}),
    ("good-volume-with-capacity-unit", {"capacity": {"storage": "10Gi"}}),
    ("good-volume-without-capacity-unit", {"capacity": {"storage": "10"}}),
    ("good-volume-with-storage-class", {"storageClassName": "valid"}),
    ("good-volume-with-retain-policy", {"persistentVolumeReclaimPolicy": "Retain"}),
    ("good-volume-with-volume-mode", {"volumeMode": "Block"}),
    ("with-read-write-once-pod", {"accessModes": ["ReadWriteOncePod"]}),
    ("volume-node-affinity", {"nodeAffinity": AFFINITY}),
    ("valid local volume but with node affinity", {"local": {"path": "/foo"}, "nodeAffinity": AFFINITY}),
    ("valid-local-volume-relative-path", {"local": {"path": "foo"}, "nodeAffinity": AFFINITY}),
    ("valid-csi-volume", {"csi": CSI}),
    ("csi-with-volume-attributes-class", {"csi": CSI, "volumeAttributesClassName": "gold"}),
    ("valid-nfs", {"nfs": {"server": "localhost", "path": "/srv"}}),
    ("valid-iscsi", {"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1}}),
    ("valid-cephfs", {"cephfs": {"monitors": ["a"]}}),
    ("host mount of / with retain policy", {"hostPath": {"path": "/"}}),
]

INVALID = [
    ("invalid-accessmode", {"accessModes": ["fakemode"]}, (NS, "spec.accessModes"), None),
    ("with-read-write-once-pod-and-others", {"accessModes": ["ReadWriteOncePod", "ReadWriteMany"]},
     (F, "spec.accessModes"), "may not use ReadWriteOncePod with other access modes"),
    ("missing-accessmodes", {"accessModes": []}, (R, "spec.accessModes"), None),
    ("invalid-reclaimpolicy", {"persistentVolumeReclaimPolicy": "fakeReclaimPolicy"},
     (NS, "spec.persistentVolumeReclaimPolicy"), 'supported values: "Delete", "Recycle", "Retain"'),
    ("invalid-volume-mode", {"volumeMode": "fakeVolumeMode"}, (NS, "spec.volumeMode"), None),
    ("missing-volume-source", {"noSource": True}, (R, "spec"), "must specify a volume type"),
    ("missing-capacity", {"capacity": {}}, (R, "spec.capacity"), None),
    ("missing-capacity-storage", {"capacity": {"memory": "1G"}}, (NS, "spec.capacity"), 'supported values: "storage"'),
    ("bad-volume-zero-capacity", {"capacity": {"storage": "0"}}, (IV, "spec.capacity[storage]"),
     "must be greater than zero"),
    ("bad-volume-negative-capacity", {"capacity": {"storage": "-1"}}, (IV, "spec.capacity[storage]"),
     "must be a valid resource quantity"),
    ("too-many-sources", {"gcePersistentDisk": {"pdName": "foo"}, "hostPath": {"path": "/foo"}},
     (F, "spec.gcePersistentDisk"), "may not specify more than 1 volume type"),
    ("host mount of / with recycle reclaim policy", {"hostPath": {"path": "/"},
                                                     "persistentVolumeReclaimPolicy": "Recycle"},
     (F, "spec.persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'"),
    ("host mount of / with recycle reclaim policy 2", {"hostPath": {"path": "/a/.."},
                                                       "persistentVolumeReclaimPolicy": "Recycle"},
     (F, "spec.persistentVolumeReclaimPolicy"), None),
    ("invalid-storage-class-name", {"storageClassName": "-invalid-"}, (IV, "spec.storageClassName"), None),
    ("bad-hostpath-volume-backsteps", {"hostPath": {"path": "/foo/.."}}, (IV, "spec.hostPath.path"),
     "must not contain '..'"),
    ("volume-empty-node-affinity", {"nodeAffinity": {}}, (R, "spec.nodeAffinity.required"),
     "must specify required node constraints"),
    ("volume-bad-node-affinity", {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
        {"operator": "In", "values": ["test-label-value"]}]}]}}},
     (IV, "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key"), None),
    ("volume-node-affinity-no-terms", {"nodeAffinity": {"required": {}}},
     (R, "spec.nodeAffinity.required.nodeSelectorTerms"), "must have at least one node selector term"),
    ("invalid local volume no node affinity", {"local": {"path": "/foo"}}, (R, "spec.nodeAffinity"),
     "Local volume requires node affinity"),
    ("invalid local volume empty path", {"local": {"path": ""}, "nodeAffinity": AFFINITY}, (R, "spec.local.path"),
     None),
    ("invalid-local-volume-backsteps", {"local": {"path": "/foo/.."}, "nodeAffinity": AFFINITY},
     (IV, "spec.local.path"), "must not contain '..'"),
    ("csi-missing-driver", {"csi": {"volumeHandle": "test-123"}}, (R, "spec.csi.driver"), None),
    ("csi-missing-volume-handle", {"csi": {"driver": "my-driver"}}, (R, "spec.csi.volumeHandle"), None),
    ("csi-driver-name-invalid-characters", {"csi": {"driver": "comgooglestoragecsi-gcepd\\", "volumeHandle": "a"}},
     (IV, "spec.csi.driver"), None),
    ("csi-driver-name-too-long", {"csi": {"driver": "a" * 64, "volumeHandle": "a"}}, (TL, "spec.csi.driver"), None),
    ("csi-controller-publish-secret-missing-namespace",
     {"csi": {**CSI, "controllerPublishSecretRef": {"name": "s"}}},
     (R, "spec.csi.controllerPublishSecretRef.namespace"), None),
    ("csi-node-expand-secret-bad-name", {"csi": {**CSI, "nodeExpandSecretRef": {"name": "Bad", "namespace": "ns"}}},
     (IV, "spec.csi.nodeExpandSecretRef.name"), None),
    ("csi-node-publish-secret-bad-namespace",
     {"csi": {**CSI, "nodePublishSecretRef": {"name": "s", "namespace": "Bad_NS"}}},
     (IV, "spec.csi.nodePublishSecretRef.namespace"), None),
    ("volume-attributes-class-without-csi", {"volumeAttributesClassName": "gold"}, (R, "spec.csi"),
     "has to be specified when using volumeAttributesClassName"),
    ("volume-attributes-class-empty", {"csi": CSI, "volumeAttributesClassName": ""},
     (R, "spec.volumeAttributesClassName"), "an empty string is disallowed"),
    ("invalid-nfs-relative-path", {"nfs": {"server": "localhost", "path": "srv"}}, (IV, "spec.nfs.path"),
     "must be an absolute path"),
    ("iscsi-invalid-iqn", {"iscsi": {"targetPortal": "127.0.0.1", "iqn": "foo", "lun": 1}}, (IV, "spec.iscsi.iqn"),
     "must be valid format"),
    ("iscsi-too-long-name-with-initiator",
     {"iscsi": {"targetPortal": "1" * 64, "iqn": "iqn.2015-02.example.com:test", "initiatorName":
                "iqn.2015-02.example.com:init"}}, (IV, "spec.iscsi.targetportal"),
     "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters"),
    ("iscsi-lun-out-of-range", {"iscsi": {"targetPortal": "t", "iqn": "iqn.2015-02.example.com:test", "lun": 256}},
     (IV, "spec.iscsi.lun"), "must be between 0 and 255, inclusive"),
    ("gce-pd-bad-partition", {"gcePersistentDisk": {"pdName": "a", "partition": 256}},
     (IV, "spec.persistentDisk.partition"), None),
    ("glusterfs-empty-endpoints-namespace",
     {"glusterfs": {"endpoints": "e", "path": "p", "endpointsNamespace": ""}},
     (IV, "spec.glusterfs.endpointsNamespace"),
     "if the endpointnamespace is set, it must be a valid namespace name"),
    ("cinder-secret-without-namespace", {"cinder": {"volumeID": "v", "secretRef": {"name": "s"}}},
     (R, "spec.cinder.secretRef.namespace"), None),
    ("azure-file-empty-secret-namespace",
     {"azureFile": {"secretName": "s", "shareName": "h", "secretNamespace": ""}},
     (R, "spec.azureFile.secretNamespace"), None),
    ("cephfs-more-than-one-source", {"hostPath": {"path": "/foo"}, "cephfs": {"monitors": ["a"]}},
     (F, "spec.cephFS"), "may not specify more than 1 volume type"),
    ("storageos-secret-without-namespace", {"storageos": {"volumeName": "v", "secretRef": {"name": "s"}}},
     (R, "spec.storageos.secretRef.namespace"), None),
]


@pytest.mark.parametrize(("go_test", "spec"), VALID, ids=[c[0] for c in VALID])
def test_valid_volume(go_test: str, spec: dict) -> None:
    assert pvs.validate_pv(pv(**copy.deepcopy(spec))) == [], go_test


@pytest.mark.parametrize(("go_test", "spec", "expected", "text"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_volume(go_test: str, spec: dict, expected: tuple, text: str | None) -> None:
    errors = pvs.validate_pv(pv(**copy.deepcopy(spec)))
    matching = [e for e in errors if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in errors]}"
    if text is not None:
        assert any(text in e.detail for e in matching), [str(e) for e in matching]


def test_capacity_messages() -> None:
    """The capacity's NotSupported shows the ResourceList as JSON; a negative quantity gets both
    validateBasicResource's and ValidatePositiveQuantityValue's errors."""
    assert [str(e) for e in pvs.validate_pv(pv(capacity={"storage": "-1Gi", "cpu": "1"}))] == [
        'spec.capacity: Unsupported value: {"cpu":"1","storage":"-1Gi"}: supported values: "storage"',
        "spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity",
        'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
    ]


def test_flex_volume_is_counted_but_never_refused_as_a_second_source() -> None:
    """ValidatePersistentVolumeSpec checks flexVolume without the "more than 1 volume type" test."""
    errors = pvs.validate_pv(pv(flexVolume={"driver": "d"}))
    assert errors == []


def test_mount_options_annotation() -> None:
    """pkg/volume/validation TestValidatePersistentVolume: the mount-options annotation is refused on a
    hostPath PV, accepted on an NFS one."""
    annotations = {pvs.MOUNT_OPTIONS_ANNOTATION: "ro,nosuid"}
    assert [str(e) for e in pvs.validate_pv(pv(annotations=annotations))] == [
        "metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options "
        "for this volume type"]
    assert pvs.validate_pv(pv(annotations=annotations, nfs={"server": "s", "path": "/p"})) == []


UPDATES = [
    # TestValidatePersistentVolumeSourceUpdate
    ("persistent-volume-source-changed", {"hostPath": {"path": "/foo"}}, {"hostPath": {"path": "/bar"}},
     [(F, "spec.persistentvolumesource")]),
    ("csi-expansion-enabled-with-pv-secret", {"csi": CSI},
     {"csi": {**CSI, "controllerExpandSecretRef": {"name": "s", "namespace": "ns"}}}, []),
    ("csi-expansion-enabled-with-old-pv-secret", {"csi": {**CSI, "controllerExpandSecretRef": {"name": "s",
                                                                                              "namespace": "ns"}}},
     {"csi": {**CSI, "controllerExpandSecretRef": {"name": "t", "namespace": "ns"}}},
     [(F, "spec.persistentvolumesource")]),
    ("volume-mode-changed", {"volumeMode": "Filesystem"}, {"volumeMode": "Block"}, [(IV, "volumeMode")]),
    # TestValidateVolumeNodeAffinityUpdate
    ("nil-to-node-affinity", {}, {"nodeAffinity": AFFINITY}, []),
    ("node-affinity-changed", {"nodeAffinity": AFFINITY},
     {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
         {"key": "test-label-key", "operator": "In", "values": ["other"]}]}]}}}, [(IV, "nodeAffinity")]),
    ("beta-zone-to-ga", {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": "failure-domain.beta.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]}}},
     {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
         {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]}}}, []),
    ("volume-attributes-class-cleared", {"csi": CSI, "volumeAttributesClassName": "gold"}, {"csi": CSI},
     [(F, "spec.volumeAttributesClassName")]),
    ("volume-attributes-class-changed", {"csi": CSI, "volumeAttributesClassName": "gold"},
     {"csi": CSI, "volumeAttributesClassName": "silver"}, []),
    ("capacity-and-class-may-change", {"capacity": {"storage": "10G"}},
     {"capacity": {"storage": "20G"}, "storageClassName": "fast"}, []),
]


@pytest.mark.parametrize(("go_test", "old", "new", "expected"), UPDATES, ids=[c[0] for c in UPDATES])
def test_update(go_test: str, old: dict, new: dict, expected: list) -> None:
    errors = pvs.validate_pv_update(pv(**copy.deepcopy(new)), pv(**copy.deepcopy(old)))
    assert [(e.type, e.field) for e in errors] == expected, [str(e) for e in errors]


def test_node_affinity_update_message() -> None:
    """The bad value is the internal VolumeNodeAffinity (no JSON tags)."""
    old = pv(nodeAffinity=AFFINITY)
    new = pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": "k", "operator": "Exists"}]}]}})
    assert str(pvs.validate_pv_update(new, old)[0]) == (
        'nodeAffinity: Invalid value: {"Required":{"NodeSelectorTerms":[{"MatchExpressions":[{"Key":"k",'
        '"Operator":"Exists","Values":null}],"MatchFields":null}]}}: field is immutable, except for updating '
        "from beta label to GA")


def test_source_update_message_starts_with_the_apiservers_text() -> None:
    error = pvs.validate_pv_update(pv(hostPath={"path": "/bar"}), pv())[0]
    assert error.detail.startswith("spec.persistentvolumesource is immutable after creation\n")
    assert '+\thostPath: {"path":"/bar"' in error.detail


def test_invalid_node_label_value_kept_from_the_stored_volume() -> None:
    """ValidationOptionsForPersistentVolume: an invalid label value the stored PV already had is
    tolerated on update, refused on create."""
    bad = {"required": {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": "foo", "operator": "In", "values": ["-1"]}]}]}}
    created = pvs.validate_pv(pv(nodeAffinity=bad))
    assert [(e.type, e.field) for e in created] == [
        (IV, "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]")]
    assert pvs.validate_pv_update(pv(nodeAffinity=bad), pv(nodeAffinity=bad)) == []
