"""The apiserver's create and update validation of custom resources (strategy.go, validator.go)."""

import copy
import json
from collections import Counter

import pytest
from conformance_cases import load_cases, requires_shared

from crdtool.schema.customresource.strategy import (
    BLOCKING_RULES_MESSAGE,
    ResourceContext,
    namespace_mismatch,
    validate_create,
    validate_update,
)
from crdtool.schema.objectmeta.coerce import coerce_metadata


def crd(schema: dict, scope: str = "Namespaced", subresources: dict | None = None) -> dict:
    version = {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}}
    if subresources is not None:
        version["subresources"] = subresources
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": scope, "versions": [version],
                     "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"}}}


SPEC = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "replicas": {"type": "integer", "maximum": 10}, "v": {"type": "string"},
    "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}},
    "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}
CTX = ResourceContext.from_crd(crd(SPEC), "v1")


def widget(spec=None, **meta) -> dict:
    return {"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w1", "namespace": "default", **meta}, "spec": spec or {}}


def texts(result) -> list[str]:
    errs, _ = result
    return [str(e) for e in errs]


def test_context_from_crd():
    assert (CTX.qualified_kind, CTX.api_version, CTX.namespaced, CTX.status_enabled, CTX.scale) == (
        "Widget.example.com", "example.com/v1", True, False, None)


