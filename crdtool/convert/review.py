"""ConversionReview: the request the apiserver's webhook converter sends, and every check it makes
on the answer, with its error texts (apiextensions-apiserver's conversion/webhook_converter.go, and
the webhook REST client's decoding in client-go and apimachinery).

The answer is decoded as the webhook client decodes it: JSON (or, when the body does not start with
`{`, YAML) into the ConversionReview type of the request's version; a review of the other version,
or any other registered kind, cannot be converted into it; unknown kinds are not registered. Then
getConvertedObjectsFromResponse (v1: kind, response, uid, result.status; v1beta1: response and
result.status only), the object count, and per object: its groupVersion and kind, that name,
namespace and uid did not change, and restoreObjectMeta (the sent metadata comes back, only
labels and annotations may change, and changed ones must be valid).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import yaml

from crdtool.model import gojson
from crdtool.model.errors import aggregate_text, dedupe
from crdtool.model.gofmt import GoStruct, go_json, go_json_kind, go_quote, go_type_name
from crdtool.model.gounmarshal import (
    INT32,
    INT64,
    STRING,
    GoType,
    any_json,
    define,
    slice_of,
    string_type,
    struct,
    unmarshal,
)
from crdtool.model.gounquote import replace_lone_surrogate_escapes
from crdtool.model.groupversion import try_parse_group_version as parse_group_version
from crdtool.model.jsonvalue import json_copy
from crdtool.model.metav1 import UID
from crdtool.model.path import Path
from crdtool.schema.apimachinery.objectmeta import validate_annotations, validate_labels

__all__ = [
    "API_GROUP", "CONVERSION_REVIEW", "STATUS_TYPE", "CallError", "ConversionError", "Exchange", "Review",
    "ReviewConverter", "ReviewType", "check_converted", "converted_objects", "decode_review",
    "failure_status_message", "gv_text", "gvk_text", "interpret", "is_empty_object", "parse_group_version",
    "request_body", "review_version",
]

API_GROUP = "apiextensions.k8s.io"
#: The ConversionReview versions the apiserver can send, in no particular order (the CRD's order decides).
SUPPORTED = ("v1", "v1beta1")


class CallError(Exception):
    """The webhook call failed: the text is Go's (what follows `conversion webhook for X failed: `)."""


class ConversionError(Exception):
    """The conversion failed: the text is the apiserver's whole message."""


# ---------------------------------------------------------------- group/version helpers

def gv_text(group: str, version: str) -> str:
    """GroupVersion.String()."""
    return f"{group}/{version}" if group else version


def gvk_text(obj: Any) -> str:
    """GroupVersionKind.String() of an object as Unstructured reads it (`g/v, Kind=K`)."""
    api_version, kind = _nested_string(obj, "apiVersion"), _nested_string(obj, "kind")
    gv = parse_group_version(api_version)
    if gv is None:
        return "/, Kind="
    return f"{gv[0]}/{gv[1]}, Kind={kind}"


def _nested_string(obj: Any, *keys: str) -> str:
    """unstructured.NestedString as the Get* accessors use it: "" when absent or not a string."""
    for key in keys:
        if not isinstance(obj, dict):
            return ""
        obj = obj.get(key)
    return obj if isinstance(obj, str) else ""


def is_empty_object(obj: Any) -> bool:
    """isEmptyUnstructuredObject: only apiVersion and kind (the apiserver converts it without a call)."""
    return isinstance(obj, dict) and len(obj) == 2 and "apiVersion" in obj and "kind" in obj


def review_version(versions: list[str] | tuple[str, ...]) -> str:
    """The first of the CRD's conversionReviewVersions the apiserver supports."""
    for version in versions:
        if version in SUPPORTED:
            return version
    raise ConversionError("no supported conversion review versions")


# ---------------------------------------------------------------- the request

def request_body(version: str, uid: str, desired_api_version: str, objects: list[dict]) -> bytes:
    """The ConversionReview as the apiserver marshals it (its empty `response` included)."""
    review = GoStruct(
        kind="ConversionReview", apiVersion=f"{API_GROUP}/{version}",
        request=GoStruct(uid=uid, desiredAPIVersion=desired_api_version, objects=objects),
        response=GoStruct(uid="", convertedObjects=None, result=GoStruct(metadata={})))
    return go_json(review).encode("utf-8")


# ---------------------------------------------------------------- decoding the answer

_FIND_KIND = ('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
              'Kind string "json:\\"kind,omitempty\\"" }')
