"""`crdtool default -o yaml` on built-in objects shows the defaults kubernetes' defaults_test.go asserts
(pkg/apis/core/v1: TestSetDefaultService, TestSetDefaultServicePort, TestSetDefaultServiceExternalTraffic,
TestSetDefaultServiceInternalTrafficPolicy; pkg/apis/apps/v1: TestSetDefaultDeployment; pkg/apis/core/v1:
TestSetDefaultLimitRangeItem; pkg/apis/storage/v1: TestSetDefaultCSIDriver)."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from crdtool.cli import cli

MANIFEST = """\
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  selector: {app: web}
  ports:
  - {name: http, port: 80}
  - {name: dns, port: 53, protocol: UDP, targetPort: dns}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  strategy:
    rollingUpdate: {maxSurge: 5}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: "nginx:1.27"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - {type: Container, max: {cpu: 100m}, min: {memory: 100Mi}}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: csi.example.com}
spec: {}
"""


def _defaulted(tmp_path: Path) -> list[dict]:
    path = tmp_path / "app.yaml"
    path.write_text(MANIFEST)
    res = CliRunner().invoke(cli, ["default", "-o", "yaml", str(path)])
    assert res.exit_code == 0, res.output
    return list(yaml.safe_load_all(res.output))


def test_a_service_gets_the_defaults_the_go_tests_assert(tmp_path: Path) -> None:
    service = _defaulted(tmp_path)[0]["spec"]
    assert service["sessionAffinity"] == "None" and "sessionAffinityConfig" not in service
    assert service["ports"] == [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 80},
                                {"name": "dns", "port": 53, "protocol": "UDP", "targetPort": "dns"}]
    assert service["externalTrafficPolicy"] == "Cluster"  # a NodePort service is externally accessible
    assert service["internalTrafficPolicy"] == "Cluster"


def test_a_deployment_gets_the_defaults_the_go_tests_assert(tmp_path: Path) -> None:
    spec = _defaulted(tmp_path)[1]["spec"]
    assert spec["replicas"] == 5
    assert spec["strategy"] == {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 5, "maxUnavailable": "25%"}}
    assert (spec["revisionHistoryLimit"], spec["progressDeadlineSeconds"]) == (10, 600)
    pod = spec["template"]["spec"]
    assert {k: pod[k] for k in ("dnsPolicy", "restartPolicy", "securityContext", "terminationGracePeriodSeconds",
                                "schedulerName")} == {
        "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "securityContext": {},
        "terminationGracePeriodSeconds": 30, "schedulerName": "default-scheduler"}
    assert pod["containers"][0]["imagePullPolicy"] == "IfNotPresent"
    assert "enableServiceLinks" not in pod  # SetDefaults_Pod only, not a template


def test_limit_range_and_csi_driver_defaults(tmp_path: Path) -> None:
    limits, driver = _defaulted(tmp_path)[2:]
    item = limits["spec"]["limits"][0]
    assert item["default"] == {"cpu": "100m"}
    assert item["defaultRequest"] == {"cpu": "100m", "memory": "100Mi"}
    assert driver["spec"] == {"attachRequired": True, "podInfoOnMount": False, "storageCapacity": False,
                              "fsGroupPolicy": "ReadWriteOnceWithFSType", "volumeLifecycleModes": ["Persistent"],
                              "requiresRepublish": False, "seLinuxMount": False}
