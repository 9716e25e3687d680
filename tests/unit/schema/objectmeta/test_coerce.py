"""Metadata decoding (the 400 before validation) and embedded resources, with the apiserver's texts."""

import pytest

from crdtool.schema.objectmeta.coerce import (
    MetaDecodeError,
    coerce_metadata,
    decode_object_meta,
    handling_error,
    validate_embedded,
)
from crdtool.schema.structural.structural import new_structural

EMBEDDED = new_structural({"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "v": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True,
          "properties": {"inner": {"type": "object", "x-kubernetes-embedded-resource": True,
                                   "x-kubernetes-preserve-unknown-fields": True}}},
    "m": {"type": "object", "additionalProperties": {"type": "object", "x-kubernetes-embedded-resource": True,
                                                     "x-kubernetes-preserve-unknown-fields": True}},
}}}})


def widget(**spec):
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w1"}, "spec": spec}


@pytest.mark.parametrize(("meta", "message"), [
    ({"labels": {"a": 5}}, "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"),
    ({"labels": [1]},
     "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"),
    ({"name": 5}, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"),
    ("x", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"),
    ({"generation": 1.5}, "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"),
    ({"ownerReferences": [{"name": 5}]},
     "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string"),
    ({"ownerReferences": ["x"]},
     "json: cannot unmarshal string into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference"),
    ({"finalizers": "x"}, "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string"),
    # the keys are decoded in sorted order: labels before name
    ({"name": 5, "labels": {"a": True}},
     "json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string"),
    ({"creationTimestamp": "2020-13-01T00:00:00Z"}, 'parsing time "2020-13-01T00:00:00Z": month out of range'),
    ({"creationTimestamp": "x"},
     'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'),
])
def test_decode_errors(meta, message):
    with pytest.raises(MetaDecodeError) as err:
        decode_object_meta(meta)
    assert str(err.value) == message


def test_decode_normalizes_as_the_round_trip_does():
    meta = {"name": "a", "generation": 2.0, "labels": {"x": None}, "annotations": {}, "junk": 1, "uid": "",
            "deletionGracePeriodSeconds": 0, "finalizers": [None, "f"], "ownerReferences": [{"name": "o"}],
            "creationTimestamp": "2020-01-01T01:02:03.5+01:00"}
    assert decode_object_meta(meta) == {
        "name": "a", "generation": 2, "creationTimestamp": "2020-01-01T00:02:03Z", "deletionGracePeriodSeconds": 0,
        "labels": {"x": ""}, "ownerReferences": [{"apiVersion": "", "kind": "", "name": "o", "uid": ""}],
        "finalizers": ["", "f"]}
    assert decode_object_meta(None) == {}


def test_coerce_root_metadata():
    obj = widget()
    obj["metadata"] = {"name": "w1", "labels": {"a": 5}}
    assert coerce_metadata(obj, EMBEDDED, "Widget", "v1") == (
        "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string")


def test_coerce_embedded():
    obj = widget(v={"apiVersion": "v1", "kind": 5})
    assert coerce_metadata(obj, EMBEDDED, "Widget", "v1") == "spec.v.kind: Invalid value: 5: must be a string"
    obj = widget(v={"apiVersion": "v1", "kind": "ConfigMap", "metadata": "x"})
    reason = coerce_metadata(obj, EMBEDDED, "Widget", "v1")
    assert reason == ('spec.v.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type '
                      "v1.ObjectMeta")
    assert handling_error("Widget", "v1", reason) == (
        'Widget in version "v1" cannot be handled as a Widget: spec.v.metadata: Invalid value: "x": json: cannot '
        "unmarshal string into Go value of type v1.ObjectMeta")
    obj = widget(m={"k": {"apiVersion": None}})
    assert coerce_metadata(obj, EMBEDDED, "Widget", "v1") == (
        "spec.m[k].apiVersion: Invalid value: null: must be a string")


def test_coerce_fixes_embedded_metadata_in_place():
    obj = widget(v={"apiVersion": "v1", "kind": "X", "metadata": {"name": "a", "junk": 1, "labels": {}}})
    assert coerce_metadata(obj, EMBEDDED, "Widget", "v1") is None
    assert obj["spec"]["v"]["metadata"] == {"name": "a"}


def test_coerce_skips_embedded_resources_of_another_kind():
    obj = widget(v={"kind": 5})
    obj["kind"] = "Gadget"
    assert coerce_metadata(obj, EMBEDDED, "Widget", "v1") is None


def texts(errs):
    return [str(e) for e in errs]


def test_embedded_type_meta():
    assert texts(validate_embedded(widget(v={"data": 1}), EMBEDDED)) == [
        "spec.v.apiVersion: Required value", "spec.v.kind: Required value"]
    assert texts(validate_embedded(widget(v={"apiVersion": "", "kind": ""}), EMBEDDED)) == [
        'spec.v.apiVersion: Invalid value: "": must not be empty', 'spec.v.kind: Invalid value: "": must not be empty']
    assert texts(validate_embedded(widget(v={"apiVersion": "a/b/c", "kind": "X"}), EMBEDDED)) == [
        'spec.v.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']
    assert texts(validate_embedded(widget(v={"apiVersion": "v1", "kind": "Con fig"}), EMBEDDED)) == [
        "spec.v.kind: Invalid value: \"Con fig\": may have mixed case, but should otherwise match: a DNS-1035 label "
        "must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end "
        "with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
        "'[a-z]([-a-z0-9]*[a-z0-9])?')"]
    assert texts(validate_embedded(widget(v={"apiVersion": "v1", "kind": "X", "inner": {"kind": "Y"}}), EMBEDDED)) == [
        "spec.v.inner.apiVersion: Required value"]


def test_embedded_object_meta():
    # names are path segments in embedded resources: no DNS rules
    ok = widget(v={"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}})
    assert validate_embedded(ok, EMBEDDED) == []
    bad = widget(v={"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"labels": {"a": "-"}}})
    assert texts(validate_embedded(bad, EMBEDDED)) == [
        "spec.v.metadata.labels: Invalid value: \"-\": a valid label must be an empty string or consist of "
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
        "'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?"
        "[A-Za-z0-9])?')"]


def test_time_errors_name_their_field():
    # metav1.Time's UnmarshalJSON returns json.Unmarshal's error; the outer decoder adds the field
    with pytest.raises(MetaDecodeError) as err:
        decode_object_meta({"name": "a", "creationTimestamp": 5})
    assert str(err.value) == (
        "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string")
    # with DropMalformedFields the field goes, the rest stays
    assert decode_object_meta({"name": "a", "creationTimestamp": 5}, drop_malformed=True) == {"name": "a"}
