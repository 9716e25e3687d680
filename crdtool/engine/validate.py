"""`validate`, `prune` and `default`: what the apiserver does with a custom resource on a
create (or an update over a stored object), in its order:

decode (duplicate fields are strict-decoding findings) -> prune unknown fields (reported
as unknown-field warnings, refused under fieldValidation=Strict) -> decode the metadata
(what cannot be decoded is a 400) -> apply defaults -> the request's version check -> the
namespace check -> the create/update strategy's validation (metadata, schema values, embedded
resources, list types, then CEL rules).

A request to one version (`--version`) of an object whose apiVersion names another is decoded
as the apiserver's codec decodes a body: pruned, coerced and defaulted with the schema of the
body's own version (none, if the CRD has no such version), then refused with a 400 by the
create and update handlers, which accept only their endpoint's group and version.

`prune` and `default` are single steps of it: the object pruned (nothing else), or the
object defaulted as given (nothing pruned); both refuse, as the apiserver does, an object whose
metadata does not decode.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from crdtool.engine.registry import Registry, ServedVersion
from crdtool.engine.results import Result
from crdtool.errors import InputError
from crdtool.load.document import Document
from crdtool.model.errors import NAMESPACE_MISMATCH, aggregate_message
from crdtool.model.gofmt import go_json
from crdtool.model.groupversion import from_api_version_and_kind, group_of
from crdtool.model.jsonvalue import json_copy
from crdtool.model.notes import Note
from crdtool.model.record import FrozenRecord, replace

if TYPE_CHECKING:
    from crdtool.admission.chain import Chain
    from crdtool.cache import Cache

Operation = Literal["validate", "prune", "default"]


class Request(FrozenRecord):
    """What the user asked for: the version to validate against, the namespace of the request
    (None: the object's own, else `default`, as kubectl sends it), fieldValidation."""

    __slots__ = ("version", "namespace", "field_validation")

    version: str | None
    namespace: str | None
    field_validation: str

    def __init__(self, version: str | None = None, namespace: str | None = None,
                 field_validation: str = "Strict") -> None:
        self.version = version
        self.namespace = namespace
        self.field_validation = field_validation



def find_version(registry: Registry, doc: Document, request: Request) -> ServedVersion | None:
    api_version, kind = doc.api_version, doc.kind
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    if request.version:
        group = group_of(api_version)
        return registry.version_of(group, kind, request.version)
    return registry.lookup(api_version, kind)


def decoding_version(doc: Document, served: ServedVersion, registry: Registry | None) -> ServedVersion:
    """The version whose schema the body is decoded with: the one its apiVersion names (served or
    not; without a schema if the CRD has no such version), else the requested one."""
    api_version = doc.api_version if isinstance(doc.api_version, str) else ""
    group, version = from_api_version_and_kind(api_version, "").group_version
    if (group, version) == (served.group, served.version):
        return served
    own = registry.versions.get((group, version, served.kind)) if registry is not None else None
    return own if own is not None else replace(served, version=version, document=None, schema_key=None)


def api_version_mismatch(doc: Document, served: ServedVersion) -> str | None:
    """The create and update handlers' 400 for a body of another group or version than the endpoint's."""
    api_version = doc.api_version if isinstance(doc.api_version, str) else ""
    body = from_api_version_and_kind(api_version, "").group_version
    if body == (served.group, served.version):
        return None
    endpoint = f"{served.group}/{served.version}" if served.group else served.version
    data = f"{body[0]}/{body[1]}" if body[0] else body[1]
    return f"the API version in the data ({data}) does not match the expected API version ({endpoint})"


def _decode(doc: Document, served: ServedVersion, request: Request, result: Result, op: Operation) -> dict | None:
    """The object after the steps of `op` (with the schema of `served`, the body's version); None when
    the apiserver refuses it with a 400."""
    from crdtool.schema.defaulting import algorithm as defaulting
    from crdtool.schema.pruning import algorithm as pruning

    obj: dict = json_copy(doc.data)
    result.strict_decoding_errors.extend(doc.strict_duplicate_errors())
    if op == "default":
        # Defaulted as given (nothing pruned), unless the apiserver could not decode it at all.
        if not _metadata_decodes(_decoded_metadata(obj, served), served, result):
            return None
        result.defaulted = defaulting.apply_defaults(obj, served.structural)
        return obj
    pruned = pruning.prune(obj, served.structural)
    result.pruned = pruned.pruned
    result.field_validation_warnings = result.strict_decoding_errors + pruned.unknown_fields
    if not _metadata_decodes(obj, served, result):
        result.pruned, result.field_validation_warnings = [], []  # the 400 comes before any field is reported
        return None
    if op == "validate":
        result.defaulted = defaulting.apply_defaults(obj, served.structural)
    return obj


def _decoded_metadata(obj: dict, served: ServedVersion) -> dict:
    """What the apiserver's decoding of `obj` looks at to refuse it (`_metadata_decodes`): the object
    pruned, or, where its schema has no embedded resource (only the root's metadata is looked at), the
    object with its metadata alone pruned: a copy of the whole object pruned would be thrown away."""
    from crdtool.schema.objectmeta.coerce import embedded_subtrees
    from crdtool.schema.pruning import algorithm as pruning

    schema = served.structural
    meta = obj.get("metadata")
    if (schema is not None and embedded_subtrees(schema)) or not isinstance(meta, dict):
        decoded: dict = json_copy(obj)
        pruning.prune(decoded, schema)
        return decoded
    meta = json_copy(meta)
    pruning.prune_object_meta(meta, "metadata", [])
    return {**obj, "metadata": meta}


def _metadata_decodes(obj: dict, served: ServedVersion, result: Result) -> bool:
    """The metadata coercion of the pruned `obj` (in place); False, with the apiserver's 400 in
    `result`, when its metadata (or an embedded resource's) does not decode."""
    from crdtool.schema.objectmeta import coerce as objectmeta

    decoded = None
    try:  # kubectl decodes the root metadata itself before sending, as the apiserver does again
        if "metadata" in obj:
            decoded = objectmeta.decode_object_meta(obj["metadata"])
    except objectmeta.MetaDecodeError as err:
        result.client_error = _client_decode_error(str(err))
    problem = objectmeta.coerce_metadata(obj, served.structural, served.kind, served.version, decoded)
    if problem is None:
        return True
    result.status = objectmeta.handling_error(served.kind, served.version, problem)
    result.reason = "BadRequest"
    return False


def _client_decode_error(problem: str) -> str:
    """kubectl's text for root metadata it cannot decode: its Go error names the field from the
    object's top (`ObjectMeta.metadata.labels`) where the apiserver's starts at ObjectMeta."""
    return re.sub(r"(Go struct field \w+\.)", r"\1metadata.", problem, count=1)


def _in_namespace(obj: dict, served: ServedVersion, request: Request) -> dict:
    """The object as the strategy sees it: a namespaced object without a namespace gets the
    request's (the reported object stays as the user wrote it)."""
    meta = obj.get("metadata")
    if meta is None:
        meta = {}
    if not served.namespaced or not isinstance(meta, dict) or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": request.namespace or "default"}}


def process(doc: Document, served: ServedVersion, request: Request, old: Document | None = None,
            op: Operation = "validate", chain: Chain | None = None, registry: Registry | None = None) -> Result:
    """One custom resource through the apiserver's pipeline (or through the one step `op` names);
    with an admission `chain`, its mutating plugins before the validation and its validating ones after
    (engine.admit); `registry` gives the resource's other served versions."""
    from crdtool.schema.customresource import strategy as resource_validation

    decoder = decoding_version(doc, served, registry)
    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                    version=served.version, status_kind=served.kind, field_validation=request.field_validation,
                    crd_version=decoder)
    obj = _decode(doc, decoder, request, result, op)
    if obj is None:
        return result
    result.object = obj
    mismatch = api_version_mismatch(doc, served)
    if mismatch is not None and op == "validate":
        if result.strict_status is None:  # under Strict, the decoder's strict error is the answer
            result.status, result.reason = mismatch, "BadRequest"
        return result
    meta = meta if isinstance(meta := obj.get("metadata"), dict) else {}
    result.namespace = meta.get("namespace") or (request.namespace or "default" if served.namespaced else None)
    result.sent_status = sent_status(served, result.namespace)
    if op != "validate":
        return result
    if request.namespace:
        mismatch = resource_validation.namespace_mismatch(obj, request.namespace, served.namespaced)
        if mismatch:
            result.status, result.reason = mismatch, "BadRequest"
            return result
    ctx = served.context
    rules = _rule_validator(ctx, served.store)
    old_obj = _decoded_old(old, served, registry) if old is not None else None
    attributes = None
    if chain and result.strict_status is None:  # a strict decoding error is answered before admission
        from crdtool.engine import admit

        attributes = admit.attributes(_in_namespace(obj, served, request),
                                      None if old_obj is None else _in_namespace(old_obj, served, request),
                                      served, registry, chain, result.namespace)
        verdict = chain.admit(attributes)
        result.warnings = list(verdict.warnings)
        if not admit.record(verdict, result):
            return result
        obj = attributes.object
        result.object = admit.stored(obj, served)
    if old_obj is not None:
        errors, warnings = resource_validation.validate_update(
            _in_namespace(obj, served, request), _in_namespace(old_obj, served, request), ctx, rules)
    else:
        errors, warnings = resource_validation.validate_create(_in_namespace(obj, served, request), ctx, rules)
    result.errors = errors
    result.warnings += [w for w in warnings if isinstance(w, str)]  # the apiserver's (after mutating admission's)
    result.notes = [w for w in warnings if isinstance(w, Note)]  # crdtool's own, passed with the warnings
    if errors:
        result.status = aggregate_message(served.qualified_kind, meta.get("name") or "", errors)
        result.reason = "Invalid"
        return result
    if attributes is not None and chain is not None:
        attributes.object = admit.prepared(_in_namespace(obj, served, request), attributes.old_object, served)
        verdict = chain.validate(attributes)
        result.warnings += verdict.warnings
        admit.record(verdict, result)
    return result


