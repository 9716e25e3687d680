"""The vendored 1.36 types cover discovery: every served built-in kind has its Go types."""

from __future__ import annotations

import json
from importlib import resources

from crdtool.apis import openapi

#: CustomResourceDefinitions go through `lint`, not the built-in path.
_NOT_BUILT_IN = {"apiextensions.k8s.io/v1/CustomResourceDefinition"}


def test_every_served_kind_has_a_root_definition() -> None:
    discovery = json.loads(resources.files("crdtool").joinpath("data", "discovery-1.36.json").read_text())
    served = {f"{g['group']}/{v['version']}/{k['kind']}"
              for g in discovery["groups"] for v in g["versions"] for k in v["kinds"]}
    missing = sorted(key for key in served - _NOT_BUILT_IN if openapi.definition_name(*key.split("/")) is None)
    assert missing == []


def test_apiservice_is_read_as_kube_aggregator_types() -> None:
    name = openapi.definition_name("apiregistration.k8s.io", "v1", "APIService")
    assert name == "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService"
    assert [f["n"] for f in openapi.definition(name)["fields"]] == ["kind", "apiVersion", "metadata", "spec", "status"]
