"""A pod's spec as core/validation checks it (kubernetes pkg/apis/core/validation/validation.go, 1.36):
ValidatePodTemplateSpec (used by the workload groups), ValidatePodSpec and what it calls for the
pod as a whole; the containers are in apis.core.containers, the volumes in apis.core.volumes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from crdtool.apis.core.podannotations import (
    APPARMOR_CONTAINER,
    LOCALHOST,
    SECCOMP_CONTAINER,
    SECCOMP_POD,
    validate_pod_specific_annotations,
)
from crdtool.apis.fieldchecks import validate_ip_for_legacy_field, validate_qualified_name
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import (
    inclusive_range_error,
    is_dns1123_label,
    is_qualified_name,
    is_valid_label_value,
    name_is_dns_subdomain,
)
from crdtool.schema.apimachinery.objectmeta import validate_annotations, validate_labels


@dataclass(frozen=True, slots=True)
class PodValidationOptions:
    """PodValidationOptions as GetValidationOptionsFromPodSpecAndMeta sets them for a new object with
    1.36's default feature gates. The fields are the ones crdtool's checks read."""

    #: AllowRelaxedEnvironmentVariableValidation (RelaxedEnvironmentVariableValidation, GA in 1.34).
    allow_relaxed_env_var_names: bool = True
    #: AllowPodLifecycleSleepActionZeroValue (PodLifecycleSleepActionAllowZero, on).
    allow_sleep_zero: bool = True
    #: AllowSidecarResizePolicy (InPlacePodVerticalScaling, on).
    allow_sidecar_resize_policy: bool = True
    #: ResourceIsPod: the spec is a Pod's, not a template's.
    resource_is_pod: bool = False
    #: PodLevelResourcesEnabled (PodLevelResources, on by default since 1.34).
    pod_level_resources: bool = True
    #: AllowInvalidPodDeletionCost: off (PodDeletionCost is on), except for an update of a pod whose
    #: deletion cost was already invalid.
    allow_invalid_pod_deletion_cost: bool = False


DEFAULT_OPTIONS = PodValidationOptions()


def validate_pod_template_spec(template: dict[str, Any] | None, path: Path,
                               opts: PodValidationOptions = DEFAULT_OPTIONS) -> list[FieldError]:
    """ValidatePodTemplateSpec: the template's labels and annotations, its pod spec (ValidatePodSpec
    with no pod metadata), seccomp and AppArmor annotations that agree with their fields, and no
    ephemeral containers. `path` is the template's (e.g.
    `spec.template`); the template arrives decoded and defaulted."""
    template = template or {}
    meta = template.get("metadata") or {}
    spec = template.get("spec") or {}
    errs = validate_labels(meta.get("labels"), path.child("labels"))
    errs += validate_annotations(meta.get("annotations"), path.child("annotations"))
    errs += validate_pod_specific_annotations(meta.get("annotations"), spec, path.child("annotations"),
                                              opts.allow_invalid_pod_deletion_cost)
    errs += validate_pod_spec(spec, None, path.child("spec"), opts)
    annotations = meta.get("annotations") or {}
    errs += validate_seccomp_annotations_and_fields(annotations, spec, path.child("spec"))
    errs += validate_apparmor_annotations_and_fields_match_on_create(annotations, spec, path.child("spec"))
    if spec.get("ephemeralContainers"):
        errs.append(FieldError.forbidden(path.child("spec", "ephemeralContainers"),
                                         "ephemeral containers not allowed in pod template"))
    return errs


def validate_seccomp_annotations_and_fields(annotations: dict[str, Any], spec: dict[str, Any],
                                            spec_path: Path) -> list[FieldError]:
    """validateSeccompAnnotationsAndFields (a Pod's on create, a pod template's): where a seccomp
    annotation and field both exist, they agree. `spec_path` is the pod spec's."""
    errs: list[FieldError] = []
    pod_profile = (spec.get("securityContext") or {}).get("seccompProfile")
    if pod_profile is not None and SECCOMP_POD in annotations:
        errs += _seccomp_match(annotations[SECCOMP_POD], pod_profile,
                               spec_path.child("securityContext", "seccompProfile"))
    from crdtool.apis.core.security import visit_containers

    for c, at in visit_containers(spec, spec_path):
        profile = (c.get("securityContext") or {}).get("seccompProfile")
        key = SECCOMP_CONTAINER + (c.get("name") or "")
        if profile is not None and key in annotations:
            errs += _seccomp_match(annotations[key], profile, at.child("securityContext", "seccompProfile"))
    return errs


