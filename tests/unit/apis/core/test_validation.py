"""The core group's validation against the expectations of kubernetes' own tests
(pkg/apis/core/validation/validation_test.go and its split files, 1.36): each case an object, the
field path and error type the Go test expects, and the text where the test states it."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import kinds
from crdtool.apis.core.pods import validate_pod_template_spec
from crdtool.apis.defaults import set_object_defaults
from crdtool.apis.validation import package_of, validation_for
from crdtool.model.errors import ErrorType
from crdtool.model.path import Path

R, IV, NS, F, D, NF, TL = (ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN,
                          ErrorType.DUPLICATE, ErrorType.NOT_FOUND, ErrorType.TOO_LONG)


def pod(**spec_changes) -> dict:
    """A valid Pod (defaulted as the apiserver stores it) with `spec_changes` applied."""
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
           "spec": {"containers": [{"name": "ctr", "image": "image"}], **spec_changes}}
    set_object_defaults(obj, "io.k8s.api.core.v1.Pod")
    return obj


def ctr(**changes) -> dict:
    return {"name": "ctr", "image": "image", **changes}


def errors(obj: dict) -> list[tuple[ErrorType, str]]:
    return [(e.type, e.field) for e in kinds.validate_pod(obj)]


# (Go test, spec changes, expected (type, field), a text the Go test states or None)
POD_CASES = [
    ("TestValidateContainers/zero-length name", {"containers": [ctr(name="")]}, (R, "spec.containers[0].name"), None),
    ("TestValidateContainers/name > 63 characters", {"containers": [ctr(name="a" * 64)]},
     (IV, "spec.containers[0].name"), None),
    ("TestValidateContainers/name not a DNS label", {"containers": [ctr(name="a.b.c")]},
     (IV, "spec.containers[0].name"), None),
    ("TestValidateContainers/name not unique", {"containers": [ctr(), ctr()]}, (D, "spec.containers[1].name"), None),
    ("TestValidateContainers/zero-length image", {"containers": [ctr(image="")]}, (R, "spec.containers[0].image"),
     None),
    ("TestValidateContainers/image with leading whitespace", {"containers": [ctr(image=" image")]},
     (IV, "spec.containers[0].image"), "must not have leading or trailing whitespace"),
    ("TestValidateContainers/invalid terminationMessagePolicy",
     {"containers": [ctr(terminationMessagePolicy="Unknown")]}, (NS, "spec.containers[0].terminationMessagePolicy"),
     None),
    ("TestValidateContainers/invalid imagePullPolicy", {"containers": [ctr(imagePullPolicy="Unknown")]},
     (NS, "spec.containers[0].imagePullPolicy"), None),
    ("TestValidateContainers/no containers", {"containers": []}, (R, "spec.containers"), None),
    ("TestValidateContainers/liveness probe without handler",
     {"containers": [ctr(livenessProbe={"successThreshold": 1})]}, (R, "spec.containers[0].livenessProbe"),
     "must specify a handler type"),
    ("TestValidateContainers/liveness probe successThreshold",
     {"containers": [ctr(livenessProbe={"exec": {"command": ["x"]}, "successThreshold": 2})]},
     (IV, "spec.containers[0].livenessProbe.successThreshold"), "must be 1"),
    ("TestValidateContainers/startup probe successThreshold",
     {"containers": [ctr(startupProbe={"exec": {"command": ["x"]}, "successThreshold": 2})]},
     (IV, "spec.containers[0].startupProbe.successThreshold"), "must be 1"),
    ("TestValidateContainers/readiness probe terminationGracePeriodSeconds",
     {"containers": [ctr(readinessProbe={"exec": {"command": ["x"]}, "terminationGracePeriodSeconds": 10})]},
     (IV, "spec.containers[0].readinessProbe.terminationGracePeriodSeconds"), "must not be set for readinessProbes"),
    ("TestValidateContainers/probe negative initialDelaySeconds",
     {"containers": [ctr(livenessProbe={"exec": {"command": ["x"]}, "initialDelaySeconds": -1})]},
     (IV, "spec.containers[0].livenessProbe.initialDelaySeconds"), "must be greater than or equal to 0"),
    ("TestValidateContainers/exec without command",
     {"containers": [ctr(livenessProbe={"exec": {}})]}, (R, "spec.containers[0].livenessProbe.exec.command"), None),
    ("TestValidateContainers/two handlers",
     {"containers": [ctr(livenessProbe={"exec": {"command": ["x"]}, "tcpSocket": {"port": 80}})]},
     (F, "spec.containers[0].livenessProbe.tcpSocket"), "may not specify more than 1 handler type"),
    ("TestValidateContainers/httpGet invalid port name",
     {"containers": [ctr(livenessProbe={"httpGet": {"path": "/", "port": "a--b"}})]},
     (IV, "spec.containers[0].livenessProbe.httpGet.port"), "must not contain consecutive hyphens"),
    ("TestValidateContainers/httpGet port out of range",
     {"containers": [ctr(livenessProbe={"httpGet": {"path": "/", "port": 70000}})]},
     (IV, "spec.containers[0].livenessProbe.httpGet.port"), "must be between 1 and 65535, inclusive"),
    ("TestValidateContainers/httpGet invalid header",
     {"containers": [ctr(livenessProbe={"httpGet": {"path": "/", "port": 80,
                                                    "httpHeaders": [{"name": "X_Y", "value": "v"}]}})]},
     (IV, "spec.containers[0].livenessProbe.httpGet.httpHeaders"), "a valid HTTP header must consist"),
    ("TestValidateContainers/lifecycle without handler", {"containers": [ctr(lifecycle={"preStop": {}})]},
     (R, "spec.containers[0].lifecycle.preStop"), "must specify a handler type"),
    ("TestValidateContainers/sleep longer than grace period",
     {"containers": [ctr(lifecycle={"preStop": {"sleep": {"seconds": 31}}})]},
     (IV, "spec.containers[0].lifecycle.preStop.sleep"),
     "must be non-negative and less than terminationGracePeriodSeconds (30)"),
    ("TestValidateContainers/restartPolicy on a regular container",
     {"containers": [ctr(restartPolicy="Always")]}, (F, "spec.containers[0].restartPolicy"),
     "may not be set for non-init containers"),
    ("TestValidatePorts/zero containerPort", {"containers": [ctr(ports=[{"containerPort": 0}])]},
     (R, "spec.containers[0].ports[0].containerPort"), None),
    ("TestValidatePorts/containerPort too big", {"containers": [ctr(ports=[{"containerPort": 65536}])]},
     (IV, "spec.containers[0].ports[0].containerPort"), "must be between 1 and 65535, inclusive"),
    ("TestValidatePorts/hostPort too big", {"containers": [ctr(ports=[{"containerPort": 80, "hostPort": 65536}])]},
     (IV, "spec.containers[0].ports[0].hostPort"), "must be between 1 and 65535, inclusive"),
    ("TestValidatePorts/name too long",
     {"containers": [ctr(ports=[{"name": "abcdefghijklmnop", "containerPort": 80}])]},
     (IV, "spec.containers[0].ports[0].name"), "must be no more than 15 characters"),
    ("TestValidatePorts/name without letters", {"containers": [ctr(ports=[{"name": "123", "containerPort": 80}])]},
     (IV, "spec.containers[0].ports[0].name"), "must contain at least one letter (a-z)"),
    ("TestValidatePorts/name uppercase", {"containers": [ctr(ports=[{"name": "Http", "containerPort": 80}])]},
     (IV, "spec.containers[0].ports[0].name"),
     "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"),
    ("TestValidatePorts/name with hyphen at the end",
     {"containers": [ctr(ports=[{"name": "http-", "containerPort": 80}])]},
     (IV, "spec.containers[0].ports[0].name"), "must not begin or end with a hyphen"),
    ("TestValidatePorts/duplicate name",
     {"containers": [ctr(ports=[{"name": "p", "containerPort": 80}, {"name": "p", "containerPort": 81}])]},
     (D, "spec.containers[0].ports[1].name"), None),
    ("TestValidatePorts/invalid protocol", {"containers": [ctr(ports=[{"containerPort": 80, "protocol": "ICMP"}])]},
     (NS, "spec.containers[0].ports[0].protocol"), 'supported values: "SCTP", "TCP", "UDP"'),
    ("TestHostNetworkPortsMismatch", {"hostNetwork": True, "containers": [ctr(ports=[{"containerPort": 80,
                                                                                     "hostPort": 81}])]},
     (IV, "spec.containers[0].ports[0].hostPort"), "must match `containerPort` when `hostNetwork` is true"),
    ("TestValidateContainers/host port conflict",
     {"containers": [ctr(ports=[{"containerPort": 80, "hostPort": 80}]),
                     ctr(name="b", ports=[{"containerPort": 81, "hostPort": 80}])]},
     (D, "spec.containers[1].ports[0].hostPort"), None),
    ("TestValidateEnv/zero-length name", {"containers": [ctr(env=[{"name": ""}])]},
     (R, "spec.containers[0].env[0].name"), None),
    ("TestValidateEnv/name with '='", {"containers": [ctr(env=[{"name": "a=b"}])]},
     (IV, "spec.containers[0].env[0].name"),
     "a valid environment variable name must consist only of printable ASCII characters other than '='"),
    ("TestValidateEnv/value and valueFrom",
     {"containers": [ctr(env=[{"name": "a", "value": "v", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                                    "fieldPath": "metadata.name"}}}])]},
     (IV, "spec.containers[0].env[0].valueFrom"), "may not be specified when `value` is not empty"),
    ("TestValidateEnv/empty valueFrom", {"containers": [ctr(env=[{"name": "a", "valueFrom": {}}])]},
     (IV, "spec.containers[0].env[0].valueFrom"),
     "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"),
    ("TestValidateEnv/two sources",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {
         "configMapKeyRef": {"name": "c", "key": "k"}, "secretKeyRef": {"name": "s", "key": "k"}}}])]},
     (IV, "spec.containers[0].env[0].valueFrom"), "may not have more than one field specified at a time"),
    ("TestValidateEnv/unsupported fieldPath",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                       "fieldPath": "metadata.whoops"}}}])]},
     (NS, "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath"), None),
    ("TestValidateEnv/subscript on a field that has none",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                       "fieldPath": "metadata.name['key']"}}}])]},
     (IV, "spec.containers[0].env[0].valueFrom.fieldRef"), "does not support subscript"),
    ("TestValidateEnv/unsupported resourceFieldRef",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {"resourceFieldRef": {"resource": "limits.gpu"}}}])]},
     (NS, "spec.containers[0].env[0].valueFrom.resourceFieldRef.resource"), None),
    ("TestValidateEnv/configMapKeyRef invalid key",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "a$b"}}}])]},
     (IV, "spec.containers[0].env[0].valueFrom.configMapKeyRef.key"), "a valid config key must consist"),
    ("TestValidateEnv/secretKeyRef missing key",
     {"containers": [ctr(env=[{"name": "a", "valueFrom": {"secretKeyRef": {"name": "s"}}}])]},
     (R, "spec.containers[0].env[0].valueFrom.secretKeyRef.key"), None),
    ("TestValidateEnvFrom/no source", {"containers": [ctr(envFrom=[{}])]}, (IV, "spec.containers[0].envFrom"),
     "must specify one of: `configMapRef` or `secretRef`"),
    ("TestValidateEnvFrom/both sources",
     {"containers": [ctr(envFrom=[{"configMapRef": {"name": "c"}, "secretRef": {"name": "s"}}])]},
     (IV, "spec.containers[0].envFrom"), "may not have more than one field specified at a time"),
    ("TestValidateEnvFrom/configMapRef without name", {"containers": [ctr(envFrom=[{"configMapRef": {}}])]},
     (R, "spec.containers[0].envFrom[0].configMapRef.name"), None),
    ("TestValidateEnvFrom/invalid secretRef name", {"containers": [ctr(envFrom=[{"secretRef": {"name": "$"}}])]},
     (IV, "spec.containers[0].envFrom[0].secretRef.name"), None),
    ("TestValidateResourceRequirements/request above limit",
     {"containers": [ctr(resources={"requests": {"memory": "2Gi"}, "limits": {"memory": "1Gi"}})]},
     (IV, "spec.containers[0].resources.requests"), "must be less than or equal to memory limit of 1Gi"),
    ("TestValidateResourceRequirements/negative limit",
     {"containers": [ctr(resources={"limits": {"cpu": "-1"}})]},
     (IV, "spec.containers[0].resources.limits[cpu]"), "must be greater than or equal to 0"),
    ("TestValidateResourceRequirements/unknown resource",
     {"containers": [ctr(resources={"limits": {"disk": "1"}})]},
     (IV, "spec.containers[0].resources.limits[disk]"), "must be a standard resource for containers"),
    ("TestValidateResourceRequirements/extended resource not whole",
     {"containers": [ctr(resources={"limits": {"example.com/gpu": "500m"}, "requests": {"example.com/gpu": "500m"}})]},
     (IV, "spec.containers[0].resources.limits[example.com/gpu]"), "must be an integer"),
    ("TestValidateResourceRequirements/extended request without limit",
     {"containers": [ctr(resources={"requests": {"example.com/gpu": "1"}})]},
     (R, "spec.containers[0].resources.limits"), "Limit must be set for non overcommitable resources"),
    ("TestValidateResourceRequirements/extended request below limit",
     {"containers": [ctr(resources={"requests": {"example.com/gpu": "1"}, "limits": {"example.com/gpu": "2"}})]},
     (IV, "spec.containers[0].resources.requests"), "must be equal to example.com/gpu limit of 2"),
    ("TestValidateResourceRequirements/hugepages alone",
     {"containers": [ctr(resources={"limits": {"hugepages-2Mi": "2Mi"}, "requests": {"hugepages-2Mi": "2Mi"}})]},
     (F, "spec.containers[0].resources"), "HugePages require cpu or memory"),
    ("TestValidateResourceRequirements/claim not in pod",
     {"containers": [ctr(resources={"claims": [{"name": "gpu"}]})]},
     (NF, "spec.containers[0].resources.claims[0]"),
     "must be one of the names in pod.spec.resourceClaims which is empty"),
    ("TestValidateResizePolicy/unsupported resource",
     {"containers": [ctr(resizePolicy=[{"resourceName": "disk", "restartPolicy": "NotRequired"}])]},
     (NS, "spec.containers[0].resizePolicy"), None),
    ("TestValidateVolumeMounts/missing volume",
     {"containers": [ctr(volumeMounts=[{"name": "nope", "mountPath": "/x"}])]},
     (NF, "spec.containers[0].volumeMounts[0].name"), None),
    ("TestValidateVolumeMounts/empty mountPath",
     {"volumes": [{"name": "v", "emptyDir": {}}], "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": ""}])]},
     (R, "spec.containers[0].volumeMounts[0].mountPath"), None),
    ("TestValidateVolumeMounts/duplicate mountPath",
     {"volumes": [{"name": "v", "emptyDir": {}}, {"name": "w", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x"}, {"name": "w", "mountPath": "/x"}])]},
     (IV, "spec.containers[0].volumeMounts[1].mountPath"), "must be unique"),
    ("TestValidateVolumeMounts/subPath with backsteps",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "subPath": "../etc"}])]},
     (IV, "spec.containers[0].volumeMounts.subPath"), "must not contain '..'"),
    ("TestValidateVolumeMounts/absolute subPath",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "subPath": "/etc"}])]},
     (IV, "spec.containers[0].volumeMounts.subPath"), "must be a relative path"),
    ("TestValidateVolumeMounts/subPath and subPathExpr",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "subPath": "a", "subPathExpr": "b"}])]},
     (IV, "spec.containers[0].volumeMounts[0].subPathExpr"), "subPathExpr and subPath are mutually exclusive"),
    ("TestValidateMountPropagation/Bidirectional in a non-privileged container",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "mountPropagation": "Bidirectional"}])]},
     (F, "spec.containers[0].volumeMounts.mountPropagation"),
     "Bidirectional mount propagation is available only to privileged containers"),
    ("TestValidateMountPropagation/unsupported mode",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "mountPropagation": "Sideways"}])]},
     (NS, "spec.containers[0].volumeMounts.mountPropagation"), None),
    ("TestValidateRecursiveReadOnly/without readOnly",
     {"volumes": [{"name": "v", "emptyDir": {}}],
      "containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/x", "recursiveReadOnly": "Enabled"}])]},
     (F, "spec.containers[0].volumeMounts.recursiveReadOnly"), "may only be specified when readOnly is true"),
    ("TestValidateVolumeDevices/not a PVC",
     {"volumes": [{"name": "v", "emptyDir": {}}], "containers": [ctr(volumeDevices=[{"name": "v",
                                                                                     "devicePath": "/dev/x"}])]},
     (IV, "spec.containers[0].volumeDevices[0].name"),
     "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"),
    ("TestValidateVolumes/zero-length name", {"volumes": [{"name": "", "emptyDir": {}}]},
     (R, "spec.volumes[0].name"), None),
    ("TestValidateVolumes/name not a DNS label", {"volumes": [{"name": "a.b", "emptyDir": {}}]},
     (IV, "spec.volumes[0].name"), "must not contain dots"),
    ("TestValidateVolumes/duplicate name", {"volumes": [{"name": "v", "emptyDir": {}}, {"name": "v", "emptyDir": {}}]},
     (D, "spec.volumes[1].name"), None),
    ("TestValidateVolumes/two sources", {"volumes": [{"name": "v", "emptyDir": {}, "hostPath": {"path": "/a"}}]},
     (F, "spec.volumes[0].hostPath"), "may not specify more than 1 volume type"),
    ("TestValidateVolumes/hostPath without path", {"volumes": [{"name": "v", "hostPath": {"path": ""}}]},
     (R, "spec.volumes[0].hostPath.path"), None),
    ("TestValidateVolumes/hostPath with backsteps", {"volumes": [{"name": "v", "hostPath": {"path": "/a/../b"}}]},
     (IV, "spec.volumes[0].hostPath.path"), "must not contain '..'"),
    ("TestValidateVolumes/hostPath unsupported type",
     {"volumes": [{"name": "v", "hostPath": {"path": "/a", "type": "Anything"}}]},
     (NS, "spec.volumes[0].hostPath.type"), None),
    ("TestValidateVolumes/secret without name", {"volumes": [{"name": "v", "secret": {}}]},
     (R, "spec.volumes[0].secret.secretName"), None),
    ("TestValidateVolumes/secret bad defaultMode", {"volumes": [{"name": "v", "secret": {"secretName": "s",
                                                                                          "defaultMode": 512}}]},
     (IV, "spec.volumes[0].secret.defaultMode"), "must be a number between 0 and 0777 (octal), both inclusive"),
    ("TestValidateVolumes/configMap item absolute path",
     {"volumes": [{"name": "v", "configMap": {"name": "c", "items": [{"key": "k", "path": "/a"}]}}]},
     (IV, "spec.volumes[0].configMap.items[0].path"), "must be a relative path"),
    ("TestValidateVolumes/configMap item path starting with ..",
     {"volumes": [{"name": "v", "configMap": {"name": "c", "items": [{"key": "k", "path": "..a"}]}}]},
     (IV, "spec.volumes[0].configMap.items[0].path"), "must not start with '..'"),
    ("TestValidateVolumes/configMap item without key",
     {"volumes": [{"name": "v", "configMap": {"name": "c", "items": [{"path": "a"}]}}]},
     (R, "spec.volumes[0].configMap.items[0].key"), None),
    ("TestValidateVolumes/pvc without claimName", {"volumes": [{"name": "v", "persistentVolumeClaim": {}}]},
     (R, "spec.volumes[0].persistentVolumeClaim.claimName"), None),
    ("TestValidateVolumes/nfs relative path", {"volumes": [{"name": "v", "nfs": {"server": "s", "path": "a"}}]},
     (IV, "spec.volumes[0].nfs.path"), "must be an absolute path"),
    ("TestValidateVolumes/csi without driver", {"volumes": [{"name": "v", "csi": {}}]},
     (R, "spec.volumes[0].csi.driver"), None),
    ("TestValidateVolumes/ephemeral without template", {"volumes": [{"name": "v", "ephemeral": {}}]},
     (R, "spec.volumes[0].ephemeral.volumeClaimTemplate"), None),
    ("TestValidateVolumes/emptyDir negative sizeLimit", {"volumes": [{"name": "v", "emptyDir": {"sizeLimit": "-1"}}]},
     (F, "spec.volumes[0].emptyDir.sizeLimit"), "SizeLimit field must be a valid resource quantity"),
    ("TestValidateInitContainers/probe without restartPolicy Always",
     {"initContainers": [ctr(name="init", livenessProbe={"exec": {"command": ["x"]}})]},
     (F, "spec.initContainers[0].livenessProbe"), "may not be set for init containers without restartPolicy=Always"),
    ("TestValidateInitContainers/lifecycle without restartPolicy Always",
     {"initContainers": [ctr(name="init", lifecycle={"preStop": {"exec": {"command": ["x"]}}})]},
     (F, "spec.initContainers[0].lifecycle"), "may not be set for init containers without restartPolicy=Always"),
    ("TestValidateInitContainers/unsupported restartPolicy",
     {"initContainers": [ctr(name="init", restartPolicy="Never")]},
     (NS, "spec.initContainers[0].restartPolicy"), 'supported values: "Always"'),
    ("TestValidateInitContainers/name shared with a container", {"initContainers": [ctr()]},
     (D, "spec.initContainers[0].name"), None),
    ("TestValidateEphemeralContainers/ports not allowed",
     {"ephemeralContainers": [ctr(name="debug", ports=[{"containerPort": 80}])]},
     (F, "spec.ephemeralContainers[0].ports"), "cannot be set for an Ephemeral Container"),
    ("TestValidateEphemeralContainers/unknown target",
     {"ephemeralContainers": [ctr(name="debug", targetContainerName="bogus")]},
     (NF, "spec.ephemeralContainers[0].targetContainerName"), None),
    ("TestValidateEphemeralContainers/name shared with a container", {"ephemeralContainers": [ctr()]},
     (D, "spec.ephemeralContainers[0].name"), None),
    ("TestValidatePodSpec/bad restartPolicy", {"restartPolicy": "UnlessStopped"}, (NS, "spec.restartPolicy"),
     'supported values: "Always", "OnFailure", "Never"'),
    ("TestValidatePodSpec/bad dnsPolicy", {"dnsPolicy": "Cluster"}, (NS, "spec.dnsPolicy"), None),
    ("TestValidatePodSpec/bad serviceAccountName", {"serviceAccountName": "invalidName"},
     (IV, "spec.serviceAccountName"), None),
    ("TestValidatePodSpec/bad nodeName", {"nodeName": "node name"}, (IV, "spec.nodeName"), None),
    ("TestValidatePodSpec/bad activeDeadlineSeconds", {"activeDeadlineSeconds": 0},
     (IV, "spec.activeDeadlineSeconds"), "must be between 1 and 2147483647, inclusive"),
    ("TestValidatePodSpec/bad hostname", {"hostname": "Bad"}, (IV, "spec.hostname"), None),
    ("TestValidatePodSpec/bad subdomain", {"subdomain": "a.b"}, (IV, "spec.subdomain"), "must not contain dots"),
    ("TestValidatePodSpec/bad nodeSelector", {"nodeSelector": {"a b": "c"}}, (IV, "spec.nodeSelector"), None),
    ("TestValidatePodSpec/bad priorityClassName", {"priorityClassName": "InvalidName"},
     (IV, "spec.priorityClassName"), None),
    ("TestValidatePodSpec/bad preemptionPolicy", {"preemptionPolicy": "Sometimes"},
     (NS, "spec.preemptionPolicy"), None),
    ("TestValidatePodDNSConfig/None without dnsConfig", {"dnsPolicy": "None"}, (R, "spec.dnsConfig"),
     "must provide `dnsConfig` when `dnsPolicy` is None"),
    ("TestValidatePodDNSConfig/None without nameservers", {"dnsPolicy": "None", "dnsConfig": {}},
     (R, "spec.dnsConfig.nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None"),
    ("TestValidatePodDNSConfig/too many nameservers",
     {"dnsConfig": {"nameservers": ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]}},
     (IV, "spec.dnsConfig.nameservers"), "must not have more than 3 nameservers"),
    ("TestValidatePodDNSConfig/option without name", {"dnsConfig": {"options": [{"value": "1"}]}},
     (R, "spec.dnsConfig.options[0]"), "must not be empty"),
    ("TestValidateTolerations/empty key without Exists", {"tolerations": [{"operator": "Equal", "value": "v"}]},
     (IV, "spec.tolerations[0].operator"), 'operator must be Exists when `key` is empty, which means "match all '
                                          'values and all keys"'),
    ("TestValidateTolerations/value with Exists",
     {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]},
     (IV, "spec.tolerations[0].operator"), "value must be empty when `operator` is 'Exists'"),
    ("TestValidateTolerations/tolerationSeconds without NoExecute",
     {"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 10}]},
     (IV, "spec.tolerations[0].effect"), "effect must be 'NoExecute' when `tolerationSeconds` is set"),
    ("TestValidateTolerations/unsupported operator", {"tolerations": [{"key": "k", "operator": "In"}]},
     (NS, "spec.tolerations[0].operator"), 'supported values: "Equal", "Exists"'),
    ("TestValidateTolerations/unsupported effect",
     {"tolerations": [{"key": "k", "operator": "Exists", "effect": "Evict"}]},
     (NS, "spec.tolerations[0].effect"), None),
    ("TestValidateTolerations/invalid key", {"tolerations": [{"key": "a b", "operator": "Exists"}]},
     (IV, "spec.tolerations[0].key"), None),
    ("TestValidatePod/serviceAccountToken without serviceAccountName",
     {"volumes": [{"name": "v", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}}]},
     (F, "spec.volumes[0].projected.sources[0].serviceAccountToken"),
     "must not be specified when serviceAccountName is not set"),
]


@pytest.mark.parametrize(("go_test", "changes", "expected", "text"), POD_CASES, ids=[c[0] for c in POD_CASES])
def test_pod(go_test: str, changes: dict, expected: tuple, text: str | None) -> None:
    obj = pod(**changes)
    found = kinds.validate_pod(obj)
    matching = [e for e in found if (e.type, e.field) == expected]
    assert matching, f"{go_test}: expected {expected}, got {[str(e) for e in found]}"
    if text is not None:
        assert any(text in e.detail for e in matching), [str(e) for e in matching]


def test_valid_pod_has_no_errors() -> None:
    """TestValidatePodCreate's success cases: a minimal pod, and one using most of the checked fields."""
    assert errors(pod()) == []
    full = pod(volumes=[{"name": "v", "configMap": {"name": "c", "items": [{"key": "k", "path": "a"}]}},
                        {"name": "claim", "persistentVolumeClaim": {"claimName": "data"}}],
               containers=[ctr(ports=[{"name": "http", "containerPort": 80}],
                               env=[{"name": "A", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                             "fieldPath": "metadata.labels['x']"}}}],
                               envFrom=[{"configMapRef": {"name": "c"}}],
                               resources={"requests": {"cpu": "500m"}, "limits": {"cpu": "1"}},
                               volumeMounts=[{"name": "v", "mountPath": "/v"}],
                               volumeDevices=[{"name": "claim", "devicePath": "/dev/x"}],
                               livenessProbe={"httpGet": {"path": "/", "port": "http"}},
                               lifecycle={"preStop": {"sleep": {"seconds": 5}}})],
               initContainers=[ctr(name="sidecar", restartPolicy="Always",
                                   readinessProbe={"tcpSocket": {"port": 80}})],
               tolerations=[{"operator": "Exists"}, {"key": "k", "value": "v", "effect": "NoExecute",
                                                     "tolerationSeconds": 5}])
    assert errors(full) == []


