"""crd_internal: v1 defaulting, conversion to the internal version (hoisting), the registry strategy."""

from __future__ import annotations

import copy
import re

import pytest
from conformance_cases import document_for, load_cases, requires_shared

from crdtool.schema.crd.decode import decode_crd
from crdtool.schema.crd.internal import internal_to_source, prepare_for_update, to_internal

SCHEMA = {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object"}}}}


def version(name, storage=False, **more):
    return {"name": name, "served": True, "storage": storage, **more}


def crd(*versions, **spec):
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
                     "versions": list(versions), **spec}}


def internal(doc, **kw):
    res = decode_crd(doc)
    assert res.error is None
    return to_internal(res.crd, **kw)


# ---------------------------------------------------------------- hoisting, checked by the apiserver's error paths

_HOIST_PATH = re.compile(r"spec\.(?:(validation|subresources|additionalPrinterColumns|selectableFields)"
                         r"|versions\[\d+\]\.(schema|subresources|additionalPrinterColumns|selectableFields))\b")


def _hoist_cases():
    return [c for c in load_cases("lint")
            if any(_HOIST_PATH.match(e["field"]) for e in c["expected"].get("errors") or [])]


@requires_shared
@pytest.mark.parametrize("case", _hoist_cases(), ids=lambda c: c["id"])
def test_conformance_error_paths_agree_with_hoisting(case):
    spec = internal(document_for(case["crd"], case, "crd").data)["spec"]
    for e in case["expected"]["errors"]:
        m = _HOIST_PATH.match(e["field"])
        if m and m.group(1):
            assert m.group(1) in spec, e["field"]
        elif m:
            assert {"schema": "validation"}.get(m.group(2), m.group(2)) not in spec, e["field"]


def test_single_version_hoists_everything_it_has():
    cols = [{"name": "A", "type": "string", "jsonPath": ".a"}]
    got = internal(crd(version("v1", True, schema=SCHEMA, subresources={"status": {}},
                                additionalPrinterColumns=cols, selectableFields=[{"jsonPath": ".spec.a"}])))
    spec = got["spec"]
    assert spec["validation"] == SCHEMA and spec["subresources"] == {"status": {}}
    assert spec["additionalPrinterColumns"] == cols and spec["selectableFields"] == [{"jsonPath": ".spec.a"}]
    assert spec["versions"] == [{"name": "v1", "served": True, "storage": True}]
    assert spec["version"] == "v1"


def test_versions_differing_keep_their_own_fields():
    other = {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "maxProperties": 0}}}}
    spec = internal(crd(version("v1", True, schema=SCHEMA, selectableFields=[{"jsonPath": ".spec.a"}]),
                        version("v2", schema=other, selectableFields=[{"jsonPath": ".spec.a"}])))["spec"]
    assert "validation" not in spec and "selectableFields" not in spec  # selectable fields follow the schema
    assert spec["versions"][1]["schema"] == other


def test_semantically_equal_versions_hoist():
    same = {"openAPIV3Schema": {"type": "object", "description": "", "required": [],
                                "properties": {"spec": {"type": "object", "nullable": False}}}}
    spec = internal(crd(version("v1", True, schema=SCHEMA, additionalPrinterColumns=[]),
                        version("v2", schema=same)))["spec"]
    assert spec["validation"] == SCHEMA and spec["additionalPrinterColumns"] == []
    assert all("schema" not in v and "additionalPrinterColumns" not in v for v in spec["versions"])
    assert "subresources" not in spec  # identical, but absent: nothing at the top


def test_no_versions_no_version_and_no_hoisting():
    spec = internal(crd())["spec"]
    assert spec["versions"] == [] and "version" not in spec and "validation" not in spec


# ---------------------------------------------------------------- defaulting and conversion


def test_v1_defaults():
    got = internal(crd(version("v1", True, schema=SCHEMA)))
    spec = got["spec"]
    assert spec["names"] == {"plural": "widgets", "kind": "Widget", "singular": "widget", "listKind": "WidgetList"}
    assert spec["conversion"] == {"strategy": "None"}
    assert spec["preserveUnknownFields"] is False
    assert got["status"] == {"storedVersions": ["v1"]}


def test_webhook_flattened_and_defaulted():
    conversion = {"strategy": "Webhook", "webhook": {
        "conversionReviewVersions": ["v1"],
        "clientConfig": {"service": {"namespace": "ns", "name": "svc"}, "caBundle": "Zm9v\nYmFy"}}}
    got = internal(crd(version("v1", True), conversion=conversion))["spec"]["conversion"]
    assert got == {"strategy": "Webhook", "conversionReviewVersions": ["v1"],
                   "webhookClientConfig": {"service": {"namespace": "ns", "name": "svc", "port": 443},
                                           "caBundle": b"foobar"}}


def test_status_namespace_and_input_untouched():
    doc = crd(version("v1"), version("v2", True))
    doc["metadata"]["namespace"] = "default"
    doc["status"] = {"storedVersions": ["v0"], "conditions": [{"type": "Established", "status": "True"}]}
    res = decode_crd(doc)
    before = copy.deepcopy(res.crd)
    created = to_internal(res.crd)
    assert res.crd == before
    assert "namespace" not in created["metadata"]
    assert created["status"] == {"storedVersions": ["v2"]}
    stored = to_internal(res.crd, create=False)
    assert stored["status"]["storedVersions"] == ["v0"] and stored["status"]["conditions"]
    assert to_internal(decode_crd(crd(version("v1"))).crd)["status"] == {}  # no storage version: null


def test_prepare_for_update_keeps_old_status_and_adds_storage_version():
    old = internal(crd(version("v1", True)), create=False)
    new = internal(crd(version("v1"), version("v2", True)), create=False)
    new["status"] = {"storedVersions": ["ignored"]}
    got = prepare_for_update(new, old)
    assert got["status"] == {"storedVersions": ["v1", "v2"]}
    assert old["status"] == {"storedVersions": ["v1"]} and new["status"] == {"storedVersions": ["ignored"]}


def test_internal_paths_map_back_to_the_v1_document():
    assert internal_to_source(("spec", "validation", "openAPIV3Schema", "properties", "a")) == (
        "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "a")
    assert internal_to_source(("spec", "additionalPrinterColumns", 1, "name")) == (
        "spec", "versions", 0, "additionalPrinterColumns", 1, "name")
    assert internal_to_source(("spec", "version")) == ("spec", "versions", 0, "name")
    assert internal_to_source(("spec", "conversion", "webhookClientConfig", "url")) == (
        "spec", "conversion", "webhook", "clientConfig", "url")
    assert internal_to_source(("spec", "conversion", "conversionReviewVersions", 0)) == (
        "spec", "conversion", "webhook", "conversionReviewVersions", 0)
    assert internal_to_source(("spec", "versions", 1, "schema")) == ("spec", "versions", 1, "schema")
    assert internal_to_source(("metadata", "name")) == ("metadata", "name")
