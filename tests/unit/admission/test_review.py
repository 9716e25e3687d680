"""AdmissionReview answers as VerifyAdmissionResponse checks them (request/admissionreview.go)."""

from __future__ import annotations

import base64
import json

import pytest

from crdtool.admission import review
from crdtool.convert import webhook


def _verify(answer: dict, version: str = "v1", mutating: bool = True) -> review.Response:
    decoded = webhook.into_review(webhook.Answer(200, {}, json.dumps(answer).encode()), version,
                                  review.ADMISSION_REVIEW)
    return review.verify(decoded, version, "u1", mutating)


PATCH = base64.b64encode(b'[{"op":"add","path":"/a","value":1}]').decode()


def test_v1beta1_checks_neither_uid_nor_kind_and_takes_a_patch_as_jsonpatch() -> None:
    answer = {"apiVersion": "admission.k8s.io/v1beta1", "response": {"uid": "other", "allowed": True,
                                                                      "patch": PATCH}}
    found = _verify(answer, "v1beta1")
    assert found.allowed and found.patch_type == "JSONPatch" and found.patch.startswith(b"[")


@pytest.mark.parametrize(("response", "message"), [
    (None, "webhook response was absent"),
    ({"uid": "u1", "allowed": True, "patchType": "JSONPatch"},
     "webhook returned response.patchType but not response.patch"),
    ({"uid": "u1", "allowed": True, "patch": PATCH, "patchType": ""},
     'webhook returned invalid response.patchType of ""'),
])
def test_v1_checks(response, message) -> None:
    answer = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}
    if response is not None:
        answer["response"] = response
    with pytest.raises(review.CallError) as err:
        _verify(answer)
    assert str(err.value) == message


def test_another_review_version_is_not_converted() -> None:
    answer = {"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "response": {"uid": "u1"}}
    with pytest.raises(review.CallError) as err:
        _verify(answer)
    assert str(err.value) == "converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion"


def test_the_first_known_review_version_is_sent() -> None:
    assert review.review_version(["v2", "v1beta1", "v1"]) == "v1beta1"
    with pytest.raises(review.CallError, match="does not accept known AdmissionReview versions"):
        review.review_version(["v2"])