def test_pod_template_forbids_ephemeral_containers() -> None:
    """ValidatePodTemplateSpec: `ephemeral containers not allowed in pod template`; labels checked."""
    template = {"metadata": {"labels": {"a b": "c"}},
                "spec": copy.deepcopy(pod(ephemeralContainers=[ctr(name="debug")])["spec"])}
    found = validate_pod_template_spec(template, Path.root("spec", "template"))
    assert [(e.type, e.field) for e in found] == [(IV, "spec.template.labels"),
                                                  (F, "spec.template.spec.ephemeralContainers")]
    assert found[1].detail == "ephemeral containers not allowed in pod template"


def test_pod_template_allows_unset_host_port_with_host_network() -> None:
    """validatePodHostNetworkDeps: a template may leave hostPort unset (it is defaulted on the pod)."""
    spec = {"hostNetwork": True, "containers": [ctr(ports=[{"containerPort": 80}])]}
    obj = pod(**spec)
    assert validate_pod_template_spec({"spec": obj["spec"]}, Path.root("spec", "template")) == []


# ---------------------------------------------------------------- ConfigMap, Secret

CONFIG_MAP_CASES = [
    ("TestValidateConfigMap/invalid key", {"data": {"a..b/c": "x"}}, (IV, "data[a..b/c]"), "a valid config key"),
    ("TestValidateConfigMap/leading ..", {"data": {"..a": "x"}}, (IV, "data[..a]"), "must not start with '..'"),
    ("TestValidateConfigMap/key '.'", {"data": {".": "x"}}, (IV, "data[.]"), "must not be '.'"),
    ("TestValidateConfigMap/key too long", {"data": {"a" * 254: "x"}}, (IV, f"data[{'a' * 254}]"),
     "must be no more than 253 characters"),
    ("TestValidateConfigMap/duplicate key in binaryData", {"data": {"k": "x"}, "binaryData": {"k": "eA=="}},
     (IV, "data[k]"), "duplicate of key present in binaryData"),
    ("TestValidateConfigMap/invalid binaryData key", {"binaryData": {"a b": "eA=="}}, (IV, "binaryData[a b]"), None),
    ("TestValidateConfigMap/too large", {"data": {"a": "x" * (1 << 20), "b": "y"}}, (TL, ""),
     "may not be more than 1048576 bytes"),
]


