"""`validate --old`: the stored object is read as the apiserver reads it from storage for an update,
in the version it is stored in, then converted to the request's version."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args])


def _version(name: str, storage: bool, schema: dict) -> dict:
    return {"name": name, "served": True, "storage": storage, "schema": {"openAPIV3Schema": schema}}


def _crd(versions: list[dict], conversion: dict | None = None) -> str:
    spec = {"group": "example.com", "scope": "Namespaced", "versions": versions,
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"}}
    if conversion is not None:
        spec["conversion"] = conversion
    return json.dumps({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                       "metadata": {"name": "widgets.example.com"}, "spec": spec})


def _widget(api_version: str, spec: dict) -> str:
    return json.dumps({"apiVersion": api_version, "kind": "Widget", "metadata": {"name": "w", "namespace": "d"},
                       "spec": spec})


# v1 stores; v1 and v2 default `size` differently; v2's rules compare the update with the stored object
V1 = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "size": {"type": "string", "default": "small"}}}}}
V2 = {"type": "object",
      "x-kubernetes-validations": [{"rule": "self.apiVersion == oldSelf.apiVersion", "message": "apiVersion changed"}],
      "properties": {"spec": {"type": "object",
                              "x-kubernetes-validations": [{"rule": "self.size == oldSelf.size",
                                                            "message": "size is immutable"}],
                              "properties": {"size": {"type": "string", "default": "large"}}}}}


def _files(tmp_path: Path, crd: str, old: str, new: str) -> tuple[str, str, str]:
    paths = tmp_path / "crd.json", tmp_path / "old.json", tmp_path / "new.json"
    for p, text in zip(paths, (crd, old, new), strict=True):
        p.write_text(text)
    return tuple(str(p) for p in paths)  # type: ignore[return-value]


def test_a_stored_object_of_another_version_is_defaulted_by_its_own_schema_then_converted(tmp_path: Path) -> None:
    crd, old, new = _files(tmp_path, _crd([_version("v1", True, V1), _version("v2", False, V2)]),
                           _widget("example.com/v1", {}), _widget("example.com/v2", {}))
    res = run("validate", "--format", "kubectl", "-c", crd, "--old", old, new)
    # read in v2: defaulted by v1's schema (size: small), its apiVersion rewritten (strategy None); the
    # update is defaulted by v2's (size: large)
    assert res.exit_code == 1, res.output
    assert res.output == 'The Widget "w" is invalid: spec: Invalid value: size is immutable\n'
    same = tmp_path / "same.json"
    same.write_text(_widget("example.com/v2", {"size": "small"}))
    assert run("validate", "-c", crd, "--old", old, str(same)).exit_code == 0


def test_a_stored_object_of_a_version_the_crd_does_not_have_cannot_be_read(tmp_path: Path) -> None:
    crd, old, new = _files(tmp_path, _crd([_version("v1", True, V1), _version("v2", False, V2)]),
                           _widget("example.com/v9", {}), _widget("example.com/v2", {}))
    res = run("validate", "-c", crd, "--old", old, new)
    assert res.exit_code == 2
    assert res.stderr.startswith(f"{old}:1:1: error: the stored object cannot be decoded: request to convert CR "
                                 "from an invalid group/version: example.com/v9")


def test_a_webhook_converted_stored_object_is_to_be_converted_first(tmp_path: Path) -> None:
    webhook = {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
                                                  "clientConfig": {"url": "https://127.0.0.1:1/convert"}}}
    crd, old, new = _files(tmp_path, _crd([_version("v1", True, V1), _version("v2", False, V2)], webhook),
                           _widget("example.com/v1", {}), _widget("example.com/v2", {}))
    res = run("validate", "-c", crd, "--old", old, new)
    assert res.exit_code == 2 and "internal error" not in res.output
    assert "converts it to v2 through a webhook: convert it first (crdtool convert --to v2)" in res.stderr


EMBEDDED = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"template": {
    "type": "object", "x-kubernetes-embedded-resource": True,
    "x-kubernetes-validations": [{"rule": "!has(oldSelf.apiVersion)", "message": "stored apiVersion kept"}],
    "properties": {"foo": {"type": "string"}}}}}}}


def test_a_stored_embedded_resource_of_the_wrong_types_is_read_as_storage_reads_it(tmp_path: Path) -> None:
    # a request with `apiVersion: 5` in an embedded resource is refused (400); read from storage, the
    # field is dropped (DropInvalidFields) and so are the metadata fields that do not decode
    template = {"apiVersion": 5, "kind": "Pod", "metadata": {"name": 5, "labels": {"a": "b"}}}
    crd, old, new = _files(tmp_path, _crd([_version("v1", True, EMBEDDED)]),
                           _widget("example.com/v1", {"template": template}),
                           _widget("example.com/v1", {"template": {"apiVersion": "v1", "kind": "Pod"}}))
    refused = run("validate", "--format", "kubectl", "-c", crd, old)
    assert refused.exit_code == 1
    assert ('Widget in version "v1" cannot be handled as a Widget: spec.template.apiVersion: Invalid value: 5: '
            "must be a string") in refused.output
    pruned = run("prune", "-c", crd, old)
    assert pruned.exit_code == 1 and "spec.template.apiVersion: Invalid value: 5: must be a string" in pruned.output
    res = run("validate", "-c", crd, "--old", old, new)
    assert res.exit_code == 0, res.output
