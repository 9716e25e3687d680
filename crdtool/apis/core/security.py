"""Security contexts as core/validation checks them (kubernetes pkg/apis/core/validation/validation.go,
1.36): a container's (ValidateSecurityContext) and the pod's (validatePodSpecSecurityContext), with
the seccomp, AppArmor and Windows options they share, sysctls, and the pod-wide rules on host
namespaces (validateHostUsers, validateWindowsHostProcessPod).

Assumptions about the cluster: privileged containers are allowed (kube-apiserver's
`--allow-privileged=true`, as kubeadm, kind and the managed offerings set it), so `privileged: true`
and hostProcess containers are never "disallowed by cluster policy". Feature gates at their 1.36
defaults: SELinuxChangePolicy is on, so every seLinuxChangePolicy value is allowed
(AllowOnlyRecursiveSELinuxChangePolicy off); a new object gets no leniency for namespaced sysctls in
host-network or host-IPC pods (AllowNamespacedSysctlsForHostNetAndHostIPC off).

A pod's `hostNetwork`, `hostPID`, `hostIPC`, `shareProcessNamespace` and `hostUsers` live in the
internal type's security context; the errors name them where Go names them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import re2  # type: ignore[import-untyped]  # google-re2 ships no types

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import inclusive_range_error, is_dns1123_subdomain

#: apimachinery util/validation: minUserID, maxUserID (and the same for groups).
_MIN_ID, _MAX_ID = 0, 2**31 - 1
_ID_RANGE = inclusive_range_error(_MIN_ID, _MAX_ID)
#: core.DefaultProcMount, core.UnmaskedProcMount.
_PROC_MOUNTS = ("Default", "Unmasked")
_SECCOMP_TYPES = ("Localhost", "RuntimeDefault", "Unconfined")
_APPARMOR_TYPES = ("Localhost", "RuntimeDefault", "Unconfined")
_FS_GROUP_CHANGE_POLICIES = ("Always", "OnRootMismatch")
_SUPPLEMENTAL_GROUPS_POLICIES = ("Merge", "Strict")
_SELINUX_CHANGE_POLICIES = ("MountOption", "Recursive")


def _ids(sc: dict[str, Any], fields: tuple[str, ...], path: Path) -> list[FieldError]:
    """IsValidUserID / IsValidGroupID of the fields that are set."""
    errs: list[FieldError] = []
    for field in fields:
        value = sc.get(field)
        if isinstance(value, int) and not _MIN_ID <= value <= _MAX_ID:
            errs.append(FieldError.invalid(path.child(field), value, _ID_RANGE))
    return errs


# ---------------------------------------------------------------- container

def validate_security_context(sc: dict[str, Any] | None, path: Path, host_users: bool = True) -> list[FieldError]:
    """ValidateSecurityContext: user and group IDs, procMount (Unmasked only without host users),
    the seccomp profile, allowPrivilegeEscalation false beside privileged or CAP_SYS_ADMIN, the
    Windows options and the AppArmor profile."""
    if sc is None:
        return []
    errs = _ids(sc, ("runAsUser", "runAsGroup"), path)
    proc_mount = sc.get("procMount")
    if proc_mount is not None:
        if proc_mount not in _PROC_MOUNTS:
            errs.append(FieldError.not_supported(path.child("procMount"), TypedString(proc_mount), _PROC_MOUNTS))
        if host_users and proc_mount == "Unmasked":
            errs.append(FieldError.invalid(path.child("procMount"), TypedString(proc_mount),
                                           "`hostUsers` must be false to use `Unmasked`"))
    errs += validate_seccomp_profile(sc.get("seccompProfile"), path.child("seccompProfile"))
    if sc.get("allowPrivilegeEscalation") is False:
        if sc.get("privileged") is True:
            errs.append(FieldError.invalid(path, security_context_struct(sc),
                                           "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
        for capability in (sc.get("capabilities") or {}).get("add") or ():
            if capability == "CAP_SYS_ADMIN":
                errs.append(FieldError.invalid(path, security_context_struct(sc),
                                               "cannot set `allowPrivilegeEscalation` to false and "
                                               "`capabilities.Add` CAP_SYS_ADMIN"))
    errs += validate_windows_options(sc.get("windowsOptions"), path.child("windowsOptions"))
    return errs + validate_apparmor_profile(sc.get("appArmorProfile"), path.child("appArmorProfile"))


def _ptr(value: object) -> object:
    """A pointer field's value as json.Marshal writes it (nil is null)."""
    return TypedString(value) if isinstance(value, str) else value


