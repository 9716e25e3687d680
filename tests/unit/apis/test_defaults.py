"""The apiserver's defaulting of built-in objects (crdtool.apis.defaults and the group modules).

Each case: a kind, the object as given, a field path, and the value defaulting gives it (ABSENT: not
set). Each expectation is read from the 1.36 defaulting code it exercises, cited per case (the file,
then what the case covers): APPS = pkg/apis/apps/v1/defaults.go, CORE = pkg/apis/core/v1/defaults.go,
BATCH = pkg/apis/batch/v1/defaults.go, and k8s.io/api's `+default=` markers ("declarative"); the
cases follow the scenarios of the matching defaults_test.go files.
"""

from __future__ import annotations

import copy

import pytest

from crdtool.apis import set_defaults
from crdtool.apis.core.defaults import image_tag
from crdtool.model.discovery import lookup_kind

APPS = "pkg/apis/apps/v1/defaults.go"
CORE = "pkg/apis/core/v1/defaults.go"
BATCH = "pkg/apis/batch/v1/defaults.go"
ABSENT = object()


def pod_template(**spec) -> dict:
    return {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}], **spec}}


DEPLOY = {"spec": {"template": pod_template()}}
POD = {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}
SVC = {"spec": {"ports": [{"port": 80}]}}

CASES = [
    # (source test, apiVersion, kind, object, path, expected)
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY, "spec.replicas", 1),
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY, "spec.strategy.type", "RollingUpdate"),
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY, "spec.strategy.rollingUpdate.maxSurge",
     "25%"),
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY,
     "spec.strategy.rollingUpdate.maxUnavailable", "25%"),
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY, "spec.revisionHistoryLimit", 10),
    (APPS + " Deployment", "apps/v1", "Deployment", DEPLOY, "spec.progressDeadlineSeconds", 600),
    (APPS + " Deployment (replicas given)", "apps/v1", "Deployment",
     {"spec": {"replicas": 5, "template": pod_template()}}, "spec.replicas", 5),
    (APPS + " Deployment (maxSurge given)", "apps/v1", "Deployment",
     {"spec": {"strategy": {"rollingUpdate": {"maxSurge": 1}}}}, "spec.strategy.rollingUpdate.maxSurge", 1),
    (APPS + " Deployment (Recreate)", "apps/v1", "Deployment",
     {"spec": {"strategy": {"type": "Recreate"}}}, "spec.strategy.rollingUpdate", ABSENT),
    (APPS + " Deployment (progressDeadlineSeconds given)", "apps/v1", "Deployment",
     {"spec": {"progressDeadlineSeconds": 30}}, "spec.progressDeadlineSeconds", 30),
    (APPS + " DaemonSetSpec", "apps/v1", "DaemonSet", DEPLOY, "spec.updateStrategy.type",
     "RollingUpdate"),
    (APPS + " DaemonSetSpec", "apps/v1", "DaemonSet", DEPLOY,
     "spec.updateStrategy.rollingUpdate.maxUnavailable", 1),
    (APPS + " DaemonSetSpec", "apps/v1", "DaemonSet", DEPLOY,
     "spec.updateStrategy.rollingUpdate.maxSurge", 0),
    (APPS + " DaemonSetSpec", "apps/v1", "DaemonSet", DEPLOY, "spec.revisionHistoryLimit", 10),
    (APPS + " DaemonSetSpec (OnDelete)", "apps/v1", "DaemonSet",
     {"spec": {"updateStrategy": {"type": "OnDelete"}}}, "spec.updateStrategy.rollingUpdate", ABSENT),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY, "spec.podManagementPolicy",
     "OrderedReady"),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY, "spec.updateStrategy.type",
     "RollingUpdate"),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY,
     "spec.updateStrategy.rollingUpdate.partition", 0),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY, "spec.replicas", 1),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY, "spec.revisionHistoryLimit", 10),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY,
     "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "Retain"),
    (APPS + " StatefulSet", "apps/v1", "StatefulSet", DEPLOY,
     "spec.persistentVolumeClaimRetentionPolicy.whenScaled", "Retain"),
    (APPS + " StatefulSet (OnDelete)", "apps/v1", "StatefulSet",
     {"spec": {"updateStrategy": {"type": "OnDelete"}}}, "spec.updateStrategy.rollingUpdate", ABSENT),
    (APPS + " ReplicaSetReplicas", "apps/v1", "ReplicaSet", DEPLOY, "spec.replicas", 1),
    (APPS + " ReplicaSetReplicas (given 3)", "apps/v1", "ReplicaSet",
     {"spec": {"replicas": 3}}, "spec.replicas", 3),
    (APPS + " Deployment (pod template)", "apps/v1", "Deployment", DEPLOY,
     "spec.template.spec.restartPolicy", "Always"),
    (APPS + " Deployment (pod template)", "apps/v1", "Deployment", DEPLOY,
     "spec.template.spec.dnsPolicy", "ClusterFirst"),
    (APPS + " Deployment (pod template)", "apps/v1", "Deployment", DEPLOY,
     "spec.template.spec.securityContext", {}),
    (APPS + " Deployment (pod template)", "apps/v1", "Deployment", DEPLOY,
     "spec.template.spec.terminationGracePeriodSeconds", 30),
    (APPS + " Deployment (pod template)", "apps/v1", "Deployment", DEPLOY,
     "spec.template.spec.schedulerName", "default-scheduler"),
    (CORE + " PodSpecHostNetwork", "v1", "Pod",
     {"spec": {"hostNetwork": True, "containers": [{"name": "c", "ports": [{"containerPort": 8080}]}]}},
     "spec.containers.0.ports.0.hostPort", 8080),
    (CORE + " PodSpecHostNetwork (no hostNetwork)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 8080}]}]}},
     "spec.containers.0.ports.0.hostPort", ABSENT),
    (CORE + " ContainerPortProtocol", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 80}]}]}},
     "spec.containers.0.ports.0.protocol", "TCP"),
    (CORE + " PodRequests (requests from limits)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "100m"}}}]}},
     "spec.containers.0.resources.requests", {"cpu": "100m"}),
    (CORE + " PodRequests (request kept)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "500m"}}}]}},
     "spec.containers.0.resources.requests.cpu", "500m"),
    (CORE + " PodEnableServiceLinks", "v1", "Pod", POD, "spec.enableServiceLinks", True),
    (CORE + " PodTemplate (no enableServiceLinks)", "v1", "PodTemplate",
     {"template": pod_template()}, "template.spec.enableServiceLinks", ABSENT),
    (CORE + " ImagePullPolicy (latest)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "image": "nginx:latest"}]}}, "spec.containers.0.imagePullPolicy",
     "Always"),
    (CORE + " ImagePullPolicy (no tag)", "v1", "Pod", POD, "spec.containers.0.imagePullPolicy",
     "Always"),
    (CORE + " ImagePullPolicy (tag)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}, "spec.containers.0.imagePullPolicy",
     "IfNotPresent"),
    (CORE + " ImagePullPolicy (given)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "Never"}]}},
     "spec.containers.0.imagePullPolicy", "Never"),
    (CORE + " Container", "v1", "Pod", POD, "spec.containers.0.terminationMessagePath",
     "/dev/termination-log"),
    (CORE + " Container", "v1", "Pod", POD, "spec.containers.0.terminationMessagePolicy", "File"),
    (CORE + " Probe", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "livenessProbe": {}}]}}, "spec.containers.0.livenessProbe",
     {"timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}),
    (CORE + " HTTPGetAction (probe)", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "readinessProbe": {"httpGet": {"port": 80}}}]}},
     "spec.containers.0.readinessProbe.httpGet", {"port": 80, "path": "/", "scheme": "HTTP"}),
    (CORE + " ObjectFieldSelectorAPIVersion", "v1", "Pod",
     {"spec": {"containers": [{"name": "c", "env": [{"name": "N", "valueFrom": {"fieldRef": {
         "fieldPath": "metadata.name"}}}]}]}}, "spec.containers.0.env.0.valueFrom.fieldRef.apiVersion", "v1"),
    (CORE + " Volume (emptyDir)", "v1", "Pod",
     {"spec": {"containers": [], "volumes": [{"name": "v"}]}}, "spec.volumes.0.emptyDir", {}),
    (CORE + " SecretVolumeSource", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "secret": {"secretName": "s"}}]}}, "spec.volumes.0.secret.defaultMode",
     420),
    (CORE + " ConfigMapVolumeSource", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "configMap": {"name": "c"}}]}}, "spec.volumes.0.configMap.defaultMode",
     420),
    (CORE + " DownwardAPIVolumeSource", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "downwardAPI": {}}]}}, "spec.volumes.0.downwardAPI.defaultMode", 420),
    (CORE + " ProjectedVolumeSource", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}}]}},
     "spec.volumes.0.projected.defaultMode", 420),
    (CORE + " ServiceAccountTokenProjection", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}}]}},
     "spec.volumes.0.projected.sources.0.serviceAccountToken.expirationSeconds", 3600),
    (CORE + " HostPathVolumeSource", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "hostPath": {"path": "/data"}}]}}, "spec.volumes.0.hostPath.type", ""),
    (CORE + " RBDVolumeSource (declarative)", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "rbd": {"monitors": ["m"], "image": "i"}}]}}, "spec.volumes.0.rbd",
     {"monitors": ["m"], "image": "i", "pool": "rbd", "user": "admin", "keyring": "/etc/ceph/keyring"}),
    (CORE + " ISCSIVolumeSource (declarative)", "v1", "Pod",
     {"spec": {"volumes": [{"name": "v", "iscsi": {"targetPortal": "t", "iqn": "q", "lun": 0}}]}},
     "spec.volumes.0.iscsi.iscsiInterface", "default"),
    (CORE + " ServiceSessionAffinity", "v1", "Service", SVC, "spec.sessionAffinity", "None"),
    (CORE + " ServiceSessionAffinity (ClientIP)", "v1", "Service",
     {"spec": {"sessionAffinity": "ClientIP"}}, "spec.sessionAffinityConfig.clientIP.timeoutSeconds", 10800),
    (CORE + " Service (type)", "v1", "Service", SVC, "spec.type", "ClusterIP"),
    (CORE + " ServicePortProtocol", "v1", "Service", SVC, "spec.ports.0.protocol", "TCP"),
    (CORE + " ServiceTargetPort", "v1", "Service", SVC, "spec.ports.0.targetPort", 80),
    (CORE + " ServiceTargetPort (given)", "v1", "Service",
     {"spec": {"ports": [{"port": 80, "targetPort": "http"}]}}, "spec.ports.0.targetPort", "http"),
    (CORE + " ServiceInternalTrafficPolicy", "v1", "Service", SVC, "spec.internalTrafficPolicy",
     "Cluster"),
    (CORE + " ServiceInternalTrafficPolicy (ExternalName)", "v1", "Service",
     {"spec": {"type": "ExternalName", "externalName": "example.com"}}, "spec.internalTrafficPolicy", ABSENT),
    (CORE + " ServiceExternalTraffic (NodePort)", "v1", "Service",
     {"spec": {"type": "NodePort"}}, "spec.externalTrafficPolicy", "Cluster"),
    (CORE + " ServiceExternalTraffic (ClusterIP)", "v1", "Service", SVC,
     "spec.externalTrafficPolicy", ABSENT),
    (CORE + " ServiceLoadBalancerAllocateNodePorts", "v1", "Service",
     {"spec": {"type": "LoadBalancer"}}, "spec.allocateLoadBalancerNodePorts", True),
    (CORE + " Secret", "v1", "Secret", {}, "type", "Opaque"),
    (CORE + " Secret (given)", "v1", "Secret", {"type": "kubernetes.io/tls"}, "type",
     "kubernetes.io/tls"),
    (CORE + " PersistentVolumeClaim", "v1", "PersistentVolumeClaim", {}, "status.phase", "Pending"),
    (CORE + " PersistentVolumeClaim", "v1", "PersistentVolumeClaim", {}, "spec.volumeMode",
     "Filesystem"),
    (CORE + " PersistentVolume", "v1", "PersistentVolume", {}, "spec.persistentVolumeReclaimPolicy",
     "Retain"),
    (CORE + " Namespace", "v1", "Namespace", {"metadata": {"name": "team-a"}},
     "metadata.labels.kubernetes\\.io/metadata\\.name", "team-a"),
    (CORE + " Namespace (status)", "v1", "Namespace", {"metadata": {"name": "team-a"}},
     "status.phase", "Active"),
    (CORE + " EndpointsProtocol", "v1", "Endpoints", {"subsets": [{"ports": [{"port": 80}]}]},
     "subsets.0.ports.0.protocol", "TCP"),
    (CORE + " ReplicationControllerSelector", "v1", "ReplicationController",
     {"spec": {"template": pod_template()}}, "spec.selector", {"app": "x"}),
    (CORE + " ReplicationControllerReplicas (declarative)", "v1", "ReplicationController",
     {"spec": {"template": pod_template()}}, "spec.replicas", 1),
    (BATCH + " Job (neither completions nor parallelism)", "batch/v1", "Job",
     {"spec": {"template": pod_template()}}, "spec.completions", 1),
    (BATCH + " Job (neither completions nor parallelism)", "batch/v1", "Job",
     {"spec": {"template": pod_template()}}, "spec.parallelism", 1),
    (BATCH + " Job (completions given)", "batch/v1", "Job",
     {"spec": {"completions": 4}}, "spec.parallelism", 1),
    (BATCH + " Job (parallelism given)", "batch/v1", "Job",
     {"spec": {"parallelism": 3}}, "spec.completions", ABSENT),
    (BATCH + " Job", "batch/v1", "Job", {"spec": {}}, "spec.backoffLimit", 6),
    (BATCH + " Job (backoffLimitPerIndex)", "batch/v1", "Job",
     {"spec": {"backoffLimitPerIndex": 1, "completionMode": "Indexed", "completions": 2}}, "spec.backoffLimit",
     2**31 - 1),
    (BATCH + " Job", "batch/v1", "Job", {"spec": {}}, "spec.completionMode", "NonIndexed"),
    (BATCH + " Job", "batch/v1", "Job", {"spec": {}}, "spec.suspend", False),
    (BATCH + " Job", "batch/v1", "Job", {"spec": {}}, "spec.manualSelector", False),
    (BATCH + " Job (podReplacementPolicy)", "batch/v1", "Job", {"spec": {}},
     "spec.podReplacementPolicy", "TerminatingOrFailed"),
    (BATCH + " Job (podReplacementPolicy with podFailurePolicy)", "batch/v1", "Job",
     {"spec": {"podFailurePolicy": {"rules": []}}}, "spec.podReplacementPolicy", "Failed"),
    (BATCH + " Job (labels from template)", "batch/v1", "Job",
     {"spec": {"template": pod_template()}}, "metadata.labels", {"app": "x"}),
    (BATCH + " Job (onPodConditions status)", "batch/v1", "Job",
     {"spec": {"podFailurePolicy": {"rules": [{"action": "Ignore",
                                               "onPodConditions": [{"type": "DisruptionTarget"}]}]}}},
     "spec.podFailurePolicy.rules.0.onPodConditions.0.status", "True"),
    (BATCH + " CronJob", "batch/v1", "CronJob", {"spec": {}}, "spec.concurrencyPolicy", "Allow"),
    (BATCH + " CronJob", "batch/v1", "CronJob", {"spec": {}}, "spec.suspend", False),
    (BATCH + " CronJob", "batch/v1", "CronJob", {"spec": {}}, "spec.successfulJobsHistoryLimit", 3),
    (BATCH + " CronJob", "batch/v1", "CronJob", {"spec": {}}, "spec.failedJobsHistoryLimit", 1),
    (BATCH + " CronJob (job template is no Job)", "batch/v1", "CronJob",
     {"spec": {"jobTemplate": {"spec": {"template": pod_template()}}}}, "spec.jobTemplate.spec.backoffLimit", ABSENT),
    (BATCH + " CronJob (pod template)", "batch/v1", "CronJob",
     {"spec": {"jobTemplate": {"spec": {"template": pod_template()}}}},
     "spec.jobTemplate.spec.template.spec.restartPolicy", "Always"),
]


