"""The Go types of k8s.io/apimachinery's meta/v1 that more than one decoder reads: ObjectMeta
(a CRD's metadata, a custom resource's and its embedded resources' metadata) and metav1.Time.

Described for model/gounmarshal with their json names, pointer fields and omitempty tags, in
the order of the Go struct (json.Marshal writes them in that order).
"""

from __future__ import annotations

from typing import Any

from crdtool.model.gotime import TimeParseError, parse_rfc3339
from crdtool.model.gounmarshal import (
    BOOL,
    INT64,
    STRING,
    STRINGS,
    Decoder,
    UnmarshalError,
    any_json,
    custom,
    define,
    map_of,
    slice_of,
    string_type,
    struct,
)

__all__ = ["FIELDS_V1", "OBJECT_META", "TIME", "UID"]


def _decode_time(value: Any, decoder: Decoder) -> str:
    """metav1.Time.UnmarshalJSON: a JSON string (json.Unmarshal into a string), then
    time.Parse(time.RFC3339); either error is returned. The text is kept as written."""
    text: str = decoder.nested(value, STRING)
    try:
        parse_rfc3339(text)
    except TimeParseError as err:
        raise UnmarshalError(str(err)) from None
    return text


def _encode_time(text: str) -> str:
    """metav1.Time.MarshalJSON: the time in UTC, to the second."""
    return parse_rfc3339(text).utc_rfc3339()


TIME = custom("v1.Time", _decode_time, _encode_time)
FIELDS_V1 = any_json("v1.FieldsV1")  # its UnmarshalJSON keeps any JSON as it is
UID = string_type("types.UID")

OBJECT_META = define(struct("v1.ObjectMeta"), {
    "name": STRING, "generateName": STRING, "namespace": STRING, "selfLink": STRING, "uid": UID,
    "resourceVersion": STRING, "generation": INT64, "creationTimestamp": TIME, "deletionTimestamp": TIME,
    "deletionGracePeriodSeconds": INT64, "labels": map_of(STRING), "annotations": map_of(STRING),
    "ownerReferences": slice_of(define(struct("v1.OwnerReference"), {
        "apiVersion": STRING, "kind": STRING, "name": STRING, "uid": UID, "controller": BOOL,
        "blockOwnerDeletion": BOOL,
    }, pointers="controller blockOwnerDeletion", omitempty="controller blockOwnerDeletion")),
    "finalizers": STRINGS,
    "managedFields": slice_of(define(struct("v1.ManagedFieldsEntry"), {
        "manager": STRING, "operation": string_type("v1.ManagedFieldsOperationType"), "apiVersion": STRING,
        "time": TIME, "fieldsType": STRING, "fieldsV1": FIELDS_V1, "subresource": STRING,
    }, pointers="time fieldsV1",
        omitempty="manager operation apiVersion time fieldsType fieldsV1 subresource")),
}, pointers="deletionTimestamp deletionGracePeriodSeconds",
    omitempty="name generateName namespace selfLink uid resourceVersion generation creationTimestamp "
              "deletionTimestamp deletionGracePeriodSeconds labels annotations ownerReferences finalizers "
              "managedFields")
