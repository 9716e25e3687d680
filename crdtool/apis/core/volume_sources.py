"""The volume sources of the in-tree storage plugins as validateVolumeSource checks them (kubernetes
pkg/apis/core/validation/validation.go, 1.36): gitRepo, gcePersistentDisk, awsElasticBlockStore,
iscsi, glusterfs, flocker, rbd, cinder, cephfs, quobyte, fc, flexVolume, azureFile, vsphereVolume,
photonPersistentDisk, portworxVolume, azureDisk, storageos, scaleIO, and the image source. Most of
these plugins are gone from the kubelet, but the apiserver still checks the fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2  # type: ignore[import-untyped]  # google-re2 ships no types

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import inclusive_range_error, is_dns1123_label

_PARTITION_RANGE = inclusive_range_error(1, 255)
_LUN_RANGE = inclusive_range_error(0, 255)
_IQN = re2.compile(r"iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$")
_EUI = re2.compile(r"^eui.[[:alnum:]]{16}$")
_NAA = re2.compile(r"^naa.[[:alnum:]]{32}$")


def _required(source: dict[str, Any], fields: tuple[str, ...], path: Path) -> list[FieldError]:
    """field.Required for each of `fields` that is empty."""
    return [FieldError.required(path.child(f)) for f in fields if not source.get(f)]


def _git_repo(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateGitRepoVolumeSource."""
    from crdtool.apis.core.volumes import validate_local_descending_path

    errs = _required(source, ("repository",), path)
    return errs + validate_local_descending_path(source.get("directory") or "", path.child("directory"))


def _partition(source: dict[str, Any], path: Path) -> list[FieldError]:
    partition = source.get("partition") or 0
    if not 0 <= partition <= 255:
        return [FieldError.invalid(path.child("partition"), partition, _PARTITION_RANGE)]
    return []