def _decoded_old(old: Document, served: ServedVersion, registry: Registry | None) -> dict:
    """The stored object an update replaces, as the apiserver reads it from storage in the request's
    version: decoded with the schema of the version it is stored in (its own apiVersion; malformed
    metadata dropped, pruned, defaulted), converted, then pruned with the request version's schema
    (crdtool.convert.stored.read_stored). One that cannot be read is the user's input error, not an
    answer of the apiserver."""
    from crdtool.convert.review import ConversionError
    from crdtool.convert.stored import read_stored

    stored = decoding_version(old, served, registry)
    try:
        converter = _stored_converter(old, stored, served, registry)
        return read_stored(old.data, stored.structural, served.structural, served.kind,
                           (served.group, served.version), converter).obj
    except ConversionError as err:
        line = old.locate(())
        raise InputError(old.source, f"the stored object cannot be decoded: {err}", *(line or ())) from None


def _stored_converter(old: Document, stored: ServedVersion, served: ServedVersion, registry: Registry | None) -> Any:
    """The converter reading a stored object of `stored`'s version in `served`'s: the CRD's None strategy
    (the apiVersion rewritten); a version the CRD does not have is the converter's error, and a webhook,
    which crdtool does not call here, the user's input error."""
    from crdtool.convert.none import NoneConverter
    from crdtool.convert.review import ConversionError

    if stored.version == served.version or registry is None:
        return NoneConverter()
    if (stored.group, stored.version, stored.kind) not in registry.versions:
        raise ConversionError(f"request to convert CR from an invalid group/version: {old.api_version or ''}")
    info = _crd_infos(registry).get((served.group, served.kind))
    if info is not None and info.strategy != "None":
        line = old.locate(())
        raise InputError(old.source, f"the stored object is in {old.api_version}, and the CustomResourceDefinition "
                         f"{info.name} converts it to {served.version} through a webhook: convert it first (crdtool "
                         f"convert --to {served.version}) and give the result as --old", *(line or ()))
    return NoneConverter()