def _seccomp_match(annotation: str, profile: dict[str, Any], path: Path) -> list[FieldError]:
    kind = profile.get("type") or ""
    mismatch = [FieldError.forbidden(path.child("type"), "seccomp type in annotation and field must match")]
    if kind == "Unconfined" and annotation != "unconfined":
        return mismatch
    if kind == "RuntimeDefault" and annotation not in ("runtime/default", "docker/default"):
        return mismatch
    if kind == "Localhost":
        if not annotation.startswith(LOCALHOST):
            return mismatch
        if annotation.removeprefix(LOCALHOST) != profile.get("localhostProfile"):
            return [FieldError.forbidden(path.child("localhostProfile"),
                                         "seccomp profile in annotation and field must match")]
    return []


def validate_apparmor_annotations_and_fields_match_on_create(annotations: dict[str, Any], spec: dict[str, Any],
                                                             spec_path: Path) -> list[FieldError]:
    """validateAppArmorAnnotationsAndFieldsMatchOnCreate (a Pod's on create, a pod template's; not
    for Windows pods): a container's AppArmor annotation agrees with its profile (its own, else the
    pod's). `spec_path` is the pod spec's."""
    from crdtool.apis.core.security import visit_containers

    if (spec.get("os") or {}).get("name") == "windows":
        return []
    pod_profile = (spec.get("securityContext") or {}).get("appArmorProfile")
    errs: list[FieldError] = []
    for c, at in visit_containers(spec, spec_path):
        profile = (c.get("securityContext") or {}).get("appArmorProfile") or pod_profile
        annotation = annotations.get(APPARMOR_CONTAINER + (c.get("name") or ""))
        if profile is None or annotation is None:
            continue
        path = at.child("securityContext", "appArmorProfile")
        kind = profile.get("type") or ""
        mismatch = FieldError.forbidden(path.child("type"), "apparmor type in annotation and field must match")
        expected = {"Unconfined": "unconfined", "RuntimeDefault": "runtime/default"}.get(kind)
        if expected is not None and annotation != expected:
            errs.append(mismatch)
        elif kind == "Localhost":
            if not annotation.startswith(LOCALHOST):
                errs.append(mismatch)
            elif annotation.removeprefix(LOCALHOST) != profile.get("localhostProfile"):
                errs.append(FieldError.forbidden(path.child("localhostProfile"),
                                                 "apparmor profile in annotation and field must match"))
    return errs


