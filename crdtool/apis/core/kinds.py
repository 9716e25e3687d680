"""The core group's kinds whose validation crdtool reproduces (kubernetes pkg/apis/core/validation,
1.36, and the registry strategies' ValidateUpdate): Pod (create and update), ConfigMap, Secret, Namespace,
ServiceAccount (Service, PersistentVolumeClaim, Endpoints and LimitRange have modules of their own).
Each function returns what its Go counterpart reports beyond ValidateObjectMeta(Update), which
apis.handler runs."""

from __future__ import annotations

import base64
from dataclasses import replace
from typing import Any

from crdtool.apis.core.meta import validate_kube_finalizer_name
from crdtool.apis.core.names import is_config_map_key
from crdtool.apis.core.podannotations import is_valid_deletion_cost, validate_pod_specific_annotations
from crdtool.apis.core.pods import (
    DEFAULT_OPTIONS,
    PodValidationOptions,
    validate_apparmor_annotations_and_fields_match_on_create,
    validate_pod_spec,
    validate_seccomp_annotations_and_fields,
)
from crdtool.model.errors import FieldError
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.path import Path
from crdtool.schema.apimachinery.objectmeta import validate_finalizers, validate_immutable_field

#: core.MaxSecretSize: the data of a Secret or ConfigMap, at most 1 MiB.
MAX_SECRET_SIZE = 1 << 20
IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set"
_SPEC = Path.root("spec")


# ---------------------------------------------------------------- Pod

def validate_pod(pod: dict[str, Any]) -> list[FieldError]:
    """ValidatePodCreate beyond ValidateObjectMeta: validatePodMetadataAndSpec, no ephemeral
    containers, no nodeName while scheduling gates remain, seccomp and AppArmor annotations that
    agree with the fields they preceded."""
    spec = pod.get("spec") or {}
    errs = _validate_pod_metadata_and_spec(pod)
    if spec.get("ephemeralContainers"):
        errs.append(FieldError.forbidden(_SPEC.child("ephemeralContainers"), "cannot be set on create"))
    if spec.get("nodeName") and spec.get("schedulingGates"):
        errs.append(FieldError.forbidden(_SPEC.child("nodeName"),
                                         "cannot be set until all schedulingGates have been cleared"))
    annotations = (pod.get("metadata") or {}).get("annotations") or {}
    errs += validate_seccomp_annotations_and_fields(annotations, spec, _SPEC)
    return errs + validate_apparmor_annotations_and_fields_match_on_create(annotations, spec, _SPEC)


