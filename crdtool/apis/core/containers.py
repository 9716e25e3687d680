"""A pod's containers as core/validation checks them (kubernetes pkg/apis/core/validation/validation.go,
1.36): validateContainers, validateInitContainers, validateEphemeralContainers and
validateContainerCommon with what they call (ports, env, envFrom, volume mounts and devices, pull
policy, resources, probes, lifecycle handlers, security context)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.apis.core import names
from crdtool.apis.core.pods import PodValidationOptions
from crdtool.model.errors import FieldError
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import (
    is_dns1123_label,
    is_valid_port_name,
    is_valid_port_num,
    name_is_dns_subdomain,
)


@dataclass(frozen=True, slots=True)
class PodContext:
    """What the pod gives each container's validation: its volumes by name (each one's source), its
    resource claims' names, terminationGracePeriodSeconds, restartPolicy, the options."""

    volumes: dict[str, dict[str, Any]]
    claim_names: set[str]
    grace_period: int | None
    restart_policy: str
    opts: PodValidationOptions
    #: hostUsers unset or true: the containers share the host's user namespace.
    host_users: bool = True


def validate_dns1123_label(value: str, path: Path) -> list[FieldError]:
    """ValidateDNS1123Label."""
    return [FieldError.invalid(path, value, m) for m in is_dns1123_label(value)]


# ---------------------------------------------------------------- container lists

def validate_containers(containers: list[Any] | None, path: Path, ctx: PodContext) -> list[FieldError]:
    """validateContainers: at least one; names unique; probes and lifecycle; no restartPolicy;
    host ports unique across the list."""
    if not containers:
        return [FieldError.required(path)]
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, c in enumerate(containers):
        at = path.index(i)
        errs += validate_container_common(c, at, ctx)
        name = c.get("name") or ""
        if name in seen:
            errs.append(FieldError.duplicate(at.child("name"), name))
        else:
            seen.add(name)
        if c.get("lifecycle") is not None:
            errs += validate_lifecycle(c["lifecycle"], ctx, at.child("lifecycle"))
        errs += validate_liveness_probe(c.get("livenessProbe"), ctx, at.child("livenessProbe"))
        errs += validate_readiness_probe(c.get("readinessProbe"), ctx, at.child("readinessProbe"))
        errs += validate_startup_probe(c.get("startupProbe"), ctx, at.child("startupProbe"))
        if c.get("restartPolicy") is not None:
            errs.append(FieldError.forbidden(at.child("restartPolicy"), "may not be set for non-init containers"))
    errs += check_host_port_conflicts(containers, path)
    return errs


_INIT_FORBIDDEN = "may not be set for init containers without restartPolicy=Always"


def validate_init_containers(containers: list[Any] | None, regular: list[Any] | None, path: Path,
                             ctx: PodContext) -> list[FieldError]:
    """validateInitContainers: names unique among regular and init containers; restartPolicy Always
    only (a sidecar), which alone may have probes and lifecycle handlers."""
    errs: list[FieldError] = []
    seen = {c.get("name") or "" for c in regular or ()}
    for i, c in enumerate(containers or ()):
        at = path.index(i)
        errs += validate_container_common(c, at, ctx)
        restart_always = False
        policy = c.get("restartPolicy")
        if policy is not None:
            if policy != "Always":
                errs.append(FieldError.not_supported(at.child("restartPolicy"), policy, ["Always"]))
            restart_always = policy == "Always"
        name = c.get("name") or ""
        if name in seen:
            errs.append(FieldError.duplicate(at.child("name"), name))
        elif name:
            seen.add(name)
        errs += check_host_port_conflicts([c], path)
        if restart_always:
            if c.get("lifecycle") is not None:
                errs += validate_lifecycle(c["lifecycle"], ctx, at.child("lifecycle"))
            errs += validate_liveness_probe(c.get("livenessProbe"), ctx, at.child("livenessProbe"))
            errs += validate_readiness_probe(c.get("readinessProbe"), ctx, at.child("readinessProbe"))
            errs += validate_startup_probe(c.get("startupProbe"), ctx, at.child("startupProbe"))
        else:
            for field in ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe"):
                if c.get(field) is not None:
                    errs.append(FieldError.forbidden(at.child(field), _INIT_FORBIDDEN))
        if not ctx.opts.allow_sidecar_resize_policy and c.get("resizePolicy"):
            errs.append(FieldError.invalid(at.child("resizePolicy"), c["resizePolicy"],
                                           "must not be set for init containers"))
    return errs


