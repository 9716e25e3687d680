"""One built-in object through kube-apiserver 1.36's create (or update) handler, as far as crdtool
reproduces it: decoding (apis.decode), defaulting (apis.defaults), the create strategy's metadata
preparation and ObjectMeta validation with the kind's name rule (apis.names). The kind's own
validation (pkg/apis/<group>/validation) is not reproduced yet: `Result.checks` says so.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from crdtool.apis import decode as decoding
from crdtool.apis import openapi
from crdtool.apis.defaults import set_object_defaults
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.discovery import BuiltinKind
from crdtool.model.errors import FieldError

#: What a built-in object's check covers (the JSON output's `checks`).
CHECKS = "decoding,defaulting,metadata"


def check(doc: Document, kind: BuiltinKind, request, old: Document | None = None, op: str = "validate") -> Result:
    """The apiserver's answer for a served built-in kind's object. `request` is the engine's Request
    (namespace, fieldValidation); `op` is "validate", or the single step "prune" or "default"."""
    from crdtool.apis.names import name_rule
    from crdtool.model.errors import aggregate_message
    from crdtool.model.path import Path
    from crdtool.schema.apimachinery.objectmeta import validate_object_meta
    from crdtool.schema.customresource.strategy import namespace_mismatch, prepare_for_create
    from crdtool.schema.objectmeta.coerce import handling_error

    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version, version=kind.version,
                    status_kind=kind.kind, field_validation=request.field_validation)
    result.checks = CHECKS
    definition = openapi.definition_name(kind.group, kind.version, kind.kind)
    decoded = decoding.decode(doc.data, openapi.go_type(definition))
    duplicates = doc.strict_duplicate_errors()
    if decoded.object is None:
        result.status = handling_error(kind.kind, kind.version, decoded.error)
        result.reason = "BadRequest"
        return result
    result.strict_decoding_errors = duplicates
    unknown = decoded.strict_errors
    result.field_validation_warnings = [*duplicates, *unknown]
    obj = decoded.object
    if op == "prune":
        result.pruned = [m[len('unknown field "'):-1] for m in unknown]
    elif op in ("validate", "default"):
        result.defaulted = set_object_defaults(obj, definition)
    result.object = obj
    meta = obj.get("metadata") or {}
    result.namespace = meta.get("namespace") or ((request.namespace or "default") if kind.namespaced else None)
    if op != "validate":
        return result
    if request.namespace:
        mismatch = namespace_mismatch(obj, request.namespace, kind.namespaced)
        if mismatch:
            result.status, result.reason = mismatch, "BadRequest"
            return result
    # `old`: an update is checked as a create for now (ValidateObjectMetaUpdate and the kinds'
    # update rules are the validation still to come)
    in_namespace = dict(obj)
    if kind.namespaced and not meta.get("namespace"):
        in_namespace["metadata"] = {**meta, "namespace": request.namespace or "default"}
    prepared = prepare_for_create(in_namespace, SimpleNamespace(status_enabled=True, namespaced=kind.namespaced))
    errors = validate_object_meta(prepared["metadata"], kind.namespaced, name_rule(kind.group, kind.kind),
                                  Path.root("metadata"))
    kind_validation = _kind_validation(kind)
    if kind_validation is not None:
        result.checks = "validation"  # the whole of what the apiserver checks for the kind
        errors = errors + kind_validation(obj)
    if errors:
        result.errors = errors
        qualified = kind.kind if not kind.group else f"{kind.kind}.{kind.group}"
        result.status = aggregate_message(qualified, meta.get("name") or "", errors)
        result.reason = "Invalid"
    return result


def _kind_validation(kind: BuiltinKind) -> Callable[[dict[str, Any]], list[FieldError]] | None:
    """The kind's own create validation where crdtool has it (pkg/apis/<group>/validation)."""
    if kind.group == "admissionregistration.k8s.io" and kind.version == "v1":
        from crdtool.admission.policy import validation

        return {"ValidatingAdmissionPolicy": validation.validate_policy,
                "ValidatingAdmissionPolicyBinding": validation.validate_binding}.get(kind.kind)
    return None
