"""Built-in defaulting checked against kubernetes' own defaulting tests.

Each case is one (sub)test of a kubernetes `defaults_test.go`, named by its Go test function and
case: the object the Go test builds, sent as a manifest through the apiserver's decoding and
SetObjectDefaults (apis.decode, apis.defaults: what `crdtool default` runs on a built-in object, as
the Go test's roundTrip decodes and defaults), and the fields the Go test asserts afterwards
(ABSENT: the Go test asserts nil or the zero value).

The files (kubernetes at about 1.33): CORE = pkg/apis/core/v1/defaults_test.go, APPS =
pkg/apis/apps/v1/..., BATCH = pkg/apis/batch/v1/..., NET = pkg/apis/networking/v1/..., HPA =
pkg/apis/autoscaling/v2/..., STORAGE = pkg/apis/storage/v1/.... (policy/v1 and rbac/v1 have no
defaults_test.go.) Where a Go case sets a feature gate away from its 1.36 default, the case states
the gate and expects what 1.36 does, which is then not what that Go case asserts.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from crdtool.apis import openapi
from crdtool.apis.decode import decode
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.discovery import lookup_kind
from crdtool.model.quantity import round_up_to_milli

CORE = "core/v1 "
APPS = "apps/v1 "
BATCH = "batch/v1 "
NET = "networking/v1 "
HPA = "autoscaling/v2 "
STORAGE = "storage/v1 "
ABSENT = object()
_STEP = re.compile(r"([^.\[\]]+)|\[([^\]]+)\]")


def roundtrip(doc: dict[str, Any]) -> dict[str, Any]:
    """The object as the apiserver holds it after decoding and defaulting (the Go test's roundTrip)."""
    found = lookup_kind(doc["apiVersion"], doc["kind"]).builtin
    assert found is not None, doc["kind"]
    definition = openapi.definition_name(found.group, found.version, found.kind)
    decoded = decode(copy.deepcopy(doc), openapi.go_type(definition))
    assert decoded.object is not None and not decoded.strict_errors, (decoded.error, decoded.strict_errors)
    set_object_defaults(decoded.object, definition)
    return decoded.object


def get(obj: Any, path: str) -> Any:
    """`a.b[0].c`, a bracketed key holding dots (`labels[kubernetes.io/x]`); ABSENT when missing."""
    for key, index in _STEP.findall(path):
        step = key or index
        if isinstance(obj, list):
            obj = obj[int(step)] if int(step) < len(obj) else ABSENT
        elif isinstance(obj, dict):
            obj = obj.get(step, ABSENT)
        else:
            obj = ABSENT
        if obj is ABSENT:
            return ABSENT
    return obj


# ---------------------------------------------------------------- objects the Go tests build

def pod(spec: dict, **meta: Any) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", **meta}, "spec": spec}


def rc(spec: dict, **meta: Any) -> dict:
    return {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "r", **meta}, "spec": spec}


def svc(spec: dict | None = None, status: dict | None = None) -> dict:
    doc: dict = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": spec or {}}
    if status is not None:
        doc["status"] = status
    return doc


def kind(api_version: str, name: str, **fields: Any) -> dict:
    return {"apiVersion": api_version, "kind": name, "metadata": {"name": "x"}, **fields}


