"""CreateAdmissionRequest in one place (crdtool.admission.request): the webhook body's request and
the `request` CEL sees are the same fields (k8s.io/apiserver pkg/admission/plugin/cel
CreateAdmissionRequest, pkg/admission/plugin/webhook/request/admissionreview.go CreateV1AdmissionReview),
omitempty fields absent as in their JSON."""

from __future__ import annotations

import json

from crdtool.admission.chain import Attributes, Resource
from crdtool.admission.request import admission_request
from crdtool.admission.review import request_body

V1 = Resource("stable.example.com", "v1", "CronTab", "crontabs")
V1BETA1 = Resource("stable.example.com", "v1beta1", "CronTab", "crontabs")


def attributes(**changes) -> Attributes:
    fields = {"operation": "CREATE", "object": {"kind": "CronTab"}, "old_object": None, "resource": V1,
              "name": "c", "namespace": "default"}
    fields.update(changes)
    return Attributes(**fields)


def test_the_cel_request_leaves_empty_omitempty_fields_out() -> None:
    request = admission_request(attributes(name="", namespace="", user_info={"username": "u", "groups": []}),
                                V1, V1)
    assert request == {
        "uid": "",
        "kind": {"group": "stable.example.com", "version": "v1", "kind": "CronTab"},
        "resource": {"group": "stable.example.com", "version": "v1", "resource": "crontabs"},
        "requestKind": {"group": "stable.example.com", "version": "v1", "kind": "CronTab"},
        "requestResource": {"group": "stable.example.com", "version": "v1", "resource": "crontabs"},
        "operation": "CREATE", "userInfo": {"username": "u"}, "dryRun": True,
        "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "dryRun": ["All"]},
    }


def test_kind_and_resource_are_the_matched_ones_the_request_ones_stay() -> None:
    request = admission_request(attributes(operation="UPDATE", old_object={}), V1BETA1, V1)
    assert request["kind"]["version"] == "v1beta1" and request["resource"]["version"] == "v1"
    assert request["requestKind"]["version"] == "v1"
    assert request["options"]["kind"] == "UpdateOptions"
    assert (request["name"], request["namespace"]) == ("c", "default")


def test_a_subresource_is_in_both_places() -> None:
    scale = Resource("apps", "v1", "Scale", "deployments", "scale")
    request = admission_request(attributes(resource=scale), scale, scale)
    assert request["subResource"] == request["requestSubResource"] == "scale"


def test_the_webhook_body_is_the_same_request_with_its_uid_and_objects_in_go_field_order() -> None:
    attrs = attributes()
    body = json.loads(request_body("v1", "u-1", attrs, V1BETA1, {"kind": "CronTab"}, None))
    request = body["request"]
    assert list(request) == ["uid", "kind", "resource", "requestKind", "requestResource", "name", "namespace",
                             "operation", "userInfo", "object", "oldObject", "dryRun", "options"]
    cel = admission_request(attrs, V1BETA1, V1BETA1)
    assert {k: v for k, v in request.items() if k not in ("uid", "object", "oldObject")} == \
           {k: v for k, v in cel.items() if k != "uid"}
    assert (request["uid"], request["object"], request["oldObject"]) == ("u-1", {"kind": "CronTab"}, None)
