"""ValidatePodSpec's scheduling, security and volume rules and ValidatePodUpdate against the
expectations of kubernetes' own tests (pkg/apis/core/validation/validation_test.go, 1.36): each case
names the Go test and case, its spec changes, the (error type, field path) the test expects, and the
text where the test states it."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import kinds
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.errors import ErrorType

R, IV, NS, F, D = (ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN,
                   ErrorType.DUPLICATE)
SEL = {"matchLabels": {"app": "web"}}
ZONE = {"topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}


def pod(labels: dict | None = None, **spec_changes) -> dict:
    """A valid Pod, defaulted as the apiserver stores it, with `spec_changes` applied."""
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns", "labels": labels or {}},
           "spec": {"containers": [{"name": "ctr", "image": "image"}], **spec_changes}}
    set_object_defaults(obj, "io.k8s.api.core.v1.Pod")
    return obj


def ctr(**changes) -> dict:
    return {"name": "ctr", "image": "image", **changes}


def term(**changes) -> dict:
    return {"labelSelector": SEL, "topologyKey": "zone", **changes}


def node_required(*requirements: dict, field: str = "matchExpressions") -> dict:
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{field: list(requirements)}]}}}


NA = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
PA = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
PAA = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
TSC = "spec.topologySpreadConstraints"

CASES = [
    # TestValidatePod / TestValidateAffinity: node affinity
    ("TestValidatePod/invalid node selector requirement in node affinity, operator can't be null",
     {"affinity": node_required({"key": "key1"})}, (IV, NA + "[0].matchExpressions[0].operator"),
     "not a valid selector operator"),
    ("TestValidatePod/invalid node selector requirement, In with no values",
     {"affinity": node_required({"key": "key1", "operator": "In"})}, (R, NA + "[0].matchExpressions[0].values"),
     "must be specified when `operator` is 'In' or 'NotIn'"),
    ("TestValidatePod/invalid node selector requirement, Exists with values",
     {"affinity": node_required({"key": "key1", "operator": "Exists", "values": ["a"]})},
     (F, NA + "[0].matchExpressions[0].values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("TestValidatePod/invalid node selector requirement, Gt with two values",
     {"affinity": node_required({"key": "key1", "operator": "Gt", "values": ["1", "2"]})},
     (R, NA + "[0].matchExpressions[0].values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"),
    ("TestValidatePod/invalid node selector requirement, key not a label name",
     {"affinity": node_required({"key": "invalid key ___@#", "operator": "Exists"})},
     (IV, NA + "[0].matchExpressions[0].key"), None),
    ("TestValidatePod/invalid required node affinity, invalid label value",
     {"affinity": node_required({"key": "k", "operator": "In", "values": ["bad value"]})},
     (IV, NA + "[0].matchExpressions[0].values[0]"), None),
    ("TestValidatePod/invalid node field selector requirement, more values for field selector",
     {"affinity": node_required({"key": "metadata.name", "operator": "In", "values": ["host1", "host2"]},
                                field="matchFields")},
     (R, NA + "[0].matchFields[0].values"), "must be only one value when `operator` is 'In' or 'NotIn' for node "
                                            "field selector"),
    ("TestValidatePod/invalid node field selector requirement, invalid operator",
     {"affinity": node_required({"key": "metadata.name", "operator": "Exists"}, field="matchFields")},
     (IV, NA + "[0].matchFields[0].operator"), "not a valid selector operator"),
    ("TestValidatePod/invalid node field selector requirement, invalid key",
     {"affinity": node_required({"key": "metadata.namespace", "operator": "In", "values": ["ns1"]},
                                field="matchFields")},
     (IV, NA + "[0].matchFields[0].key"), "not a valid field selector key"),
    ("TestValidatePod/invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms empty",
     {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}},
     (R, NA), "must have at least one node selector term"),
    ("TestValidatePod/invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100",
     {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 199, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}}]}}},
     (IV, "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"),
     "must be in the range 1-100"),
    # TestValidatePod / TestValidateAffinity: pod affinity and anti-affinity
    ("TestValidatePod/invalid labelSelector in podAffinity, values required for In",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         term(labelSelector={"matchExpressions": [{"key": "key2", "operator": "In"}]})]}}},
     (R, PA + ".labelSelector.matchExpressions[0].values"), None),
    ("TestValidatePod/invalid name space in pod affinity term",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         term(namespaces=["INVALID_NAMESPACE"])]}}}, (IV, PA + ".namespace"), None),
    ("TestValidatePod/invalid hard pod affinity, empty topologyKey is not allowed",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term(topologyKey="")]}}},
     (R, PA + ".topologyKey"), "can not be empty"),
    ("TestValidatePod/invalid soft pod anti-affinity, weight should be in range 1-100",
     {"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": -5, "podAffinityTerm": term()}]}}}, (IV, PAA + ".weight"), "must be in the range 1-100"),
    ("TestValidatePod/invalid soft pod anti-affinity, invalid topologyKey",
     {"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 10, "podAffinityTerm": term(topologyKey="bad key!")}]}}},
     (IV, PAA + ".podAffinityTerm.topologyKey"), None),
    ("TestValidatePod/invalid namespaceSelector in pod affinity",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         term(namespaceSelector={"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["v"]}]})]}}},
     (F, PA + ".namespaceSelector.matchExpressions[0].values"), None),
    ("TestValidatePod/invalid matchLabelKeys in podAffinity (no labelSelector)",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         {"topologyKey": "zone", "matchLabelKeys": ["app"]}]}}},
     (F, PA + ".matchLabelKeys"), "must not be specified when labelSelector is not set"),
    ("TestValidatePod/invalid matchLabelKeys and mismatchLabelKeys: same key",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         term(matchLabelKeys=["k"], mismatchLabelKeys=["k"])]}}},
     (IV, PA + ".matchLabelKeys[0]"), "exists in both matchLabelKeys and mismatchLabelKeys"),
    ("TestValidatePod/invalid mismatchLabelKeys: not a label name",
     {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         term(mismatchLabelKeys=["/simple"])]}}}, (IV, PA + ".mismatchLabelKeys[0]"), None),
    # TestValidateTopologySpreadConstraints
    ("TestValidateTopologySpreadConstraints/invalid MaxSkew",
     {"topologySpreadConstraints": [{"maxSkew": 0, **ZONE}]},
     (IV, TSC + "[0].maxSkew"), "must be greater than zero"),
    ("TestValidateTopologySpreadConstraints/invalid MinDomains",
     {"topologySpreadConstraints": [{"maxSkew": 1, "minDomains": -1, "topologyKey": "k8s.io/zone",
                                     "whenUnsatisfiable": "DoNotSchedule"}]},
     (IV, TSC + "[0].minDomains"), "must be greater than zero"),
    ("TestValidateTopologySpreadConstraints/cannot use MinDomains with ScheduleAnyway",
     {"topologySpreadConstraints": [{"maxSkew": 1, "minDomains": 10, "topologyKey": "k8s.io/zone",
                                     "whenUnsatisfiable": "ScheduleAnyway"}]},
     (IV, TSC + "[0].minDomains"), "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"),
    ("TestValidateTopologySpreadConstraints/invalid TopologyKey",
     {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}]},
     (R, TSC + "[0].topologyKey"), "can not be empty"),
    ("TestValidateTopologySpreadConstraints/invalid WhenUnsatisfiable",
     {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "N/A"}]},
     (NS, TSC + "[0].whenUnsatisfiable"), 'supported values: "DoNotSchedule", "ScheduleAnyway"'),
    ("TestValidateTopologySpreadConstraints/duplicated constraints",
     {"topologySpreadConstraints": [{"maxSkew": 1, **ZONE}, {"maxSkew": 2, **ZONE}]},
     (D, TSC + "[0].{topologyKey, whenUnsatisfiable}"), None),
    ("TestValidateTopologySpreadConstraints/invalid NodeAffinityPolicy",
     {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                                     "nodeAffinityPolicy": "invalid"}]},
     (NS, TSC + "[0].nodeAffinityPolicy"), 'supported values: "Honor", "Ignore"'),
    ("TestValidateTopologySpreadConstraints/key in MatchLabelKeys isn't correctly defined",
     {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                                     "labelSelector": SEL, "matchLabelKeys": ["/simple"]}]},
     (IV, TSC + "[0].matchLabelKeys[0]"), None),
    # ("key exists in both matchLabelKeys and labelSelector": 1.36 finds it only after the selector
    # merge, see test_pod_resources_and_claims.py)
    ("TestValidateTopologySpreadConstraints/key in MatchLabelKeys is forbidden without labelSelector",
     {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                                     "matchLabelKeys": ["foo"]}]},
     (F, TSC + "[0].matchLabelKeys"), "must not be specified when labelSelector is not set"),
    ("TestValidateTopologySpreadConstraints/invalid labelSelector",
     {"topologySpreadConstraints": [{"maxSkew": 1, **ZONE, "labelSelector": {
         "matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}}}]},
     (IV, TSC + "[0].labelSelector.matchLabels"), None),
    # TestValidatePodSpec error cases
    ("TestValidatePodSpec/bad hostAliases IP", {"hostAliases": [{"ip": "999.999.999.999", "hostnames": ["host1"]}]},
     (IV, "spec.hostAliases[0].ip"), "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
    ("TestValidatePodSpec/bad hostAliases hostname",
     {"hostAliases": [{"ip": "12.34.56.78", "hostnames": ["@#$^#@#$"]}]},
     (IV, "spec.hostAliases[0].hostnames[0]"), None),
    ("TestValidatePodSpec/bad dnsConfig nameserver", {"dnsConfig": {"nameservers": ["invalid"]}},
     (IV, "spec.dnsConfig.nameservers[0]"), "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
    ("TestValidatePodSpec/bad runtimeClassName", {"runtimeClassName": "my/class"}, (IV, "spec.runtimeClassName"), None),
    # (validateOverhead reuses ValidateResourceRequirements with the overhead as limits: the path says so)
    ("TestValidatePodSpec/bad overhead (negative)", {"overhead": {"cpu": "-1"}}, (IV, "spec.overhead.limits[cpu]"),
     "must be greater than or equal to 0"),
    ("TestValidateReadinessGates/invalid condition type",
     {"readinessGates": [{"conditionType": "invalid/path/format"}]},
     (IV, "spec.readinessGates[0].conditionType"), None),
    ("TestValidateSchedulingGates/invalid gate name", {"schedulingGates": [{"name": "foo/bar/baz"}]},
     (IV, "spec.schedulingGates[0]"), None),
    ("TestValidateSchedulingGates/duplicate gate names", {"schedulingGates": [{"name": "foo"}, {"name": "foo"}]},
     (D, "spec.schedulingGates[1]"), None),
    ("TestValidatePodCreate/nodeName with scheduling gates",
     {"nodeName": "node1", "schedulingGates": [{"name": "foo"}]}, (F, "spec.nodeName"),
     "cannot be set until all schedulingGates have been cleared"),
    ("TestValidatePodSpec/bad OS name", {"os": {"name": "dummyOS"}}, (NS, "spec.os"), None),
    ("TestValidatePodSpec/empty OS name", {"os": {"name": ""}}, (R, "spec.os.name"), "cannot be empty"),
    ("TestValidateLinuxPodSecurityContext/windowsOptions on a linux pod",
     {"os": {"name": "linux"}, "securityContext": {"windowsOptions": {"runAsUserName": "u"}}},
     (F, "spec.securityContext.windowsOptions"), "windows options cannot be set for a linux pod"),
    ("TestValidateWindowsPodSecurityContext/seLinuxOptions on a windows pod",
     {"os": {"name": "windows"}, "securityContext": {"seLinuxOptions": {"role": "r"}}},
     (F, "spec.securityContext.seLinuxOptions"), "cannot be set for a windows pod"),
    ("TestValidateWindowsPodSecurityContext/container capabilities on a windows pod",
     {"os": {"name": "windows"}, "containers": [ctr(securityContext={"capabilities": {"add": ["NET_ADMIN"]}})]},
     (F, "spec.containers[0].securityContext.capabilities"), "cannot be set for a windows pod"),
    ("TestValidateWindowsHostProcessPod/hostProcess without hostNetwork",
     {"securityContext": {"windowsOptions": {"hostProcess": True}}}, (IV, "spec.hostNetwork"),
     "hostNetwork must be true if pod contains any hostProcess containers"),
    ("TestValidateWindowsHostProcessPod/pod and container disagree",
     {"hostNetwork": True, "securityContext": {"windowsOptions": {"hostProcess": True}},
      "containers": [ctr(securityContext={"windowsOptions": {"hostProcess": False}})]},
     (IV, "spec.containers[0].securityContext.windowsOptions.hostProcess"),
     "pod hostProcess value must be identical if both are specified, was true"),
    ("TestValidatePodSpec/hostUsers false with hostNetwork", {"hostUsers": False, "hostNetwork": True},
     (F, "spec.hostNetwork"), "when `pod.Spec.HostUsers` is false"),
    ("TestValidatePodSpec/hostUsers false with hostPID", {"hostUsers": False, "hostPID": True},
     (F, "spec.HostPID"), "when `pod.Spec.HostUsers` is false"),
    # TestValidatePodSecurityContext and its sysctl cases
    ("TestValidatePodSecurityContext/negative fsGroup", {"securityContext": {"fsGroup": -1}},
     (IV, "spec.securityContext.fsGroup"), "must be between 0 and 2147483647, inclusive"),
    ("TestValidatePodSecurityContext/negative supplementalGroups", {"securityContext": {"supplementalGroups": [-1]}},
     (IV, "spec.securityContext.supplementalGroups[0]"), "must be between 0 and 2147483647, inclusive"),
    ("TestValidatePodSecurityContext/shareProcessNamespace with hostPID",
     {"hostPID": True, "shareProcessNamespace": True}, (IV, "spec.securityContext.shareProcessNamespace"),
     "ShareProcessNamespace and HostPID cannot both be enabled"),
    ("TestValidatePodSecurityContext/invalid fsGroupChangePolicy",
     {"securityContext": {"fsGroupChangePolicy": "invalid"}}, (NS, "spec.securityContext.fsGroupChangePolicy"),
     'supported values: "Always", "OnRootMismatch"'),
    ("TestValidatePodSecurityContext/invalid supplementalGroupsPolicy",
     {"securityContext": {"supplementalGroupsPolicy": "Other"}},
     (NS, "spec.securityContext.supplementalGroupsPolicy"), 'supported values: "Merge", "Strict"'),
    ("TestValidatePodSecurityContext/invalid seLinuxChangePolicy",
     {"securityContext": {"seLinuxChangePolicy": "Other"}},
     (NS, "spec.securityContext.seLinuxChangePolicy"), 'supported values: "MountOption", "Recursive"'),
    ("TestValidateSysctls/invalid name", {"securityContext": {"sysctls": [{"name": "foo-", "value": "1"}]}},
     (IV, "spec.securityContext.sysctls[0].name"), "must have at most 253 characters and match regex "
                                                   r"^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"),
    ("TestValidateSysctls/empty name", {"securityContext": {"sysctls": [{"name": "", "value": "1"}]}},
     (R, "spec.securityContext.sysctls[0].name"), None),
    ("TestValidateSysctls/duplicate", {"securityContext": {"sysctls": [{"name": "a.b", "value": "1"},
                                                                        {"name": "a.b", "value": "2"}]}},
     (D, "spec.securityContext.sysctls[1].name"), None),
    ("TestValidateSysctls/net sysctl with hostNetwork",
     {"hostNetwork": True, "securityContext": {"sysctls": [{"name": "net.ipv4.ip_local_port_range", "value": "1"}]}},
     (IV, "spec.securityContext.sysctls[0].name"), "may not be specified when 'hostNetwork' is true"),
    ("TestValidateSysctls/ipc sysctl (slash form) with hostIPC",
     {"hostIPC": True, "securityContext": {"sysctls": [{"name": "kernel/shm_rmid_forced", "value": "1"}]}},
     (IV, "spec.securityContext.sysctls[0].name"), "may not be specified when 'hostIPC' is true"),
    ("TestValidatePodSecurityContext/seccomp Localhost without profile",
     {"securityContext": {"seccompProfile": {"type": "Localhost"}}},
     (R, "spec.securityContext.seccompProfile.localhostProfile"), "must be set when seccomp type is Localhost"),
    ("TestValidatePodSecurityContext/apparmor Localhost padded",
     {"securityContext": {"appArmorProfile": {"type": "Localhost", "localhostProfile": " p "}}},
     (IV, "spec.securityContext.appArmorProfile.localhostProfile"), "must not be padded with whitespace"),
    # TestValidateSecurityContext (container)
    ("TestValidateSecurityContext/invalid procMount with host users",
     {"containers": [ctr(securityContext={"procMount": "Unmasked"})]},
     (IV, "spec.containers[0].securityContext.procMount"), "`hostUsers` must be false to use `Unmasked`"),
    ("TestValidateSecurityContext/allowPrivilegeEscalation false with privileged",
     {"containers": [ctr(securityContext={"privileged": True, "allowPrivilegeEscalation": False})]},
     (IV, "spec.containers[0].securityContext"),
     "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"),
    ("TestValidateSecurityContext/allowPrivilegeEscalation false with CAP_SYS_ADMIN",
     {"containers": [ctr(securityContext={"allowPrivilegeEscalation": False,
                                          "capabilities": {"add": ["CAP_SYS_ADMIN"]}})]},
     (IV, "spec.containers[0].securityContext"),
     "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"),
    ("TestValidateSecurityContext/seccomp type missing",
     {"containers": [ctr(securityContext={"seccompProfile": {}})]},
     (R, "spec.containers[0].securityContext.seccompProfile.type"), "type is required when seccompProfile is set"),
    ("TestValidateSecurityContext/apparmor unknown type",
     {"containers": [ctr(securityContext={"appArmorProfile": {"type": "Other"}})]},
     (NS, "spec.containers[0].securityContext.appArmorProfile.type"), None),
    ("TestValidateWindowsSecurityContextOptions/runAsUserName with two backslashes",
     {"containers": [ctr(securityContext={"windowsOptions": {"runAsUserName": "a\\b\\c"}})]},
     (IV, "spec.containers[0].securityContext.windowsOptions.runAsUserName"),
     "runAsUserName cannot contain more than one backslash"),
    ("TestValidateWindowsSecurityContextOptions/invalid gmsaCredentialSpecName",
     {"containers": [ctr(securityContext={"windowsOptions": {"gmsaCredentialSpecName": "not a subdomain"}})]},
     (IV, "spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName"), None),
    # TestValidateProjectedVolume* and TestValidateVolumes (downwardAPI, plugins)
    ("TestValidateVolumes/projected serviceAccountToken expiration too short",
     {"serviceAccountName": "sa", "volumes": [{"name": "v", "projected": {"sources": [
         {"serviceAccountToken": {"path": "token", "expirationSeconds": 60}}]}}]},
     (IV, "spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds"),
     "may not specify a duration less than 10 minutes"),
    ("TestValidateVolumes/projected serviceAccountToken absolute path",
     {"serviceAccountName": "sa", "volumes": [{"name": "v", "projected": {"sources": [
         {"serviceAccountToken": {"path": "/token", "expirationSeconds": 3600}}]}}]},
     (IV, "spec.volumes[0].projected.path"), "must be a relative path"),
    ("TestValidateVolumes/projected duplicate paths",
     {"volumes": [{"name": "v", "projected": {"sources": [
         {"configMap": {"name": "a", "items": [{"key": "k", "path": "p"}]}},
         {"secret": {"name": "b", "items": [{"key": "k", "path": "p"}]}}]}}]},
     (IV, "spec.volumes[0].projected"), "conflicting duplicate paths"),
    ("TestValidateVolumes/projected more than one kind per source",
     {"volumes": [{"name": "v", "projected": {"sources": [{"configMap": {"name": "a"}, "secret": {"name": "b"}}]}}]},
     (F, "spec.volumes[0].projected.sources[0]"), "may not specify more than 1 volume type per source"),
    ("TestValidateProjectedVolumeClusterTrustBundle/name and signerName",
     {"volumes": [{"name": "v", "projected": {"sources": [
         {"clusterTrustBundle": {"name": "a", "signerName": "x.io/y", "path": "p"}}]}}]},
     (IV, "spec.volumes[0].projected.sources[0].clusterTrustBundle"), "only one of name and signerName may be used"),
    ("TestValidateVolumes/downwardAPI bad mode",
     {"volumes": [{"name": "v", "downwardAPI": {"items": [
         {"path": "p", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "mode": 0o1000}]}}]},
     (IV, "spec.volumes[0].downwardAPI.mode"), "must be a number between 0 and 0777 (octal), both inclusive"),
    ("TestValidateVolumes/downwardAPI fieldRef and resourceFieldRef",
     {"volumes": [{"name": "v", "downwardAPI": {"items": [
         {"path": "p", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"},
          "resourceFieldRef": {"containerName": "ctr", "resource": "limits.cpu"}}]}}]},
     (IV, "spec.volumes[0].downwardAPI"), "fieldRef and resourceFieldRef can not be specified simultaneously"),
    ("TestValidateVolumes/downwardAPI neither ref",
     {"volumes": [{"name": "v", "downwardAPI": {"items": [{"path": "p"}]}}]},
     (R, "spec.volumes[0].downwardAPI"), "one of fieldRef and resourceFieldRef is required"),
    ("TestValidateVolumes/gcePersistentDisk partition",
     {"volumes": [{"name": "v", "gcePersistentDisk": {"pdName": "pd", "partition": 256}}]},
     (IV, "spec.volumes[0].persistentDisk.partition"), "must be between 1 and 255, inclusive"),
    ("TestValidateVolumes/iscsi bad iqn",
     {"volumes": [{"name": "v", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example", "lun": 1}}]},
     (IV, "spec.volumes[0].iscsi.iqn"), "must be valid format"),
    ("TestValidateVolumes/flocker both names",
     {"volumes": [{"name": "v", "flocker": {"datasetName": "a", "datasetUUID": "b"}}]},
     (IV, "spec.volumes[0].flocker"), "datasetName and datasetUUID can not be specified simultaneously"),
    ("TestValidateVolumes/fc without lun", {"volumes": [{"name": "v", "fc": {"targetWWNs": ["w"]}}]},
     (R, "spec.volumes[0].fc.lun"), "lun is required if targetWWNs is specified"),
    ("TestValidateVolumes/flexVolume reserved option",
     {"volumes": [{"name": "v", "flexVolume": {"driver": "d", "options": {"kubernetes.io/x": "y"}}}]},
     (IV, "spec.volumes[0].flexVolume.options[kubernetes.io/x]"), "kubernetes.io and k8s.io namespaces are reserved"),
    ("TestValidateVolumes/azureDisk managed URI",
     {"volumes": [{"name": "v", "azureDisk": {"diskName": "d", "diskURI": "https://x", "kind": "Managed"}}]},
     (NS, "spec.volumes[0].azureDisk.diskURI"), None),
    ("TestValidateVolumes/image volume without reference", {"volumes": [{"name": "v", "image": {}}]},
     (R, "spec.volumes[0].image.reference"), None),
]


@pytest.mark.parametrize(("case", "changes", "expected", "text"), CASES, ids=[c[0] for c in CASES])
def test_pod_spec_rule(case: str, changes: dict, expected: tuple, text: str | None) -> None:
    """The Go case's error is among the Pod's, with the text the Go test states."""
    errors = kinds.validate_pod(pod(**copy.deepcopy(changes)))
    found = [e for e in errors if (e.type, e.field) == expected]
    assert found, f"{case}: {[str(e) for e in errors]}"
    if text is not None:
        assert any(text in e.detail for e in found), [str(e) for e in found]


def test_valid_scheduling_and_security_fields_pass() -> None:
    """TestValidatePodSpec/TestValidateAffinity's success cases: a well-formed spec has no error."""
    spec = {
        "affinity": {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]},
                                      {"key": "cores", "operator": "Gt", "values": ["2"]}],
                 "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["host1"]}]}]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "preference": {"matchExpressions": [{"key": "k", "operator": "Exists"}]}}]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term(namespaces=["ns"], matchLabelKeys=["version"])}]}},
        "topologySpreadConstraints": [{"maxSkew": 1, "minDomains": 2, "topologyKey": "zone",
                                       "whenUnsatisfiable": "DoNotSchedule", "labelSelector": SEL,
                                       "nodeTaintsPolicy": "Honor"}],
        "securityContext": {"runAsUser": 1000, "fsGroup": 2000, "fsGroupChangePolicy": "OnRootMismatch",
                            "sysctls": [{"name": "kernel.shm_rmid_forced", "value": "1"}],
                            "seccompProfile": {"type": "RuntimeDefault"},
                            "appArmorProfile": {"type": "Localhost", "localhostProfile": "p"}},
        "containers": [ctr(securityContext={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                                            "capabilities": {"drop": ["ALL"]}})],
        "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["db.local"]}],
        "schedulingGates": [{"name": "example.com/gate"}],
        "readinessGates": [{"conditionType": "example.com/ready"}],
        "os": {"name": "linux"}, "overhead": {"cpu": "100m"},
        "serviceAccountName": "sa",
        "volumes": [{"name": "p", "projected": {"sources": [
            {"serviceAccountToken": {"path": "token", "expirationSeconds": 3600}},
            {"downwardAPI": {"items": [{"path": "labels", "fieldRef": {"apiVersion": "v1",
                                                                     "fieldPath": "metadata.labels"}}]}}]}}],
    }
    assert [str(e) for e in kinds.validate_pod(pod(**spec))] == []


