"""`validate`, `prune` and `default`: what the apiserver does with a custom resource on a
create (or an update over a stored object), in its order:

decode (duplicate fields are strict-decoding findings; metadata that cannot be decoded is
a 400) -> prune unknown fields (reported as unknown-field warnings, refused under
fieldValidation=Strict) -> apply defaults -> the create/update strategy's validation
(metadata, schema values, embedded resources, list types, then CEL rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.engine.registry import Registry, ServedVersion
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.errors import aggregate_message


@dataclass(frozen=True)
class Request:
    """What the user asked for: the version to validate against, kubectl's namespace, fieldValidation."""

    version: str | None = None
    namespace: str = "default"
    field_validation: str = "Strict"


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (several times faster than copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def find_version(registry: Registry, doc: Document, request: Request) -> ServedVersion | None:
    api_version, kind = doc.api_version, doc.kind
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    if request.version:
        group = api_version.rpartition("/")[0]
        return registry.version_of(group, kind, request.version)
    return registry.lookup(api_version, kind)


def _context(served: ServedVersion):
    from crdtool.schema.resource_validation import ResourceContext

    return ResourceContext(group=served.group, version=served.version, kind=served.kind, plural=served.plural,
                           namespaced=served.namespaced, structural=served.structural,
                           validator=served.validator, status_enabled=served.status_enabled,
                           scale=served.scale)


def _prepare(doc: Document, served: ServedVersion, request: Request, result: Result) -> dict | None:
    """Decode, prune and default an object; None when the apiserver refuses it with a 400."""
    from crdtool.schema import defaulting, pruning, resource_meta

    obj = json_copy(doc.data)
    if served.namespaced:
        meta = obj.get("metadata")
        if isinstance(meta, dict) and not meta.get("namespace"):
            meta["namespace"] = request.namespace
    if request.version:
        obj["apiVersion"] = f"{served.group}/{served.version}"
    duplicate = doc.strict_duplicate_error()
    if duplicate:
        result.strict_decoding_errors.append(duplicate)
    problem = resource_meta.coerce_metadata(obj, served.structural, served.kind, served.version)
    if problem is not None:
        result.status = f'{served.kind} in version "{served.version}" cannot be handled as a {served.kind}: {problem}'
        result.reason = "BadRequest"
        return None
    if served.structural is not None:
        pruned = pruning.prune(obj, served.structural)
        result.pruned = pruned.pruned
        result.field_validation_warnings = pruned.unknown_fields
        result.defaulted = defaulting.apply_defaults(obj, served.structural)
    return obj


def process(doc: Document, served: ServedVersion, request: Request, old: Document | None = None,
            validate: bool = True) -> Result:
    """One custom resource through the apiserver's pipeline."""
    from crdtool.schema import resource_validation

    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                    version=served.version, status_kind=served.kind, field_validation=request.field_validation,
                    crd_version=served)
    obj = _prepare(doc, served, request, result)
    if obj is None:
        return result
    result.object = obj
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    result.namespace = meta.get("namespace")
    if not validate:
        return result
    ctx = _context(served)
    if old is not None:
        old_result = Result(document=old, kind=old.kind, name=old.name)
        old_obj = _prepare(old, served, request, old_result)
        if old_obj is None:
            raise ValueError(f"the stored object {old.source} cannot be decoded: {old_result.status}")
        errors, warnings = resource_validation.validate_update(obj, old_obj, ctx)
    else:
        errors, warnings = resource_validation.validate_create(obj, ctx)
    result.errors = errors
    result.warnings = warnings
    if errors:
        result.status = aggregate_message(served.qualified_kind, meta.get("name") or "", errors)
        result.reason = "Invalid"
    return result


def unknown_kind(doc: Document, registry: Registry) -> Result:
    """The finding for an object whose kind no CRD among the inputs defines (or defines invalidly)."""
    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version, status_kind=doc.kind)
    group = (doc.api_version or "").rpartition("/")[0]
    rejected = registry.rejected.get((group, doc.kind or ""))
    if rejected is not None:
        result.status = (f"the CustomResourceDefinition {rejected.name} for {doc.api_version}, Kind={doc.kind} "
                         "would be rejected, so its objects cannot be validated")
    else:
        result.status = f"no CustomResourceDefinition for {doc.api_version}, Kind={doc.kind}"
    result.reason = "NotFound"
    return result