def validate_pod_spec(spec: dict[str, Any], pod_meta: dict[str, Any] | None, path: Path,
                      opts: PodValidationOptions = DEFAULT_OPTIONS, resource_is_pod: bool = False) -> list[FieldError]:
    """ValidatePodSpec, in Go's order: terminationGracePeriodSeconds, volumes, resourceClaims,
    containers (regular, init, ephemeral), pod-level resources, hostNetwork's ports, restartPolicy,
    dnsPolicy, nodeSelector, the pod security context, affinity, dnsConfig, readiness and
    scheduling gates, topology spread constraints, Windows hostProcess, hostUsers,
    serviceAccountName, nodeName, activeDeadlineSeconds, hostname, subdomain, tolerations,
    hostAliases, priorityClassName, runtimeClassName, preemptionPolicy, overhead, os.

    `pod_meta` is a Pod's metadata (None for a template): its name names the claims of ephemeral
    volumes, its labels are merged into pod affinity terms and topology spread constraints by
    matchLabelKeys."""
    from crdtool.apis.core import affinity as aff
    from crdtool.apis.core import containers as ctr
    from crdtool.apis.core import podresources as res
    from crdtool.apis.core import security as sec
    from crdtool.apis.core import volumes as vol

    if resource_is_pod and not opts.resource_is_pod:
        opts = replace(opts, resource_is_pod=True)
    errs: list[FieldError] = []
    grace = spec.get("terminationGracePeriodSeconds")
    if grace is None:
        errs.append(FieldError.required(path.child("terminationGracePeriodSeconds")))
    restart_policy = spec.get("restartPolicy") or ""
    volumes, volume_errs = vol.validate_volumes(spec.get("volumes"), pod_meta, path.child("volumes"), opts)
    errs += volume_errs
    claim_names = res.pod_claim_names(spec.get("resourceClaims"))
    errs += res.validate_pod_resource_claims(spec.get("resourceClaims"), path.child("resourceClaims"))
    host_users = spec.get("hostUsers") is not False
    context = ctr.PodContext(volumes, claim_names, grace, restart_policy, opts, host_users)
    errs += ctr.validate_containers(spec.get("containers"), path.child("containers"), context)
    errs += ctr.validate_init_containers(spec.get("initContainers"), spec.get("containers"),
                                         path.child("initContainers"), context)
    errs += ctr.validate_ephemeral_containers(spec.get("ephemeralContainers"), spec.get("containers"),
                                              spec.get("initContainers"), path.child("ephemeralContainers"), context)
    if opts.pod_level_resources:
        errs += res.validate_pod_resources(spec, claim_names, path.child("resources"))
    errs += _validate_host_network_deps(spec, path, resource_is_pod)
    errs += validate_restart_policy(restart_policy, path.child("restartPolicy"))
    errs += validate_dns_policy(spec.get("dnsPolicy") or "", path.child("dnsPolicy"))
    errs += validate_labels(spec.get("nodeSelector"), path.child("nodeSelector"))
    errs += sec.validate_pod_security_context(spec, path.child("securityContext"))
    pod_labels = (pod_meta or {}).get("labels") if resource_is_pod else None
    errs += aff.validate_affinity(spec.get("affinity"), path.child("affinity"), pod_labels)
    errs += _validate_dns_config(spec.get("dnsConfig"), spec.get("dnsPolicy") or "", path.child("dnsConfig"))
    for i, gate in enumerate(spec.get("readinessGates") or ()):
        condition = (gate or {}).get("conditionType") or ""
        errs += validate_qualified_name(condition, path.child("readinessGates").index(i).child("conditionType"))
    errs += validate_scheduling_gates(spec.get("schedulingGates"), path.child("schedulingGates"))
    errs += aff.validate_topology_spread_constraints(spec.get("topologySpreadConstraints"),
                                                     path.child("topologySpreadConstraints"), pod_labels)
    errs += sec.validate_windows_host_process_pod(spec, path)
    errs += sec.validate_host_users(spec, path)
    for field in ("serviceAccountName", "nodeName"):
        value = spec.get(field) or ""
        if value:
            errs += [FieldError.invalid(path.child(field), value, m) for m in name_is_dns_subdomain(value, False)]
    deadline = spec.get("activeDeadlineSeconds")
    if deadline is not None and not 1 <= deadline <= 2**31 - 1:
        errs.append(FieldError.invalid(path.child("activeDeadlineSeconds"), deadline,
                                       inclusive_range_error(1, 2**31 - 1)))
    for field in ("hostname", "subdomain"):
        value = spec.get(field) or ""
        if value:
            errs += [FieldError.invalid(path.child(field), value, m) for m in is_dns1123_label(value)]
    if spec.get("tolerations"):
        errs += validate_tolerations(spec["tolerations"], path.child("tolerations"))
    for i, alias in enumerate(spec.get("hostAliases") or ()):
        errs += validate_host_alias(alias or {}, path.child("hostAliases").index(i))
    priority_class = spec.get("priorityClassName") or ""
    if priority_class:
        errs += [FieldError.invalid(path.child("priorityClassName"), priority_class, m)
                 for m in name_is_dns_subdomain(priority_class, False)]
    runtime_class = spec.get("runtimeClassName")
    if runtime_class is not None:
        errs += [FieldError.invalid(path.child("runtimeClassName"), runtime_class, m)
                 for m in name_is_dns_subdomain(runtime_class, False)]
    preemption = spec.get("preemptionPolicy")
    if preemption is not None:
        errs += _one_of(preemption, ("PreemptLowerPriority", "Never"), path.child("preemptionPolicy"))
    if spec.get("overhead") is not None:
        errs += validate_overhead(spec["overhead"], path.child("overhead"))
    return errs + sec.validate_os(spec, path)


def validate_overhead(overhead: dict[str, Any], path: Path) -> list[FieldError]:
    """validateOverhead: the resource requirements' rules, as limits."""
    from crdtool.apis.core.resources import validate_container_resource_requirements

    return validate_container_resource_requirements({"limits": overhead}, set(), path)


def validate_scheduling_gates(gates: list[Any] | None, path: Path) -> list[FieldError]:
    """validateSchedulingGates: qualified names, no duplicate."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, gate in enumerate(gates or ()):
        name = (gate or {}).get("name") or ""
        errs += validate_qualified_name(name, path.index(i))
        if name in seen:
            errs.append(FieldError.duplicate(path.index(i), name))
        seen.add(name)
    return errs


def validate_host_alias(alias: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateHostAliases' check of one alias: an IP (IsValidIPForLegacyField), DNS subdomains."""
    from crdtool.schema.apimachinery.names import is_dns1123_subdomain

    errs = validate_ip_for_legacy_field(alias.get("ip") or "", path.child("ip"))
    for j, hostname in enumerate(alias.get("hostnames") or ()):
        errs += [FieldError.invalid(path.child("hostnames").index(j), hostname or "", m)
                 for m in is_dns1123_subdomain(hostname or "")]
    return errs


def _one_of(value: str, supported: tuple[str, ...], path: Path) -> list[FieldError]:
    """The enum switch core/validation writes for each policy: Required when empty, else NotSupported."""
    if value in supported:
        return []
    if not value:
        return [FieldError.required(path)]
    return [FieldError.not_supported(path, value, supported)]


