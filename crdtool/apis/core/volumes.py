"""A pod's volumes as core/validation checks them (kubernetes pkg/apis/core/validation/validation.go,
1.36): ValidateVolumes, validateVolumeSource (one source per volume) and the checks of the sources
manifests use (emptyDir, hostPath, secret, configMap, persistentVolumeClaim, downwardAPI, projected,
nfs, csi, ephemeral with its claim template and claim name), with the path rules they share; the
in-tree storage plugins' sources are in apis.core.volume_sources."""

from __future__ import annotations

import posixpath
from typing import Any

from crdtool.apis.core.containers import validate_dns1123_label
from crdtool.apis.core.pods import PodValidationOptions
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct, go_quote
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import is_dns1123_subdomain, name_is_dns_subdomain

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


def validate_volumes(volumes: list[Any] | None, pod_meta: dict[str, Any] | None, path: Path,
                     opts: PodValidationOptions) -> tuple[dict[str, dict[str, Any]], list[FieldError]]:
    """ValidateVolumes: each volume named (a DNS label, unique) with one valid source; the valid
    volumes by name, for the containers' mounts."""
    errs: list[FieldError] = []
    by_name: dict[str, dict[str, Any]] = {}
    pod_name = (pod_meta or {}).get("name") or ""
    created = {f"{pod_name}-{v.get('name') or ''}" for v in volumes or () if pod_name and v.get("ephemeral")}
    for i, volume in enumerate(volumes or ()):
        at = path.index(i)
        name = volume.get("name") or ""
        own = validate_volume_source(volume, at, name, opts, pod_name)
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


def validate_volume_source(volume: dict[str, Any], path: Path, name: str, opts: PodValidationOptions,
                           pod_name: str = "") -> list[FieldError]:
    """validateVolumeSource: exactly one source, and that source's own rules (the in-tree plugins'
    in apis.core.volume_sources). `pod_name` is a Pod's name ("" for a template), which names the
    claim of an ephemeral volume."""
    from crdtool.apis.core import volume_sources as plugins

    errs: list[FieldError] = []
    count = 0
    for source in _SOURCES:
        value = volume.get(source)
        if value is None:
            continue
        if count > 0 and source != "emptyDir":
            errs.append(FieldError.forbidden(path.child(_FORBIDDEN_AT.get(source, source)), _MORE_THAN_ONE))
        else:
            count += 1
            check = SOURCE_CHECKS.get(source) or plugins.PLUGIN_CHECKS.get(source)
            if source == "image":
                check = plugins.image_check(opts.resource_is_pod)
            if check is not None:
                errs += check(value, path.child(plugins.CHECKED_AT.get(source, source)))
            if source == "ephemeral" and pod_name and name:
                claim = f"{pod_name}-{name}"
                errs += [FieldError.invalid(path.child("name"), name, f"PVC name {go_quote(claim)}: {m}")
                         for m in name_is_dns_subdomain(claim, False)]
        if source == "iscsi":
            errs += plugins.iscsi_name_error(value, name, path)
    if count == 0:
        errs.append(FieldError.required(path, "must specify a volume type"))
    return errs


