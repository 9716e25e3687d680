"""A PersistentVolume's volume source as ValidatePersistentVolumeSpec checks it (kubernetes
pkg/apis/core/validation/validation.go, 1.36): exactly one source, each with its own rules. The
sources a PV shares with a pod's volume (hostPath, nfs, gcePersistentDisk, awsElasticBlockStore,
flocker, rbd, quobyte, cephfs, fc, flexVolume, vsphereVolume, photonPersistentDisk, portworxVolume,
azureDisk, scaleIO) use the pod volume's checks (apis.core.volumes, apis.core.volume_sources); the
PV's own variants are here: glusterfs, iscsi, cinder, azureFile, storageos and csi, whose secret
references name a namespace too, and local."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.apis.core import volume_sources, volumes
from crdtool.apis.core.containers import validate_dns1123_label
from crdtool.model.errors import FieldError
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import inclusive_range_error, is_dns1123_subdomain, name_is_dns_label

Check = Callable[[dict[str, Any], Path], list[FieldError]]
_MORE_THAN_ONE = "may not specify more than 1 volume type"
#: ValidatePersistentVolumeSpec's order of sources.
SOURCES = ("hostPath", "gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "flocker", "nfs", "rbd", "quobyte",
           "cephfs", "iscsi", "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume", "photonPersistentDisk",
           "portworxVolume", "azureDisk", "scaleIO", "local", "storageos", "csi")
#: where Go reports "more than 1 volume type", and where a source's own errors, when not at its JSON name
_FORBIDDEN_AT = {"cephfs": "cephFS"}
_CHECKED_AT = {"gcePersistentDisk": "persistentDisk"}
_ISCSI_NAME_TOO_LONG = ("Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if "
                        "iscsi.initiatorName is specified.")


def validate_pv_source(spec: dict[str, Any], pv_name: str, path: Path) -> tuple[bool, list[FieldError]]:
    """The source part of ValidatePersistentVolumeSpec: each source set after the first is refused
    (flexVolume is counted but never refused, as in Go); (whether `local` is the source, errors)."""
    errs: list[FieldError] = []
    count = 0
    local = False
    for source in SOURCES:
        value = spec.get(source)
        if value is None:
            continue
        if count > 0 and source != "flexVolume":
            errs.append(FieldError.forbidden(path.child(_FORBIDDEN_AT.get(source, source)), _MORE_THAN_ONE))
            continue
        count += 1
        local = local or source == "local"
        at = path.child(_CHECKED_AT.get(source, source))
        if source == "iscsi":
            errs += _iscsi(value, pv_name, at)
        else:
            errs += _check(source)(value, at)
    if count == 0:
        errs.append(FieldError.required(path, "must specify a volume type"))
    return local, errs


def _check(source: str) -> Check:
    """The check of one source (other than iscsi)."""
    own: dict[str, Check] = {"glusterfs": _glusterfs, "cinder": _cinder, "azureFile": _azure_file,
                             "storageos": _storageos, "csi": _csi, "local": _local}
    if source in own:
        return own[source]
    shared = volumes.SOURCE_CHECKS.get(source)  # the pod volume's hostPath and nfs checks
    return shared if shared is not None else volume_sources.PLUGIN_CHECKS[source]


def _required(source: dict[str, Any], fields: tuple[str, ...], path: Path) -> list[FieldError]:
    return [FieldError.required(path.child(f)) for f in fields if not source.get(f)]


def _glusterfs(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateGlusterfsPersistentVolumeSource: endpoints and path; a namespace name if set."""
    errs = _required(source, ("endpoints", "path"), path)
    namespace = source.get("endpointsNamespace")
    if namespace is not None:
        at = path.child("endpointsNamespace")
        if not namespace:
            errs.append(FieldError.invalid(at, namespace, "if the endpointnamespace is set, it must be a valid "
                                                          "namespace name"))
        else:
            errs += [FieldError.invalid(at, namespace, m) for m in name_is_dns_label(namespace, False)]
    return errs


def _iscsi_name_format(value: str, path: Path) -> list[FieldError]:
    """The iqn/eui/naa form of a PV's IQN and initiator name (every failure "must be valid format")."""
    return volume_sources.iqn_format(value, path, "must be valid format")