def validate_pod_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidatePodUpdate beyond ValidateObjectMetaUpdate (ValidateObjectMeta of the new pod, which Go
    runs again, is left out: its metadata errors would be the update's twice): the new pod's
    metadata and spec, the pod annotations' changes, then what the spec may change
    (apis.core.podupdate)."""
    from crdtool.apis.core.podupdate import validate_pod_spec_update, validate_pod_specific_annotation_updates

    annotations = Path.root("metadata", "annotations")
    old_annotations = (old.get("metadata") or {}).get("annotations") or {}
    opts = replace(DEFAULT_OPTIONS, allow_invalid_pod_deletion_cost=not is_valid_deletion_cost(old_annotations))
    errs = _validate_pod_metadata_and_spec(new, opts, merge_label_keys=False)
    errs += validate_pod_specific_annotation_updates(new, old, annotations)
    meta = new.get("metadata") or {}
    errs += validate_pod_specific_annotations(meta.get("annotations"), new.get("spec") or {}, annotations,
                                              opts.allow_invalid_pod_deletion_cost)
    return errs + validate_pod_spec_update(new.get("spec") or {}, old.get("spec") or {})


def _validate_pod_metadata_and_spec(pod: dict[str, Any], opts: PodValidationOptions = DEFAULT_OPTIONS,
                                    merge_label_keys: bool = True) -> list[FieldError]:
    """validatePodMetadataAndSpec beyond ValidateObjectMeta: the pod-specific annotations,
    ValidatePodSpec with the pod's metadata, service account tokens only with a service account,
    container images without surrounding whitespace. `merge_label_keys`: the create strategy has
    merged matchLabelKeys into the pod affinity selectors (not again on an update)."""
    from crdtool.apis.core.containers import validate_container_only_for_pod

    meta = pod.get("metadata") or {}
    spec = pod.get("spec") or {}
    errs = validate_pod_specific_annotations(meta.get("annotations"), spec, Path.root("metadata", "annotations"),
                                             opts.allow_invalid_pod_deletion_cost)
    spec_meta = meta if merge_label_keys else {k: v for k, v in meta.items() if k != "labels"}
    errs += validate_pod_spec(spec, spec_meta, _SPEC, opts, resource_is_pod=True)
    if not spec.get("serviceAccountName"):
        for vi, volume in enumerate(spec.get("volumes") or ()):
            for si, source in enumerate((volume.get("projected") or {}).get("sources") or ()):
                if source.get("serviceAccountToken") is not None:
                    errs.append(FieldError.forbidden(
                        _SPEC.child("volumes").index(vi).child("projected", "sources").index(si)
                        .child("serviceAccountToken"), "must not be specified when serviceAccountName is not set"))
    for field in ("containers", "initContainers"):
        for i, c in enumerate(spec.get(field) or ()):
            errs += validate_container_only_for_pod(c, _SPEC.child(field).index(i))
    return errs


# ---------------------------------------------------------------- ConfigMap

def validate_config_map(cm: dict[str, Any]) -> list[FieldError]:
    """ValidateConfigMap: keys are config keys, none in both data and binaryData, 1 MiB in all."""
    data: dict[str, Any] = cm.get("data") or {}
    binary: dict[str, Any] = cm.get("binaryData") or {}
    errs: list[FieldError] = []
    total = 0
    for key, value in data.items():
        at = Path.root("data").key(key)
        errs += [FieldError.invalid(at, key, m) for m in is_config_map_key(key)]
        if key in binary:
            errs.append(FieldError.invalid(at, key, "duplicate of key present in binaryData"))
        total += len((value or "").encode("utf-8", "surrogateescape"))
    for key, value in binary.items():
        errs += [FieldError.invalid(Path.root("binaryData").key(key), key, m) for m in is_config_map_key(key)]
        total += len(_bytes(value))
    if total > MAX_SECRET_SIZE:
        errs.append(FieldError.too_long(Path.root(""), MAX_SECRET_SIZE))
    return errs


def validate_config_map_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """configmap strategy's ValidateUpdate: ValidateConfigMapUpdate, and an immutable ConfigMap's
    immutable, data and binaryData unchanged."""
    errs = _immutable(new, old, ("data", "binaryData"))
    return errs + validate_config_map(new)


def _immutable(new: dict[str, Any], old: dict[str, Any], fields: tuple[str, ...]) -> list[FieldError]:
    """The strategies' check of an object created with `immutable: true`."""
    if not old.get("immutable"):
        return []
    errs = []
    if not new.get("immutable"):
        errs.append(FieldError.forbidden(Path.root("immutable"), IMMUTABLE_WHEN_SET))
    for field in fields:
        if not deep_equal(new.get(field) or None, old.get(field) or None):
            errs.append(FieldError.forbidden(Path.root(field), IMMUTABLE_WHEN_SET))
    return errs


# ---------------------------------------------------------------- Secret

_REDACTED = "<secret contents redacted>"


def _bytes(value: str | None) -> bytes:
    """A []byte field's decoded value (base64 in JSON; decoding already refused bad base64)."""
    try:
        return base64.b64decode(value or "", validate=False)
    except ValueError:
        return b""


def secret_data(secret: dict[str, Any]) -> dict[str, bytes]:
    """The internal Secret's data: data decoded, then stringData merged over it (the v1 to internal
    conversion, which runs before validation)."""
    data = {k: _bytes(v) for k, v in (secret.get("data") or {}).items()}
    for k, v in (secret.get("stringData") or {}).items():
        data[k] = (v or "").encode("utf-8", "surrogateescape")
    return data


def validate_secret(secret: dict[str, Any]) -> list[FieldError]:
    """ValidateSecret: keys are config keys, 1 MiB in all, and each type's required keys."""
    data = secret_data(secret)
    data_path = Path.root("data")
    errs: list[FieldError] = []
    for key in data:
        errs += [FieldError.invalid(data_path.key(key), key, m) for m in is_config_map_key(key)]
    if sum(len(v) for v in data.values()) > MAX_SECRET_SIZE:
        errs.append(FieldError.too_long(data_path, MAX_SECRET_SIZE))
    kind = secret.get("type") or ""
    annotations = (secret.get("metadata") or {}).get("annotations") or {}
    if kind == "kubernetes.io/service-account-token":
        if not annotations.get("kubernetes.io/service-account.name"):
            errs.append(FieldError.required(Path.root("metadata", "annotations").key(
                "kubernetes.io/service-account.name")))
    elif kind in ("kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson"):
        key = ".dockercfg" if kind == "kubernetes.io/dockercfg" else ".dockerconfigjson"
        if key not in data:
            errs.append(FieldError.required(data_path.key(key)))
        else:
            problem = _json_object_error(data[key])
            if problem:
                errs.append(FieldError.invalid(data_path.key(key), _REDACTED, problem))
    elif kind == "kubernetes.io/basic-auth":
        if "username" not in data and "password" not in data:
            odd = Path.root("data[%s]")
            errs += [FieldError.required(odd.key("username")), FieldError.required(odd.key("password"))]
    elif kind == "kubernetes.io/ssh-auth":
        if not data.get("ssh-privatekey"):
            errs.append(FieldError.required(Path.root("data[%s]").key("ssh-privatekey")))
    elif kind == "kubernetes.io/tls":
        errs += [FieldError.required(data_path.key(k)) for k in ("tls.crt", "tls.key") if k not in data]
    return errs


def _json_object_error(raw: bytes) -> str | None:
    """json.Unmarshal(raw, &map[string]interface{}{})'s error text, None when it decodes."""
    from crdtool.model.gojson import syntax_error

    problem = syntax_error(raw)
    if problem is not None:
        return problem
    first = raw.lstrip(b" \t\r\n")[:1]
    kinds = {b"[": "array", b'"': "string", b"t": "bool", b"f": "bool"}
    if first == b"n" or first == b"{":
        return None
    kind = kinds.get(first, "number")
    return f"json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"


def validate_secret_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateSecretUpdate (the type is immutable; an empty type takes the old one) and the secret
    strategy's immutability of a Secret created with `immutable: true`."""
    new_type = new.get("type") or old.get("type") or ""
    errs = validate_immutable_field(new_type, old.get("type") or "", Path.root("type"))
    errs += _immutable(new, old, ("data",))
    return errs + validate_secret({**new, "type": new_type})


# ---------------------------------------------------------------- Namespace, ServiceAccount

def validate_namespace(namespace: dict[str, Any]) -> list[FieldError]:
    """ValidateNamespace beyond ValidateObjectMeta: each spec finalizer a qualified name and a standard
    or fully qualified finalizer name, reported at `spec.finalizers` (the apiserver gives no index)."""
    path = Path.root("spec", "finalizers")
    errs: list[FieldError] = []
    for name in (namespace.get("spec") or {}).get("finalizers") or ():
        errs += validate_finalizers([name or ""], path)
        errs += validate_kube_finalizer_name(name or "", path)
    return errs


def validate_namespace_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateNamespaceUpdate beyond ValidateObjectMetaUpdate: nothing (the namespace strategy's
    PrepareForUpdate keeps the stored spec.finalizers and status)."""
    return []


def validate_service_account(account: dict[str, Any]) -> list[FieldError]:
    """ValidateServiceAccount (and its update): ValidateObjectMeta only; its secrets and
    imagePullSecrets references are not checked by the apiserver."""
    return []
