"""A pod template's affinity and security context and a Pod update through `crdtool validate`, in
the apiserver's words (kubernetes pkg/apis/core/validation, 1.36)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 101
            podAffinityTerm:
              labelSelector:
                matchLabels:
                  app: web
              topologyKey: kubernetes.io/hostname
      containers:
      - name: web
        image: nginx:1.27
"""

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
spec:
  containers:
  - name: c
    image: nginx:1.26
"""

WEIGHT = ("spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
          "Invalid value: 101: must be in the range 1-100")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_deployment_with_a_bad_affinity_weight_is_refused(tmp_path: Path) -> None:
    path = write_file(tmp_path, "deploy.yaml", DEPLOYMENT)
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert f"{path}:17:13: error: {WEIGHT}" in res.output
    kubectl = run("validate", "--format", "kubectl", path)
    assert f'The Deployment "web" is invalid: {WEIGHT}' in kubectl.output
    assert run("validate", write_file(tmp_path, "ok.yaml", DEPLOYMENT.replace("101", "100"))).exit_code == 0


def test_a_bad_node_affinity_operator_and_topology_spread(tmp_path: Path) -> None:
    spec = DEPLOYMENT.replace("""        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 101
            podAffinityTerm:
              labelSelector:
                matchLabels:
                  app: web
              topologyKey: kubernetes.io/hostname
""", """        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - key: zone
                operator: Within
                values: [a]
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: Sometimes
""")
    res = run("validate", "--format", "kubectl", write_file(tmp_path, "deploy.yaml", spec))
    assert res.exit_code == 1, res.output
    assert ("spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
            'nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Within": not a valid selector '
            "operator") in res.output
    assert ('spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": '
            'supported values: "DoNotSchedule", "ScheduleAnyway"') in res.output


def test_a_container_security_context_contradiction(tmp_path: Path) -> None:
    spec = DEPLOYMENT.replace("        image: nginx:1.27\n", """        image: nginx:1.27
        securityContext:
          privileged: true
          allowPrivilegeEscalation: false
""")
    res = run("validate", "--no-color", write_file(tmp_path, "deploy.yaml", spec))
    assert res.exit_code == 1, res.output
    assert ("spec.template.spec.containers[0].securityContext: Invalid value: "
            '{"Capabilities":null,"Privileged":true,') in res.output
    assert "cannot set `allowPrivilegeEscalation` to false and `privileged` to true" in res.output


def test_a_pod_update_may_change_an_image_but_not_the_node(tmp_path: Path) -> None:
    old = write_file(tmp_path, "old.yaml", POD)
    ok = run("validate", "--old", old, write_file(tmp_path, "image.yaml", POD.replace("1.26", "1.27")))
    assert ok.exit_code == 0, ok.output
    moved = POD.replace("  containers:", "  nodeName: node-1\n  containers:")
    res = run("validate", "--format", "kubectl", "--old", old, write_file(tmp_path, "moved.yaml", moved))
    assert res.exit_code == 1, res.output
    assert ('The Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than '
            "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
            "`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` "
            "(allow it to be set to 1 if it was previously negative)\n") in res.output
    created = run("validate", write_file(tmp_path, "created.yaml", moved))
    assert created.exit_code == 0, created.output