#: allowedEphemeralContainerFields: the EphemeralContainerCommon fields an ephemeral container may set.
_EPHEMERAL_FORBIDDEN_FIELDS = ("ports", "resources", "resizePolicy", "restartPolicy", "restartPolicyRules",
                               "livenessProbe", "readinessProbe", "startupProbe", "lifecycle")


def validate_ephemeral_containers(ephemeral: list[Any] | None, containers: list[Any] | None, init: list[Any] | None,
                                  path: Path, ctx: PodContext) -> list[FieldError]:
    """validateEphemeralContainers: names unique across all containers, an existing target, only
    the allowed fields, no subPath."""
    if not ephemeral:
        return []
    errs: list[FieldError] = []
    others = {c.get("name") or "" for c in (*(containers or ()), *(init or ()))}
    seen = set(others)
    for i, ec in enumerate(ephemeral):
        at = path.index(i)
        errs += validate_container_common(ec, at, ctx)
        errs += validate_container_only_for_pod(ec, at)
        name = ec.get("name") or ""
        if name in seen:
            errs.append(FieldError.duplicate(at.child("name"), name))
        else:
            seen.add(name)
        target = ec.get("targetContainerName") or ""
        if target and target not in others:
            errs.append(FieldError.not_found(at.child("targetContainerName"), target))
        for field in _EPHEMERAL_FORBIDDEN_FIELDS:
            if _is_set(ec.get(field)):
                errs.append(FieldError.forbidden(at.child(field), "cannot be set for an Ephemeral Container"))
        for j, mount in enumerate(ec.get("volumeMounts") or ()):
            for field in ("subPath", "subPathExpr"):
                if mount.get(field):
                    errs.append(FieldError.forbidden(at.child("volumeMounts").index(j).child(field),
                                                     "cannot be set for an Ephemeral Container"))
    return errs


def _is_set(value: Any) -> bool:
    """The field differs from its Go zero value (validateFieldAllowList's reflect.DeepEqual)."""
    return value not in (None, "", 0, False) and value != [] and value != {}


def validate_container_only_for_pod(c: dict[str, Any], path: Path) -> list[FieldError]:
    """validateContainerOnlyForPod: a pod's (not a template's) container image has no surrounding spaces."""
    image = c.get("image") or ""
    if image != image.strip(" \t\n\r\v\f"):
        return [FieldError.invalid(path.child("image"), image, "must not have leading or trailing whitespace")]
    return []


# ---------------------------------------------------------------- one container

_TERMINATION_MESSAGE_POLICIES = ("File", "FallbackToLogsOnError")
_PULL_POLICIES = ("Always", "IfNotPresent", "Never")


def validate_container_common(c: dict[str, Any], path: Path, ctx: PodContext) -> list[FieldError]:
    """validateContainerCommon: what every container type must meet."""
    from crdtool.apis.core import resources, security

    errs: list[FieldError] = []
    name = c.get("name") or ""
    if not name:
        errs.append(FieldError.required(path.child("name")))
    else:
        errs += validate_dns1123_label(name, path.child("name"))
    if not c.get("image"):
        errs.append(FieldError.required(path.child("image")))
    policy = c.get("terminationMessagePolicy") or ""
    if not policy:
        errs.append(FieldError.required(path.child("terminationMessagePolicy")))
    elif policy not in _TERMINATION_MESSAGE_POLICIES:
        errs.append(FieldError.not_supported(path.child("terminationMessagePolicy"), policy,
                                             _TERMINATION_MESSAGE_POLICIES))
    mounts = {m.get("name") or "": m.get("mountPath") or "" for m in c.get("volumeMounts") or ()}
    devices = {d.get("name") or "": d.get("devicePath") or "" for d in c.get("volumeDevices") or ()}
    errs += validate_container_ports(c.get("ports"), path.child("ports"))
    errs += validate_env(c.get("env"), path.child("env"), ctx.opts)
    errs += validate_env_from(c.get("envFrom"), path.child("envFrom"), ctx.opts)
    errs += validate_volume_mounts(c.get("volumeMounts"), devices, ctx.volumes, c, path.child("volumeMounts"))
    errs += validate_volume_devices(c.get("volumeDevices"), mounts, ctx.volumes, path.child("volumeDevices"))
    errs += validate_pull_policy(c.get("imagePullPolicy") or "", path.child("imagePullPolicy"))
    errs += resources.validate_container_resource_requirements(c.get("resources"), ctx.claim_names,
                                                               path.child("resources"))
    errs += validate_resize_policy(c.get("resizePolicy"), path.child("resizePolicy"), ctx.restart_policy)
    errs += security.validate_security_context(c.get("securityContext"), path.child("securityContext"),
                                               ctx.host_users)
    return errs