def _profile_struct(profile: dict[str, Any] | None) -> GoStruct | None:
    if profile is None:
        return None
    return GoStruct(Type=profile.get("type") or "", LocalhostProfile=_ptr(profile.get("localhostProfile")))


def security_context_struct(sc: dict[str, Any]) -> GoStruct:
    """The internal core.SecurityContext as json.Marshal writes it in a field error (no JSON tags:
    Go field names, every field, nil pointers as null)."""
    caps = sc.get("capabilities")
    selinux = sc.get("seLinuxOptions")
    windows = sc.get("windowsOptions")
    return GoStruct(
        Capabilities=None if caps is None else GoStruct(Add=caps.get("add"), Drop=caps.get("drop")),
        Privileged=sc.get("privileged"),
        SELinuxOptions=None if selinux is None else GoStruct(
            User=selinux.get("user") or "", Role=selinux.get("role") or "",
            Type=selinux.get("type") or "", Level=selinux.get("level") or ""),
        WindowsOptions=None if windows is None else GoStruct(
            GMSACredentialSpecName=_ptr(windows.get("gmsaCredentialSpecName")),
            GMSACredentialSpec=_ptr(windows.get("gmsaCredentialSpec")),
            RunAsUserName=_ptr(windows.get("runAsUserName")), HostProcess=windows.get("hostProcess")),
        RunAsUser=sc.get("runAsUser"), RunAsGroup=sc.get("runAsGroup"), RunAsNonRoot=sc.get("runAsNonRoot"),
        ReadOnlyRootFilesystem=sc.get("readOnlyRootFilesystem"),
        AllowPrivilegeEscalation=sc.get("allowPrivilegeEscalation"), ProcMount=_ptr(sc.get("procMount")),
        SeccompProfile=_profile_struct(sc.get("seccompProfile")),
        AppArmorProfile=_profile_struct(sc.get("appArmorProfile")))


# ---------------------------------------------------------------- profiles