def test_security_context_bad_value_is_the_internal_struct() -> None:
    """field.Invalid(fldPath, sc, ...) renders the internal core.SecurityContext as json.Marshal does:
    Go field names, every field, null for nil pointers."""
    obj = pod(containers=[ctr(securityContext={"privileged": True, "allowPrivilegeEscalation": False})])
    [err] = [e for e in kinds.validate_pod(obj) if e.field == "spec.containers[0].securityContext"]
    assert err.body().startswith(
        'Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,'
        '"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,'
        '"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: ')


def test_pod_affinity_match_label_keys_merged_from_pod_labels() -> None:
    """On create the Pod strategy merges a matchLabelKeys key the pod carries into the selector, so
    a key the user also selected on is found twice (validateMatchLabelKeysAndMismatchLabelKeys);
    in a template (no merge) it is not."""
    from crdtool.apis.core.pods import validate_pod_template_spec
    from crdtool.model.path import Path

    affinity = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        term(labelSelector={"matchExpressions": [{"key": "version", "operator": "In", "values": ["1"]}]},
             matchLabelKeys=["version"])]}}
    errors = kinds.validate_pod(pod(labels={"version": "1"}, affinity=affinity))
    assert [(e.type, e.field, e.detail) for e in errors] == [
        (IV, PA + "[0]", "exists in both matchLabelKeys and labelSelector")]
    template = {"metadata": {"labels": {"version": "1"}}, "spec": pod(affinity=affinity)["spec"]}
    assert validate_pod_template_spec(template, Path.root("spec", "template")) == []


