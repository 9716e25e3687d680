"""`crdtool lint`: the apiserver's answer to creating (or updating) each CustomResourceDefinition.

The steps are the apiserver's: decode into the v1 types (a type mismatch is a 400
before any validation; unknown and duplicate fields are strict-decoding findings),
default and convert to the internal version, run the create (or update) strategy,
validate, and build the status text from the field errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from crdtool.engine.results import Result
from crdtool.errors import InputError
from crdtool.load.document import Document
from crdtool.load.sources import without_cyclic_gc
from crdtool.model.errors import aggregate_message

if TYPE_CHECKING:
    from crdtool.cache import Cache

CRD_GROUP = "apiextensions.k8s.io"
CRD_KIND = "CustomResourceDefinition"
QUALIFIED_KIND = f"{CRD_KIND}.{CRD_GROUP}"


def is_crd(doc: Document) -> bool:
    """Whether a document is a CustomResourceDefinition of any apiextensions version."""
    api_version = doc.api_version
    return (doc.kind == CRD_KIND and isinstance(api_version, str)
            and api_version.split("/", 1)[0] == CRD_GROUP)


def _rule_compiler() -> Any:
    """The compiler of x-kubernetes-validations rules (imported here: the CEL runtime loads only for lint)."""
    from crdtool.cel import rule_compiler
    return rule_compiler


def _validate_schema(rule_compiler: Any) -> Callable[..., Any]:
    from crdtool.schema.crd import schema as crd_schema

    def validate(validation, status_enabled, opts, path):
        return crd_schema.validate_crd_validation(validation, status_enabled, opts, path, rule_compiler=rule_compiler)

    return validate


def _internal_to_source(segments: tuple) -> tuple:
    """schema.crd.internal's internal_to_source, imported when a finding is placed: a lint Result read
    back from the cache refers to this function, so reading it imports none of the CRD decoding."""
    from crdtool.schema.crd.internal import internal_to_source

    return internal_to_source(segments)


def decode_internal(doc: Document, create: bool = True) -> tuple[dict | None, Result]:
    """Decode a CRD document into the internal form; the Result carries any 400 answer and strict findings.

    `create` applies the create strategy; an update's objects are converted without it.
    """
    # The apiserver's CRD packages are imported here: a run whose verdicts are cached needs none of them.
    from crdtool.schema.crd import decode as crd_decode
    from crdtool.schema.crd import internal as crd_internal

    result = Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                    status_kind=CRD_KIND, source_path=_internal_to_source)
    if doc.api_version != f"{CRD_GROUP}/v1":
        result.status = (f'no matches for kind "{CRD_KIND}" in version "{doc.api_version}"')
        result.reason = "NotFound"
        return None, result
    result.strict_decoding_errors.extend(doc.strict_duplicate_errors())
    decoded = crd_decode.decode_crd(doc.data)
    result.strict_decoding_errors.extend(decoded.unknown_fields)
    if decoded.error is not None or decoded.crd is None:
        if decoded.unrecognized:
            result.status = f"the object provided is unrecognized (must be of type {CRD_KIND}): {decoded.error}"
        else:
            result.status = f'{CRD_KIND} in version "v1" cannot be handled as a {CRD_KIND}: {decoded.error}'
        result.reason = "BadRequest"
        return None, result
    return crd_internal.to_internal(decoded.crd, create=create), result


def decode_old(old: Document) -> dict:
    """The stored CRD an update replaces, in the internal form. One the apiserver could not have
    stored is an input error (exit 2) naming its file and line, not a finding about the new CRD."""
    internal, answer = decode_internal(old, create=False)
    if internal is None:
        name = old.name if isinstance(old.name, str) and old.name else None
        raise InputError(old.source, f"the old {CRD_KIND}{' ' + name if name else ''} cannot be decoded: "
                                     f"{answer.status}", *(old.locate(()) or ()))
    return internal


def lint_document(doc: Document, old: Document | None = None, costs: bool = False) -> Result:
    """The apiserver's answer to `kubectl create` of this CRD (or an update over `old`).

    With `costs`, the result also lists every CEL rule's estimated cost.
    """
    internal, result = decode_internal(doc, create=old is None)
    if internal is None:
        return result
    from crdtool.schema.crd import internal as crd_internal
    from crdtool.schema.crd import schema as crd_schema
    from crdtool.schema.crd import validation as crd_validation

    rule_compiler = _rule_compiler()
    recorder = noted = None
    if rule_compiler is not None:
        from crdtool.engine.notes import UnsupportedRules
        rule_compiler = noted = UnsupportedRules(rule_compiler)
    if costs and rule_compiler is not None:
        from crdtool.engine.costs import CostRecorder
        rule_compiler = recorder = CostRecorder(rule_compiler)
    validate_schema = _validate_schema(rule_compiler)
    old_internal = None
    if old is not None:
        old_internal = decode_old(old)
        internal = crd_internal.prepare_for_update(internal, old_internal)
        errors = crd_validation.validate_crd_update(internal, old_internal, validate_schema)
    else:
        errors = crd_validation.validate_crd(internal, validate_schema)
    result.errors = errors
    name = internal.get("metadata", {}).get("name") or ""
    result.name = name
    if errors:
        result.status = aggregate_message(QUALIFIED_KIND, name, errors)
        result.reason = "Invalid"
    result.warnings = crd_schema.schema_warnings(internal, old_internal)
    if recorder is not None:
        result.rule_costs = recorder.take()
    if noted is not None:
        result.notes = noted.notes
    return result


def find_old(old_docs: Iterable[Document], doc: Document,
             same_kind: Callable[[Document], bool] = is_crd) -> Document | None:
    """The stored object an update replaces: among the old documents of its kind (`same_kind`; CRDs
    unless told), the one with the same metadata.name (or the only one)."""
    olds = [d for d in old_docs if same_kind(d)]
    for candidate in olds:
        if candidate.name == doc.name:
            return candidate
    return olds[0] if len(olds) == 1 else None


def lint(docs: Iterable[Document], old_docs: list[Document] | None = None, costs: bool = False,
         store: Cache | None = None) -> list[Result]:
    """A Result for every CRD among the documents; other documents are not CRDs and are skipped. A
    verdict comes from `store` (the persistent cache) when it holds it.

    The cyclic garbage collector is paused meanwhile: linting builds large trees (structural schemas,
    CEL types, checked ASTs) that hold no cycles, and full collections rescanning them took a sixth
    of the time of linting a folder of CRDs."""
    results = []
    with without_cyclic_gc():
        for doc in docs:
            if not is_crd(doc):
                continue
            old = find_old(old_docs, doc) if old_docs else None
            if store is not None and store.enabled:
                from crdtool.engine.crdcache import cached_lint

                result = cached_lint(doc, store, costs, old)
            else:
                result = lint_document(doc, old, costs)
            result.replaces = old is not None  # an update: kubectl replace's words
            results.append(result)
    return results


