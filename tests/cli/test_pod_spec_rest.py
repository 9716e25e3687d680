"""A Pod's resource claims, pod-level resources, ephemeral volume claim template, topology spread
matchLabelKeys and an update adding ephemeral containers through `crdtool validate`, in the
apiserver's words (kubernetes pkg/apis/core/validation, 1.36)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
  labels:
    app: web
spec:
  containers:
  - name: c
    image: nginx:1.27
"""


def run(tmp_path: Path, text: str, *extra: str, name: str = "pod.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path), CliRunner().invoke(cli, ["validate", "--no-color", *extra, str(path)])


def test_resource_claims_and_references(tmp_path: Path) -> None:
    text = POD + """\
    resources:
      claims:
      - name: gpu
      - name: missing
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: gpu-template
"""
    path, res = run(tmp_path, text)
    assert res.exit_code == 1, res.output
    assert (f"{path}:15:9: error: spec.containers[0].resources.claims[1]: Not found: \"missing\": must be one of "
            "the names in pod.spec.resourceClaims: gpu") in res.output
    _, ok = run(tmp_path, text.replace("      - name: missing\n", ""), name="ok.yaml")
    assert ok.exit_code == 0, ok.output
    _, both = run(tmp_path, text + "    resourceClaimName: gpu-claim\n", name="both.yaml")
    assert ("spec.resourceClaims[0]: Invalid value: {\"Name\":\"gpu\",\"ResourceClaimName\":\"gpu-claim\","
            "\"ResourceClaimTemplateName\":\"gpu-template\"}: at most one of `resourceClaimName` or "
            "`resourceClaimTemplateName` may be specified") in both.output


def test_pod_level_resources(tmp_path: Path) -> None:
    text = POD + """\
    resources:
      limits:
        memory: 2Gi
  resources:
    limits:
      cpu: "1"
      memory: 1Gi
      ephemeral-storage: 1Gi
"""
    path, res = run(tmp_path, text)
    assert res.exit_code == 1, res.output
    assert (f"{path}:19:7: error: spec.resources.limits[ephemeral-storage]: Unsupported value: "
            "\"ephemeral-storage\": supported values: \"cpu\", \"hugepages-\", \"memory\"") in res.output
    assert ("spec.resources.containers[0][memory].limits: Invalid value: \"2Gi\": must be less than or equal to "
            "pod limits of 1Gi") in res.output
    fixed = text.replace("        memory: 2Gi", "        memory: 512Mi").replace("      ephemeral-storage: 1Gi\n", "")
    _, ok = run(tmp_path, fixed, name="ok.yaml")
    assert ok.exit_code == 0, ok.output


def test_ephemeral_volume_claim_template_and_trust_bundle(tmp_path: Path) -> None:
    text = POD + """\
  volumes:
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
  - name: ca
    projected:
      sources:
      - clusterTrustBundle:
          signerName: example/signer
          path: ca.pem
"""
    path, res = run(tmp_path, text)
    assert res.exit_code == 1, res.output
    assert f"{path}:16:9: error: spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: " \
           "Required value" in res.output
    assert ("spec.volumes[1].projected.sources[0].clusterTrustBundle.signerName: Invalid value: \"example\": "
            "should be a domain with at least two segments separated by dots") in res.output
    fixed = text.replace("accessModes: [ReadWriteOnce]", "accessModes: [ReadWriteOnce]\n"
                                                         "          resources: {requests: {storage: 1Gi}}")
    _, ok = run(tmp_path, fixed.replace("example/signer", "example.com/signer"), name="ok.yaml")
    assert ok.exit_code == 0, ok.output


def test_topology_spread_match_label_keys_merged_on_create(tmp_path: Path) -> None:
    """A Pod carrying the label: merged, then found twice; a Deployment's template: accepted."""
    spread = """\
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector:
      matchLabels:
        app: web
    matchLabelKeys: [app]
"""
    path, res = run(tmp_path, POD + spread)
    assert res.exit_code == 1, res.output
    assert (f"{path}:13:5: error: spec.topologySpreadConstraints[0][0]: Invalid value: \"app\": exists in both "
            "matchLabelKeys and labelSelector") in res.output
    deployment = """\
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
      containers:
      - name: c
        image: nginx:1.27
""" + "".join("    " + line + "\n" for line in spread.splitlines())
    _, ok = run(tmp_path, deployment, name="deploy.yaml")
    assert ok.exit_code == 0, ok.output


def test_an_update_adding_ephemeral_containers(tmp_path: Path) -> None:
    old = tmp_path / "live.yaml"
    old.write_text(POD)
    text = POD + """\
  ephemeralContainers:
  - name: debug
    image: busybox
    targetContainerName: c
"""
    path, res = run(tmp_path, text, "--old", str(old))
    assert res.exit_code == 1, res.output
    assert (f"{path}:8:1: error: spec: Forbidden: pod updates may not change fields other than "
            "`spec.containers[*].image`") in res.output
    assert "+ \tEphemeralContainers: [{" in res.output