@pytest.mark.parametrize(("go_test", "fields", "expected", "text"), CONFIG_MAP_CASES,
                         ids=[c[0] for c in CONFIG_MAP_CASES])
def test_config_map(go_test: str, fields: dict, expected: tuple, text: str | None) -> None:
    found = kinds.validate_config_map({"metadata": {"name": "c"}, **fields})
    matching = [e for e in found if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in found]}"
    if text is not None:
        assert any(text in e.detail for e in matching)


def b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


SECRET_CASES = [
    ("TestValidateSecret/invalid key", {"data": {"a$b": b64("x")}}, (IV, "data[a$b]"), "a valid config key"),
    ("TestValidateSecret/too large", {"data": {"a": b64("x" * ((1 << 20) + 1))}}, (TL, "data"),
     "may not be more than 1048576 bytes"),
    ("TestValidateSecret/stringData counted", {"stringData": {"a b": "x"}}, (IV, "data[a b]"), None),
    ("TestValidateServiceAccountTokenSecret/missing name",
     {"type": "kubernetes.io/service-account-token"},
     (R, "metadata.annotations[kubernetes.io/service-account.name]"), None),
    ("TestValidateDockerConfigSecret/missing", {"type": "kubernetes.io/dockercfg"}, (R, "data[.dockercfg]"), None),
    ("TestValidateDockerConfigSecret/invalid json",
     {"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": b64("{bad")}},
     (IV, "data[.dockerconfigjson]"), "invalid character 'b' looking for beginning of object key string"),
    ("TestValidateDockerConfigSecret/not an object",
     {"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": b64("[]")}},
     (IV, "data[.dockerconfigjson]"), "json: cannot unmarshal array into Go value of type map[string]interface {}"),
    ("TestValidateBasicAuthSecret/missing both", {"type": "kubernetes.io/basic-auth"},
     (R, "data[%s][username]"), None),
    ("TestValidateSSHAuthSecret/missing key", {"type": "kubernetes.io/ssh-auth", "data": {"x": b64("y")}},
     (R, "data[%s][ssh-privatekey]"), None),
    ("TestValidateTLSSecret/missing cert", {"type": "kubernetes.io/tls", "data": {"tls.key": b64("k")}},
     (R, "data[tls.crt]"), None),
    ("TestValidateTLSSecret/missing key", {"type": "kubernetes.io/tls", "data": {"tls.crt": b64("c")}},
     (R, "data[tls.key]"), None),
]