def _gce_pd(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateGCEPersistentDiskVolumeSource (Go reports it under `persistentDisk`)."""
    return _required(source, ("pdName",), path) + _partition(source, path)


def _aws_ebs(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateAWSElasticBlockStoreVolumeSource."""
    return _required(source, ("volumeID",), path) + _partition(source, path)


def iqn_format(value: str, path: Path, prefix_message: str) -> list[FieldError]:
    """The iSCSI qualified name's form: iqn, eui or naa."""
    if not value.startswith(("iqn", "eui", "naa")):
        return [FieldError.invalid(path, value, prefix_message)]
    pattern = _IQN if value.startswith("iqn") else _EUI if value.startswith("eui") else _NAA
    return [] if pattern.search(value) else [FieldError.invalid(path, value, "must be valid format")]


def _iscsi(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateISCSIVolumeSource."""
    errs = _required(source, ("targetPortal",), path)
    iqn = source.get("iqn") or ""
    if not iqn:
        errs.append(FieldError.required(path.child("iqn")))
    else:
        errs += iqn_format(iqn, path.child("iqn"), "must be valid format starting with iqn, eui, or naa")
    lun = source.get("lun") or 0
    if not 0 <= lun <= 255:
        errs.append(FieldError.invalid(path.child("lun"), lun, _LUN_RANGE))
    if (source.get("chapAuthDiscovery") or source.get("chapAuthSession")) and source.get("secretRef") is None:
        errs.append(FieldError.required(path.child("secretRef")))
    initiator = source.get("initiatorName")
    if initiator is not None:
        at = path.child("initiatorname")
        if not initiator.startswith(("iqn", "eui", "naa")):
            errs.append(FieldError.invalid(at, initiator, "must be valid format starting with iqn, eui, or naa"))
        else:
            errs += iqn_format(initiator, at, "")
    return errs


def iscsi_name_error(source: dict[str, Any], volume_name: str, path: Path) -> list[FieldError]:
    """validateVolumeSource's check of an iscsi volume with an initiatorName: `<volume name>:
    <targetPortal>` within 64 characters (reported at the volume's `name`)."""
    if source.get("initiatorName") is not None and len(f"{volume_name}:{source.get('targetPortal') or ''}") > 64:
        return [FieldError.invalid(path.child("name"), volume_name,
                                   "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters "
                                   "if iscsi.initiatorName is specified.")]
    return []


def _glusterfs(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateGlusterfsVolumeSource."""
    return _required(source, ("endpoints", "path"), path)


def _flocker(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateFlockerVolumeSource."""
    name, uuid = source.get("datasetName") or "", source.get("datasetUUID") or ""
    errs: list[FieldError] = []
    if not name and not uuid:
        errs.append(FieldError.required(path, "one of datasetName and datasetUUID is required"))
    if name and uuid:
        errs.append(FieldError.invalid(path, "resource",
                                       "datasetName and datasetUUID can not be specified simultaneously"))
    if "/" in name:
        errs.append(FieldError.invalid(path.child("datasetName"), name, "must not contain '/'"))
    return errs


def _rbd(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateRBDVolumeSource."""
    return _required(source, ("monitors", "image"), path)


def _cinder(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateCinderVolumeSource."""
    errs = _required(source, ("volumeID",), path)
    ref = source.get("secretRef")
    if ref is not None and not ref.get("name"):
        errs.append(FieldError.required(path.child("secretRef", "name")))
    return errs


def _cephfs(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateCephFSVolumeSource."""
    return _required(source, ("monitors",), path)


def _quobyte(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateQuobyteVolumeSource: host:port registries, a tenant of at most 64 characters, a volume."""
    registry = source.get("registry") or ""
    message = "must be a host:port pair or multiple pairs separated by commas"
    errs: list[FieldError] = []
    if not registry:
        errs.append(FieldError.required(path.child("registry"), message))
    elif len(source.get("tenant") or "") >= 65:
        errs.append(FieldError.required(path.child("tenant"),
                                        "must be a UUID and may not exceed a length of 64 characters"))
    else:
        errs += [FieldError.invalid(path.child("registry"), registry, message)
                 for pair in registry.split(",") if not _split_host_port(pair)]
    return errs + _required(source, ("volume",), path)


def _split_host_port(pair: str) -> bool:
    """Whether net.SplitHostPort accepts `pair`: host:port, [v6]:port; one colon outside brackets."""
    if pair.startswith("["):
        end = pair.find("]")
        if end == -1 or pair[end + 1:end + 2] != ":":
            return False
        return "[" not in pair[1:end] and "]" not in pair[end + 1:] and "[" not in pair[end + 1:]
    if pair.count(":") != 1:
        return False
    return "[" not in pair and "]" not in pair


def _fc(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateFCVolumeSource."""
    wwns, wwids = source.get("targetWWNs") or [], source.get("wwids") or []
    errs: list[FieldError] = []
    if not wwns and not wwids:
        errs.append(FieldError.required(path.child("targetWWNs"),
                                        "must specify either targetWWNs or wwids, but not both"))
    if wwns and wwids:
        errs.append(FieldError.invalid(path.child("targetWWNs"), wwns,
                                       "targetWWNs and wwids can not be specified simultaneously"))
    if wwns:
        lun = source.get("lun")
        if lun is None:
            errs.append(FieldError.required(path.child("lun"), "lun is required if targetWWNs is specified"))
        elif not 0 <= lun <= 255:
            errs.append(FieldError.invalid(path.child("lun"), lun, _LUN_RANGE))
    return errs


def _flex_volume(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateFlexVolumeSource: a driver; options outside the kubernetes.io and k8s.io namespaces."""
    errs = _required(source, ("driver",), path)
    for key in source.get("options") or {}:
        namespace = key.split("/", 1)[0] if "/" in key else key
        normalized = "." + namespace.lower()
        if normalized.endswith((".kubernetes.io", ".k8s.io")):
            errs.append(FieldError.invalid(path.child("options").key(key), key,
                                           "kubernetes.io and k8s.io namespaces are reserved"))
    return errs


def _azure_file(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateAzureFile."""
    return _required(source, ("secretName", "shareName"), path)


_CACHING_MODES = ("None", "ReadOnly", "ReadWrite")
_DISK_KINDS = ("Dedicated", "Managed", "Shared")


def _azure_disk(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateAzureDisk: name and URI, a caching mode and kind, a URI of the kind's form."""
    errs = _required(source, ("diskName", "diskURI"), path)
    caching, kind = source.get("cachingMode"), source.get("kind")
    uri = source.get("diskURI") or ""
    if caching is not None and caching not in _CACHING_MODES:
        errs.append(FieldError.not_supported(path.child("cachingMode"), TypedString(caching), _CACHING_MODES))
    if kind is not None and kind not in _DISK_KINDS:
        errs.append(FieldError.not_supported(path.child("kind"), TypedString(kind), _DISK_KINDS))
    if kind == "Managed" and not uri.startswith("/subscriptions/"):
        errs.append(FieldError.not_supported(path.child("diskURI"), uri, (
            "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}",)))
    if kind is not None and kind != "Managed" and not uri.startswith("https://"):
        errs.append(FieldError.not_supported(path.child("diskURI"), uri, (
            "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd",)))
    return errs


def _storageos(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateStorageOSVolumeSource."""
    name = source.get("volumeName") or ""
    errs: list[FieldError] = []
    if not name:
        errs.append(FieldError.required(path.child("volumeName")))
    else:
        errs += [FieldError.invalid(path.child("volumeName"), name, m) for m in is_dns1123_label(name)]
    namespace = source.get("volumeNamespace") or ""
    if namespace:
        errs += [FieldError.invalid(path.child("volumeNamespace"), namespace, m) for m in is_dns1123_label(namespace)]
    ref = source.get("secretRef")
    if ref is not None and not ref.get("name"):
        errs.append(FieldError.required(path.child("secretRef", "name")))
    return errs


def image_check(resource_is_pod: bool) -> Callable[[dict[str, Any], Path], list[FieldError]]:
    """validateImageVolumeSource: a reference (in a Pod; a template may leave it to be set later), a
    pull policy (the defaulting of an image volume's pullPolicy is not reproduced: an absent one is
    taken as defaulted)."""
    from crdtool.apis.core.containers import validate_pull_policy

    def check(source: dict[str, Any], path: Path) -> list[FieldError]:
        errs = _required(source, ("reference",), path) if resource_is_pod else []
        if source.get("pullPolicy") is not None:
            errs += validate_pull_policy(source["pullPolicy"], path.child("pullPolicy"))
        return errs
    return check


#: where Go reports a source's own errors when it names the source otherwise than its JSON name
CHECKED_AT = {"gcePersistentDisk": "persistentDisk"}

PLUGIN_CHECKS: dict[str, Callable[[dict[str, Any], Path], list[FieldError]]] = {
    "gitRepo": _git_repo, "gcePersistentDisk": _gce_pd, "awsElasticBlockStore": _aws_ebs, "iscsi": _iscsi,
    "glusterfs": _glusterfs, "flocker": _flocker, "rbd": _rbd, "cinder": _cinder, "cephfs": _cephfs,
    "quobyte": _quobyte, "fc": _fc, "flexVolume": _flex_volume, "azureFile": _azure_file,
    "vsphereVolume": lambda s, p: _required(s, ("volumePath",), p),
    "photonPersistentDisk": lambda s, p: _required(s, ("pdID",), p),
    "portworxVolume": lambda s, p: _required(s, ("volumeID",), p),
    "azureDisk": _azure_disk, "storageos": _storageos,
    "scaleIO": lambda s, p: _required(s, ("gateway", "system", "volumeName"), p),
}