def test_create_in_the_apiservers_order():
    obj = widget({"replicas": 15, "set": ["a", "a"]}, name="Bad_Name")
    assert texts(validate_create(obj, CTX)) == [
        "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case "
        "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
        "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
        "[a-z0-9])?)*')",
        "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        'spec.set[1]: Duplicate value: "a"']


def test_create_metadata():
    obj = widget()
    del obj["metadata"]
    assert texts(validate_create(obj, CTX)) == [
        "metadata.name: Required value: name or generateName is required", "metadata.namespace: Required value"]
    assert texts(validate_create(widget(generateName="w-", name=""), CTX)) == []
    cluster = ResourceContext.from_crd(crd(SPEC, scope="Cluster"), "v1")
    assert texts(validate_create(widget(namespace="ns1"), cluster)) == []  # the apiserver clears it


def test_wrong_kind_skips_metadata_and_schema():
    obj = widget({"replicas": 15}, name="Bad_Name")
    obj["kind"] = "Gadget"
    assert texts(validate_create(obj, CTX)) == ['kind: Invalid value: "Gadget": must be Widget']


def test_status_subresource():
    ctx = ResourceContext.from_crd(crd(SPEC, subresources={"status": {}}), "v1")
    obj = widget()
    obj["status"] = {"replicas": "x"}
    assert texts(validate_create(obj, ctx)) == []  # a create cannot set status
    assert "status" in obj  # the caller's object is left alone
    old = widget()
    old["status"] = {"replicas": "y"}
    # an update keeps the stored status: its (unchanged) error ratchets away
    assert texts(validate_update(obj, old, ctx)) == []


def test_scale_subresource():
    ctx = ResourceContext.from_crd(crd(SPEC, subresources={"scale": {
        "specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas",
        "labelSelectorPath": ".status.selector"}}), "v1")
    obj = widget({"replicas": -1})
    obj["status"] = {"replicas": 1.5, "selector": 5}
    assert texts(validate_create(obj, ctx)) == [
        "status.replicas: Invalid value: \"number\": status.replicas in body must be of type integer: \"number\"",
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in status.replicas',
        ".spec.replicas: Invalid value: -1: should be a non-negative integer",
        ".status.replicas: Invalid value: 0: .status.replicas accessor error: 1.5 is of the type float64, "
        "expected int64",
        '.status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, '
        "expected string"]


def test_rules_are_skipped_after_blocking_errors():
    schema = copy.deepcopy(SPEC)
    schema["properties"]["spec"]["x-kubernetes-validations"] = [{"rule": "self.v != 'x'"}]
    ctx = ResourceContext.from_crd(crd(schema), "v1")
    calls = []

    def rules(obj, old):
        calls.append(old)
        return [], ["a warning"]

    assert texts(validate_create(widget({"v": 1}), ctx, rules)) == [
        'spec.v: Invalid value: "integer": spec.v in body must be of type string: "integer"',
        f"<nil>: Invalid value: null: {BLOCKING_RULES_MESSAGE}"]
    assert calls == []
    assert validate_create(widget({"v": "ok"}), ctx, rules) == ([], ["a warning"])
    assert calls == [None]


def test_finalizer_warnings():
    assert validate_create(widget(finalizers=["cleanup", "example.com/f", "orphan"]), CTX) == ([], [
        'metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts '
        "with other finalizer writers"])
    old = widget(finalizers=["a.example.com"])
    _, warnings = validate_update(widget(finalizers=["a.example.com", "b.example.com"]), old, CTX)
    assert warnings == ['metadata.finalizers: "b.example.com": prefer a domain-qualified finalizer name including '
                        "a path (/) to avoid accidental conflicts with other finalizer writers"]


def test_update_metadata_errors_come_twice():
    assert texts(validate_update(widget(name="w2"), widget(), CTX)) == [
        'metadata.name: Invalid value: "w2": field is immutable'] * 2
    assert texts(validate_update(widget(name="%"), widget(), CTX)) == [
        "metadata.name: Invalid value: \"%\": may not contain '%'"] + [
        'metadata.name: Invalid value: "%": field is immutable'] * 2


def test_update_ratchets_schema_and_list_types():
    old = widget({"replicas": 15, "set": ["a", "a"]})
    assert texts(validate_update(widget({"replicas": 15, "set": ["a", "a"], "v": "x"}), old, CTX)) == []
    assert texts(validate_update(widget({"replicas": 16, "set": ["b", "b"]}), widget(), CTX)) == [
        "spec.replicas: Invalid value: 16: spec.replicas in body should be less than or equal to 10",
        'spec.set[1]: Duplicate value: "b"']


def test_namespace_mismatch():
    assert namespace_mismatch(widget(namespace="a"), "b", True) == (
        "the namespace of the provided object does not match the namespace sent on the request")
    assert namespace_mismatch(widget(namespace="a"), "a", True) is None


# ---------------------------------------------------------------- the conformance cases with inline CRDs

def _inline_cases() -> list:
    out = []
    for case in load_cases("validate"):
        if "$ref" in case["crd"] or "x-kubernetes-validations" in json.dumps(case["crd"]):
            continue
        out.append(pytest.param(case, id=case["id"]))
    return out


@requires_shared
@pytest.mark.parametrize("case", _inline_cases())
def test_validate_case(case: dict) -> None:
    """The expected object (pruned and defaulted by the apiserver) gets the expected errors and warnings."""
    expected = case["expected"]
    ctx = ResourceContext.from_crd(case["crd"], expected["version"])
    if expected.get("object") is None:
        assert coerce_metadata(copy.deepcopy(case["object"]), ctx.structural, ctx.kind, ctx.version) == (
            expected["coerceError"])
        return
    obj = copy.deepcopy(expected["object"])
    meta = obj.setdefault("metadata", {})
    if ctx.namespaced and not meta.get("namespace"):
        meta["namespace"] = case.get("namespace") or "default"
    if case.get("namespace") and expected["status"] and not expected["errors"]:
        assert namespace_mismatch(obj, case["namespace"], ctx.namespaced) == expected["status"]
        return
    assert coerce_metadata(obj, ctx.structural, ctx.kind, ctx.version) is None
    errors, warnings = validate_create(obj, ctx)
    assert Counter(str(e) for e in errors) == Counter(e["error"] for e in expected["errors"])
    assert warnings == expected["warnings"]


STATUS_CTX = ResourceContext.from_crd(crd(SPEC, subresources={"status": {}}), "v1")


def test_prepare_for_create_drops_status_and_sets_generation_one():
    from crdtool.schema.customresource.strategy import prepare_for_create

    sent = {**widget({"v": "a"}, generation=7), "status": {"replicas": 1}}
    prepared = prepare_for_create(sent, STATUS_CTX)
    assert "status" not in prepared and prepared["metadata"]["generation"] == 1
    assert prepare_for_create(sent, CTX)["status"] == {"replicas": 1}
    assert sent["metadata"]["generation"] == 7  # the caller's object is left alone


@pytest.mark.parametrize(("new", "ctx", "generation"), [
    ({**widget({"v": "b"}), "status": {"replicas": 2}}, STATUS_CTX, 4),  # spec changed
    ({**widget({"v": "a"}), "status": {"replicas": 2}}, STATUS_CTX, 3),  # the status is the stored one
    ({**widget({"v": "a"}), "status": {"replicas": 2}}, CTX, 4),  # without the subresource, status is content
    ({**widget({"v": "a"}, labels={"x": "y"}), "status": {"replicas": 1}}, STATUS_CTX, 3),  # metadata only
])
def test_prepare_for_update_bumps_the_generation_when_content_changed(new, ctx, generation):
    """customResourceStrategy.PrepareForUpdate: the stored status with the subresource, and the
    generation one more than the stored one when anything but metadata differs (copyNonMetadata)."""
    from crdtool.schema.customresource.strategy import prepare_for_update

    old = {**widget({"v": "a"}, generation=3), "status": {"replicas": 1}}
    prepared, stored = prepare_for_update(new, old, ctx)
    assert prepared["metadata"]["generation"] == generation and stored["metadata"]["generation"] == 3
    if ctx is STATUS_CTX:
        assert prepared["status"] == {"replicas": 1}
    assert prepare_for_update(new, old, ctx, content_generation=False)[0]["metadata"]["generation"] == 3


def test_an_integer_and_a_float_are_different_content():
    from crdtool.schema.customresource.strategy import prepare_for_update

    old = widget({"replicas": 1}, generation=1)
    assert prepare_for_update(widget({"replicas": 1.0}), old, CTX)[0]["metadata"]["generation"] == 2