def validate_seccomp_profile(profile: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """validateSeccompProfileField: a known type; localhostProfile (a relative path without `..`)
    with Localhost and only with it."""
    from crdtool.apis.core.volumes import validate_local_descending_path

    if profile is None:
        return []
    errs: list[FieldError] = []
    kind = profile.get("type") or ""
    if not kind:
        errs.append(FieldError.required(path.child("type"), "type is required when seccompProfile is set"))
    elif kind not in _SECCOMP_TYPES:
        errs.append(FieldError.not_supported(path.child("type"), TypedString(kind), _SECCOMP_TYPES))
    local = profile.get("localhostProfile")
    if kind == "Localhost":
        if local is None:
            errs.append(FieldError.required(path.child("localhostProfile"),
                                            "must be set when seccomp type is Localhost"))
        else:
            errs += validate_local_descending_path(local, path.child("localhostProfile"))
    elif local is not None:
        errs.append(FieldError.invalid(path.child("localhostProfile"), _profile_struct(profile),
                                       "can only be set when seccomp type is Localhost"))
    return errs


def validate_apparmor_profile(profile: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """ValidateAppArmorProfileField: a known type; an unpadded, non-empty localhostProfile of at most
    4095 bytes with Localhost and only with it."""
    if profile is None:
        return []
    errs: list[FieldError] = []
    kind = profile.get("type") or ""
    local = profile.get("localhostProfile")
    local_path = path.child("localhostProfile")
    if kind == "Localhost":
        if local is None:
            errs.append(FieldError.required(local_path, "must be set when AppArmor type is Localhost"))
        else:
            trimmed = local.strip(" \t\n\v\f\r\x85\xa0")
            if trimmed != local:
                errs.append(FieldError.invalid(local_path, local, "must not be padded with whitespace"))
            elif not trimmed:
                errs.append(FieldError.required(local_path, "must be set when AppArmor type is Localhost"))
            if len(local.encode("utf-8", "surrogateescape")) > 4095:
                errs.append(FieldError.too_long(local_path, 4095))
    elif kind in ("RuntimeDefault", "Unconfined"):
        if local is not None:
            errs.append(FieldError.invalid(local_path, TypedString(local),
                                           "can only be set when AppArmor type is Localhost"))
    elif not kind:
        errs.append(FieldError.required(path.child("type"), "type is required when appArmorProfile is set"))
    else:
        errs.append(FieldError.not_supported(path.child("type"), TypedString(kind), _APPARMOR_TYPES))
    return errs


# ---------------------------------------------------------------- Windows options

_CONTROL = re2.compile(r"[[:cntrl:]]+")
_NETBIOS = re2.compile(r'^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$')
_DNS_LABEL = r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
_WINDOWS_DOMAIN_DNS = re2.compile(rf"^{_DNS_LABEL}(?:\.{_DNS_LABEL})*$")
_USER_BAD_CHARS = re2.compile(r'["/\\:;|=,\+\*\?<>@\[\]]')
_USER_DOTS_SPACES = re2.compile(r"^[\. ]+$")
_MAX_GMSA_KIB = 64
_MAX_DOMAIN, _MAX_USER = 256, 104


def validate_windows_options(options: dict[str, Any] | None, path: Path) -> list[FieldError]:
    """validateWindowsSecurityContextOptions: the GMSA credential spec's name and size, and
    runAsUserName's form (DOMAIN\\USER)."""
    if options is None:
        return []
    errs: list[FieldError] = []
    spec_name = options.get("gmsaCredentialSpecName")
    if spec_name is not None:
        errs += [FieldError.invalid(path.child("gmsaCredentialSpecName"), TypedString(spec_name), m)
                 for m in is_dns1123_subdomain(spec_name)]
    spec = options.get("gmsaCredentialSpec")
    if spec is not None:
        size = len(spec.encode("utf-8", "surrogateescape"))
        if size == 0:
            errs.append(FieldError.invalid(path.child("gmsaCredentialSpec"), TypedString(spec),
                                           "gmsaCredentialSpec cannot be an empty string"))
        elif size > _MAX_GMSA_KIB * 1024:
            errs.append(FieldError.invalid(path.child("gmsaCredentialSpec"), TypedString(spec),
                                           f"gmsaCredentialSpec size must be under {_MAX_GMSA_KIB} KiB"))
    user_name = options.get("runAsUserName")
    if user_name is not None:
        errs += [FieldError.invalid(path.child("runAsUserName"), TypedString(user_name), m)
                 for m in _run_as_user_name_errors(user_name)]
    return errs


def _run_as_user_name_errors(name: str) -> list[str]:
    """The runAsUserName checks, in Go's order."""
    if not name:
        return ["runAsUserName cannot be an empty string"]
    if _CONTROL.search(name):
        return ["runAsUserName cannot contain control characters"]
    parts = name.split("\\")
    if len(parts) > 2:
        return ["runAsUserName cannot contain more than one backslash"]
    domain, user = ("", parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    out: list[str] = []
    if len(domain.encode()) >= _MAX_DOMAIN:
        out.append(f"runAsUserName's Domain length must be under {_MAX_DOMAIN} characters")
    if len(parts) == 2 and not (_NETBIOS.search(domain) or _WINDOWS_DOMAIN_DNS.search(domain)):
        out.append("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
    if not user:
        out.append("runAsUserName's User cannot be empty")
    elif len(user.encode()) > _MAX_USER:
        out.append(f"runAsUserName's User length must not be longer than {_MAX_USER} characters")
    if _USER_DOTS_SPACES.search(user):
        out.append("runAsUserName's User cannot contain only periods or spaces")
    if _USER_BAD_CHARS.search(user):
        out.append('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]')
    return out


# ---------------------------------------------------------------- pod

_SYSCTL_SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SYSCTL_PATTERN = "^(" + _SYSCTL_SEGMENT + r"[\./])*" + _SYSCTL_SEGMENT + "$"
_SYSCTL = re2.compile(_SYSCTL_PATTERN)
_SYSCTL_MAX = 253


def validate_pod_security_context(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePodSpecSecurityContext of spec.securityContext (`path`): IDs, shareProcessNamespace
    beside hostPID, sysctls, fsGroupChangePolicy, the seccomp, Windows and AppArmor options,
    supplementalGroupsPolicy, seLinuxChangePolicy."""
    sc = spec.get("securityContext") or {}
    errs = _ids(sc, ("fsGroup", "runAsUser", "runAsGroup"), path)
    for g, gid in enumerate(sc.get("supplementalGroups") or ()):
        if isinstance(gid, int) and not _MIN_ID <= gid <= _MAX_ID:
            errs.append(FieldError.invalid(path.child("supplementalGroups").index(g), gid, _ID_RANGE))
    if spec.get("shareProcessNamespace") is True and spec.get("hostPID"):
        errs.append(FieldError.invalid(path.child("shareProcessNamespace"), True,
                                       "ShareProcessNamespace and HostPID cannot both be enabled"))
    if sc.get("sysctls"):
        errs += _validate_sysctls(sc["sysctls"], spec, path.child("sysctls"))
    errs += _one_of(sc.get("fsGroupChangePolicy"), _FS_GROUP_CHANGE_POLICIES, path.child("fsGroupChangePolicy"))
    errs += validate_seccomp_profile(sc.get("seccompProfile"), path.child("seccompProfile"))
    errs += validate_windows_options(sc.get("windowsOptions"), path.child("windowsOptions"))
    errs += validate_apparmor_profile(sc.get("appArmorProfile"), path.child("appArmorProfile"))
    errs += _one_of(sc.get("supplementalGroupsPolicy"), _SUPPLEMENTAL_GROUPS_POLICIES,
                    path.child("supplementalGroupsPolicy"))
    return errs + _one_of(sc.get("seLinuxChangePolicy"), _SELINUX_CHANGE_POLICIES, path.child("seLinuxChangePolicy"))


def _one_of(value: str | None, supported: tuple[str, ...], path: Path) -> list[FieldError]:
    """A set pointer enum: NotSupported outside `supported` (its value a JSON string)."""
    if value is None or value in supported:
        return []
    return [FieldError.not_supported(path, TypedString(value), supported)]


def _validate_sysctls(sysctls: list[Any], spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateSysctls: named, by the sysctl name rule, unique; no network sysctl in a host-network
    pod and no IPC sysctl in a host-IPC pod (ValidateHostSysctl)."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, sysctl in enumerate(sysctls):
        name = (sysctl or {}).get("name") or ""
        at = path.index(i).child("name")
        if not name:
            errs.append(FieldError.required(at))
        elif len(name.encode("utf-8", "surrogateescape")) > _SYSCTL_MAX or not _SYSCTL.search(name):
            errs.append(FieldError.invalid(
                at, name, f"must have at most {_SYSCTL_MAX} characters and match regex {_SYSCTL_PATTERN}"))
        elif name in names:
            errs.append(FieldError.duplicate(at, name))
        namespace = sysctl_namespace(name)
        if spec.get("hostNetwork") and namespace == "net":
            errs.append(FieldError.invalid(at, name, "may not be specified when 'hostNetwork' is true"))
        elif spec.get("hostIPC") and namespace == "ipc":
            errs.append(FieldError.invalid(at, name, "may not be specified when 'hostIPC' is true"))
        names.add(name)
    return errs


_IPC_SYSCTLS = {"kernel.sem"}
_PREFIX_NAMESPACES = (("kernel.shm", "ipc"), ("kernel.msg", "ipc"), ("fs.mqueue.", "ipc"), ("net.", "net"))


def sysctl_namespace(name: str) -> str:
    """component-helpers' sysctl GetNamespace of a name (slashes as separators normalized first):
    `net`, `ipc`, or "" for a node-level sysctl."""
    dot, slash = name.find("."), name.find("/")
    if slash != -1 and (dot == -1 or slash < dot):
        name = name.translate(str.maketrans("./", "/."))
    if name in _IPC_SYSCTLS:
        return "ipc"
    return next((ns for prefix, ns in _PREFIX_NAMESPACES if name.startswith(prefix)), "")


def visit_containers(spec: dict[str, Any], path: Path) -> Iterator[tuple[dict[str, Any], Path]]:
    """podshelper.VisitContainersWithPath's order: init containers, containers, ephemeral containers."""
    for field in ("initContainers", "containers", "ephemeralContainers"):
        for i, c in enumerate(spec.get(field) or ()):
            yield c or {}, path.child(field).index(i)


def validate_windows_host_process_pod(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateWindowsHostProcessPod: a container's hostProcess equals the pod's when both are set;
    with any hostProcess container, all are, and hostNetwork is on."""
    pod_hp = ((spec.get("securityContext") or {}).get("windowsOptions") or {}).get("hostProcess")
    errs: list[FieldError] = []
    count = hp_count = 0
    for c, at in visit_containers(spec, path):
        count += 1
        ctr_hp = ((c.get("securityContext") or {}).get("windowsOptions") or {}).get("hostProcess")
        if pod_hp is not None and ctr_hp is not None and pod_hp != ctr_hp:
            errs.append(FieldError.invalid(at.child("securityContext", "windowsOptions", "hostProcess"), ctr_hp,
                                           f"pod hostProcess value must be identical if both are specified, "
                                           f"was {'true' if pod_hp else 'false'}"))
        if ctr_hp is True or (ctr_hp is None and pod_hp is True):
            hp_count += 1
    if hp_count:
        if hp_count != count:
            errs.append(FieldError.invalid(path, "", "If pod contains any hostProcess containers then all containers "
                                                     "must be HostProcess containers"))
        if not spec.get("hostNetwork"):
            errs.append(FieldError.invalid(path.child("hostNetwork"), False,
                                           "hostNetwork must be true if pod contains any hostProcess containers"))
    return errs


def validate_host_users(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateHostUsers: a pod in its own user namespace shares no other host namespace."""
    if spec.get("hostUsers") is not False:
        return []
    detail = "when `pod.Spec.HostUsers` is false"
    fields = (("hostNetwork", "hostNetwork"), ("hostPID", "HostPID"), ("hostIPC", "HostIPC"))
    return [FieldError.forbidden(path.child(at), detail) for field, at in fields if spec.get(field)]


# ---------------------------------------------------------------- os

_WINDOWS_POD_FORBIDDEN = ("appArmorProfile", "seLinuxOptions")
_WINDOWS_POD_CONTEXT = ("seccompProfile", "fsGroup", "fsGroupChangePolicy")
_WINDOWS_CONTAINER_FORBIDDEN = ("appArmorProfile", "seLinuxOptions", "seccompProfile", "capabilities",
                                "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation", "procMount",
                                "runAsUser", "runAsGroup")
_WINDOWS = "cannot be set for a windows pod"


def validate_os(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateOS, then validateLinux or validateWindows for a valid os.name: what the other system's
    pods may not set."""
    os_ = spec.get("os")
    if os_ is None:
        return []
    name = os_.get("name") or ""
    if not name:
        return [FieldError.required(path.child("os", "name"), "cannot be empty")]
    if name not in ("linux", "windows"):
        return [FieldError.not_supported(path.child("os"), TypedString(name), ("linux", "windows"))]
    return _validate_linux(spec, path) if name == "linux" else _validate_windows(spec, path)


def _validate_linux(spec: dict[str, Any], path: Path) -> list[FieldError]:
    detail = "windows options cannot be set for a linux pod"
    errs: list[FieldError] = []
    if (spec.get("securityContext") or {}).get("windowsOptions") is not None:
        errs.append(FieldError.forbidden(path.child("securityContext", "windowsOptions"), detail))
    for c, at in visit_containers(spec, path):
        if (c.get("securityContext") or {}).get("windowsOptions") is not None:
            errs.append(FieldError.forbidden(at.child("securityContext", "windowsOptions"), detail))
    return errs


def _validate_windows(spec: dict[str, Any], path: Path) -> list[FieldError]:
    sc = spec.get("securityContext") or {}
    sc_path = path.child("securityContext")
    errs = [FieldError.forbidden(sc_path.child(f), _WINDOWS) for f in _WINDOWS_POD_FORBIDDEN if sc.get(f) is not None]
    if spec.get("hostUsers") is not None:
        errs.append(FieldError.forbidden(path.child("hostUsers"), _WINDOWS))
    errs += [FieldError.forbidden(path.child(f), _WINDOWS) for f in ("hostPID", "hostIPC") if spec.get(f)]
    errs += [FieldError.forbidden(sc_path.child(f), _WINDOWS) for f in _WINDOWS_POD_CONTEXT if sc.get(f) is not None]
    if sc.get("sysctls"):
        errs.append(FieldError.forbidden(sc_path.child("sysctls"), _WINDOWS))
    if spec.get("shareProcessNamespace") is not None:
        errs.append(FieldError.forbidden(path.child("shareProcessNamespace"), _WINDOWS))
    for field in ("runAsUser", "runAsGroup", "supplementalGroups", "supplementalGroupsPolicy", "seLinuxChangePolicy"):
        if sc.get(field) is not None:
            errs.append(FieldError.forbidden(sc_path.child(field), _WINDOWS))
    for c, at in visit_containers(spec, path):
        csc = c.get("securityContext")
        if csc is not None:
            errs += [FieldError.forbidden(at.child("securityContext", f), _WINDOWS)
                     for f in _WINDOWS_CONTAINER_FORBIDDEN if csc.get(f) is not None]
    return errs