#: The conversion settings of the last registry's CRDs (decoded once for all its stored objects).
_last_infos: list[tuple[Registry, dict]] = []


def _crd_infos(registry: Registry) -> dict:
    from crdtool.convert.crd import crd_infos

    if not _last_infos or _last_infos[0][0] is not registry:
        _last_infos[:] = [(registry, crd_infos(registry))]
    return _last_infos[0][1]


def sent_status(served: ServedVersion, namespace: str | None) -> str | None:
    """The apiserver's 400 to the request kubectl sends, where it differs from its answer to the
    object itself: for a namespaced object whose namespace Go's URL escaping changes in the request
    path (e.g. `namespace: "${NAMESPACE}"`), kubectl 1.36.3 gets the namespace mismatch, while the
    strategy, given the object's own namespace, refuses the namespace's value (422, the conformance
    cases' answer). Such a namespace is never a valid one, so the verdict (refused) is the same."""
    if not served.namespaced or not namespace:
        return None
    from crdtool.model.gourl import PATH, escape

    return NAMESPACE_MISMATCH if "/" in namespace or escape(namespace, PATH) != namespace else None


def unknown_kind(doc: Document, registry: Registry) -> Result:
    """The finding for an object whose kind no CRD among the inputs defines (or defines invalidly)."""
    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version, status_kind=doc.kind,
                    checks="none")
    if not isinstance(doc.kind, str) or not doc.kind:  # kubectl's decoder stops here, before any request
        result.status = result.client_error = f"Object 'Kind' is missing in '{go_json(doc.data)}'"
        result.reason = "BadRequest"
        return result
    group, version = from_api_version_and_kind(doc.api_version, "").group_version
    rejected = registry.rejected.get((group, doc.kind or ""))
    unserved = registry.versions.get((group, version, doc.kind or ""))
    if unserved is not None:
        result.status = (f"the CustomResourceDefinition {unserved.crd_name} does not serve {doc.api_version} "
                         "(served: false)")
    elif rejected is not None:
        result.status = (f"the CustomResourceDefinition {rejected.name} for {doc.api_version}, Kind={doc.kind} "
                         "would be rejected, so its objects cannot be validated")
    elif not doc.api_version:
        result.status = f"no CustomResourceDefinition for Kind={doc.kind}: the object has no apiVersion"
    else:
        result.status = f"no CustomResourceDefinition for {doc.api_version}, Kind={doc.kind}"
    result.reason = "NotFound"
    return result


def _rule_validator(ctx: Any, store: Cache | None = None) -> Any:
    """The CEL step (a resource_validation.RuleValidator) for the version of `ctx`, if its schema has rules
    (compiled rules read from `store`, the persistent cache, when it holds them)."""
    # The CEL runtime is imported only then.
    if not ctx.has_rules or ctx.structural is None:
        return None
    from crdtool.cel.evaluate import rule_validator
    return rule_validator(ctx.structural, store)