def _get(obj, path: str):
    for step in (s.replace("\0", ".") for s in path.replace("\\.", "\0").split(".")):
        if isinstance(obj, list):
            obj = obj[int(step)] if int(step) < len(obj) else ABSENT
        elif isinstance(obj, dict):
            obj = obj.get(step, ABSENT)
        if obj is ABSENT:
            return ABSENT
    return obj


@pytest.mark.parametrize(("source", "api_version", "kind", "obj", "path", "expected"), CASES,
                         ids=[f"{c[2]}:{c[4]}:{i}" for i, c in enumerate(CASES)])
def test_defaults(source: str, api_version: str, kind: str, obj: dict, path: str, expected) -> None:
    found = lookup_kind(api_version, kind).builtin
    assert found is not None, source
    value = copy.deepcopy(obj)
    set_defaults(value, found)
    assert _get(value, path) == expected if expected is not ABSENT else _get(value, path) is ABSENT, source


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 60


def test_defaulted_paths_are_listed_in_the_order_set() -> None:
    obj = {"spec": {"ports": [{"port": 80}]}}
    paths = set_defaults(obj, lookup_kind("v1", "Service").builtin)
    assert paths == ["spec.sessionAffinity", "spec.type", "spec.ports[0].protocol", "spec.ports[0].targetPort",
                     "spec.internalTrafficPolicy"]


@pytest.mark.parametrize(("image", "tag"), [
    ("nginx", "latest"), ("nginx:1.27", "1.27"), ("registry:5000/team/app", "latest"),
    ("registry:5000/team/app:v2", "v2"), ("app@sha256:" + "a" * 64, ""), ("app:v1@sha256:" + "b" * 64, "v1"),
    ("NGINX", ""), ("", ""), ("nginx:latest", "latest"),
])
def test_image_tag_is_parse_image_names(image: str, tag: str) -> None:
    """pkg/util/parsers ParseImageName: `latest` without tag or digest; an unparsable name has no tag."""
    assert image_tag(image) == tag