FOO_TEMPLATE = {"metadata": {"labels": {"foo": "bar"}}}
HTTP = {"httpGet": {"port": 80}}
#: The container detectDefaults fills: one of each struct below a container.
FULL_CONTAINER = {
    "name": "c", "env": [{"name": "E", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
    "lifecycle": {"postStart": HTTP, "preStop": HTTP}, "ports": [{"containerPort": 80}],
    "livenessProbe": HTTP, "readinessProbe": HTTP, "startupProbe": {"grpc": {"port": 9000}},
}


def container_defaults(at: str, *, resources: bool = False) -> dict[str, Any]:
    """What TestWorkloadDefaults and TestPodDefaults list below one container of FULL_CONTAINER."""
    out: dict[str, Any] = {
        f"{at}.env[0].valueFrom.fieldRef.apiVersion": "v1", f"{at}.imagePullPolicy": "IfNotPresent",
        f"{at}.terminationMessagePath": "/dev/termination-log", f"{at}.terminationMessagePolicy": "File",
        f"{at}.ports[0].protocol": "TCP", f"{at}.startupProbe.grpc.service": "",
    }
    for hook in ("postStart", "preStop"):
        out[f"{at}.lifecycle.{hook}.httpGet.path"] = "/"
        out[f"{at}.lifecycle.{hook}.httpGet.scheme"] = "HTTP"
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        out.update({f"{at}.{probe}.timeoutSeconds": 1, f"{at}.{probe}.periodSeconds": 10,
                    f"{at}.{probe}.successThreshold": 1, f"{at}.{probe}.failureThreshold": 3})
    for probe in ("livenessProbe", "readinessProbe"):
        out[f"{at}.{probe}.httpGet.path"] = "/"
        out[f"{at}.{probe}.httpGet.scheme"] = "HTTP"
    if not resources:
        out[f"{at}.resources.requests"] = ABSENT
    return out


POD_SPEC_DEFAULTS = {"dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "securityContext": {},
                     "terminationGracePeriodSeconds": 30, "schedulerName": "default-scheduler"}
VOLUMES = [
    {"name": "azure", "azureDisk": {"diskName": "d", "diskURI": "u"}},
    {"name": "cm", "configMap": {"name": "c"}},
    {"name": "dapi", "downwardAPI": {"items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}}]}},
    {"name": "empty"},
    {"name": "eph", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
    {"name": "host", "hostPath": {"path": "/data"}},
    {"name": "iscsi", "iscsi": {"targetPortal": "t", "iqn": "q", "lun": 0}},
    {"name": "proj", "projected": {"sources": [
        {"downwardAPI": {"items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}}]}},
        {"serviceAccountToken": {"path": "t"}}]}},
    {"name": "rbd", "rbd": {"monitors": ["m"], "image": "i"}},
    {"name": "sio", "scaleIO": {"gateway": "g", "system": "s", "secretRef": {"name": "n"}}},
    {"name": "sec", "secret": {"secretName": "s"}},
]


def volume_defaults(at: str) -> dict[str, Any]:
    """TestWorkloadDefaults' and TestPodDefaults' `.Spec.Volumes[0].VolumeSource.*`, one volume each."""
    return {
        f"{at}[0].azureDisk.cachingMode": "ReadWrite", f"{at}[0].azureDisk.fsType": "ext4",
        f"{at}[0].azureDisk.kind": "Shared", f"{at}[0].azureDisk.readOnly": False,
        f"{at}[1].configMap.defaultMode": 420, f"{at}[2].downwardAPI.defaultMode": 420,
        f"{at}[2].downwardAPI.items[0].fieldRef.apiVersion": "v1", f"{at}[3].emptyDir": {},
        f"{at}[4].ephemeral.volumeClaimTemplate.spec.volumeMode": "Filesystem", f"{at}[5].hostPath.type": "",
        f"{at}[6].iscsi.iscsiInterface": "default", f"{at}[7].projected.defaultMode": 420,
        f"{at}[7].projected.sources[0].downwardAPI.items[0].fieldRef.apiVersion": "v1",
        f"{at}[7].projected.sources[1].serviceAccountToken.expirationSeconds": 3600,
        f"{at}[8].rbd.keyring": "/etc/ceph/keyring", f"{at}[8].rbd.pool": "rbd", f"{at}[8].rbd.user": "admin",
        f"{at}[9].scaleIO.fsType": "xfs", f"{at}[9].scaleIO.storageMode": "ThinProvisioned",
        f"{at}[10].secret.defaultMode": 420,
    }


def _prefixed(at: str, values: dict[str, Any]) -> dict[str, Any]:
    return {f"{at}.{k}": v for k, v in values.items()}


TEMPLATE = "spec.template.spec"
CORE_CASES: list[tuple[str, dict, dict[str, Any]]] = [
    (CORE + "TestWorkloadDefaults/containers", rc({"template": {"spec": {"containers": [FULL_CONTAINER]}}}),
     container_defaults(f"{TEMPLATE}.containers[0]")),
    (CORE + "TestWorkloadDefaults/initContainers",
     rc({"template": {"spec": {"containers": [], "initContainers": [FULL_CONTAINER]}}}),
     container_defaults(f"{TEMPLATE}.initContainers[0]")),
    (CORE + "TestWorkloadDefaults/ephemeralContainers",
     rc({"template": {"spec": {"containers": [], "ephemeralContainers": [FULL_CONTAINER]}}}),
     container_defaults(f"{TEMPLATE}.ephemeralContainers[0]")),
    (CORE + "TestWorkloadDefaults/pod spec (no enableServiceLinks in a template)", rc({"template": {}}),
     {**_prefixed(TEMPLATE, POD_SPEC_DEFAULTS), f"{TEMPLATE}.enableServiceLinks": ABSENT}),
    (CORE + "TestWorkloadDefaults/volumes", rc({"template": {"spec": {"containers": [], "volumes": VOLUMES}}}),
     volume_defaults(f"{TEMPLATE}.volumes")),
    # DefaultHostNetworkHostPortsInPodTemplates is off by default: a template's ports keep hostPort 0.
    (CORE + "TestWorkloadDefaults/hostnet PodTemplateSpec with ports",
     rc({"template": {"spec": {"hostNetwork": True, "containers": [
         {"name": "c", "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]}}}),
     {f"{TEMPLATE}.containers[0].ports[0].hostPort": ABSENT}),
    (CORE + "TestPodDefaults/containers",
     pod({"containers": [{**FULL_CONTAINER, "resources": {"limits": {"cpu": "0"}}}]}),
     {**container_defaults("spec.containers[0]", resources=True),
      "spec.containers[0].resources.requests": {"cpu": "0"}}),
    (CORE + "TestPodDefaults/initContainers",
     pod({"containers": [], "initContainers": [{**FULL_CONTAINER, "resources": {"limits": {"cpu": "0"}}}]}),
     {**container_defaults("spec.initContainers[0]", resources=True),
      "spec.initContainers[0].resources.requests": {"cpu": "0"}}),
    (CORE + "TestPodDefaults/ephemeralContainers", pod({"containers": [], "ephemeralContainers": [FULL_CONTAINER]}),
     container_defaults("spec.ephemeralContainers[0]")),
    (CORE + "TestPodDefaults/pod spec", pod({"containers": []}),
     {**_prefixed("spec", POD_SPEC_DEFAULTS), "spec.enableServiceLinks": True}),
    (CORE + "TestPodDefaults/volumes", pod({"containers": [], "volumes": VOLUMES}), volume_defaults("spec.volumes")),
    (CORE + "TestPodHostNetworkDefaults/gate disabled, hostNetwork=false",
     pod({"containers": [{"name": "c", "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]}),
     {"spec.containers[0].ports[0].hostPort": ABSENT}),
    (CORE + "TestPodHostNetworkDefaults/gate disabled, hostNetwork=true",
     pod({"hostNetwork": True, "containers": [{"name": "c", "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]}),
     {"spec.containers[0].ports[0].hostPort": 12345}),
    (CORE + "TestSetDefaultReplicationController/labels and selector from the template",
     rc({"template": FOO_TEMPLATE}), {"metadata.labels": {"foo": "bar"}, "spec.selector": {"foo": "bar"}}),
    (CORE + "TestSetDefaultReplicationController/own labels kept",
     rc({"template": FOO_TEMPLATE}, labels={"bar": "foo"}),
     {"metadata.labels": {"bar": "foo"}, "spec.selector": {"foo": "bar"}}),
    (CORE + "TestSetDefaultReplicationController/own labels and selector kept",
     rc({"selector": {"some": "other"}, "template": FOO_TEMPLATE}, labels={"bar": "foo"}),
     {"metadata.labels": {"bar": "foo"}, "spec.selector": {"some": "other"}}),
    (CORE + "TestSetDefaultReplicationController/own selector kept",
     rc({"selector": {"some": "other"}, "template": FOO_TEMPLATE}),
     {"metadata.labels": {"foo": "bar"}, "spec.selector": {"some": "other"}}),
    (CORE + "TestSetDefaultReplicationControllerReplicas/unset", rc({"template": FOO_TEMPLATE}), {"spec.replicas": 1}),
    (CORE + "TestSetDefaultReplicationControllerReplicas/0", rc({"replicas": 0, "template": FOO_TEMPLATE}),
     {"spec.replicas": 0}),
    (CORE + "TestSetDefaultReplicationControllerReplicas/3", rc({"replicas": 3, "template": FOO_TEMPLATE}),
     {"spec.replicas": 3}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/imagePullIPolicy",
     rc({"template": {"spec": {"containers": [], "initContainers": [{"name": "install", "image": "busybox"}]}}}),
     {f"{TEMPLATE}.initContainers[0].imagePullPolicy": "Always"}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/FieldRef",
     rc({"template": {"spec": {"containers": [], "initContainers": [{"name": "fun", "image": "alpine", "env": [
         {"name": "MY_POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "", "fieldPath": "status.podIP"}}}]}]}}}),
     {f"{TEMPLATE}.initContainers[0].env[0].valueFrom.fieldRef":
      {"apiVersion": "v1", "fieldPath": "status.podIP"}}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/ContainerPort",
     rc({"template": {"spec": {"containers": [], "initContainers": [
         {"name": "fun", "image": "alpine", "ports": [{"name": "default"}]}]}}}),
     {f"{TEMPLATE}.initContainers[0].ports": [{"name": "default", "protocol": "TCP"}]}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/Resources",
     rc({"template": {"spec": {"containers": [], "initContainers": [{"name": "fun", "image": "alpine", "resources": {
         "limits": {"cpu": "100m", "memory": "100Mi"}, "requests": {"cpu": "100m", "memory": "100Mi"}}}]}}}),
     {f"{TEMPLATE}.initContainers[0].resources": {"limits": {"cpu": "100m", "memory": "100Mi"},
                                                  "requests": {"cpu": "100m", "memory": "100Mi"}}}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/Probe",
     rc({"template": {"spec": {"containers": [], "initContainers": [{
         "name": "fun", "image": "alpine", "livenessProbe": {"httpGet": {"host": "localhost", "port": 80}},
         "readinessProbe": {"httpGet": {"host": "localhost", "port": 80}}}]}}}),
     {f"{TEMPLATE}.initContainers[0].{probe}": {
         "httpGet": {"host": "localhost", "port": 80, "path": "/", "scheme": "HTTP"},
         "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}
      for probe in ("livenessProbe", "readinessProbe")}),
    (CORE + "TestSetDefaultReplicationControllerInitContainers/LifeCycle",
     rc({"template": {"spec": {"containers": [], "initContainers": [{
         "name": "fun", "image": "alpine", "ports": [{"name": "default"}],
         "lifecycle": {"postStart": {"httpGet": {"host": "localhost", "port": 80}},
                       "preStop": {"httpGet": {"host": "localhost", "port": 80}}}}]}}}),
     {f"{TEMPLATE}.initContainers[0].lifecycle.{hook}.httpGet":
      {"host": "localhost", "port": 80, "path": "/", "scheme": "HTTP"} for hook in ("postStart", "preStop")}),
    (CORE + "TestSetDefaultService", svc(),
     {"spec.sessionAffinity": "None", "spec.sessionAffinityConfig": ABSENT, "spec.type": "ClusterIP"}),
    (CORE + "TestSetDefaultServiceSessionAffinityConfig/SessionAffinityConfig is empty",
     svc({"sessionAffinity": "ClientIP"}), {"spec.sessionAffinityConfig.clientIP.timeoutSeconds": 10800}),
    (CORE + "TestSetDefaultServiceSessionAffinityConfig/ClientIP is empty",
     svc({"sessionAffinity": "ClientIP", "sessionAffinityConfig": {}}),
     {"spec.sessionAffinityConfig.clientIP.timeoutSeconds": 10800}),
    (CORE + "TestSetDefaultServiceSessionAffinityConfig/TimeoutSeconds is empty",
     svc({"sessionAffinity": "ClientIP", "sessionAffinityConfig": {"clientIP": {}}}),
     {"spec.sessionAffinityConfig.clientIP.timeoutSeconds": 10800}),
    # LoadBalancerIPMode is GA and always on in 1.36: the Go case with the gate off expects no ipMode.
    (CORE + "TestSetDefaultServiceLoadbalancerIPMode/Set IP but not set IPMode (gate always on in 1.36)",
     svc({"type": "LoadBalancer"}, {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}]}}),
     {"status.loadBalancer.ingress[0].ipMode": "VIP"}),
    (CORE + "TestSetDefaultServiceLoadbalancerIPMode/Set IP but bot set IPMode with LoadbalancerIPMode enabled",
     svc({"type": "LoadBalancer"}, {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}]}}),
     {"status.loadBalancer.ingress[0].ipMode": "VIP"}),
    (CORE + "TestSetDefaultServiceLoadbalancerIPMode/Both IP and IPMode are set with LoadbalancerIPMode enabled",
     svc({"type": "LoadBalancer"}, {"loadBalancer": {"ingress": [{"ip": "1.2.3.4", "ipMode": "Proxy"}]}}),
     {"status.loadBalancer.ingress[0].ipMode": "Proxy"}),
    (CORE + "TestSetDefaultSecretVolumeSource", pod({"containers": [], "volumes": [{"name": "v", "secret": {}}]}),
     {"spec.volumes[0].secret.defaultMode": 0o644}),
    (CORE + "TestSetDefaultConfigMapVolumeSource",
     pod({"containers": [], "volumes": [{"name": "v", "configMap": {}}]}),
     {"spec.volumes[0].configMap.defaultMode": 0o644}),
    (CORE + "TestSetDefaultDownwardAPIVolumeSource",
     pod({"containers": [], "volumes": [{"name": "v", "downwardAPI": {}}]}),
     {"spec.volumes[0].downwardAPI.defaultMode": 0o644}),
    (CORE + "TestSetDefaultProjectedVolumeSource",
     pod({"containers": [], "volumes": [{"name": "v", "projected": {}}]}),
     {"spec.volumes[0].projected.defaultMode": 0o644}),
    (CORE + "TestSetDefaultSecret", kind("v1", "Secret"), {"type": "Opaque"}),
    *[(CORE + f"TestSetDefaultPersistentVolume/volume mode {name}",
       kind("v1", "PersistentVolume", spec={} if mode is None else {"volumeMode": mode}),
       {"status.phase": "Pending", "spec.persistentVolumeReclaimPolicy": "Retain", "spec.volumeMode": want})
      for name, mode, want in (("nil", None, "Filesystem"), ("filesystem", "Filesystem", "Filesystem"),
                               ("block", "Block", "Block"))],
    *[(CORE + f"TestSetDefaultPersistentVolumeClaim/volume mode {name}",
       kind("v1", "PersistentVolumeClaim", spec={} if mode is None else {"volumeMode": mode}),
       {"status.phase": "Pending", "spec.volumeMode": want})
      for name, mode, want in (("nil", None, "Filesystem"), ("filesystem", "Filesystem", "Filesystem"),
                               ("block", "Block", "Block"))],
    *[(CORE + f"TestSetDefaultEphemeral/volume mode {name}",
       pod({"containers": [], "volumes": [{"name": "v", "ephemeral": {"volumeClaimTemplate": {
           "spec": {} if mode is None else {"volumeMode": mode}}}}]}),
       {"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.volumeMode": want})
      for name, mode, want in (("nil", None, "Filesystem"), ("filesystem", "Filesystem", "Filesystem"),
                               ("block", "Block", "Block"))],
    (CORE + "TestSetDefaultEndpointsProtocol",
     kind("v1", "Endpoints", subsets=[{"ports": [{"port": 1}, {"port": 2, "protocol": "UDP"}, {"port": 3}]}]),
     {"subsets[0].ports[0].protocol": "TCP", "subsets[0].ports[1].protocol": "UDP",
      "subsets[0].ports[2].protocol": "TCP"}),
    (CORE + "TestSetDefaultServiceTargetPort/defaulted", svc({"ports": [{"port": 1234}]}),
     {"spec.ports[0].targetPort": 1234}),
    (CORE + "TestSetDefaultServiceTargetPort/unchanged", svc({"ports": [{"port": 1234, "targetPort": 5678}]}),
     {"spec.ports[0].targetPort": 5678}),
    (CORE + "TestSetDefaultServicePort/unchanged if set",
     svc({"ports": [{"name": "a", "protocol": "UDP", "port": 9376, "targetPort": "p"},
                    {"name": "b", "protocol": "UDP", "port": 8675, "targetPort": 309}]}),
     {"spec.ports[0].protocol": "UDP", "spec.ports[0].targetPort": "p", "spec.ports[1].protocol": "UDP",
      "spec.ports[1].targetPort": 309}),
    (CORE + "TestSetDefaultServicePort/defaulted",
     svc({"ports": [{"name": "a", "protocol": "", "port": 9376, "targetPort": ""},
                    {"name": "b", "protocol": "", "port": 8675, "targetPort": 0}]}),
     {"spec.ports[0].protocol": "TCP", "spec.ports[0].targetPort": 9376, "spec.ports[1].protocol": "TCP",
      "spec.ports[1].targetPort": 8675}),
    (CORE + "TestSetDefaultServiceExternalTraffic/empty", svc(), {"spec.externalTrafficPolicy": ABSENT}),
    (CORE + "TestSetDefaultServiceExternalTraffic/NodePort", svc({"type": "NodePort"}),
     {"spec.externalTrafficPolicy": "Cluster"}),
    (CORE + "TestSetDefaultServiceExternalTraffic/LoadBalancer", svc({"type": "LoadBalancer"}),
     {"spec.externalTrafficPolicy": "Cluster"}),
    (CORE + "TestSetDefaultServiceExternalTraffic/ClusterIP with externalIPs",
     svc({"type": "ClusterIP", "externalIPs": ["1.2.3.4"]}), {"spec.externalTrafficPolicy": "Cluster"}),
    (CORE + "TestSetDefaultServiceExternalTraffic/ClusterIP", svc({"type": "ClusterIP"}),
     {"spec.externalTrafficPolicy": ABSENT}),
    (CORE + "TestSetDefaultServiceExternalTraffic/ExternalName", svc({"type": "ExternalName"}),
     {"spec.externalTrafficPolicy": ABSENT}),
    (CORE + "TestSetDefaultNamespace", kind("v1", "Namespace"), {"status.phase": "Active"}),
    (CORE + "TestSetDefaultNamespaceLabels",
     {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default-ns-labels-are-great"}},
     {"metadata.labels[kubernetes.io/metadata.name]": "default-ns-labels-are-great"}),
    (CORE + "TestSetDefaultPodSpecHostNetwork",
     pod({"hostNetwork": True, "containers": [{"name": "c", "ports": [{"containerPort": 8080}]}],
          "initContainers": [{"name": "i", "ports": [{"containerPort": 8080}]}]}),
     {"spec.containers[0].ports[0].hostPort": 8080, "spec.initContainers[0].ports[0].hostPort": 8080}),
    (CORE + "TestSetDefaultObjectFieldSelectorAPIVersion",
     pod({"containers": [{"name": "c", "env": [{"name": "E", "valueFrom": {"fieldRef": {}}}]}]}),
     {"spec.containers[0].env[0].valueFrom.fieldRef.apiVersion": "v1"}),
    (CORE + "TestSetMinimumScalePod",
     pod({"containers": [{"name": "c", "resources": {"requests": {"memory": "1n"}, "limits": {"cpu": "2n"}}}],
          "initContainers": [{"name": "i", "resources": {"requests": {"memory": "1n"}, "limits": {"cpu": "2n"}}}]}),
     {"spec.containers[0].resources.requests.memory": "1m", "spec.initContainers[0].resources.requests.memory": "1m",
      "spec.containers[0].resources.limits.cpu": "1m", "spec.containers[0].resources.requests.cpu": "1m"}),
    (CORE + "TestSetDefaultRequestsPod/requests from limits, request 0 kept",
     pod({"containers": [{"name": "c", "resources": {"requests": {"memory": "0"},
                                                     "limits": {"cpu": "100m", "memory": "1Gi"}}}],
          "initContainers": [{"name": "i", "resources": {"requests": {"memory": "0"},
                                                         "limits": {"cpu": "100m", "memory": "1Gi"}}}]}),
     {"spec.containers[0].resources.requests": {"memory": "0", "cpu": "100m"},
      "spec.initContainers[0].resources.requests": {"memory": "0", "cpu": "100m"}}),
    (CORE + "TestSetDefaultRequestsPod/nothing without limits",
     pod({"containers": [{"name": "c"}], "initContainers": [{"name": "i"}]}),
     {"spec.containers[0].resources.requests": ABSENT, "spec.initContainers[0].resources.requests": ABSENT}),
    (CORE + "TestDefaultRequestIsNotSetForReplicationController",
     rc({"replicas": 3, "template": {**FOO_TEMPLATE, "spec": {"containers": [
         {"name": "c", "resources": {"limits": {"cpu": "100m"}}}]}}}),
     {f"{TEMPLATE}.containers[0].resources.requests": ABSENT}),
    (CORE + "TestSetDefaultLimitRangeItem",
     kind("v1", "LimitRange", spec={"limits": [{"type": "Container", "max": {"cpu": "100m"},
                                                "min": {"memory": "100Mi"}, "default": {}, "defaultRequest": {}}]}),
     {"spec.limits[0].default": {"cpu": "100m"}, "spec.limits[0].defaultRequest": {"cpu": "100m", "memory": "100Mi"}}),
    (CORE + "TestSetDefaultProbe", pod({"containers": [{"name": "c", "livenessProbe": {}}]}),
     {"spec.containers[0].livenessProbe": {"timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
                                           "failureThreshold": 3}}),
    (CORE + "TestSetDefaultSchedulerName", pod({}), {"spec.schedulerName": "default-scheduler"}),
    (CORE + "TestSetDefaultHostPathVolumeSource",
     pod({"containers": [], "volumes": [{"name": "v", "hostPath": {"path": "foo"}}]}),
     {"spec.volumes[0].hostPath.type": ""}),
    (CORE + "TestSetDefaultEnableServiceLinks", pod({}), {"spec.enableServiceLinks": True}),
    (CORE + "TestSetDefaultServiceInternalTrafficPolicy/must set default internalTrafficPolicy", svc(),
     {"spec.internalTrafficPolicy": "Cluster"}),
    (CORE + "TestSetDefaultServiceInternalTrafficPolicy/must not set default internalTrafficPolicy when it's cluster",
     svc({"internalTrafficPolicy": "Cluster"}), {"spec.internalTrafficPolicy": "Cluster"}),
    (CORE + "TestSetDefaultServiceInternalTrafficPolicy/must not set default internalTrafficPolicy when type is "
     "ExternalName", svc({"type": "ExternalName"}), {"spec.internalTrafficPolicy": ABSENT}),
    (CORE + "TestSetDefaultServiceInternalTrafficPolicy/must not set default internalTrafficPolicy when it's local",
     svc({"internalTrafficPolicy": "Local"}), {"spec.internalTrafficPolicy": "Local"}),
    # The resize policy default TestSetDefaultResizePolicy asserts was removed in 1.33 (kubernetes#128920):
    # a 1.36 apiserver leaves resizePolicy as given.
    (CORE + "TestSetDefaultResizePolicy/CPU and memory limits are specified (no default since 1.33)",
     pod({"containers": [{"name": "c", "resources": {"limits": {"cpu": "100m", "memory": "200Mi"}}}]}),
     {"spec.containers[0].resizePolicy": ABSENT}),
    (CORE + "TestSetDefaultResizePolicy/CPU and memory limits are specified with restartContainer resize policy "
     "for memory (no default since 1.33)",
     pod({"containers": [{"name": "c", "resources": {"limits": {"cpu": "100m", "memory": "200Mi"}},
                          "resizePolicy": [{"resourceName": "memory", "restartPolicy": "RestartContainer"}]}]}),
     {"spec.containers[0].resizePolicy": [{"resourceName": "memory", "restartPolicy": "RestartContainer"}]}),
    (CORE + "TestSetDefaultResizePolicy/No resources are specified", pod({"containers": [{"name": "besteffort"}]}),
     {"spec.containers[0].resizePolicy": ABSENT}),
]

# ---------------------------------------------------------------- apps/v1

LABELED = {"metadata": {"labels": {"foo": "bar"}}}
DEFAULT_TEMPLATE = {f"spec.template.spec.{k}": v for k, v in POD_SPEC_DEFAULTS.items()}
DS_ROLLING = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}
STS_BASE = {"spec.replicas": 1, "spec.podManagementPolicy": "OrderedReady", "spec.revisionHistoryLimit": 10,
            "spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}, **DEFAULT_TEMPLATE}
RETAIN = {"whenDeleted": "Retain", "whenScaled": "Retain"}
D_ROLLING = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}


def apps(kind_name: str, spec: dict, **meta: Any) -> dict:
    return {"apiVersion": "apps/v1", "kind": kind_name, "metadata": {"name": "x", **meta}, "spec": spec}


APPS_CASES: list[tuple[str, dict, dict[str, Any]]] = [
    (APPS + "TestSetDefaultDaemonSetSpec/labels defaulting", apps("DaemonSet", {"template": LABELED}),
     {"spec.updateStrategy": DS_ROLLING, "spec.revisionHistoryLimit": 10, **DEFAULT_TEMPLATE}),
    (APPS + "TestSetDefaultDaemonSetSpec/own labels, revisionHistoryLimit 1",
     apps("DaemonSet", {"template": LABELED, "revisionHistoryLimit": 1}, labels={"bar": "foo"}),
     {"spec.updateStrategy": DS_ROLLING, "spec.revisionHistoryLimit": 1, "metadata.labels": {"bar": "foo"}}),
    (APPS + "TestSetDefaultDaemonSetSpec/OnDeleteDaemonSetStrategyType",
     apps("DaemonSet", {"template": {}, "updateStrategy": {"type": "OnDelete"}}),
     {"spec.updateStrategy": {"type": "OnDelete"}, "spec.revisionHistoryLimit": 10}),
    (APPS + "TestSetDefaultDaemonSetSpec/Custom unique label key", apps("DaemonSet", {}),
     {"spec.updateStrategy": DS_ROLLING, "spec.revisionHistoryLimit": 10, **DEFAULT_TEMPLATE}),
    (APPS + "TestSetDefaultStatefulSet/labels and default update strategy", apps("StatefulSet", {"template": LABELED}),
     {**STS_BASE, "spec.minReadySeconds": ABSENT}),
    (APPS + "TestSetDefaultStatefulSet/Alternate update strategy",
     apps("StatefulSet", {"template": LABELED, "updateStrategy": {"type": "OnDelete"}}),
     {**STS_BASE, "spec.updateStrategy": {"type": "OnDelete"}}),
    (APPS + "TestSetDefaultStatefulSet/Parallel pod management policy",
     apps("StatefulSet", {"template": LABELED, "podManagementPolicy": "Parallel"}),
     {**STS_BASE, "spec.podManagementPolicy": "Parallel"}),
    (APPS + "TestSetDefaultStatefulSet/UpdateStrategy.RollingUpdate.Partition is not lost when UpdateStrategy.Type "
     "is not set", apps("StatefulSet", {"template": LABELED, "updateStrategy": {"rollingUpdate": {"partition": 42}}}),
     {**STS_BASE, "spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 42}}}),
    (APPS + "TestSetDefaultStatefulSet/PVC delete policy enabled, no policy specified",
     apps("StatefulSet", {"template": LABELED}), {**STS_BASE, "spec.persistentVolumeClaimRetentionPolicy": RETAIN}),
    (APPS + "TestSetDefaultStatefulSet/PVC delete policy enabled, with scaledown policy specified",
     apps("StatefulSet", {"template": LABELED, "persistentVolumeClaimRetentionPolicy": {"whenScaled": "Delete"}}),
     {**STS_BASE, "spec.persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Delete"}}),
    (APPS + "TestSetDefaultStatefulSet/PVC delete policy disabled, with set deletion policy specified",
     apps("StatefulSet", {"template": LABELED, "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete"}}),
     {**STS_BASE, "spec.persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"}}),
    # StatefulSetAutoDeletePVC is GA in 1.36: the policy's missing half is defaulted, unlike the Go case's gate-off run.
    (APPS + "TestSetDefaultStatefulSet/PVC delete policy disabled, with policy specified (gate always on in 1.36)",
     apps("StatefulSet", {"template": LABELED, "persistentVolumeClaimRetentionPolicy": {"whenScaled": "Delete"}}),
     {**STS_BASE, "spec.persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Delete"}}),
    (APPS + "TestSetDefaultStatefulSet/MaxUnavailable disabled, with maxUnavailable not specified",
     apps("StatefulSet", {"template": LABELED}), {**STS_BASE}),
    (APPS + "TestSetDefaultStatefulSet/MaxUnavailable disabled, with default maxUnavailable specified",
     apps("StatefulSet", {"template": LABELED, "updateStrategy": {"rollingUpdate": {"partition": 0,
                                                                                  "maxUnavailable": 1}}}),
     {**STS_BASE, "spec.updateStrategy": {"type": "RollingUpdate",
                                          "rollingUpdate": {"partition": 0, "maxUnavailable": 1}}}),
    (APPS + "TestSetDefaultStatefulSet/MaxUnavailable disabled, with non default maxUnavailable specified",
     apps("StatefulSet", {"template": LABELED, "updateStrategy": {"rollingUpdate": {"partition": 42,
                                                                                  "maxUnavailable": 3}}}),
     {**STS_BASE, "spec.updateStrategy": {"type": "RollingUpdate",
                                          "rollingUpdate": {"partition": 42, "maxUnavailable": 3}}}),
    # MaxUnavailableStatefulSet is off by default in 1.36 (turned off again in 1.35.4, on in 1.37): no
    # maxUnavailable default, unlike the Go case's gate-on run.
    (APPS + "TestSetDefaultStatefulSet/MaxUnavailable enabled, with no maxUnavailable specified (gate off in 1.36)",
     apps("StatefulSet", {"template": LABELED}), {**STS_BASE}),
    (APPS + "TestSetDefaultStatefulSet/MaxUnavailable enabled, with non default maxUnavailable specified",
     apps("StatefulSet", {"template": LABELED, "updateStrategy": {"rollingUpdate": {"partition": 42,
                                                                                  "maxUnavailable": 3}}}),
     {"spec.updateStrategy.rollingUpdate": {"partition": 42, "maxUnavailable": 3}}),
    (APPS + "TestSetDefaultDeployment/empty", apps("Deployment", {}),
     {"spec.replicas": 1, "spec.strategy": D_ROLLING, "spec.revisionHistoryLimit": 10,
      "spec.progressDeadlineSeconds": 600, **DEFAULT_TEMPLATE}),
    (APPS + "TestSetDefaultDeployment/replicas 5, maxSurge 5",
     apps("Deployment", {"replicas": 5, "strategy": {"rollingUpdate": {"maxSurge": 5}}}),
     {"spec.replicas": 5, "spec.strategy": {"type": "RollingUpdate",
                                            "rollingUpdate": {"maxSurge": 5, "maxUnavailable": "25%"}},
      "spec.revisionHistoryLimit": 10, "spec.progressDeadlineSeconds": 600}),
    (APPS + "TestSetDefaultDeployment/RollingUpdate without rollingUpdate",
     apps("Deployment", {"replicas": 3, "strategy": {"type": "RollingUpdate"}}),
     {"spec.replicas": 3, "spec.strategy": D_ROLLING, "spec.revisionHistoryLimit": 10,
      "spec.progressDeadlineSeconds": 600}),
    (APPS + "TestSetDefaultDeployment/Recreate, revisionHistoryLimit 0",
     apps("Deployment", {"replicas": 5, "strategy": {"type": "Recreate"}, "revisionHistoryLimit": 0}),
     {"spec.replicas": 5, "spec.strategy": {"type": "Recreate"}, "spec.revisionHistoryLimit": 0,
      "spec.progressDeadlineSeconds": 600}),
    (APPS + "TestSetDefaultDeployment/Recreate, progressDeadlineSeconds 30",
     apps("Deployment", {"replicas": 5, "strategy": {"type": "Recreate"}, "progressDeadlineSeconds": 30,
                         "revisionHistoryLimit": 2}),
     {"spec.replicas": 5, "spec.strategy": {"type": "Recreate"}, "spec.revisionHistoryLimit": 2,
      "spec.progressDeadlineSeconds": 30}),
    (APPS + "TestSetDefaultReplicaSetReplicas/unset", apps("ReplicaSet", {"template": LABELED}),
     {"spec.replicas": 1}),
    (APPS + "TestSetDefaultReplicaSetReplicas/0", apps("ReplicaSet", {"replicas": 0, "template": LABELED}),
     {"spec.replicas": 0}),
    (APPS + "TestSetDefaultReplicaSetReplicas/3", apps("ReplicaSet", {"replicas": 3, "template": LABELED}),
     {"spec.replicas": 3}),
    (APPS + "TestDefaultRequestIsNotSetForReplicaSet",
     apps("ReplicaSet", {"replicas": 3, "template": {**LABELED, "spec": {"containers": [
         {"name": "c", "resources": {"limits": {"cpu": "100m"}}}]}}}),
     {"spec.template.spec.containers[0].resources.requests": ABSENT}),
]

# ---------------------------------------------------------------- batch/v1

JOB_TEMPLATE = {"metadata": {"labels": {"default": "default"}}}
JOB_DEFAULTS = {"spec.completions": 1, "spec.parallelism": 1, "spec.backoffLimit": 6,
                "spec.completionMode": "NonIndexed", "spec.suspend": False, "spec.manualSelector": False,
                "spec.podReplacementPolicy": "TerminatingOrFailed", "metadata.labels": {"default": "default"}}


def job(spec: dict, **meta: Any) -> dict:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", **meta},
            "spec": {"template": JOB_TEMPLATE, **spec}}


BATCH_CASES: list[tuple[str, dict, dict[str, Any]]] = [
    (BATCH + "TestSetDefaultJob/Pod failure policy with some field values unspecified -> set default values",
     job({"podFailurePolicy": {"rules": [
         {"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"},
                                                   {"type": "MemoryLimitExceeded", "status": "False"},
                                                   {"type": "DiskLimitExceeded"}]},
         {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}},
         {"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget"}]}]}}),
     {**JOB_DEFAULTS, "spec.podReplacementPolicy": "Failed",
      "spec.podFailurePolicy.rules[0].onPodConditions": [{"type": "DisruptionTarget", "status": "True"},
                                                         {"type": "MemoryLimitExceeded", "status": "False"},
                                                         {"type": "DiskLimitExceeded", "status": "True"}],
      "spec.podFailurePolicy.rules[2].onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}),
    (BATCH + "TestSetDefaultJob/Pod failure policy and defaulting for pod replacement policy",
     job({"podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}]}}),
     {**JOB_DEFAULTS, "spec.podReplacementPolicy": "Failed"}),
    (BATCH + "TestSetDefaultJob/All unspecified and podReplacementPolicyEnabled -> sets all to default values",
     job({}), JOB_DEFAULTS),
    # JobPodReplacementPolicy is GA in 1.36: podReplacementPolicy is defaulted in the Go cases run with it off too.
    (BATCH + "TestSetDefaultJob/All unspecified -> sets all to default values", job({}), JOB_DEFAULTS),
    (BATCH + "TestSetDefaultJob/All unspecified, suspend job enabled -> sets all to default values", job({}),
     JOB_DEFAULTS),
    (BATCH + "TestSetDefaultJob/suspend set, everything else is defaulted", job({"suspend": True}),
     {**JOB_DEFAULTS, "spec.suspend": True}),
    (BATCH + "TestSetDefaultJob/All unspecified -> all pointers are defaulted and no default labels",
     job({}, labels={"mylabel": "myvalue"}), {**JOB_DEFAULTS, "metadata.labels": {"mylabel": "myvalue"}}),
    (BATCH + "TestSetDefaultJob/WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted",
     job({"parallelism": 0}), {**JOB_DEFAULTS, "spec.parallelism": 0, "spec.completions": ABSENT}),
    (BATCH + "TestSetDefaultJob/WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted",
     job({"parallelism": 2}), {**JOB_DEFAULTS, "spec.parallelism": 2, "spec.completions": ABSENT}),
    (BATCH + "TestSetDefaultJob/Completions explicitly 2 and others unset -> parallelism and BackoffLimit are "
     "defaulted", job({"completions": 2}), {**JOB_DEFAULTS, "spec.completions": 2}),
    (BATCH + "TestSetDefaultJob/BackoffLimit explicitly 5 and others unset -> parallelism and completions are "
     "defaulted", job({"backoffLimit": 5}), {**JOB_DEFAULTS, "spec.backoffLimit": 5}),
    (BATCH + "TestSetDefaultJob/All set -> no change",
     job({"completions": 8, "parallelism": 9, "backoffLimit": 10, "completionMode": "NonIndexed", "suspend": False,
          "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": False}),
     {"spec.completions": 8, "spec.parallelism": 9, "spec.backoffLimit": 10, "spec.completionMode": "NonIndexed",
      "spec.suspend": False, "spec.podReplacementPolicy": "TerminatingOrFailed", "spec.manualSelector": False}),
    (BATCH + "TestSetDefaultJob/All set, flipped -> no change",
     job({"completions": 11, "parallelism": 10, "backoffLimit": 9, "completionMode": "Indexed", "suspend": True,
          "podReplacementPolicy": "Failed", "manualSelector": True}),
     {"spec.completions": 11, "spec.parallelism": 10, "spec.backoffLimit": 9, "spec.completionMode": "Indexed",
      "spec.suspend": True, "spec.podReplacementPolicy": "Failed", "spec.manualSelector": True}),
    (BATCH + "TestSetDefaultJob/BackoffLimitPerIndex specified, but no BackoffLimit -> default BackoffLimit to max "
     "int32", job({"completions": 11, "parallelism": 10, "backoffLimitPerIndex": 1, "completionMode": "Indexed",
                   "suspend": True, "manualSelector": False}),
     {"spec.backoffLimit": 2**31 - 1, "spec.backoffLimitPerIndex": 1, "spec.completions": 11}),
    (BATCH + "TestSetDefaultJob/BackoffLimitPerIndex and BackoffLimit specified -> no change",
     job({"completions": 11, "parallelism": 10, "backoffLimit": 3, "backoffLimitPerIndex": 1,
          "completionMode": "Indexed", "suspend": True, "manualSelector": True}),
     {"spec.backoffLimit": 3, "spec.backoffLimitPerIndex": 1, "spec.manualSelector": True}),
    (BATCH + "TestSetDefaultCronJob/empty batchv1.CronJob should default batchv1.ConcurrencyPolicy and Suspend",
     kind("batch/v1", "CronJob", spec={}),
     {"spec.concurrencyPolicy": "Allow", "spec.suspend": False, "spec.successfulJobsHistoryLimit": 3,
      "spec.failedJobsHistoryLimit": 1}),
    (BATCH + "TestSetDefaultCronJob/set fields should not be defaulted",
     kind("batch/v1", "CronJob", spec={"concurrencyPolicy": "Forbid", "suspend": True,
                                       "successfulJobsHistoryLimit": 5, "failedJobsHistoryLimit": 5}),
     {"spec.concurrencyPolicy": "Forbid", "spec.suspend": True, "spec.successfulJobsHistoryLimit": 5,
      "spec.failedJobsHistoryLimit": 5}),
]

# ---------------------------------------------------------------- networking, autoscaling, storage

SELECTOR = {"matchLabels": {"a": "b"}}
PEER = {"namespaceSelector": {"matchLabels": {"c": "d"}}}


def netpol(spec: dict) -> dict:
    return kind("networking.k8s.io/v1", "NetworkPolicy", spec={"podSelector": SELECTOR, **spec})


def hpa(behavior: dict) -> dict:
    return kind("autoscaling/v2", "HorizontalPodAutoscaler", spec={
        "scaleTargetRef": {"kind": "Deployment", "name": "d"}, "maxReplicas": 3, "behavior": behavior})


def policies(*items: tuple[str, int, int]) -> list[dict]:
    return [{"type": t, "value": v, "periodSeconds": p} for t, v, p in items]


OTHER_CASES: list[tuple[str, dict, dict[str, Any]]] = [
    (NET + "TestSetDefaultNetworkPolicy/Empty NetworkPolicy should be set to PolicyTypes Ingress", netpol({}),
     {"spec.policyTypes": ["Ingress"]}),
    (NET + "TestSetDefaultNetworkPolicy/Empty Ingress NetworkPolicy should be set to PolicyTypes Ingress",
     netpol({"ingress": []}), {"spec.policyTypes": ["Ingress"]}),
    (NET + "TestSetDefaultNetworkPolicy/Defined Ingress and Egress should be set to Ingress,Egress",
     netpol({"ingress": [{"from": [{"podSelector": {"matchLabels": {"c": "d"}}, **PEER}]}],
             "egress": [{"to": [PEER]}]}),
     {"spec.policyTypes": ["Ingress", "Egress"]}),
    (NET + "TestSetDefaultNetworkPolicy/Egress only with unset PolicyTypes should be set to Ingress, Egress",
     netpol({"egress": [{"to": [PEER]}]}), {"spec.policyTypes": ["Ingress", "Egress"]}),
    (NET + "TestSetDefaultNetworkPolicy/Egress only with PolicyTypes set to Egress should be set to only Egress",
     netpol({"egress": [{"to": [{"namespaceSelector": {"matchLabels": {"Egress": "only"}}}]}],
             "policyTypes": ["Egress"]}), {"spec.policyTypes": ["Egress"]}),
    (HPA + "TestGenerateScaleDownRules/Default values", hpa({"scaleDown": {}}),
     {"spec.behavior.scaleDown": {"selectPolicy": "Max", "policies": policies(("Percent", 100, 15))}}),
    (HPA + "TestGenerateScaleDownRules/All parameters are specified",
     hpa({"scaleDown": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                        "policies": policies(("Pods", 1, 2), ("Percent", 3, 4))}}),
     {"spec.behavior.scaleDown": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                                  "policies": policies(("Pods", 1, 2), ("Percent", 3, 4))}}),
    (HPA + "TestGenerateScaleDownRules/Percent policy is specified",
     hpa({"scaleDown": {"selectPolicy": "Min", "policies": policies(("Percent", 1, 2))}}),
     {"spec.behavior.scaleDown": {"selectPolicy": "Min", "policies": policies(("Percent", 1, 2))}}),
    (HPA + "TestGenerateScaleDownRules/Pods policy is specified",
     hpa({"scaleDown": {"policies": policies(("Pods", 3, 4))}}),
     {"spec.behavior.scaleDown": {"selectPolicy": "Max", "policies": policies(("Pods", 3, 4))}}),
    (HPA + "TestGenerateScaleUpRules/Default values", hpa({"scaleUp": {}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                                "policies": policies(("Pods", 4, 15), ("Percent", 100, 15))}}),
    (HPA + "TestGenerateScaleUpRules/All parameters are specified",
     hpa({"scaleUp": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                      "policies": policies(("Pods", 1, 2), ("Percent", 3, 4))}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                                "policies": policies(("Pods", 1, 2), ("Percent", 3, 4))}}),
    (HPA + "TestGenerateScaleUpRules/Pod policy is specified",
     hpa({"scaleUp": {"selectPolicy": "Min", "policies": policies(("Pods", 1, 2))}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Min",
                                "policies": policies(("Pods", 1, 2))}}),
    (HPA + "TestGenerateScaleUpRules/Percent policy is specified",
     hpa({"scaleUp": {"policies": policies(("Percent", 7, 10))}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                                "policies": policies(("Percent", 7, 10))}}),
    (HPA + "TestGenerateScaleUpRules/Pod policy and stabilization window are specified",
     hpa({"scaleUp": {"stabilizationWindowSeconds": 25, "policies": policies(("Pods", 4, 2))}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                                "policies": policies(("Pods", 4, 2))}}),
    (HPA + "TestGenerateScaleUpRules/Percent policy and stabilization window are specified",
     hpa({"scaleUp": {"stabilizationWindowSeconds": 25, "policies": policies(("Percent", 7, 60))}}),
     {"spec.behavior.scaleUp": {"stabilizationWindowSeconds": 25, "selectPolicy": "Max",
                                "policies": policies(("Percent", 7, 60))}}),
    (STORAGE + "TestSetDefaultVolumeBindingMode", kind("storage.k8s.io/v1", "StorageClass", provisioner="p"),
     {"volumeBindingMode": "Immediate"}),
    (STORAGE + "TestSetDefaultStorageCapacityEnabled", kind("storage.k8s.io/v1", "CSIDriver", spec={}),
     {"spec.storageCapacity": False}),
    (STORAGE + "TestSetDefaultCSIDriver/AttachRequired default to true",
     kind("storage.k8s.io/v1", "CSIDriver", spec={}), {"spec.attachRequired": True}),
    (STORAGE + "TestSetDefaultCSIDriver/PodInfoOnMount default to false",
     kind("storage.k8s.io/v1", "CSIDriver", spec={}), {"spec.podInfoOnMount": False}),
    (STORAGE + "TestSetDefaultCSIDriver/VolumeLifecycleModes default to VolumeLifecyclePersistent",
     kind("storage.k8s.io/v1", "CSIDriver", spec={}), {"spec.volumeLifecycleModes": ["Persistent"]}),
    (STORAGE + "TestSetDefaultCSIDriver/RequiresRepublish default to false",
     kind("storage.k8s.io/v1", "CSIDriver", spec={}), {"spec.requiresRepublish": False}),
]

CASES = CORE_CASES + APPS_CASES + BATCH_CASES + OTHER_CASES


@pytest.mark.parametrize(("go_test", "doc", "expected"), CASES, ids=[c[0] for c in CASES])
def test_defaults_as_kubernetes_tests_them(go_test: str, doc: dict, expected: dict[str, Any]) -> None:
    """The fields the Go test asserts after its roundTrip, after crdtool's decoding and defaulting."""
    out = roundtrip(doc)
    for path, want in expected.items():
        got = get(out, path)
        if want is ABSENT:
            assert got is ABSENT, f"{go_test}: {path} = {got!r}, the Go test expects it unset"
        else:
            assert got == want, f"{go_test}: {path} = {got!r}, the Go test expects {want!r}"


def test_every_go_case_is_traced_once_and_the_table_is_large() -> None:
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names))
    assert len(names) >= 80


def test_default_deployment_availability() -> None:
    """APPS TestDefaultDeploymentAvailability: the default maxUnavailable of the default replicas leaves a
    replica running (25% of 1, rounded down as GetScaledValueFromIntOrPercent does, is 0)."""
    out = roundtrip(apps("Deployment", {}))
    percent = int(out["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"].rstrip("%"))
    assert out["spec"]["replicas"] - out["spec"]["replicas"] * percent // 100 > 0


def test_lookup_of_a_path() -> None:
    doc = {"a": {"b.c": [{"d": 1}]}}
    assert get(doc, "a[b.c][0].d") == 1
    assert get(doc, "a.x") is ABSENT
    assert get(doc, "a[b.c][3]") is ABSENT


@pytest.mark.parametrize(("text", "rounded"), [
    ("1n", "1m"), ("2500u", "3m"), ("-1n", "-1m"), ("1e-5", "1e-3"), ("0.0001", "1m"), ("0.9999999Ki", "1Ki"),
    ("1.0000001Ki", "1024001m"), ("1000u", None), ("100m", None), ("0.5", None), ("1Ki", None), (1, None),
])
def test_round_up_to_milli_is_quantity_round_up(text, rounded) -> None:
    """resource.Quantity RoundUp(-3) then String(): away from zero, in the quantity's format."""
    assert round_up_to_milli(text) == rounded