def _validate_host_network_deps(spec: dict[str, Any], path: Path, resource_is_pod: bool) -> list[FieldError]:
    """validatePodHostNetworkDeps: with hostNetwork a port's hostPort equals its containerPort (or,
    in a template, is unset)."""
    if not spec.get("hostNetwork"):
        return []
    errs: list[FieldError] = []
    for i, c in enumerate(spec.get("containers") or ()):
        for j, port in enumerate(c.get("ports") or ()):
            host, container = port.get("hostPort") or 0, port.get("containerPort") or 0
            if (resource_is_pod or host != 0) and host != container:
                errs.append(FieldError.invalid(path.child("containers").index(i).child("ports").index(j)
                                               .child("hostPort"), host,
                                               "must match `containerPort` when `hostNetwork` is true"))
    return errs


def _validate_dns_config(config: dict[str, Any] | None, policy: str, path: Path) -> list[FieldError]:
    """validatePodDNSConfig: dnsPolicy None needs nameservers; at most 3 nameservers and 32
    searches of 2048 characters in all; searches are DNS subdomains; options are named."""
    from crdtool.schema.apimachinery.names import is_dns1123_subdomain

    if policy == "None":
        if config is None:
            return [FieldError.required(path, "must provide `dnsConfig` when `dnsPolicy` is None")]
        if not config.get("nameservers"):
            return [FieldError.required(path.child("nameservers"),
                                        "must provide at least one DNS nameserver when `dnsPolicy` is None")]
    if config is None:
        return []
    errs: list[FieldError] = []
    nameservers = config.get("nameservers") or []
    if len(nameservers) > 3:
        errs.append(FieldError.invalid(path.child("nameservers"), nameservers, "must not have more than 3 nameservers"))
    for i, nameserver in enumerate(nameservers):
        errs += validate_ip_for_legacy_field(nameserver or "", path.child("nameservers").index(i))
    searches = config.get("searches") or []
    if len(searches) > 32:
        errs.append(FieldError.invalid(path.child("searches"), searches, "must not have more than 32 search paths"))
    if len(" ".join(searches)) > 2048:
        errs.append(FieldError.invalid(path.child("searches"), searches,
                                       "must not have more than 2048 characters (including spaces) in the search list"))
    for i, search in enumerate(searches):
        if search != ".":
            trimmed = search.removesuffix(".")
            errs += [FieldError.invalid(path.child("searches").index(i), trimmed, m)
                     for m in is_dns1123_subdomain(trimmed.replace("_", "a"))]
    for i, option in enumerate(config.get("options") or ()):
        if not option.get("name"):
            errs.append(FieldError.required(path.child("options").index(i), "must not be empty"))
    return errs


_TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


def validate_tolerations(tolerations: list[Any], path: Path) -> list[FieldError]:
    """ValidateTolerations: a qualified key; an empty key only with Exists; tolerationSeconds only
    with NoExecute; Equal's value a label value, Exists' value empty; a known effect."""
    errs: list[FieldError] = []
    for i, t in enumerate(tolerations):
        at = path.index(i)
        key, operator = t.get("key") or "", t.get("operator") or ""
        value, effect = t.get("value") or "", t.get("effect") or ""
        if key:
            errs += [FieldError.invalid(at.child("key"), key, m) for m in is_qualified_name(key)]
        if not key and operator != "Exists":
            errs.append(FieldError.invalid(at.child("operator"), TypedString(operator),
                                           'operator must be Exists when `key` is empty, which means '
                                           '"match all values and all keys"'))
        if t.get("tolerationSeconds") is not None and effect != "NoExecute":
            errs.append(FieldError.invalid(at.child("effect"), TypedString(effect),
                                           "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if operator in ("Equal", ""):
            msgs = is_valid_label_value(value)
            if msgs:
                errs.append(FieldError.invalid(at.child("operator"), value, ";".join(msgs)))
        elif operator == "Exists":
            if value:
                errs.append(FieldError.invalid(at.child("operator"), value,
                                               "value must be empty when `operator` is 'Exists'"))
        else:
            errs.append(FieldError.not_supported(at.child("operator"), operator, ("Equal", "Exists")))
        if effect and effect not in _TAINT_EFFECTS:
            errs.append(FieldError.not_supported(at.child("effect"), effect, _TAINT_EFFECTS))
    return errs


_RESTART_POLICIES = ("Always", "OnFailure", "Never")
_DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")


def validate_restart_policy(policy: str, path: Path) -> list[FieldError]:
    """validateRestartPolicy."""
    return _one_of(policy, _RESTART_POLICIES, path)


def validate_dns_policy(policy: str, path: Path) -> list[FieldError]:
    """validateDNSPolicy."""
    return _one_of(policy, _DNS_POLICIES, path)