def _empty_dir(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateVolumeSource's emptyDir: a non-negative sizeLimit."""
    from crdtool.model.quantity import quantity_sign

    limit = source.get("sizeLimit")
    if limit is not None and quantity_sign(limit) < 0:
        return [FieldError.forbidden(path.child("sizeLimit"), "SizeLimit field must be a valid resource quantity")]
    return []


def _host_path(source: dict[str, Any], path: Path) -> list[FieldError]:
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


def _items(items: list[Any] | None, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, item in enumerate(items or ()):
        errs += validate_key_to_path(item, path.index(i))
    return errs


def _secret(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateSecretVolumeSource."""
    errs = [] if source.get("secretName") else [FieldError.required(path.child("secretName"))]
    errs += _mode(source.get("defaultMode"), path.child("defaultMode"))
    return errs + _items(source.get("items"), path.child("items"))


def _config_map(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateConfigMapVolumeSource."""
    errs = [] if source.get("name") else [FieldError.required(path.child("name"))]
    errs += _mode(source.get("defaultMode"), path.child("defaultMode"))
    return errs + _items(source.get("items"), path.child("items"))


def validate_key_to_path(item: dict[str, Any], path: Path) -> list[FieldError]:
    """validateKeyToPath: key and path required, path local and not reserved, a file mode."""
    errs: list[FieldError] = []
    if not item.get("key"):
        errs.append(FieldError.required(path.child("key")))
    item_path = item.get("path") or ""
    if not item_path:
        errs.append(FieldError.required(path.child("path")))
    errs += validate_local_non_reserved_path(item_path, path.child("path"))
    return errs + _mode(item.get("mode"), path.child("mode"))


# ---------------------------------------------------------------- downwardAPI and projected

#: validVolumeDownwardAPIFieldPathExpressions
_VOLUME_FIELD_PATHS = ("metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
                       "metadata.uid")


def _downward_api_file(item: dict[str, Any], path: Path) -> list[FieldError]:
    """validateDownwardAPIVolumeFile: a local path; exactly one of fieldRef (a pod field) and
    resourceFieldRef (a container resource); a file mode. `path` is the source's (Go reports an
    item's errors there, without the item's index)."""
    from crdtool.apis.core.containers import (
        validate_container_resource_field_selector,
        validate_object_field_selector,
    )

    file_path = item.get("path") or ""
    errs = [] if file_path else [FieldError.required(path.child("path"))]
    errs += validate_local_non_reserved_path(file_path, path.child("path"))
    field_ref, resource_ref = item.get("fieldRef"), item.get("resourceFieldRef")
    if field_ref is not None:
        errs += validate_object_field_selector(field_ref, _VOLUME_FIELD_PATHS, path.child("fieldRef"))
        if resource_ref is not None:
            errs.append(FieldError.invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified "
                                                             "simultaneously"))
    elif resource_ref is not None:
        errs += validate_container_resource_field_selector(resource_ref, path.child("resourceFieldRef"), True)
    else:
        errs.append(FieldError.required(path, "one of fieldRef and resourceFieldRef is required"))
    return errs + _mode(item.get("mode"), path.child("mode"))


def _downward_api(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateDownwardAPIVolumeSource."""
    errs = _mode(source.get("defaultMode"), path.child("defaultMode"))
    for item in source.get("items") or ():
        errs += _downward_api_file(item or {}, path)
    return errs


def validate_projected(source: dict[str, Any], path: Path,
                       allow_non_local_token_path: bool = False) -> list[FieldError]:
    """validateProjectedVolumeSource: a file mode, then each source (validateProjectionSources):
    one kind per source, each kind's rules, no path written twice."""
    errs = _mode(source.get("defaultMode"), path.child("defaultMode"))
    paths: set[str] = set()

    def claim(file_path: str, bad_value: str) -> list[FieldError]:
        if file_path in paths:
            return [FieldError.invalid(path, bad_value, "conflicting duplicate paths")]
        paths.add(file_path)
        return []

    for i, projection in enumerate(source.get("sources") or ()):
        projection = projection or {}
        at = path.child("sources").index(i)
        count = 0
        for kind, name_field in (("secret", "name"), ("configMap", "name")):
            ref = projection.get(kind)
            if ref is None:
                continue
            count += 1
            if not ref.get(name_field):
                errs.append(FieldError.required(at.child(kind, name_field)))
            for j, item in enumerate(ref.get("items") or ()):
                item = item or {}
                errs += validate_key_to_path(item, at.child(kind, "items").index(j))
                if item.get("path"):
                    errs += claim(item["path"], ref.get(name_field) or "")
        downward = projection.get("downwardAPI")
        if downward is not None:
            count += 1
            for item in downward.get("items") or ():
                item = item or {}
                errs += _downward_api_file(item, at.child("downwardAPI"))
                if item.get("path"):
                    errs += claim(item["path"], item["path"])
        token = projection.get("serviceAccountToken")
        if token is not None:
            count += 1
            errs += _service_account_token(token, at.child("serviceAccountToken"), path, allow_non_local_token_path)
        bundle = projection.get("clusterTrustBundle")
        if bundle is not None:
            count += 1
            errs += _cluster_trust_bundle(bundle, at.child("clusterTrustBundle"))
            errs += claim(bundle.get("path") or "", bundle.get("path") or "")
        if count > 1:
            errs.append(FieldError.forbidden(at, "may not specify more than 1 volume type per source"))
    return errs


def _service_account_token(token: dict[str, Any], path: Path, projected_path: Path,
                           allow_non_local: bool) -> list[FieldError]:
    """A serviceAccountToken projection: 10 minutes to 2^32 seconds; a path (reported at the
    projected volume's `path`, as Go does)."""
    errs: list[FieldError] = []
    seconds = token.get("expirationSeconds") or 0
    if seconds < 600:
        errs.append(FieldError.invalid(path.child("expirationSeconds"), seconds,
                                       "may not specify a duration less than 10 minutes"))
    if seconds > 1 << 32:
        errs.append(FieldError.invalid(path.child("expirationSeconds"), seconds,
                                       "may not specify a duration larger than 2^32 seconds"))
    token_path = token.get("path") or ""
    if not token_path:
        errs.append(FieldError.required(projected_path.child("path")))
    elif not allow_non_local:
        errs += validate_local_non_reserved_path(token_path, projected_path.child("path"))
    return errs


def _cluster_trust_bundle(bundle: dict[str, Any], path: Path) -> list[FieldError]:
    """A clusterTrustBundle projection: one of name (a ClusterTrustBundle's name, for the signer
    it names) and signerName (a signer name, with a label selector), a local path."""
    from crdtool.apis.core.trustbundles import cluster_trust_bundle_name_errors, validate_signer_name
    from crdtool.schema.apimachinery.labelselector import validate_label_selector

    errs: list[FieldError] = []
    name, signer = bundle.get("name"), bundle.get("signerName")
    if name is not None and signer is not None:
        errs.append(FieldError.invalid(path, _bundle_struct(bundle), "only one of name and signerName may be used"))
    elif name is not None:
        if not name:
            errs.append(FieldError.required(path.child("name"), "must be a valid object name"))
        errs += [FieldError.invalid(path.child("name"), name, f"not a valid clustertrustbundlename: {m}")
                 for m in cluster_trust_bundle_name_errors(name)]
        if bundle.get("labelSelector") is not None:
            errs.append(FieldError.invalid(path.child("labelSelector"), _selector(bundle["labelSelector"]),
                                           "labelSelector must be unset if name is specified"))
    elif signer is not None:
        if not signer:
            errs.append(FieldError.required(path.child("signerName"), "must be a valid signer name"))
        errs += validate_signer_name(signer, path.child("signerName"))
        errs += validate_label_selector(bundle.get("labelSelector"), path.child("labelSelector"))
    else:
        errs.append(FieldError.required(path, "either name or signerName must be specified"))
    bundle_path = bundle.get("path") or ""
    if not bundle_path:
        errs.append(FieldError.required(path.child("path")))
    return errs + validate_local_non_reserved_path(bundle_path, path.child("path"))


def _selector(selector: dict[str, Any] | None) -> object:
    from crdtool.schema.apimachinery.labelselector import selector_struct

    return selector_struct(selector)


def _bundle_struct(bundle: dict[str, Any]) -> GoStruct:
    """The internal core.ClusterTrustBundleProjection as json.Marshal writes it."""
    def ptr(value: object) -> object:
        return TypedString(value) if isinstance(value, str) else value
    return GoStruct(Name=ptr(bundle.get("name")), SignerName=ptr(bundle.get("signerName")),
                    LabelSelector=_selector(bundle.get("labelSelector")), Optional=bundle.get("optional"),
                    Path=bundle.get("path") or "")


def _claim(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePersistentClaimVolumeSource."""
    return [] if source.get("claimName") else [FieldError.required(path.child("claimName"))]


def _nfs(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateNFSVolumeSource."""
    errs = [] if source.get("server") else [FieldError.required(path.child("server"))]
    nfs_path = source.get("path") or ""
    if not nfs_path:
        errs.append(FieldError.required(path.child("path")))
    if not nfs_path.startswith("/"):
        errs.append(FieldError.invalid(path.child("path"), nfs_path, "must be an absolute path"))
    return errs


def validate_csi_driver_name(driver: str, path: Path) -> list[FieldError]:
    """ValidateCSIDriverName: required, at most 63 characters, lower-cased a DNS subdomain."""
    errs: list[FieldError] = []
    if not driver:
        errs.append(FieldError.required(path))
    if len(driver) > 63:
        errs.append(FieldError.too_long(path, 63))
    return errs + [FieldError.invalid(path, driver, m) for m in is_dns1123_subdomain(driver.lower())]


def _csi(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateCSIVolumeSource: ValidateCSIDriverName, and a named nodePublishSecretRef."""
    errs = validate_csi_driver_name(source.get("driver") or "", path.child("driver"))
    ref = source.get("nodePublishSecretRef")
    if ref is not None:
        ref_name = ref.get("name") or ""
        if not ref_name:
            errs.append(FieldError.required(path.child("nodePublishSecretRef", "name")))
        else:
            errs += [FieldError.invalid(path.child("name"), ref_name, m)
                     for m in name_is_dns_subdomain(ref_name, False)]
    return errs


def _ephemeral(source: dict[str, Any], path: Path) -> list[FieldError]:
    """validateEphemeralVolumeSource: a volumeClaimTemplate, valid as a claim template."""
    from crdtool.apis.core.claimtemplate import validate_claim_template

    if source.get("volumeClaimTemplate") is None:
        return [FieldError.required(path.child("volumeClaimTemplate"))]
    return validate_claim_template(source["volumeClaimTemplate"], path.child("volumeClaimTemplate"))


SOURCE_CHECKS = {
    "emptyDir": _empty_dir, "hostPath": _host_path, "secret": _secret, "configMap": _config_map,
    "persistentVolumeClaim": _claim, "nfs": _nfs, "csi": _csi, "ephemeral": _ephemeral,
    "downwardAPI": _downward_api, "projected": validate_projected,
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
