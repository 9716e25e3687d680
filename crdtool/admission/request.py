"""The AdmissionRequest of one admission call, built in one place for every consumer: the body a
webhook is sent, the `request` a webhook's matchConditions see, the `request` a policy's expressions see.

The apiserver builds it twice over the same fields (k8s.io/apiserver
pkg/admission/plugin/webhook/request/admissionreview.go CreateV1AdmissionReview for the webhook body;
pkg/admission/plugin/cel CreateAdmissionRequest for CEL, used by webhooks' matchConditions and by
policies), and both reach their reader as JSON would have them (the wire encoding for a webhook;
common.UnstructuredReflectToVal, which mimics it, for CEL): a field the Go type marks `omitempty` is
absent when empty (subResource, name, namespace, a userInfo's parts), `uid` is always there (empty
for CEL), `dryRun`, `requestKind` and `requestResource` are pointers and so always there, and
`options` is the request's CreateOptions or UpdateOptions as the handler made them (with
`dryRun: ["All"]` on a dry run).

`kind` and `resource` are the ones the caller matched: a webhook's call gets the equivalent kind and
resource it matched; its matchConditions the matched kind with the request's own resource (the
matcher's VersionedAttributes); a policy the kind and resource its matchConstraints matched.
"""

from __future__ import annotations

from typing import Any

from crdtool.admission.chain import Attributes, Resource

__all__ = ["admission_request", "gvk", "gvr"]

_OPTIONS = {"CREATE": "CreateOptions", "UPDATE": "UpdateOptions", "DELETE": "DeleteOptions"}


def gvk(of: Resource) -> dict[str, str]:
    """metav1.GroupVersionKind in JSON."""
    return {"group": of.group, "version": of.version, "kind": of.kind}


def gvr(of: Resource) -> dict[str, str]:
    """metav1.GroupVersionResource in JSON."""
    return {"group": of.group, "version": of.version, "resource": of.resource}


def admission_request(attributes: Attributes, kind: Resource, resource: Resource, uid: str = "",
                      objects: tuple[Any, Any] | None = None) -> dict[str, Any]:
    """The AdmissionRequest of `attributes` in JSON, in the Go
    type's field order; `objects` (the object and old object as the webhook gets them) only for a
    webhook's body, which carries them (CEL reads them as variables of their own)."""
    request: dict[str, Any] = {"uid": uid, "kind": gvk(kind), "resource": gvr(resource)}
    own = attributes.resource
    if own.subresource:
        request["subResource"] = own.subresource
    request["requestKind"] = gvk(own)
    request["requestResource"] = gvr(own)
    if own.subresource:
        request["requestSubResource"] = own.subresource
    if attributes.name:
        request["name"] = attributes.name
    if attributes.namespace:
        request["namespace"] = attributes.namespace
    request["operation"] = attributes.operation
    request["userInfo"] = {k: v for k, v in (attributes.user_info or {}).items() if v}
    if objects is not None:
        request["object"], request["oldObject"] = objects
    request["dryRun"] = bool(attributes.dry_run)
    options_kind = _OPTIONS.get(attributes.operation)
    if options_kind:
        request["options"] = {"kind": options_kind, "apiVersion": "meta.k8s.io/v1",
                              **({"dryRun": ["All"]} if attributes.dry_run else {})}
    return request