@pytest.mark.parametrize(("go_test", "fields", "expected", "text"), SECRET_CASES, ids=[c[0] for c in SECRET_CASES])
def test_secret(go_test: str, fields: dict, expected: tuple, text: str | None) -> None:
    found = kinds.validate_secret({"metadata": {"name": "s"}, **fields})
    matching = [e for e in found if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in found]}"
    if text is not None:
        assert any(text in e.detail for e in matching)


def test_valid_secrets() -> None:
    """TestValidateSecret's valid cases: empty basic-auth values present, a TLS pair, dockerconfigjson."""
    for fields in ({"type": "kubernetes.io/basic-auth", "data": {"username": ""}},
                   {"type": "kubernetes.io/tls", "data": {"tls.crt": b64("c"), "tls.key": b64("k")}},
                   {"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": b64('{"auths":{}}')}},
                   {"type": "example.com/custom", "data": {"a": b64("b")}}):
        assert kinds.validate_secret({"metadata": {"name": "s"}, **fields}) == []


def test_secret_update_rules() -> None:
    """ValidateSecretUpdate: the type is immutable; the strategy: an immutable Secret's data too."""
    old = {"metadata": {"name": "s"}, "type": "Opaque", "immutable": True, "data": {"a": b64("1")}}
    new = {"metadata": {"name": "s"}, "type": "kubernetes.io/tls", "data": {"a": b64("2")}}
    found = [(e.type, e.field, e.detail) for e in kinds.validate_secret_update(new, old)]
    assert (IV, "type", "field is immutable") in found
    assert (F, "immutable", "field is immutable when `immutable` is set") in found
    assert (F, "data", "field is immutable when `immutable` is set") in found
    same_type = {**old, "type": ""}
    assert kinds.validate_secret_update(same_type, old) == []


