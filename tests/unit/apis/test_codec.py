"""apis.codec: a built-in object as the apiserver's JSON serializer writes it and reads a patched one
back (k8s.io/apimachinery pkg/runtime/serializer/json/json.go Decode, meta.go Interpret; the
mutating webhook dispatcher's non-strict serializer)."""

from __future__ import annotations

import pytest

from crdtool.apis import codec
from crdtool.model.discovery import lookup_kind

DEPLOYMENT = lookup_kind("apps/v1", "Deployment").builtin
CONFIGMAP = lookup_kind("v1", "ConfigMap").builtin


def _deployment() -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"template": {"metadata": {"labels": {"app": "web"}},
                                  "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}


def test_encode_writes_what_json_marshal_writes() -> None:
    out = codec.encode(_deployment(), DEPLOYMENT)
    assert list(out) == ["kind", "apiVersion", "metadata", "spec", "status"]  # Go's field order
    assert out["status"] == {} and out["spec"]["strategy"] == {}  # structs are never empty
    assert out["spec"]["template"]["spec"]["containers"][0]["resources"] == {}
    assert "selector" not in out["spec"] and "replicas" not in out["spec"]  # nil pointers
    # ObjectMeta.creationTimestamp is `omitempty,omitzero` in 1.36: left out when zero, wherever it is
    assert "creationTimestamp" not in out["metadata"]
    assert "creationTimestamp" not in out["spec"]["template"]["metadata"]


def test_encode_keeps_a_creation_timestamp_that_is_set() -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": "c", "creationTimestamp": "2024-01-02T03:04:05Z"}}
    assert codec.encode(obj, CONFIGMAP)["metadata"]["creationTimestamp"] == "2024-01-02T03:04:05Z"


def test_decode_round_trips_encode() -> None:
    encoded = codec.encode(_deployment(), DEPLOYMENT)
    assert codec.encode(codec.decode(encoded, DEPLOYMENT), DEPLOYMENT) == encoded


def test_decode_mutated_drops_unknown_fields_silently() -> None:
    encoded = codec.encode(_deployment(), DEPLOYMENT)
    patched = {**encoded, "spec": {**encoded["spec"], "notAField": 1, "Replicas": 2}}  # case-sensitive
    assert codec.decode_mutated(patched, DEPLOYMENT) == encoded


def test_a_strict_decoder_refuses_unknown_fields_in_read_order() -> None:
    encoded = codec.encode(_deployment(), DEPLOYMENT)
    patched = {**encoded, "zz": 1, "spec": {**encoded["spec"], "notAField": 1, "Replicas": 2}}
    with pytest.raises(codec.CodecError) as raised:
        codec.decode_mutated(patched, DEPLOYMENT, strict=True)
    assert str(raised.value) == ('strict decoding error: unknown field "spec.Replicas", '
                                 'unknown field "spec.notAField", unknown field "zz"')


def test_a_strict_decoder_answers_a_type_error_before_unknown_fields() -> None:
    encoded = codec.encode(_deployment(), DEPLOYMENT)
    patched = {**encoded, "spec": {**encoded["spec"], "notAField": 1, "replicas": "three"}}
    with pytest.raises(codec.CodecError) as raised:
        codec.decode_mutated(patched, DEPLOYMENT, strict=True)
    assert str(raised.value).startswith("json: cannot unmarshal string into Go struct field DeploymentSpec")


@pytest.mark.parametrize(("change", "error"), [
    ({"spec": {"replicas": "three"}},
     "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
    ({"kind": 3}, "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct "
                  "field .kind of type string"),
    ({"apiVersion": "a/b/c"}, "unexpected GroupVersion string: a/b/c"),
])
def test_decode_mutated_errors_are_the_serializers(change, error) -> None:
    with pytest.raises(codec.CodecError) as raised:
        codec.decode_mutated({**codec.encode(_deployment(), DEPLOYMENT), **change}, DEPLOYMENT)
    assert str(raised.value) == error


def test_an_empty_kind_or_version_is_the_kinds_own() -> None:
    """gvkWithDefaults: the type decoded into fills what the patched object leaves empty."""
    encoded = codec.encode(_deployment(), DEPLOYMENT)
    without = {k: v for k, v in encoded.items() if k not in ("kind", "apiVersion")}
    assert codec.decode_mutated(without, DEPLOYMENT)["spec"] == encoded["spec"]


def test_another_kind_is_not_decoded() -> None:
    with pytest.raises(codec.CodecError, match="crdtool cannot decode the object as apps/v1, Kind=StatefulSet"):
        codec.decode_mutated({**codec.encode(_deployment(), DEPLOYMENT), "kind": "StatefulSet"}, DEPLOYMENT)