#: The scheme the webhook client decodes with: the apiextensions types, the meta kinds every group
#: version gets, and the unversioned kinds (any group version).
_GROUP_KINDS = ("ConversionReview", "CustomResourceDefinition", "CustomResourceDefinitionList")
_META_KINDS = ("WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions",
               "PatchOptions")
_UNVERSIONED_KINDS = ("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList")
#: runtime.NewScheme() names the scheme after its caller (NewClientManager in apiserver's util/webhook).
SCHEME_NAME = "k8s.io/apiserver/pkg/util/webhook/client.go:72"

# The Go types of the typed decode (model/gounmarshal).
_CAUSE = define(struct("v1.StatusCause"), {"reason": string_type("v1.CauseType"), "message": STRING,
                                           "field": STRING})
STATUS_TYPE = _STATUS = define(struct("v1.Status"), {
    "kind": STRING, "apiVersion": STRING,
    "metadata": define(struct("v1.ListMeta"), {"selfLink": STRING, "resourceVersion": STRING, "continue": STRING,
                                               "remainingItemCount": INT64}, pointers="remainingItemCount"),
    "status": STRING, "message": STRING, "reason": string_type("v1.StatusReason"),
    "details": define(struct("v1.StatusDetails"), {
        "name": STRING, "group": STRING, "kind": STRING, "uid": UID, "causes": slice_of(_CAUSE),
        "retryAfterSeconds": INT32}),
    "code": INT32}, pointers="details")
_RAW_LIST = slice_of(any_json("runtime.RawExtension"))


@functools.cache
def _review_type(version: str) -> GoType:
    """The Go type of a ConversionReview of `version` (v1 and v1beta1 have the same fields)."""
    return define(struct(f"{version}.ConversionReview"), {
        "kind": STRING, "apiVersion": STRING,
        "request": define(struct(f"{version}.ConversionRequest"), {
            "uid": UID, "desiredAPIVersion": STRING, "objects": _RAW_LIST}),
        "response": define(struct(f"{version}.ConversionResponse"), {
            "uid": UID, "convertedObjects": _RAW_LIST, "result": _STATUS}),
    }, pointers="request response")


def _type_error(value: Any, t: GoType) -> str | None:
    """The error json.Unmarshal reports for `value` into the Go type `t` (None if it fits).

    Keys are read in the order the webhook wrote them. A number's text is Python's json writing
    of the value read, close to the webhook's own (a float was written with a fraction or an
    exponent, which no integer type takes)."""
    error = unmarshal(value, t, number_text=json.dumps).error
    return None if error is None else str(error)


def interpret(value: Any) -> tuple[str, str]:
    """The json serializer's SimpleMetaFactory.Interpret: (apiVersion, kind) read with encoding/json
    (keys matched in any case; the last one wins)."""
    prefix = "couldn't get version/kind; json parse error: "
    if value is None:
        return "", ""
    if not isinstance(value, dict):
        raise CallError(f"{prefix}json: cannot unmarshal {go_json_kind(value)} into Go value of type {_FIND_KIND}")
    found = {"apiversion": "", "kind": ""}
    first_error = None
    for key, item in value.items():
        field = {"apiversion": "apiVersion", "kind": "kind"}.get(key.lower())
        if field is None or item is None:
            continue
        if not isinstance(item, str):
            first_error = first_error or (f"{prefix}json: cannot unmarshal {go_json_kind(item)} into Go struct "
                                          f"field .{field} of type string")
            continue
        found[field.lower()] = item
    if first_error:
        raise CallError(first_error)
    return found["apiversion"], found["kind"]


@dataclass(frozen=True)
class ReviewType:
    """A review kind a webhook client decodes answers into, and the scheme it decodes with: the kinds
    of its group (in the versions it sends), the meta kinds every group version gets, the
    unversioned kinds."""

    group: str
    kind: str
    group_kinds: tuple[str, ...]
    versions: tuple[str, ...]
    go_type: Callable[[str], GoType]

    def go_type_name(self, group: str, version: str, kind: str) -> str | None:
        """The Go type the scheme decodes a kind into, or None when it is not registered."""
        if kind in _UNVERSIONED_KINDS:
            return f"v1.{kind}"
        if group == self.group and version in self.versions:
            if kind in self.group_kinds:
                return f"{version}.{kind}"
            if kind in _META_KINDS:
                return f"v1.{kind}"
        return None