# ---------------------------------------------------------------- ValidatePodUpdate

def updated(old: dict, **spec_changes) -> dict:
    new = copy.deepcopy(old)
    new["spec"].update(copy.deepcopy(spec_changes))
    return new


def update_errors(new: dict, old: dict) -> list[tuple[ErrorType, str, str]]:
    return [(e.type, e.field, e.detail) for e in kinds.validate_pod_update(new, old)]


def test_pod_update_image_and_deadline_may_change() -> None:
    """TestValidatePodUpdate/image change, activeDeadlineSeconds lowered or set: allowed."""
    old = pod(activeDeadlineSeconds=30)
    new = updated(old, activeDeadlineSeconds=10)
    new["spec"]["containers"][0]["image"] = "other"
    assert update_errors(new, old) == []
    assert update_errors(updated(pod(), activeDeadlineSeconds=10), pod()) == []


@pytest.mark.parametrize(("case", "old_changes", "new_changes", "expected"), [
    ("TestValidatePodUpdate/activeDeadlineSeconds raised", {"activeDeadlineSeconds": 10},
     {"activeDeadlineSeconds": 20}, (IV, "spec.activeDeadlineSeconds", "must be less than or equal to previous value")),
    ("TestValidatePodUpdate/activeDeadlineSeconds removed", {"activeDeadlineSeconds": 10},
     {"activeDeadlineSeconds": None}, (IV, "spec.activeDeadlineSeconds",
                                       "must not update from a positive integer to nil value")),
    ("TestValidatePodUpdate/container added", {}, {"containers": [ctr(), ctr(name="b", terminationMessagePolicy="File",
                                                                              imagePullPolicy="Always")]},
     (F, "spec.containers", "pod updates may not add or remove containers")),
    ("TestValidatePodUpdate/toleration removed", {"tolerations": [{"key": "k", "operator": "Exists"}]},
     {"tolerations": []}, (F, "spec.tolerations", "existing toleration can not be modified except its "
                                                   "tolerationSeconds")),
    ("TestValidatePodUpdate/scheduling gate added", {"schedulingGates": [{"name": "a"}]},
     {"schedulingGates": [{"name": "a"}, {"name": "b"}]},
     (F, "spec.schedulingGates[1].name", "only deletion is allowed, but found new scheduling gate 'b'")),
    ("TestValidatePodUpdate/gated pod nodeSelector mutated", {"schedulingGates": [{"name": "a"}],
                                                             "nodeSelector": {"k": "v"}},
     {"nodeSelector": {"k": "other"}},
     (IV, "spec.nodeSelector", "only additions to spec.nodeSelector are allowed (no mutations or deletions)")),
])
def test_pod_update_refused(case: str, old_changes: dict, new_changes: dict, expected: tuple) -> None:
    old = pod(**old_changes)
    new = updated(old, **new_changes)
    for key in [k for k, v in new_changes.items() if v is None]:
        del new["spec"][key]
    assert expected in update_errors(new, old), case