_PROTOCOLS = ("SCTP", "TCP", "UDP")


def validate_container_ports(ports: list[Any] | None, path: Path) -> list[FieldError]:
    """validateContainerPorts: names are IANA service names, unique; containerPort 1-65535 and
    required; hostPort 1-65535 when set; protocol TCP, UDP or SCTP."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, port in enumerate(ports or ()):
        at = path.index(i)
        name = port.get("name") or ""
        if name:
            msgs = is_valid_port_name(name)
            if msgs:
                errs += [FieldError.invalid(at.child("name"), name, m) for m in msgs]
            elif name in seen:
                errs.append(FieldError.duplicate(at.child("name"), name))
            else:
                seen.add(name)
        container_port = port.get("containerPort") or 0
        if container_port == 0:
            errs.append(FieldError.required(at.child("containerPort")))
        else:
            errs += [FieldError.invalid(at.child("containerPort"), container_port, m)
                     for m in is_valid_port_num(container_port)]
        host_port = port.get("hostPort") or 0
        if host_port:
            errs += [FieldError.invalid(at.child("hostPort"), host_port, m) for m in is_valid_port_num(host_port)]
        protocol = port.get("protocol") or ""
        if not protocol:
            errs.append(FieldError.required(at.child("protocol")))
        elif protocol not in _PROTOCOLS:
            errs.append(FieldError.not_supported(at.child("protocol"), protocol, _PROTOCOLS))
    return errs


def check_host_port_conflicts(containers: list[Any], path: Path) -> list[FieldError]:
    """checkHostPortConflicts (AccumulateUniqueHostPorts): protocol/hostIP/hostPort unique."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for ci, c in enumerate(containers):
        for pi, port in enumerate(c.get("ports") or ()):
            host_port = port.get("hostPort") or 0
            if not host_port:
                continue
            key = f"{port.get('protocol') or ''}/{port.get('hostIP') or ''}/{host_port}"
            if key in seen:
                errs.append(FieldError.duplicate(path.index(ci).child("ports").index(pi).child("hostPort"), key))
            else:
                seen.add(key)
    return errs


def _env_name_errors(value: str, opts: PodValidationOptions) -> list[str]:
    return names.is_relaxed_env_var_name(value) if opts.allow_relaxed_env_var_names else names.is_env_var_name(value)


def validate_env(env: list[Any] | None, path: Path, opts: PodValidationOptions) -> list[FieldError]:
    """ValidateEnv: each variable named; valueFrom has exactly one source and no `value` beside it."""
    errs: list[FieldError] = []
    for i, var in enumerate(env or ()):
        at = path.index(i)
        name = var.get("name") or ""
        if not name:
            errs.append(FieldError.required(at.child("name")))
        else:
            errs += [FieldError.invalid(at.child("name"), name, m) for m in _env_name_errors(name, opts)]
        errs += _validate_env_var_value_from(var, at.child("valueFrom"))
    return errs


_ENV_FIELD_PATHS = ("metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
                    "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs")
_CONTAINER_RESOURCE_PATHS = ("limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu",
                             "requests.ephemeral-storage", "requests.memory")


