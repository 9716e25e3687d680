"""admission.webhooks: the object in the version a webhook matched, as the dispatchers'
versionedAttributeAccessor keeps it (k8s.io/apiserver pkg/admission/conversion.go,
plugin/webhook/{mutating,validating}/dispatcher.go), and the kinds no webhook sees (rules.go)."""

from __future__ import annotations

import pytest

from crdtool.admission import webhooks
from crdtool.admission.chain import Attributes, ConversionError, Resource
from crdtool.admission.rules import is_exempt_admission_configuration

GROUP = "example.com"


def _attributes(calls: list, fail: bool = False, cannot: bool = False) -> Attributes:
    def convert(obj, version):
        calls.append((obj["apiVersion"], version))
        if fail:
            raise ConversionError("conversion webhook for example.com/v1, Kind=Thing failed: boom")
        if cannot:
            return None
        return {**obj, "apiVersion": f"{GROUP}/{version}"}

    return Attributes(operation="UPDATE", object={"apiVersion": f"{GROUP}/v1", "kind": "Thing", "spec": 1},
                      old_object={"apiVersion": f"{GROUP}/v1", "kind": "Thing", "spec": 0},
                      resource=Resource(GROUP, "v1", "Thing", "things"), name="t", namespace="ns", convert=convert)


def test_the_request_version_needs_no_conversion() -> None:
    calls: list = []
    attributes = _attributes(calls)
    obj, old = webhooks._Versions(attributes, mutating=True).get("v1")
    assert obj is attributes.object and old is attributes.old_object and calls == []


def test_validating_converts_each_version_once() -> None:
    calls: list = []
    versions = webhooks._Versions(_attributes(calls), mutating=False)
    first = versions.get("v2")
    assert versions.get("v2") is first
    assert first[0]["apiVersion"] == f"{GROUP}/v2" and first[1]["spec"] == 0
    assert calls == [(f"{GROUP}/v1", "v2"), (f"{GROUP}/v1", "v2")]  # the object, then the old object


def test_mutating_keeps_a_patched_object_and_converts_it_back() -> None:
    """ConvertVersionedAttributes: a dirty versioned object goes back to the request's version before
    another version is made from it, and at the end of the dispatch."""
    calls: list = []
    attributes = _attributes(calls)
    versions = webhooks._Versions(attributes, mutating=True)
    obj, _ = versions.get("v2")
    versions.patched({**obj, "spec": 2})
    assert versions.get("v2")[0]["spec"] == 2 and len(calls) == 2  # same version: kept, not converted
    calls.clear()
    assert versions.get("v3")[0] == {"apiVersion": f"{GROUP}/v3", "kind": "Thing", "spec": 2}
    assert calls == [(f"{GROUP}/v2", "v1"), (f"{GROUP}/v1", "v3"), (f"{GROUP}/v1", "v3")]
    assert attributes.object["spec"] == 2 and attributes.object["apiVersion"] == f"{GROUP}/v1"
    versions.patched({**versions.get("v3")[0], "spec": 3})
    versions.finish()
    assert attributes.object == {"apiVersion": f"{GROUP}/v1", "kind": "Thing", "spec": 3}


@pytest.mark.parametrize(("mutating", "message"), [
    (False, "Internal error occurred: conversion webhook for example.com/v1, Kind=Thing failed: boom"),
    # the mutating accessor makes it an internal error, and its Dispatch once more
    (True, "Internal error occurred: Internal error occurred: conversion webhook for example.com/v1, Kind=Thing "
           "failed: boom"),
])
def test_a_failed_conversion_is_an_internal_error(mutating, message) -> None:
    with pytest.raises(webhooks._Refusal) as raised:
        webhooks._Versions(_attributes([], fail=True), mutating=mutating).get("v2")
    assert raised.value.status == webhooks.Status(message, "InternalError", 500)


def test_a_conversion_crdtool_cannot_make() -> None:
    with pytest.raises(webhooks._CannotConvert, match="example.com/v2"):
        webhooks._Versions(_attributes([], cannot=True), mutating=False).get("v2")


@pytest.mark.parametrize(("group", "kind", "exempt"), [
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", True),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding", True),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", True),
    ("admissionregistration.k8s.io", "Other", False),
    ("", "ConfigMap", False),
])
def test_admission_configurations_are_exempt(group, kind, exempt) -> None:
    assert is_exempt_admission_configuration(group, kind) is exempt