def test_pod_update_other_field_is_the_not_updatable_error() -> None:
    """TestValidatePodUpdate/nodeName change: the "may not change fields other than" Forbidden, its
    text up to the diff the apiserver's; a gated pod may only add to its nodeSelector."""
    old = pod()
    [(kind, field, detail)] = update_errors(updated(old, nodeName="node1"), old)
    assert (kind, field) == (F, "spec")
    head, _, diff = detail.partition("\n")
    assert head == ("pod updates may not change fields other than `spec.containers[*].image`,"
                    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions "
                    "to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it "
                    "was previously negative)")
    assert '+ \tNodeName: "node1",' in diff
    gated = pod(schedulingGates=[{"name": "a"}])
    assert update_errors(updated(gated, nodeSelector={"added": "v"}), gated) == []
    assert update_errors(updated(gated, schedulingGates=[]), gated) == []


def test_ephemeral_volume_claim_name() -> None:
    """validateVolumeSource: the claim of an ephemeral volume, `<pod>-<volume>`, is a valid name."""
    obj = pod(volumes=[{"name": "vol", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}}])
    obj["metadata"]["name"] = "a" * 250
    [err] = [e for e in kinds.validate_pod(obj) if e.field == "spec.volumes[0].name"]
    assert err.detail.startswith(f'PVC name "{"a" * 250}-vol": must be no more than 253 characters')