def test_config_map_update_rules() -> None:
    """configmap strategy: an immutable ConfigMap's data and binaryData cannot change."""
    old = {"metadata": {"name": "c"}, "immutable": True, "data": {"a": "1"}}
    assert kinds.validate_config_map_update(dict(old), old) == []
    found = [(e.type, e.field) for e in kinds.validate_config_map_update({**old, "data": {"a": "2"}}, old)]
    assert found == [(F, "data")]


def test_registry_by_convention() -> None:
    """apis.validation finds a group's validators by package name; unknown groups get none."""
    assert package_of("") == "core"
    assert package_of("rbac.authorization.k8s.io") == "rbac"
    assert validation_for("", "Pod") is not None
    assert validation_for("", "PersistentVolume") is not None
    assert validation_for("", "ReplicationController") is None
    assert validation_for("example.invalid", "Thing") is None


def test_a_containers_security_context_ids_and_proc_mount() -> None:
    """ValidateSecurityContext: IsValidUserID/IsValidGroupID's range, ValidateProcMountType's values."""
    from crdtool.apis.core.security import validate_security_context
    from crdtool.model.path import Path

    path = Path.root("securityContext")
    assert [str(e) for e in validate_security_context({"runAsUser": -1, "runAsGroup": 2**31, "procMount": "x"},
                                                      path)] == [
        "securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
        "securityContext.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
        'securityContext.procMount: Unsupported value: "x": supported values: "Default", "Unmasked"']
    assert validate_security_context({"runAsUser": 0, "procMount": "Unmasked"}, path, host_users=False) == []
    assert [str(e) for e in validate_security_context({"procMount": "Unmasked"}, path)] == [
        'securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`']
