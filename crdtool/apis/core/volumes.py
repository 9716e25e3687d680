"""A pod's volumes as core/validation checks them (kubernetes pkg/apis/core/validation/validation.go,
1.36): ValidateVolumes, validateVolumeSource (one source per volume) and the checks of the sources
manifests use (emptyDir, hostPath, secret, configMap, persistentVolumeClaim, downwardAPI, projected,
nfs, csi, ephemeral's presence), with the path rules they share."""

from __future__ import annotations

import posixpath

from crdtool.apis.core.containers import validate_dns1123_label
from crdtool.apis.core.pods import PodValidationOptions
from crdtool.model.errors import FieldError
from crdtool.model.path import Path

FILE_MODE_ERROR = "must be a number between 0 and 0777 (octal), both inclusive"
_MORE_THAN_ONE = "may not specify more than 1 volume type"
#: validateVolumeSource's order of sources (with the path Go reports each one's first error under).
_SOURCES = ("emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs",
            "iscsi", "glusterfs", "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte",
            "downwardAPI", "fc", "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk",
            "portworxVolume", "azureDisk", "storageos", "projected", "scaleIO", "csi", "ephemeral", "image")
#: where Go reports "more than 1 volume type" when it names the source otherwise than its JSON name
_FORBIDDEN_AT = {"cephfs": "cephFS", "downwardAPI": "downwarAPI"}
_HOST_PATH_TYPES = ("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate",
                    "Socket")


def validate_volumes(volumes: list | None, pod_meta: dict | None, path: Path,
                     opts: PodValidationOptions) -> tuple[dict[str, dict], list[FieldError]]:
    """ValidateVolumes: each volume named (a DNS label, unique) with one valid source; the valid
    volumes by name, for the containers' mounts."""
    errs: list[FieldError] = []
    by_name: dict[str, dict] = {}
    pod_name = (pod_meta or {}).get("name") or ""
    created = {f"{pod_name}-{v.get('name') or ''}" for v in volumes or () if pod_name and v.get("ephemeral")}
    for i, volume in enumerate(volumes or ()):
        at = path.index(i)
        name = volume.get("name") or ""
        own = validate_volume_source(volume, at, name, opts)
        if not name:
            own.append(FieldError.required(at.child("name")))
        else:
            own += validate_dns1123_label(name, at.child("name"))
        if name in by_name:
            own.append(FieldError.duplicate(at.child("name"), name))
        if not own:
            by_name[name] = volume
        else:
            errs += own
        claim = volume.get("persistentVolumeClaim")
        if claim is not None and (claim.get("claimName") or "") in created:
            errs.append(FieldError.invalid(at.child("persistentVolumeClaim", "claimName"), claim.get("claimName"),
                                           "must not reference a PVC that gets created for an ephemeral volume"))
    return by_name, errs


