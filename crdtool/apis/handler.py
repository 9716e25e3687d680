"""One built-in object through kube-apiserver 1.36's create (or update) handler, as far as crdtool
reproduces it: decoding (apis.decode), defaulting (apis.defaults), the strategy's metadata
preparation, ObjectMeta validation with the kind's name rule (apis.names; ValidateObjectMetaUpdate
against the live object with `--old`), then the kind's own validation where it is reproduced
(apis.validation's registry). `Result.checks` says which level an object got.

With an admission chain (`admission`, engine.admit.BuiltinAdmission) the mutating plugins run after
defaulting and the request's namespace check, and the validating plugins after the strategy's
validation, on the object it prepared (store.go: BeforeCreate, then createValidation).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from crdtool.apis import decode as decoding
from crdtool.apis import openapi
from crdtool.apis.defaults import set_object_defaults
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.discovery import BuiltinKind
from crdtool.model.errors import FieldError
from crdtool.model.path import Path

if TYPE_CHECKING:
    from crdtool.apis.validation import KindValidation
    from crdtool.engine.admit import BuiltinAdmission
    from crdtool.engine.validate import Request

#: What a built-in object's check covers (the JSON output's `checks`) when the kind's own
#: validation is not reproduced; "validation" when it is, or when the apiserver answers before
#: validation (an object it cannot decode, a namespace that is not the request's).
CHECKS = "decoding,defaulting,metadata"
FULL_CHECKS = "validation"


def check(doc: Document, kind: BuiltinKind, request: Request, old: Document | None = None, op: str = "validate",
          admission: BuiltinAdmission | None = None) -> Result:
    """The apiserver's answer for a served built-in kind's object. `request` is the engine's Request
    (namespace, fieldValidation); `op` is "validate", or the single step "prune" or "default";
    `admission` the admission around it (engine.admit.BuiltinAdmission), if any."""
    from crdtool.apis.validation import validation_for
    from crdtool.model.errors import aggregate_message
    from crdtool.schema.customresource.strategy import namespace_mismatch
    from crdtool.schema.objectmeta.coerce import handling_error

    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version, version=kind.version,
                    status_kind=kind.kind, field_validation=request.field_validation)
    result.checks = CHECKS
    definition = openapi.kind_definition(kind)
    decoded = decoding.decode(doc.data, openapi.go_type(definition))
    duplicates = doc.strict_duplicate_errors()
    if decoded.object is None:
        assert decoded.error is not None, "decode gives no object only with its error"
        result.status = handling_error(kind.kind, kind.version, decoded.error)
        result.reason = "BadRequest"
        result.checks = FULL_CHECKS  # the apiserver answers here: nothing after decoding is left unchecked
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
            result.checks = FULL_CHECKS  # answered before validation, as the apiserver answers
            return result

    validation = validation_for(kind.group, kind.kind)
    if validation is not None:
        result.checks = FULL_CHECKS
    live = _decoded_old(old, definition, kind, request) if old is not None else None
    if admission is not None and result.strict_status is None:  # a strict decoding error is answered first
        sent = _in_namespace(obj, kind, request)
        mutated = admission.mutate(sent, live, result.namespace, result)
        if mutated is None:
            return result
        if mutated is not sent:
            obj = result.object = mutated
            meta = obj.get("metadata") or {}
    errors, prepared = _validate(_in_namespace(obj, kind, request), live, kind, validation)
    if errors:
        result.errors = errors
        qualified = kind.kind if not kind.group else f"{kind.kind}.{kind.group}"
        result.status = aggregate_message(qualified, meta.get("name") or "", errors)
        result.reason = "Invalid"
    elif admission is not None and result.strict_status is None:
        admission.validate(prepared, result)
    return result


def _validate(obj: dict[str, Any], live: dict[str, Any] | None, kind: BuiltinKind,
              validation: KindValidation | None) -> tuple[list[FieldError], dict[str, Any]]:
    """The create (or, with the `live` object, update) strategy's metadata preparation and checks:
    ValidateObjectMeta (or ValidateObjectMetaUpdate), core's finalizer names, then the kind's own
    validation when crdtool reproduces it; and the object as prepared."""
    from crdtool.apis.names import name_rule
    from crdtool.schema.apimachinery.objectmeta import validate_object_meta, validate_object_meta_update
    from crdtool.schema.customresource.strategy import ResourceContext, prepare_for_create, prepare_for_update

    # the strategy's preparation reads only these two of a custom resource's context
    ctx = cast("ResourceContext", SimpleNamespace(status_enabled=True, namespaced=kind.namespaced))
    if live is None:
        prepared = prepare_for_create(obj, ctx)
        errors = validate_object_meta(prepared["metadata"], kind.namespaced, name_rule(kind.group, kind.kind),
                                      Path.root("metadata"))
        errors += _kube_finalizer_names(prepared["metadata"])
        if validation is not None:
            errors += validation.create(prepared)
        return errors, prepared
    prepared, stored = prepare_for_update(obj, live, ctx, content_generation=False)  # the kinds' rules differ
    errors = validate_object_meta_update(prepared["metadata"], stored["metadata"], Path.root("metadata"))
    errors += _kube_finalizer_names(prepared["metadata"])
    if validation is not None:
        errors += validation.update(prepared, stored) if validation.update is not None else validation.create(prepared)
    return errors, prepared


def _in_namespace(obj: dict[str, Any], kind: BuiltinKind, request: Request) -> dict[str, Any]:
    """The object with the request's namespace (kubectl's, or "default") when it names none."""
    meta = obj.get("metadata") or {}
    if not kind.namespaced or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": request.namespace or "default"}}


def _decoded_old(old: Document, definition: str, kind: BuiltinKind, request: Request) -> dict[str, Any] | None:
    """The live object of an update, decoded and defaulted as it was stored; None when it does not
    decode (then the object is checked as a create)."""
    decoded = decoding.decode(old.data, openapi.go_type(definition))
    if decoded.object is None:
        return None
    set_object_defaults(decoded.object, definition)
    return _in_namespace(decoded.object, kind, request)


def _kube_finalizer_names(meta: dict[str, Any]) -> list[FieldError]:
    """core's ValidateObjectMeta/ValidateObjectMetaUpdate: validateKubeFinalizerName on each finalizer."""
    from crdtool.apis.core.meta import validate_kube_finalizer_names

    return validate_kube_finalizer_names(meta.get("finalizers"), Path.root("metadata", "finalizers"))