def _validate_env_var_value_from(var: dict[str, Any], path: Path) -> list[FieldError]:
    """validateEnvVarValueFrom."""
    source = var.get("valueFrom")
    if source is None:
        return []
    errs: list[FieldError] = []
    count = 0
    if source.get("fieldRef") is not None:
        count += 1
        errs += validate_object_field_selector(source["fieldRef"], _ENV_FIELD_PATHS, path.child("fieldRef"))
    if source.get("resourceFieldRef") is not None:
        count += 1
        errs += validate_container_resource_field_selector(source["resourceFieldRef"], path.child("resourceFieldRef"),
                                                           volume=False)
    if source.get("configMapKeyRef") is not None:
        count += 1
        errs += _validate_key_selector(source["configMapKeyRef"], path.child("configMapKeyRef"))
    if source.get("secretKeyRef") is not None:
        count += 1
        errs += _validate_key_selector(source["secretKeyRef"], path.child("secretKeyRef"))
    if count == 0:
        errs.append(FieldError.invalid(
            path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
    elif var.get("value"):
        errs.append(FieldError.invalid(path, "", "may not be specified when `value` is not empty"))
    elif count > 1:
        errs.append(FieldError.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


def validate_object_field_selector(selector: dict[str, Any], expressions: tuple[str, ...],
                                   path: Path) -> list[FieldError]:
    """validateObjectFieldSelector: apiVersion and fieldPath required; a supported path, or a
    subscripted metadata.labels/annotations with a qualified name."""
    from crdtool.schema.apimachinery.names import is_qualified_name

    if not selector.get("apiVersion"):
        return [FieldError.required(path.child("apiVersion"))]
    field_path = selector.get("fieldPath") or ""
    if not field_path:
        return [FieldError.required(path.child("fieldPath"))]
    if selector["apiVersion"] != "v1":
        return [FieldError.invalid(path.child("fieldPath"), field_path,
                                   f'error converting fieldPath: unsupported pod version: {selector["apiVersion"]}')]
    base, subscript, subscripted = _split_subscript(field_path)
    if subscripted:
        if base == "metadata.annotations":
            return [FieldError.invalid(path, subscript.lower(), m) for m in is_qualified_name(subscript.lower())]
        if base == "metadata.labels":
            return [FieldError.invalid(path, subscript, m) for m in is_qualified_name(subscript)]
        return [FieldError.invalid(path, base, "does not support subscript")]
    if base not in expressions:
        return [FieldError.not_supported(path.child("fieldPath"), base, sorted(expressions))]
    return []


def _split_subscript(field_path: str) -> tuple[str, str, bool]:
    """fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` -> (`metadata.labels`, `key`, True)."""
    if not field_path.endswith("']"):
        return field_path, "", False
    parts = field_path.split("['", 1)
    if len(parts) == 1:
        return field_path, "", False
    subscript = parts[1][:-2]
    if not subscript:
        return field_path, "", False
    return parts[0], subscript, True


def validate_container_resource_field_selector(selector: dict[str, Any], path: Path, volume: bool) -> list[FieldError]:
    """validateContainerResourceFieldSelector (without the divisor's check)."""
    resource = selector.get("resource") or ""
    if volume and not selector.get("containerName"):
        return [FieldError.required(path.child("containerName"))]
    if not resource:
        return [FieldError.required(path.child("resource"))]
    if resource not in _CONTAINER_RESOURCE_PATHS and not resource.startswith(("limits.hugepages-",
                                                                             "requests.hugepages-")):
        return [FieldError.not_supported(path.child("resource"), resource, _CONTAINER_RESOURCE_PATHS)]
    return []


def _validate_key_selector(selector: dict[str, Any], path: Path) -> list[FieldError]:
    """validateConfigMapKeySelector and validateSecretKeySelector (both with ValidateSecretName)."""
    name = selector.get("name") or ""
    errs = [FieldError.invalid(path.child("name"), name, m) for m in name_is_dns_subdomain(name, False)]
    key = selector.get("key") or ""
    if not key:
        errs.append(FieldError.required(path.child("key")))
    else:
        errs += [FieldError.invalid(path.child("key"), key, m) for m in names.is_config_map_key(key)]
    return errs


def validate_env_from(sources: list[Any] | None, path: Path, opts: PodValidationOptions) -> list[FieldError]:
    """ValidateEnvFrom: a valid prefix; exactly one of configMapRef and secretRef, named."""
    errs: list[FieldError] = []
    for i, source in enumerate(sources or ()):
        at = path.index(i)
        prefix = source.get("prefix") or ""
        if prefix:
            errs += [FieldError.invalid(at.child("prefix"), prefix, m) for m in _env_name_errors(prefix, opts)]
        count = 0
        for field in ("configMapRef", "secretRef"):
            ref = source.get(field)
            if ref is None:
                continue
            count += 1
            name = ref.get("name") or ""
            if not name:
                errs.append(FieldError.required(at.child(field, "name")))
            else:
                errs += [FieldError.invalid(at.child(field, "name"), name, m)
                         for m in name_is_dns_subdomain(name, True)]
        if count == 0:
            errs.append(FieldError.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"))
        elif count > 1:
            errs.append(FieldError.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


# ---------------------------------------------------------------- volume mounts and devices

_MOUNT_PROPAGATIONS = ("Bidirectional", "HostToContainer", "None")
_RECURSIVE_READ_ONLY = ("Disabled", "IfPossible", "Enabled")


def validate_volume_mounts(mounts: list[Any] | None, devices: dict[str, str], volumes: dict[str, dict[str, Any]],
                           container: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateVolumeMounts: each mount names a pod volume, has a unique mountPath, no '..' in its
    subPath, a supported propagation and recursiveReadOnly."""
    from crdtool.apis.core.volumes import validate_local_descending_path

    errs: list[FieldError] = []
    mount_points: set[str] = set()
    for i, m in enumerate(mounts or ()):
        at = path.index(i)
        name = m.get("name") or ""
        mount_path = m.get("mountPath") or ""
        if not name:
            errs.append(FieldError.required(at.child("name")))
        if name not in volumes:
            errs.append(FieldError.not_found(at.child("name"), name))
        if not mount_path:
            errs.append(FieldError.required(at.child("mountPath")))
        if mount_path in mount_points:
            errs.append(FieldError.invalid(at.child("mountPath"), mount_path, "must be unique"))
        mount_points.add(mount_path)
        if name in devices:
            errs.append(FieldError.invalid(at.child("name"), name, "must not already exist in volumeDevices"))
        if mount_path in devices.values():
            errs.append(FieldError.invalid(at.child("mountPath"), mount_path,
                                           "must not already exist as a path in volumeDevices"))
        sub_path, sub_path_expr = m.get("subPath") or "", m.get("subPathExpr") or ""
        if (volumes.get(name) or {}).get("image") is not None:
            if sub_path:
                errs.append(FieldError.invalid(at.child("subPath"), sub_path, "not allowed in image volume sources"))
            if sub_path_expr:
                errs.append(FieldError.invalid(at.child("subPathExpr"), sub_path_expr,
                                               "not allowed in image volume sources"))
        if sub_path:
            errs += validate_local_descending_path(sub_path, path.child("subPath"))
        if sub_path_expr:
            if sub_path:
                errs.append(FieldError.invalid(at.child("subPathExpr"), sub_path_expr,
                                               "subPathExpr and subPath are mutually exclusive"))
            errs += validate_local_descending_path(sub_path_expr, path.child("subPathExpr"))
        propagation = m.get("mountPropagation")
        if propagation is not None:
            errs += _validate_mount_propagation(propagation, container, path.child("mountPropagation"))
        errs += _validate_recursive_read_only(m, path.child("recursiveReadOnly"))
    return errs


def _validate_mount_propagation(propagation: str, container: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMountPropagation: a supported mode; Bidirectional only in a privileged container."""
    errs: list[FieldError] = []
    if propagation not in _MOUNT_PROPAGATIONS:
        errs.append(FieldError.not_supported(path, propagation, _MOUNT_PROPAGATIONS))
    privileged = bool((container.get("securityContext") or {}).get("privileged"))
    if propagation == "Bidirectional" and not privileged:
        errs.append(FieldError.forbidden(path, "Bidirectional mount propagation is available only to privileged "
                                               "containers"))
    return errs


def _validate_recursive_read_only(mount: dict[str, Any], path: Path) -> list[FieldError]:
    """validateMountRecursiveReadOnly."""
    value = mount.get("recursiveReadOnly")
    if value is None or value == "Disabled":
        return []
    if value not in _RECURSIVE_READ_ONLY:
        return [FieldError.not_supported(path, value, _RECURSIVE_READ_ONLY)]
    errs = []
    if not mount.get("readOnly"):
        errs.append(FieldError.forbidden(path, "may only be specified when readOnly is true"))
    if mount.get("mountPropagation") not in (None, "None"):
        errs.append(FieldError.forbidden(path, "may only be specified when mountPropagation is None or not specified"))
    return errs


def validate_volume_devices(devices: list[Any] | None, mounts: dict[str, str], volumes: dict[str, dict[str, Any]],
                            path: Path) -> list[FieldError]:
    """ValidateVolumeDevices: each device names a PVC or ephemeral volume, unique names and paths."""
    from crdtool.apis.core.volumes import validate_path_no_backsteps

    errs: list[FieldError] = []
    device_paths: set[str] = set()
    device_names: set[str] = set()
    for i, d in enumerate(devices or ()):
        at = path.index(i)
        name, device_path = d.get("name") or "", d.get("devicePath") or ""
        source = volumes.get(name)
        matched = source is not None
        is_pvc = source is not None and (source.get("persistentVolumeClaim") is not None
                                         or source.get("ephemeral") is not None)
        if not name:
            errs.append(FieldError.required(at.child("name")))
        if name in device_names:
            errs.append(FieldError.invalid(at.child("name"), name, "must be unique"))
        if matched and not is_pvc:
            errs.append(FieldError.invalid(at.child("name"), name, "can only use volume source type of "
                                                                   "PersistentVolumeClaim or Ephemeral for block mode"))
        if not matched:
            errs.append(FieldError.not_found(at.child("name"), name))
        if not device_path:
            errs.append(FieldError.required(at.child("devicePath")))
        if device_path in device_paths:
            errs.append(FieldError.invalid(at.child("devicePath"), device_path, "must be unique"))
        if device_path and validate_path_no_backsteps(device_path, path.child("devicePath")):
            errs.append(FieldError.invalid(at.child("devicePath"), device_path, "can not contain backsteps ('..')"))
        else:
            device_paths.add(device_path)
        if name in mounts:
            errs.append(FieldError.invalid(at.child("name"), name, "must not already exist in volumeMounts"))
        if device_path in mounts.values():
            errs.append(FieldError.invalid(at.child("devicePath"), device_path,
                                           "must not already exist as a path in volumeMounts"))
        if name:
            device_names.add(name)
    return errs


# ---------------------------------------------------------------- policies, probes, handlers

def validate_pull_policy(policy: str, path: Path) -> list[FieldError]:
    """validatePullPolicy."""
    if policy in _PULL_POLICIES:
        return []
    if not policy:
        return [FieldError.required(path)]
    return [FieldError.not_supported(path, policy, _PULL_POLICIES)]


_RESIZE_RESOURCES = ("cpu", "memory")
_RESIZE_POLICIES = ("NotRequired", "RestartContainer")


def validate_resize_policy(policies: list[Any] | None, path: Path, pod_restart_policy: str) -> list[FieldError]:
    """validateResizePolicy: cpu and memory once each, NotRequired or RestartContainer (NotRequired
    under restartPolicy Never)."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, p in enumerate(policies or ()):
        resource, policy = p.get("resourceName") or "", p.get("restartPolicy") or ""
        if resource in seen:
            errs.append(FieldError.duplicate(path.index(i), resource))
        seen.add(resource)
        if not resource:
            errs.append(FieldError.required(path))
        elif resource not in _RESIZE_RESOURCES:
            errs.append(FieldError.not_supported(path, resource, _RESIZE_RESOURCES))
        if not policy:
            errs.append(FieldError.required(path))
        elif policy not in _RESIZE_POLICIES:
            errs.append(FieldError.not_supported(path, policy, _RESIZE_POLICIES))
        if pod_restart_policy == "Never" and policy != "NotRequired":
            errs.append(FieldError.invalid(path, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'"))
    return errs


def validate_liveness_probe(probe: dict[str, Any] | None, ctx: PodContext, path: Path) -> list[FieldError]:
    """validateLivenessProbe: successThreshold must be 1."""
    if probe is None:
        return []
    errs = validate_probe(probe, ctx, path)
    if probe.get("successThreshold", 0) != 1:
        errs.append(FieldError.invalid(path.child("successThreshold"), probe.get("successThreshold", 0), "must be 1"))
    return errs


def validate_readiness_probe(probe: dict[str, Any] | None, ctx: PodContext, path: Path) -> list[FieldError]:
    """validateReadinessProbe: no terminationGracePeriodSeconds."""
    if probe is None:
        return []
    errs = validate_probe(probe, ctx, path)
    if probe.get("terminationGracePeriodSeconds") is not None:
        errs.append(FieldError.invalid(path.child("terminationGracePeriodSeconds"),
                                       probe["terminationGracePeriodSeconds"], "must not be set for readinessProbes"))
    return errs


def validate_startup_probe(probe: dict[str, Any] | None, ctx: PodContext, path: Path) -> list[FieldError]:
    """validateStartupProbe: successThreshold must be 1."""
    return validate_liveness_probe(probe, ctx, path)


def validate_probe(probe: dict[str, Any], ctx: PodContext, path: Path) -> list[FieldError]:
    """validateProbe: one handler; non-negative timings; a positive terminationGracePeriodSeconds."""
    handler = {k: probe.get(k) for k in ("exec", "httpGet", "tcpSocket", "grpc")}
    errs = validate_handler(handler, ctx, path)
    for field in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
        value = probe.get(field) or 0
        if value < 0:
            errs.append(FieldError.invalid(path.child(field), value, "must be greater than or equal to 0"))
    grace = probe.get("terminationGracePeriodSeconds")
    if grace is not None and grace <= 0:
        errs.append(FieldError.invalid(path.child("terminationGracePeriodSeconds"), grace, "must be greater than 0"))
    return errs


_HTTP_SCHEMES = ("HTTP", "HTTPS")


def validate_handler(handler: dict[str, Any], ctx: PodContext, path: Path) -> list[FieldError]:
    """validateHandler: exactly one of exec, httpGet, tcpSocket, grpc, sleep (in that order)."""
    errs: list[FieldError] = []
    count = 0
    for kind in ("exec", "httpGet", "tcpSocket", "grpc", "sleep"):
        action = handler.get(kind)
        if action is None:
            continue
        if count > 0:
            errs.append(FieldError.forbidden(path.child(kind), "may not specify more than 1 handler type"))
            continue
        count += 1
        at = path.child(kind)
        if kind == "exec":
            if not action.get("command"):
                errs.append(FieldError.required(at.child("command")))
        elif kind == "httpGet":
            if not action.get("path"):
                errs.append(FieldError.required(at.child("path")))
            errs += validate_port_num_or_name(action.get("port", 0), at.child("port"))
            scheme = action.get("scheme") or ""
            if scheme not in _HTTP_SCHEMES:
                errs.append(FieldError.not_supported(at.child("scheme"), scheme, _HTTP_SCHEMES))
            for header in action.get("httpHeaders") or ():
                header_name = header.get("name") or ""
                errs += [FieldError.invalid(at.child("httpHeaders"), header_name, m)
                         for m in names.is_http_header_name(header_name)]
        elif kind == "tcpSocket":
            errs += validate_port_num_or_name(action.get("port", 0), at.child("port"))
        elif kind == "grpc":
            errs += validate_port_num_or_name(action.get("port") or 0, at.child("port"))
        else:
            errs += _validate_sleep(action, ctx, at)
    if count == 0:
        errs.append(FieldError.required(path, "must specify a handler type"))
    return errs


def _validate_sleep(sleep: dict[str, Any], ctx: PodContext, path: Path) -> list[FieldError]:
    """validateSleepAction: 0 (or 1, without PodLifecycleSleepActionAllowZero) up to the grace period."""
    seconds = sleep.get("seconds") or 0
    grace = ctx.grace_period
    if grace is None:
        return []
    if ctx.opts.allow_sleep_zero:
        if seconds < 0 or seconds > grace:
            return [FieldError.invalid(path, seconds, "must be non-negative and less than "
                                                      f"terminationGracePeriodSeconds ({grace})")]
    elif seconds <= 0 or seconds > grace:
        return [FieldError.invalid(path, seconds, f"must be greater than 0 and less than terminationGracePeriodSeconds "
                                                  f"({grace}). Enable AllowPodLifecycleSleepActionZeroValue feature "
                                                  "gate for zero sleep.")]
    return []


def validate_port_num_or_name(port: int | str, path: Path) -> list[FieldError]:
    """ValidatePortNumOrName: an int-or-string port, a number 1-65535 or an IANA service name."""
    if isinstance(port, int):
        return [FieldError.invalid(path, port, m) for m in is_valid_port_num(port)]
    return [FieldError.invalid(path, port, m) for m in is_valid_port_name(port)]


def validate_lifecycle(lifecycle: dict[str, Any], ctx: PodContext, path: Path) -> list[FieldError]:
    """validateLifecycle: postStart and preStop handlers (exec, httpGet, tcpSocket, sleep)."""
    errs: list[FieldError] = []
    for hook in ("postStart", "preStop"):
        handler = lifecycle.get(hook)
        if handler is not None:
            errs += validate_handler({k: handler.get(k) for k in ("exec", "httpGet", "tcpSocket", "sleep")},
                                     ctx, path.child(hook))
    return errs