def validate_volume_source(volume: dict, path: Path, name: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateVolumeSource: exactly one source, and that source's own rules."""
    errs: list[FieldError] = []
    count = 0
    for source in _SOURCES:
        value = volume.get(source)
        if value is None:
            continue
        if count > 0 and source != "emptyDir":
            errs.append(FieldError.forbidden(path.child(_FORBIDDEN_AT.get(source, source)), _MORE_THAN_ONE))
            continue
        count += 1
        check = _SOURCE_CHECKS.get(source)
        if check is not None:
            errs += check(value, path.child(source))
    if count == 0:
        errs.append(FieldError.required(path, "must specify a volume type"))
    return errs


def _empty_dir(source: dict, path: Path) -> list[FieldError]:
    """validateVolumeSource's emptyDir: a non-negative sizeLimit."""
    from crdtool.apis.quantity import quantity_sign

    limit = source.get("sizeLimit")
    if limit is not None and quantity_sign(limit) < 0:
        return [FieldError.forbidden(path.child("sizeLimit"), "SizeLimit field must be a valid resource quantity")]
    return []


def _host_path(source: dict, path: Path) -> list[FieldError]:
    """validateHostPathVolumeSource."""
    host_path = source.get("path") or ""
    if not host_path:
        return [FieldError.required(path.child("path"))]
    errs = validate_path_no_backsteps(host_path, path.child("path"))
    kind = source.get("type")
    if kind is not None and kind not in _HOST_PATH_TYPES:
        errs.append(FieldError.not_supported(path.child("type"), kind, _HOST_PATH_TYPES))
    return errs


def _mode(value: int | None, path: Path) -> list[FieldError]:
    if value is not None and not 0 <= value <= 0o777:
        return [FieldError.invalid(path, value, FILE_MODE_ERROR)]
    return []


def _items(items: list | None, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, item in enumerate(items or ()):
        errs += validate_key_to_path(item, path.index(i))
    return errs


def _secret(source: dict, path: Path) -> list[FieldError]:
    """validateSecretVolumeSource."""
    errs = [] if source.get("secretName") else [FieldError.required(path.child("secretName"))]
    errs += _mode(source.get("defaultMode"), path.child("defaultMode"))
    return errs + _items(source.get("items"), path.child("items"))


def _config_map(source: dict, path: Path) -> list[FieldError]:
    """validateConfigMapVolumeSource."""
    errs = [] if source.get("name") else [FieldError.required(path.child("name"))]
    errs += _mode(source.get("defaultMode"), path.child("defaultMode"))
    return errs + _items(source.get("items"), path.child("items"))


def validate_key_to_path(item: dict, path: Path) -> list[FieldError]:
    """validateKeyToPath: key and path required, path local and not reserved, a file mode."""
    errs: list[FieldError] = []
    if not item.get("key"):
        errs.append(FieldError.required(path.child("key")))
    item_path = item.get("path") or ""
    if not item_path:
        errs.append(FieldError.required(path.child("path")))
    errs += validate_local_non_reserved_path(item_path, path.child("path"))
    return errs + _mode(item.get("mode"), path.child("mode"))


def _claim(source: dict, path: Path) -> list[FieldError]:
    """validatePersistentClaimVolumeSource."""
    return [] if source.get("claimName") else [FieldError.required(path.child("claimName"))]


def _nfs(source: dict, path: Path) -> list[FieldError]:
    """validateNFSVolumeSource."""
    errs = [] if source.get("server") else [FieldError.required(path.child("server"))]
    nfs_path = source.get("path") or ""
    if not nfs_path:
        errs.append(FieldError.required(path.child("path")))
    if not nfs_path.startswith("/"):
        errs.append(FieldError.invalid(path.child("path"), nfs_path, "must be an absolute path"))
    return errs


def _csi(source: dict, path: Path) -> list[FieldError]:
    """validateCSIVolumeSource: ValidateCSIDriverName, and a named nodePublishSecretRef."""
    from crdtool.schema.apimachinery.names import is_dns1123_subdomain, name_is_dns_subdomain

    driver = source.get("driver") or ""
    errs: list[FieldError] = []
    if not driver:
        errs.append(FieldError.required(path.child("driver")))
    if len(driver) > 63:
        errs.append(FieldError.too_long(path.child("driver"), 63))
    errs += [FieldError.invalid(path.child("driver"), driver, m) for m in is_dns1123_subdomain(driver.lower())]
    ref = source.get("nodePublishSecretRef")
    if ref is not None:
        ref_name = ref.get("name") or ""
        if not ref_name:
            errs.append(FieldError.required(path.child("nodePublishSecretRef", "name")))
        else:
            errs += [FieldError.invalid(path.child("name"), ref_name, m)
                     for m in name_is_dns_subdomain(ref_name, False)]
    return errs


def _ephemeral(source: dict, path: Path) -> list[FieldError]:
    """validateEphemeralVolumeSource: a volumeClaimTemplate (its claim spec is not checked here)."""
    if source.get("volumeClaimTemplate") is None:
        return [FieldError.required(path.child("volumeClaimTemplate"))]
    return []


_SOURCE_CHECKS = {
    "emptyDir": _empty_dir, "hostPath": _host_path, "secret": _secret, "configMap": _config_map,
    "persistentVolumeClaim": _claim, "nfs": _nfs, "csi": _csi, "ephemeral": _ephemeral,
}


# ---------------------------------------------------------------- paths

def validate_path_no_backsteps(target: str, path: Path) -> list[FieldError]:
    """validatePathNoBacksteps: no `..` element."""
    if ".." in target.split("/"):
        return [FieldError.invalid(path, target, "must not contain '..'")]
    return []


def validate_local_descending_path(target: str, path: Path) -> list[FieldError]:
    """validateLocalDescendingPath: relative, without `..`."""
    errs = []
    if posixpath.isabs(target):
        errs.append(FieldError.invalid(path, target, "must be a relative path"))
    return errs + validate_path_no_backsteps(target, path)


def validate_local_non_reserved_path(target: str, path: Path) -> list[FieldError]:
    """ValidateLocalNonReservedPath: relative, without `..`, not starting with `..`."""
    errs = validate_local_descending_path(target, path)
    if target.startswith("..") and not target.startswith("../"):
        errs.append(FieldError.invalid(path, target, "must not start with '..'"))
    return errs
