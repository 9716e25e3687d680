"""Admission in a run: the request attributes the chain sees for a custom resource or a built-in
object, and its verdicts in the Result.

Where the apiserver runs admission on a create or update (k8s.io/apiserver
pkg/endpoints/handlers/create.go and update.go, pkg/registry/generic/registry/store.go, the plugin
order of kube-apiserver's AllOrderedPlugins): the body decoded (pruned, defaulted: the CRD's codec),
the request namespace checked, then the mutating plugins (`Chain.admit`: each webhook's patch
followed by the CRD's defaulting, mutating/dispatcher.go's ObjectDefaulter, the CRD handler's
unstructuredDefaulter), then the strategy's validation (schema, CEL), then the validating plugins
(`Chain.validate`: the store's createValidation/updateValidation) on the object as the strategy's
PrepareForCreate/PrepareForUpdate left it (`prepared`). What is stored is the object
encoded by the storage codec, which prunes what a webhook added outside the schema and defaults
again (apiextensions customresource_handler.go: schemaCoercingConverter, unstructuredDefaulter; a
dry run goes through the same encoding, DryRunnableStorage.copyInto).

What admission sees lacks metadata.managedFields. The apiserver's field manager sets it before the
mutating plugins (create.go/update.go: FieldManager.UpdateNoErrors, the manager kubectl names:
`kubectl-client-side-apply` for `kubectl apply`, `kubectl-create` for `kubectl create`; operation
Update, the apiVersion, the request's time, fieldsType FieldsV1 and every field set, in
structured-merge-diff's format by the type's merge schema, merged with the stored object's on an
update). The time is the request's own, so no entry can be given exactly: crdtool leaves
managedFields out (webhooks and policies do not see it), as it leaves out the uid and
creationTimestamp the store fills in before the validating plugins (FillObjectMetaSystemFields).

A webhook or policy that matches only another served version of a custom resource (matchPolicy
Equivalent) gets the object converted by the CRD's converter as the request scope's convertor runs
it (apiextensions pkg/apiserver/conversion converter.go: the None strategy's apiVersion, or a
ConversionReview to the conversion webhook, its answer checked; nothing pruned or defaulted on
the way); a patch made there is defaulted with that version's schema (unstructuredDefaulter picks
the schema by the object's apiVersion). A conversion webhook behind a service reference is called
where `--webhook-service` maps it; unmapped, crdtool cannot convert and says so.

A built-in object (`BuiltinAdmission`, called by apis.handler where the apiserver runs admission:
after decoding and defaulting, and after the strategy's validation) goes through the same chain:
its resource from discovery, subresource "", the object as its Go type is written (apis.codec); a
patch is decoded back into the Go type (unknown fields dropped, or refused after a mutating
policy's JSONPatch; type errors the 500) and the kind's SetObjectDefaults applied again. crdtool
converts no built-in kind between versions: a webhook that matches only another version of a
built-in resource is not called, and the run says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crdtool.admission.chain import Attributes, Chain, ConversionError, JSONObject, Resource, Verdict
from crdtool.engine.registry import Registry, ServedVersion
from crdtool.engine.results import Result
from crdtool.model.groupversion import try_parse_group_version
from crdtool.model.jsonvalue import json_copy

if TYPE_CHECKING:
    from crdtool.model.discovery import BuiltinKind

__all__ = ["BuiltinAdmission", "attributes", "prepared", "record", "stored"]


def _meta(obj: Any) -> dict[str, Any]:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    return meta if isinstance(meta, dict) else {}


def attributes(obj: JSONObject, old: JSONObject | None, served: ServedVersion, registry: Registry | None,
               chain: Chain, namespace: str | None) -> Attributes:
    """The request as admission sees it: a dry-run create (or update) of `obj` through `served`."""
    from crdtool.schema.defaulting import algorithm as defaulting

    versions = {v.version: v for v in (registry.versions.values() if registry else ())
                if v.crd_name == served.crd_name and v.served}
    equivalents = tuple((v.version, v.kind) for v in versions.values())
    name = _meta(obj).get("name")
    ns = (namespace or "") if served.namespaced else ""

    def default(o: JSONObject) -> None:
        """unstructuredDefaulter: the defaults of the version the object is in."""
        api_version = o.get("apiVersion")
        gv = try_parse_group_version(api_version) if isinstance(api_version, str) else None
        schema = versions.get(gv[1], served) if gv is not None else served
        if schema.structural is not None:
            defaulting.apply_defaults(o, schema.structural)

    return Attributes(
        operation="UPDATE" if old is not None else "CREATE", object=obj, old_object=old,
        resource=Resource(served.group, served.version, served.kind, served.plural, "", served.namespaced),
        name=name if isinstance(name, str) else "", namespace=ns,
        namespace_object=chain.inputs.namespace_object(ns) if ns else None,
        equivalents=equivalents,
        default=default,
        schema=served.structural,
        convert=_converter(served, registry, chain),
    )


def _converter(served: ServedVersion, registry: Registry | None, chain: Chain
               ) -> Callable[[JSONObject, str], JSONObject | None]:
    """The CRD's conversion of one object to another of its versions (crConverter.ConvertToVersion):
    the object, ConversionError with the converter's error, or None when crdtool cannot reach the
    conversion webhook. The converter is made once per run."""
    def convert(obj: JSONObject, version: str) -> JSONObject | None:
        if served.crd_name not in chain.converters:
            chain.converters[served.crd_name] = _make_converter(served, registry, chain)
        converter = chain.converters[served.crd_name]
        if converter is None:
            return None
        from crdtool.convert.review import ConversionError as Failed

        (result,) = converter.convert([obj], (served.group, version))
        if isinstance(result, Failed):
            raise ConversionError(str(result))
        return result  # type: ignore[no-any-return]
    return convert


def _make_converter(served: ServedVersion, registry: Registry | None, chain: Chain) -> Any:
    """The CRD's converter: strategy None, or a ConversionReview client for its webhook (its url, or its
    service where --webhook-service maps it; None when crdtool cannot reach it)."""
    from crdtool.convert.crd import crd_infos
    from crdtool.convert.none import NoneConverter

    info = next((i for i in crd_infos(registry).values() if i.name == served.crd_name), None) if registry else None
    if info is None or info.strategy != "Webhook":
        return NoneConverter()
    webhook = info.webhook
    if webhook is None:
        return None
    from crdtool.admission.webhooks import Endpoint, service_endpoint
    from crdtool.convert.review import ReviewConverter
    from crdtool.convert.webhook import WebhookClient

    endpoint = service_endpoint(webhook.service, chain.inputs) if webhook.service else Endpoint(webhook.url or "")
    if not endpoint.mapped or not endpoint.url:
        return None
    ca = chain.inputs.ca_bundle if chain.inputs.ca_bundle is not None else webhook.ca_bundle
    try:
        client = WebhookClient(endpoint.url, ca_pem=ca, server_name=endpoint.server_name, dial=endpoint.dial)
    except ValueError:
        return None
    return ReviewConverter(client, webhook.review_versions)


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


def prepared(obj: JSONObject, old: JSONObject | None, served: ServedVersion) -> JSONObject:
    """The object validating admission gets: as the strategy prepared it in BeforeCreate/BeforeUpdate
    (status dropped or kept from the stored object with the status subresource, generation 1 or
    bumped), since the store runs createValidation/updateValidation after them."""
    from crdtool.schema.customresource import strategy

    if old is None:
        return strategy.prepare_for_create(obj, served.context)
    return strategy.prepare_for_update(obj, old, served.context)[0]


def stored(obj: JSONObject, served: ServedVersion) -> JSONObject:
    """The object as the storage codec keeps it after admission: pruned, then defaulted."""
    from crdtool.schema.defaulting import algorithm as defaulting
    from crdtool.schema.pruning import algorithm as pruning

    kept: JSONObject = json_copy(obj)
    if served.structural is not None:
        pruning.prune(kept, served.structural)
        defaulting.apply_defaults(kept, served.structural)
    return kept


class BuiltinAdmission:
    """The admission chain around one built-in object's create or update (apis.handler calls it).

    The chain sees the object as its Go type is written (apis.codec.encode); `mutate` answers the
    object after the mutating plugins in apis.decode's plain form (the handler's own object when no
    plugin changed it), `validate` runs the validating plugins on the object the strategy validated."""

    def __init__(self, chain: Chain, kind: BuiltinKind) -> None:
        self.chain, self.kind = chain, kind
        self.attributes: Attributes | None = None

    def mutate(self, obj: JSONObject, live: JSONObject | None, namespace: str | None, result: Result
               ) -> JSONObject | None:
        """The mutating plugins (None: refused, the refusal in `result`)."""
        from crdtool.apis import codec

        kind = self.kind
        self.attributes = attributes = self._attributes(obj, live, namespace)
        verdict = self.chain.admit(attributes)
        result.warnings = list(verdict.warnings)
        if not record(verdict, result):
            return None
        return codec.decode(attributes.object, kind) if verdict.changed else obj

    def validate(self, obj: JSONObject, result: Result) -> None:
        """The validating plugins on the object as the strategy prepared and validated it."""
        from crdtool.apis import codec

        assert self.attributes is not None, "mutate comes first"
        self.attributes.object = codec.encode(obj, self.kind)
        verdict = self.chain.validate(self.attributes)
        result.warnings += verdict.warnings
        record(verdict, result)

    def _attributes(self, obj: JSONObject, live: JSONObject | None, namespace: str | None) -> Attributes:
        from crdtool.apis import codec, set_defaults
        from crdtool.model.discovery import served_kinds

        kind = self.kind

        def default(o: JSONObject) -> None:
            """SetObjectDefaults of the kind, on the encoded object, in place."""
            decoded = codec.decode(o, kind)
            set_defaults(decoded, kind)
            o.clear()
            o.update(codec.encode(decoded, kind))

        def decode(value: Any, strict: bool = False) -> JSONObject:
            from crdtool.admission.chain import DecodeError

            try:
                return codec.decode_mutated(value, kind, strict)
            except codec.CodecError as err:
                raise DecodeError(str(err)) from None

        name = _meta(obj).get("name")
        ns = (namespace or "") if kind.namespaced else ""
        equivalents = tuple((k.version, k.kind) for k in served_kinds()
                            if (k.group, k.resource) == (kind.group, kind.resource))
        return Attributes(
            operation="UPDATE" if live is not None else "CREATE", object=codec.encode(obj, kind),
            old_object=None if live is None else codec.encode(live, kind),
            resource=Resource(kind.group, kind.version, kind.kind, kind.resource, "", kind.namespaced),
            name=name if isinstance(name, str) else "", namespace=ns,
            namespace_object=self.chain.inputs.namespace_object(ns) if ns else None,
            equivalents=equivalents, default=default, decode=decode,
        )