CONVERSION_REVIEW = ReviewType(API_GROUP, "ConversionReview", _GROUP_KINDS, SUPPORTED, _review_type)


@dataclass
class Review:
    """A decoded ConversionReview answer; `body` keeps the raw bytes (for the converted objects' raw JSON)."""

    api_version: str
    kind: str
    response: dict | None
    body: bytes

    def raw_converted(self) -> list[bytes]:
        """The raw JSON of each converted object, as the webhook wrote it."""
        response = gojson.raw_member(self.body, 0, "response")
        if response is None:
            return []
        objects = gojson.raw_member(self.body, response[0], "convertedObjects")
        return gojson.raw_items(self.body, objects[0]) if objects is not None else []


def _load(body: bytes) -> Any:
    """The universal deserializer's reading: JSON when the body starts with `{`, else YAML
    (sigs.k8s.io/yaml: go-yaml, then JSON). Both in linear time and within go-yaml's and
    encoding/json's nesting limits (10000), strings as Go reads them (a lone surrogate escape is U+FFFD)."""
    if body.lstrip(b" \t\r\n").startswith(b"{"):
        error = gojson.syntax_error(body)
        if error is not None:
            raise CallError(f"couldn't get version/kind; json parse error: {error}")
        return _json_value(body)
    error = gojson.syntax_error(body)
    if error is None:  # JSON (an array, a scalar) is YAML that go-yaml reads as JSON would
        return _json_value(body)
    if error == gojson.MAX_DEPTH_ERROR:  # as deep in flow style: go-yaml stops at the same depth
        raise CallError(f"error converting YAML to JSON: yaml: {_YAML_MAX_DEPTH}")
    text = body.decode("utf-8", "replace")
    try:
        _check_yaml_depth(text)
        return yaml.load(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError as err:
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        if problem == _LIBYAML_MAX_DEPTH:
            raise CallError(f"crdtool cannot read a YAML answer nested deeper than {_LIBYAML_DEPTH} levels "
                            f"(libyaml's limit; go-yaml reads up to {_YAML_DEPTH})") from None
        raise CallError(f"error converting YAML to JSON: yaml: {problem}") from None


#: libyaml's own nesting limit, below go-yaml's: a YAML answer nested deeper cannot be read here.
_LIBYAML_DEPTH = 1000
_LIBYAML_MAX_DEPTH = "exceeded maximum nesting depth"
#: go-yaml's limit on flow nesting and on block indentation levels (max_flow_level, max_indents).
_YAML_DEPTH = 10000
_YAML_MAX_DEPTH = f"exceeded max depth of {_YAML_DEPTH}"


def _json_value(body: bytes) -> Any:
    return json.loads(replace_lone_surrogate_escapes(body.decode("utf-8", "replace")))


def _check_yaml_depth(text: str) -> None:
    """go-yaml's scanner limits, checked on libyaml's events (no recursion): more than 10000 nested
    flow collections, or more than 10000 indentation levels of block collections."""
    flow = 0
    indents: list[int] = []  # the columns of the open block collections that each indent further
    opened: list[str] = []  # per open collection: "flow", "indent" (it pushed a level) or ""
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if event.flow_style:
                flow += 1
                if flow > _YAML_DEPTH:
                    raise yaml.YAMLError(_YAML_MAX_DEPTH)
                opened.append("flow")
            elif not indents or event.start_mark.column > indents[-1]:
                indents.append(event.start_mark.column)
                if len(indents) > _YAML_DEPTH:
                    raise yaml.YAMLError(_YAML_MAX_DEPTH)
                opened.append("indent")
            else:  # a sequence at its parent mapping's indentation
                opened.append("")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            what = opened.pop()
            if what == "flow":
                flow -= 1
            elif what == "indent":
                indents.pop()


def decode_review(body: bytes, version: str, review_type: ReviewType = CONVERSION_REVIEW) -> Review:
    """Result.Into(&ConversionReview{}) (or the review type's) of a 2xx answer: the decoded review, or
    CallError with Go's text."""
    value = _load(body)
    api_version, kind = interpret(value)
    gv = parse_group_version(api_version)
    if gv is None:
        raise CallError(f"unexpected GroupVersion string: {api_version}")
    group, gv_version = gv
    # gvkWithDefaults: what the body leaves out comes from the type decoded into
    kind = kind or review_type.kind
    if not gv_version and not group:
        group, gv_version = review_type.group, version
    elif not gv_version and group == review_type.group:
        gv_version = version
    if (group, gv_version, kind) != (review_type.group, version, review_type.kind):
        go_type = review_type.go_type_name(group, gv_version, kind)
        if go_type is None:
            raise CallError(f"no kind {go_quote(kind)} is registered for version "
                            f"{go_quote(gv_text(group, gv_version))} in scheme {go_quote(SCHEME_NAME)}")
        raise CallError(f"converting ({go_type}) to ({version}.{review_type.kind}): unknown conversion")
    error = _type_error(value, review_type.go_type(version))
    if error is not None:
        raise CallError(error)
    value = value or {}
    response = value.get("response")
    return Review(api_version=value.get("apiVersion") or "", kind=value.get("kind") or "",
                  response=response if isinstance(response, dict) else None, body=body)


def failure_status_message(body: bytes) -> str | None:
    """Result.Error() on an answer outside 2xx: the message of the metav1.Status with status Failure
    the body holds (decoded as v1 when it names no version), or None when it holds none."""
    try:
        value = _load(body)
        _, kind = interpret(value)
    except CallError:
        return None
    if kind != "Status" or not isinstance(value, dict) or _type_error(value, _STATUS) is not None:
        return None
    if value.get("status") != "Failure":
        return None
    return value.get("message") or ""


def converted_objects(review: Review, version: str, expected_uid: str) -> list[Any]:
    """getConvertedObjectsFromResponse: the converted objects (Python values), or CallError."""
    response = review.response
    if version == "v1":
        gv = parse_group_version(review.api_version)
        got = f"{gv[0]}/{gv[1]}, Kind={review.kind}" if gv is not None else f"/, Kind={review.kind}"
        if got != f"{API_GROUP}/v1, Kind=ConversionReview":
            raise CallError(f"expected webhook response of {API_GROUP}/v1, Kind=ConversionReview, got {got}")
    if response is None:
        raise CallError("no response provided")
    if version == "v1" and (response.get("uid") or "") != expected_uid:
        raise CallError(f"expected response.uid={go_quote(expected_uid)}, got {go_quote(response.get('uid') or '')}")
    result = response.get("result") or {}
    status = result.get("status") or ""
    if status != "Success":
        message = result.get("message") or ""
        if message:
            raise CallError(message)
        raise CallError(f"response.result.status was '{status}', not 'Success'")
    return list(response.get("convertedObjects") or [])


# ---------------------------------------------------------------- each converted object



def _unstructured(value: Any, raw: bytes | None) -> dict:
    """getRawExtensionObject: the converted object as Unstructured, or ConversionError with the decoder's text."""
    if value is None:
        raise ConversionError(gojson.END_OF_INPUT)
    if not isinstance(value, dict):
        raise ConversionError(f"json: cannot unmarshal {go_json_kind(value)} into Go value of type "
                        "map[string]interface {}")
    if not _nested_string(value, "kind"):
        text = raw.decode("utf-8", "replace") if raw is not None else go_json(value)
        raise ConversionError(f"Object 'Kind' is missing in '{text}'")
    return value


def _converted_gv(obj: dict) -> str:
    gv = parse_group_version(_nested_string(obj, "apiVersion"))
    return gv_text(*gv) if gv is not None else ""


def _restore_object_meta(original: dict, converted: dict) -> str | None:
    """restoreObjectMeta: the original metadata back on `converted` (in place), with the converted
    labels and annotations; the error text, if any."""
    if "metadata" not in converted:
        return "missing metadata in converted object"
    response_meta = converted["metadata"]
    if not isinstance(response_meta, dict):
        return f"invalid metadata of type {go_type_name(response_meta)} in converted object"
    meta = json_copy(original["metadata"]) if "metadata" in original else {}
    if not isinstance(meta, dict):
        return f"invalid metadata of type {go_type_name(meta)} in input object"
    converted["metadata"] = meta
    for field in ("labels", "annotations"):
        value = response_meta.get(field)
        if value is None:
            meta.pop(field, None)
            continue
        if not isinstance(value, dict):
            return f"invalid metadata.{field} of type {go_type_name(value)} in converted object"
        before = meta.get(field)
        if before is not None and not isinstance(before, dict):
            return f"invalid metadata.{field} of type {go_type_name(before)} in original object"
        before = before or {}
        changed = len(before) != len(value)
        for key, item in value.items():
            if not isinstance(item, str):
                return f"metadata.{field}[{key}] must be a string, but is {go_type_name(item)} in converted object"
            if before.get(key) != item:
                changed = True
        if changed:
            if field == "labels":
                errors = validate_labels(value, Path.root("metadata", "labels"))
            else:
                errors = validate_annotations(value, Path.root("metadata", "annotation"))
            if errors:
                return aggregate_text(dedupe([str(e) for e in errors]))
        meta[field] = value
    return None


def check_converted(sent: dict, value: Any, raw: bytes | None, desired: tuple[str, str]) -> dict:
    """The apiserver's checks of one converted object (a single object's conversion): the object with
    its metadata restored, or ConversionError with the whole message (`conversion webhook for ... returned
    invalid object ...`; a converted object that is not one is reported without that prefix)."""
    obj = _unstructured(value, raw)
    head = f"conversion webhook for {gvk_text(sent)}"
    expected_gv, got_gv = gv_text(*desired), _converted_gv(obj)
    if expected_gv != got_gv:
        raise ConversionError(f"{head} returned invalid object at index 0: invalid groupVersion "
                              f"(expected {expected_gv}, received {got_gv})")
    sent_kind = _nested_string(sent, "kind")
    got_kind = _nested_string(obj, "kind") if parse_group_version(_nested_string(obj, "apiVersion")) else ""
    if sent_kind != got_kind:
        raise ConversionError(f"{head} returned invalid object at index 0: invalid kind (expected {sent_kind}, "
                              f"received {got_kind})")
    for what, keys in (("kind", ("kind",)), ("name", ("metadata", "name")),
                       ("namespace", ("metadata", "namespace")), ("UID", ("metadata", "uid"))):
        before, after = _nested_string(sent, *keys), _nested_string(obj, *keys)
        if before != after:
            raise ConversionError(f"{head} returned invalid object: must have the same {what}: {before} != {after}")
    problem = _restore_object_meta(sent, obj)
    if problem is not None:
        raise ConversionError(f"{head} returned invalid metadata: {problem}")
    return obj


# ---------------------------------------------------------------- the webhook converter

class Exchange(Protocol):
    """Sends one ConversionReview and returns the decoded answer (an HTTPS webhook or a local command)."""

    def exchange(self, body: bytes, version: str) -> Review: ...


class ReviewConverter:
    """webhookConverter.Convert for a batch: every object that needs converting goes in one request.

    Objects already in the desired version, and objects with nothing but apiVersion and kind, are
    not sent (the apiserver converts them without a call). Each object's answer is checked as the
    apiserver checks a single object's, so each result reads as `kubectl get` of that object would;
    a failure of the whole call is every sent object's failure. `requests` counts the calls made.
    """

    strategy = "Webhook"

    def __init__(self, client: Exchange, review_versions: tuple[str, ...]) -> None:
        self.client = client
        self.review_versions = review_versions
        self.requests = 0

    def convert(self, objects: list[dict], desired: tuple[str, str]) -> list[dict | ConversionError]:
        desired_text = gv_text(*desired)
        out: list[dict | ConversionError] = list(objects)
        send = [i for i, obj in enumerate(objects) if not is_empty_object(obj)]
        if not send:
            return out
        try:
            version = review_version(self.review_versions)
        except ConversionError as err:
            for i in send:
                out[i] = err
            return out
        send = [i for i in send if _nested_string(objects[i], "apiVersion") != desired_text]
        for i in range(len(objects)):
            if is_empty_object(objects[i]):
                out[i] = {**objects[i], "apiVersion": desired_text}
        if not send:
            return out
        uid = str(uuid.uuid4())
        sent = [objects[i] for i in send]
        self.requests += 1
        try:
            answer = self.client.exchange(request_body(version, uid, desired_text, sent), version)
            converted = converted_objects(answer, version, uid)
        except CallError as err:
            for i in send:
                out[i] = ConversionError(f"conversion webhook for {gvk_text(objects[i])} failed: {err}")
            return out
        if len(converted) != len(sent):
            for i in send:
                out[i] = ConversionError(f"conversion webhook for {gvk_text(objects[i])} returned {len(converted)} "
                                         f"objects, expected {len(sent)}")
            return out
        raws: list[bytes] | None = None
        for position, i in enumerate(send):
            value = converted[position]
            raw = None
            if not (isinstance(value, dict) and _nested_string(value, "kind")):
                raws = raws if raws is not None else answer.raw_converted()
                raw = raws[position] if position < len(raws) else None
            try:
                out[i] = check_converted(objects[i], value, raw, desired)
            except ConversionError as err:
                out[i] = err
        return out
