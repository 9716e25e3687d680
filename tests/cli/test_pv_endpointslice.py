"""PersistentVolume and EndpointSlice through `crdtool validate`: a bad object is refused in the
apiserver's words with exit code 1, a good one is fully validated, an update checks the PV's and the
slice's immutable fields."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

PV = """apiVersion: v1
kind: PersistentVolume
metadata:
  name: local-pv
spec:
  capacity:
    storage: 10Gi
  accessModes: [ReadWriteOnce]
  storageClassName: local-storage
  local:
    path: /mnt/disks/ssd1
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - key: kubernetes.io/hostname
          operator: In
          values: [node-1]
"""
SLICE = """apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-abc
  labels:
    kubernetes.io/service-name: web
addressType: IPv4
ports:
- name: http
  port: 80
endpoints:
- addresses: ["10.1.2.3"]
  conditions:
    ready: true
  nodeName: node-1
  zone: zone-a
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_good_objects_are_fully_validated(tmp_path: Path) -> None:
    res = run("validate", "--format", "json", write_file(tmp_path, "obj.yaml", PV + "---\n" + SLICE))
    assert res.exit_code == 0, res.output
    results = json.loads(res.output)["results"]
    assert [(r["kind"], r["checks"]) for r in results] == [("PersistentVolume", "validation"),
                                                          ("EndpointSlice", "validation")]


def test_a_bad_volume_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml",
                      PV.replace("  nodeAffinity:", "  persistentVolumeReclaimPolicy: Recycle\n  x:")
                      .replace("storage: 10Gi", "storage: 0"))
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'PersistentVolume "local-pv" is invalid: [spec.capacity[storage]: Invalid value: "0": must be greater than '
        "zero, spec.nodeAffinity: Required value: Local volume requires node affinity]")
    text = run("validate", "--no-color", path)
    assert f'{path}:7:5: error: spec.capacity[storage]: Invalid value: "0": must be greater than zero' in text.output


def test_a_volumes_source_is_immutable_on_update(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", PV)
    new = write_file(tmp_path, "new.yaml", PV.replace("/mnt/disks/ssd1", "/mnt/disks/ssd2").replace("10Gi", "20Gi"))
    res = run("validate", "--no-color", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert "error: spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation" \
        in res.output
    assert run("validate", "--old", live, write_file(tmp_path, "grown.yaml", PV.replace("10Gi", "20Gi"))).exit_code == 0


def test_a_bad_endpoint_slice_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", SLICE.replace('["10.1.2.3"]', '["10.1.2.3", "fe80::1"]')
                      .replace("port: 80", "port: 80\n  protocol: HTTP"))
    res = run("validate", "--format", "kubectl", path)
    assert res.exit_code == 1, res.output
    assert ('The EndpointSlice "web-abc" is invalid: \n'
            '* endpoints[0].addresses[1]: Invalid value: "fe80::1": must be an IPv4 address\n'
            '* endpoints[0].addresses[1]: Invalid value: "fe80::1": may not be in the link-local range '
            "(169.254.0.0/16, fe80::/10)\n"
            '* ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"') in res.output


def test_an_endpoint_slices_address_type_is_immutable(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", SLICE)
    new = write_file(tmp_path, "new.yaml", SLICE.replace("IPv4", "FQDN").replace('"10.1.2.3"', '"web.example.com"'))
    res = run("validate", "--format", "json", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'EndpointSlice.discovery.k8s.io "web-abc" is invalid: addressType: Invalid value: "FQDN": field is '
        "immutable")


def test_default_shows_the_endpoint_port_defaults(tmp_path: Path) -> None:
    res = run("default", write_file(tmp_path, "obj.yaml", SLICE.replace("- name: http\n  port: 80", "- port: 80")))
    assert res.exit_code == 0, res.output
    assert 'name: ""' in res.output and "protocol: TCP" in res.output