def _iscsi(source: dict[str, Any], pv_name: str, path: Path) -> list[FieldError]:
    """validateISCSIPersistentVolumeSource: a target portal (with an initiator name, `<PV name>:
    <portal>` within 64 characters), an IQN, a LUN of 0-255, a named secret for CHAP, an initiator
    name of the iqn/eui/naa forms."""
    errs = _required(source, ("targetPortal",), path)
    portal = source.get("targetPortal") or ""
    initiator = source.get("initiatorName")
    if initiator is not None and len(f"{pv_name}:{portal}") > 64:
        errs.append(FieldError.invalid(path.child("targetportal"), portal, _ISCSI_NAME_TOO_LONG))
    iqn = source.get("iqn") or ""
    if not iqn:
        errs.append(FieldError.required(path.child("iqn")))
    else:
        errs += _iscsi_name_format(iqn, path.child("iqn"))
    lun = source.get("lun") or 0
    if not 0 <= lun <= 255:
        errs.append(FieldError.invalid(path.child("lun"), lun, inclusive_range_error(0, 255)))
    ref = source.get("secretRef")
    if (source.get("chapAuthDiscovery") or source.get("chapAuthSession")) and ref is None:
        errs.append(FieldError.required(path.child("secretRef")))
    if ref is not None and not ref.get("name"):
        errs.append(FieldError.required(path.child("secretRef", "name")))
    if initiator is not None:
        errs += _iscsi_name_format(initiator, path.child("initiatorname"))
    return errs


def _cinder(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateCinderPersistentVolumeSource: a volume ID; a secret reference with name and namespace."""
    errs = _required(source, ("volumeID",), path)
    ref = source.get("secretRef")
    if ref is not None:
        errs += _required(ref, ("name", "namespace"), path.child("secretRef"))
    return errs


def _azure_file(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateAzureFilePV: secret and share names; a secret namespace, if set, not empty."""
    errs = _required(source, ("secretName", "shareName"), path)
    if source.get("secretNamespace") is not None and not source["secretNamespace"]:
        errs.append(FieldError.required(path.child("secretNamespace")))
    return errs


def _storageos(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateStorageOSPersistentVolumeSource: volume name and namespace DNS labels; a secret
    reference with name and namespace."""
    name = source.get("volumeName") or ""
    errs: list[FieldError] = []
    if not name:
        errs.append(FieldError.required(path.child("volumeName")))
    else:
        errs += validate_dns1123_label(name, path.child("volumeName"))
    if source.get("volumeNamespace"):
        errs += validate_dns1123_label(source["volumeNamespace"], path.child("volumeNamespace"))
    ref = source.get("secretRef")
    if ref is not None:
        errs += _required(ref, ("name", "namespace"), path.child("secretRef"))
    return errs


def _secret_reference(ref: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePVSecretReference: a name (DNS subdomain) and a namespace (DNS label)."""
    errs: list[FieldError] = []
    name, namespace = ref.get("name") or "", ref.get("namespace") or ""
    if not name:
        errs.append(FieldError.required(path.child("name")))
    else:
        errs += [FieldError.invalid(path.child("name"), name, m) for m in is_dns1123_subdomain(name)]
    if not namespace:
        errs.append(FieldError.required(path.child("namespace")))
    else:
        errs += validate_dns1123_label(namespace, path.child("namespace"))
    return errs


def _csi(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateCSIPersistentVolumeSource: a driver name, a volume handle, full secret references."""
    errs = volumes.validate_csi_driver_name(source.get("driver") or "", path.child("driver"))
    errs += _required(source, ("volumeHandle",), path)
    for ref in ("controllerPublishSecretRef", "controllerExpandSecretRef", "nodePublishSecretRef",
                "nodeExpandSecretRef"):
        if source.get(ref) is not None:
            errs += _secret_reference(source[ref], path.child(ref))
    return errs


def _local(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateLocalVolumeSource: a path without `..` elements."""
    local_path = source.get("path") or ""
    if not local_path:
        return [FieldError.required(path.child("path"))]
    return volumes.validate_path_no_backsteps(local_path, path.child("path"))
