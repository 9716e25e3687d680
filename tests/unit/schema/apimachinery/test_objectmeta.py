"""ObjectMeta validation on create and update, with the apiserver's texts."""

from crdtool.model.path import Path
from crdtool.schema.apimachinery.names import name_is_dns_subdomain, validate_path_segment_name
from crdtool.schema.apimachinery.objectmeta import validate_object_meta, validate_object_meta_update

META = Path.root("metadata")


def texts(errs):
    return [str(e) for e in errs]


def test_name_required():
    assert texts(validate_object_meta({}, False, name_is_dns_subdomain, META)) == [
        "metadata.name: Required value: name or generateName is required"]


def test_generate_name_is_checked_as_a_prefix():
    errs = validate_object_meta({"generateName": "Bad_Prefix-", "namespace": "default"}, True,
                                name_is_dns_subdomain, META)
    assert texts(errs)[0].startswith('metadata.generateName: Invalid value: "Bad_Prefix-": a lowercase RFC 1123 '
                                     "subdomain must consist of")
    assert texts(errs)[1] == "metadata.name: Required value: name or generateName is required"


def test_namespace():
    assert texts(validate_object_meta({"name": "a"}, True, name_is_dns_subdomain, META)) == [
        "metadata.namespace: Required value"]
    assert texts(validate_object_meta({"name": "a", "namespace": "x"}, False, name_is_dns_subdomain, META)) == [
        "metadata.namespace: Forbidden: not allowed on this type"]
    errs = texts(validate_object_meta({"name": "a", "namespace": "Bad_NS"}, True, name_is_dns_subdomain, META))
    assert errs[0].startswith('metadata.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label')


def test_labels_annotations_finalizers():
    meta = {"name": "a", "labels": {"bad key!": "ok", "k": "x" * 64},
            "annotations": {"a/b/c": "v"}, "finalizers": ["bad finalizer"]}
    errs = texts(validate_object_meta(meta, False, name_is_dns_subdomain, META))
    assert errs[0].startswith('metadata.labels: Invalid value: "bad key!": name part must consist of')
    assert errs[1] == ('metadata.labels: Invalid value: "' + "x" * 64 + '": must be no more than 63 bytes')
    assert errs[2].startswith('metadata.annotations: Invalid value: "a/b/c": a valid label key must consist')
    assert errs[3].startswith('metadata.finalizers: Invalid value: "bad finalizer": name part must consist')
    assert len(errs) == 4


def test_annotations_too_large():
    meta = {"name": "a", "annotations": {"k": "x" * (256 * 1024)}}
    assert texts(validate_object_meta(meta, False, name_is_dns_subdomain, META)) == [
        "metadata.annotations: Too long: may not be more than 262144 bytes"]


def test_owner_reference_without_uid():
    meta = {"name": "a", "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "cm"}]}
    assert texts(validate_object_meta(meta, False, validate_path_segment_name, META)) == [
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty']


def test_custom_resource_name_rule():
    assert texts(validate_object_meta({"name": "bad/name", "namespace": "ns"}, True, validate_path_segment_name,
                                      META)) == ["metadata.name: Invalid value: \"bad/name\": may not contain '/'"]


def test_managed_fields():
    meta = {"name": "a", "managedFields": [{"operation": "Patch", "manager": "m\x07"}]}
    assert texts(validate_object_meta(meta, False, name_is_dns_subdomain, META)) == [
        'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[0].manager: Invalid value: "m\\a": invalid character U+0007 (at position 1)']


def test_update():
    old = {"name": "w1", "resourceVersion": "5", "generation": 3}
    assert texts(validate_object_meta_update({"name": "w2", "resourceVersion": "5", "generation": 3}, old, META)) == [
        'metadata.name: Invalid value: "w2": field is immutable']
    assert texts(validate_object_meta_update({"name": "w1", "generation": 2}, old, META)) == [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        "metadata.generation: Invalid value: 2: must not be decremented"]
