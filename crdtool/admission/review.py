"""AdmissionReview: the request the apiserver sends a webhook and every check it makes on the answer
(k8s.io/apiserver pkg/admission/plugin/webhook/request/admissionreview.go: CreateAdmissionObjects,
CreateV1AdmissionReview, VerifyAdmissionResponse; the answer decoded by the webhook client as
crdtool.convert.webhook decodes a ConversionReview).
"""

from __future__ import annotations

import base64
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from crdtool.admission.chain import Attributes, JSONObject, Resource
from crdtool.admission.request import admission_request
from crdtool.convert import review as reviews
from crdtool.model.gofmt import go_quote
from crdtool.model.gounmarshal import (
    BOOL,
    BYTES,
    STRING,
    STRINGS,
    GoType,
    any_json,
    define,
    map_of,
    string_type,
    struct,
)
from crdtool.model.metav1 import UID

__all__ = ["ADMISSION_REVIEW", "CallError", "Response", "request_body", "review_version", "verify"]

GROUP = "admission.k8s.io"
SUPPORTED = ("v1", "v1beta1")
CallError = reviews.CallError


def _go_type(version: str) -> GoType:
    """The Go type of an AdmissionReview of `version` (v1 and v1beta1 have the same response fields)."""
    return define(struct(f"{version}.AdmissionReview"), {
        "kind": STRING, "apiVersion": STRING,
        "request": any_json(f"{version}.AdmissionRequest"),
        "response": define(struct(f"{version}.AdmissionResponse"), {
            "uid": UID, "allowed": BOOL, "status": reviews.STATUS_TYPE, "patch": BYTES,
            "patchType": string_type(f"{version}.PatchType"), "auditAnnotations": map_of(STRING),
            "warnings": STRINGS}, pointers="status patchType"),
    }, pointers="request response")


#: The review the admission webhook client decodes answers into (its scheme: admission v1beta1 and v1).
ADMISSION_REVIEW = reviews.ReviewType(GROUP, "AdmissionReview", ("AdmissionReview",), SUPPORTED, _go_type)


def review_version(versions: list[str]) -> str:
    """The first of admissionReviewVersions the apiserver sends, or CallError (createAdmissionObjects')."""
    for version in versions:
        if version in SUPPORTED:
            return version
    raise CallError("could not create admission objects: webhook does not accept known AdmissionReview "
                    "versions (v1, v1beta1)")


def request_body(version: str, uid: str, attributes: Attributes, invoked: Resource, obj: JSONObject,
                 old: JSONObject | None) -> bytes:
    """The AdmissionReview the apiserver marshals: `invoked` is the kind and resource the webhook
    matched (its object in that version), the request's own are requestKind and requestResource."""
    request = admission_request(attributes, invoked, invoked, uid, (obj, old))
    review = {"kind": "AdmissionReview", "apiVersion": f"{GROUP}/{version}", "request": request}
    return json.dumps(review, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def new_uid() -> str:
    """uuid.NewUUID(): a version 1 UUID."""
    return str(uuid.uuid1())


@dataclass
class Response:
    """The fields VerifyAdmissionResponse extracts from an answer."""

    allowed: bool
    result: dict[str, Any] | None
    patch: bytes = b""
    patch_type: str = ""
    audit_annotations: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def verify(answer: reviews.Review, version: str, uid: str, mutating: bool) -> Response:
    """VerifyAdmissionResponse: the response's fields, or CallError with the apiserver's text."""
    response = answer.response
    if response is None:
        raise CallError("webhook response was absent")
    patch = base64.b64decode(response.get("patch") or "")
    patch_type = response.get("patchType")
    if version == "v1":
        if (response.get("uid") or "") != uid:
            raise CallError(f"expected response.uid={go_quote(uid)}, got {go_quote(response.get('uid') or '')}")
        got = reviews.parse_group_version(answer.api_version) or ("", answer.api_version)
        if (got[0], got[1], answer.kind) != (GROUP, "v1", "AdmissionReview"):
            raise CallError(f"expected webhook response of {GROUP}/v1, Kind=AdmissionReview, got "
                            f"{got[0]}/{got[1]}, Kind={answer.kind}")
        if mutating:
            if patch and patch_type is None:
                raise CallError("webhook returned response.patch but not response.patchType")
            if not patch and patch_type is not None:
                raise CallError("webhook returned response.patchType but not response.patch")
            if patch_type == "":
                raise CallError('webhook returned invalid response.patchType of ""')
        else:
            if patch:
                raise CallError("validating webhook may not return response.patch")
            if patch_type is not None:
                raise CallError("validating webhook may not return response.patchType")
        patch_type = patch_type or ""
    else:  # v1beta1: neither uid nor kind nor patchType checked; a patch is a JSONPatch
        patch_type = "JSONPatch" if mutating and patch else ""
    if not mutating:
        patch = b""
    result = response.get("status")  # AdmissionResponse.Result, `status` in JSON
    return Response(allowed=bool(response.get("allowed")), result=result if isinstance(result, dict) else None,
                    patch=patch, patch_type=patch_type, audit_annotations=dict(response.get("auditAnnotations") or {}),
                    warnings=list(response.get("warnings") or []))
