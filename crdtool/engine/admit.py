"""A custom resource's admission: the request attributes the chain sees, and its verdicts in the Result.

Where the apiserver runs admission on a create or update (k8s.io/apiserver
pkg/endpoints/handlers/create.go and update.go, pkg/registry/generic/registry/store.go, the plugin
order of kube-apiserver's AllOrderedPlugins): the body decoded (pruned, defaulted: the CRD's codec),
the request namespace checked, then the mutating plugins (`Chain.admit`: each webhook's patch
followed by the CRD's defaulting, mutating/dispatcher.go's ObjectDefaulter, the CRD handler's
unstructuredDefaulter), then the strategy's validation (schema, CEL), then the validating plugins
(`Chain.validate`: the store's createValidation/updateValidation). What is stored is the object
encoded by the storage codec, which prunes what a webhook added outside the schema and defaults
again (apiextensions customresource_handler.go: schemaCoercingConverter, unstructuredDefaulter; a
dry run goes through the same encoding, DryRunnableStorage.copyInto).

Not done here: the object in another served version for a webhook that matches only that one
(matchPolicy Equivalent): the CRD's conversion is not run, the webhook is not called, and the run says so.
"""

from __future__ import annotations

from typing import Any

from crdtool.admission.chain import Attributes, Chain, JSONObject, Resource, Verdict
from crdtool.engine.registry import Registry, ServedVersion
from crdtool.engine.results import Result
from crdtool.model.jsonvalue import json_copy

__all__ = ["attributes", "record", "stored"]


def _meta(obj: Any) -> dict[str, Any]:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    return meta if isinstance(meta, dict) else {}


def attributes(obj: JSONObject, old: JSONObject | None, served: ServedVersion, registry: Registry | None,
               chain: Chain, namespace: str | None) -> Attributes:
    """The request as admission sees it: a dry-run create (or update) of `obj` through `served`."""
    from crdtool.schema.defaulting import algorithm as defaulting

    equivalents = tuple((v.version, v.kind) for v in (registry.versions.values() if registry else ())
                        if v.crd_name == served.crd_name and v.served)
    name = _meta(obj).get("name")
    ns = (namespace or "") if served.namespaced else ""
    structural = served.structural

    def default(o: JSONObject) -> None:
        if structural is not None:
            defaulting.apply_defaults(o, structural)

    return Attributes(
        operation="UPDATE" if old is not None else "CREATE", object=obj, old_object=old,
        resource=Resource(served.group, served.version, served.kind, served.plural, "", served.namespaced),
        name=name if isinstance(name, str) else "", namespace=ns,
        namespace_object=chain.inputs.namespace_object(ns) if ns else None,
        equivalents=equivalents,
        default=default,
        schema=structural,
    )


def record(verdict: Verdict, result: Result) -> bool:
    """The verdict's findings in the result; False when it refuses the request (its status is the answer)."""
    result.admission_notes.extend(n for n in verdict.notes if n not in result.admission_notes)
    result.audit_annotations.update(verdict.audit_annotations)
    if verdict.status is None:
        return True
    result.status, result.reason = verdict.status.message, verdict.status.reason
    result.code = verdict.status.code
    result.status_details = verdict.status.details
    return False


def stored(obj: JSONObject, served: ServedVersion) -> JSONObject:
    """The object as the storage codec keeps it after admission: pruned, then defaulted."""
    from crdtool.schema.defaulting import algorithm as defaulting
    from crdtool.schema.pruning import algorithm as pruning

    kept: JSONObject = json_copy(obj)
    if served.structural is not None:
        pruning.prune(kept, served.structural)
        defaulting.apply_defaults(kept, served.structural)
    return kept
