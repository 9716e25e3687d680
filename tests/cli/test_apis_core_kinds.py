"""Service, PersistentVolumeClaim, Namespace, ServiceAccount and Endpoints through `crdtool validate`:
a bad object is refused in the apiserver's words with exit code 1, a good one is fully validated."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: 8080
"""
CLAIM = """apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
"""
OTHERS = """apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
---
apiVersion: v1
kind: Endpoints
metadata:
  name: web
subsets:
- addresses: [{ip: 10.1.2.3}]
  ports: [{port: 8080}]
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_good_objects_are_fully_validated(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", SERVICE + "---\n" + CLAIM + "---\n" + OTHERS)
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 0, res.output
    results = json.loads(res.output)["results"]
    assert [r["kind"] for r in results] == ["Service", "PersistentVolumeClaim", "Namespace", "ServiceAccount",
                                            "Endpoints"]
    assert {r["checks"] for r in results} == {"validation"}
    text = run("validate", "--no-color", path)
    assert text.exit_code == 0 and "partly checked" not in text.output
    assert "decoding, defaults and metadata only" not in text.output


def test_a_bad_service_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", SERVICE.replace("  - name: http\n", "  - name: http\n    protocol: HTTP\n")
                      + "  type: ClusterIP\n  externalTrafficPolicy: Local\n")
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert (f'{path}:10:5: error: spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", '
            '"TCP", "UDP"') in res.output
    kubectl = run("validate", "--format", "kubectl", path)
    assert ('The Service "web" is invalid: \n'
            '* spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"\n'
            '* spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible '
            'services') in kubectl.output


def test_a_changed_cluster_ip_is_refused_on_update(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", SERVICE + "  clusterIP: 10.96.0.10\n")
    new = write_file(tmp_path, "new.yaml", SERVICE + "  clusterIP: 10.96.0.11\n  clusterIPs: [10.96.0.11]\n")
    res = run("validate", "--format", "json", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set')
    # a replace without clusterIPs: the stored ones are not carried over to a changed clusterIP
    unset = write_file(tmp_path, "unset.yaml", SERVICE + "  clusterIP: 10.96.0.11\n")
    status = json.loads(run("validate", "--format", "json", "--old", live, unset).output)["results"][0]["status"]
    assert status == ('Service "web" is invalid: [spec.clusterIPs[0]: Invalid value: []: primary clusterIP can not '
                      "be unset, spec.clusterIPs: Required value]")
    assert run("validate", "--old", live, live).exit_code == 0


def test_a_bad_claim_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", CLAIM.replace("[ReadWriteOnce]", "[ReadWriteOncePod, ReadWriteMany]")
                      .replace("storage: 1Gi", "memory: 1Gi"))
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'PersistentVolumeClaim "data" is invalid: [spec.accessModes: Forbidden: may not use ReadWriteOncePod with '
        "other access modes, spec.resources[storage]: Required value]")


def test_a_claims_spec_is_immutable_on_update(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", CLAIM)
    new = write_file(tmp_path, "new.yaml", CLAIM.replace("[ReadWriteOnce]", "[ReadWriteMany]"))
    res = run("validate", "--no-color", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert ("error: spec: Forbidden: spec is immutable after creation except resources.requests and "
            "volumeAttributesClassName for bound claims") in res.output


def test_a_bad_endpoints_address_is_refused(tmp_path: Path) -> None:
    path = write_file(tmp_path, "obj.yaml", OTHERS.split("---\n")[2].replace("10.1.2.3", "127.0.0.1"))
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'Endpoints "web" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the '
        "loopback range (127.0.0.0/8, ::1/128)")
