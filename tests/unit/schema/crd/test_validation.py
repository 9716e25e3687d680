"""The apiserver's CRD validation outside the schemas, with its exact texts.

Inputs are in the internal form `schema/crd/validation` takes (see its docstring). The last tests
replay the shared conformance cases through the real decode/convert steps and compare the
errors outside `openAPIV3Schema` (the schema validator's share) as multisets.
"""

from __future__ import annotations

import collections
import copy

import pytest
from conformance_cases import document_for, load_cases, requires_shared

from crdtool.model.gourl import URLError, parse, parse_request_uri
from crdtool.schema.crd import validation as crd_validation
from crdtool.schema.crd.conversion import ca_bundle_error
from crdtool.schema.crd.update_options import has_invalid_map_list_keys_map_set

DNS1035_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
               "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
               "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
SCHEMA = {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "size": {"type": "string"}, "ratio": {"type": "number"}, "count": {"type": "integer"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}}


def internal(**spec) -> dict:
    """A valid single-version CRD in the internal form, with spec fields replaced."""
    base = {
        "group": "example.com",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "scope": "Namespaced",
        "versions": [{"name": "v1", "served": True, "storage": True}],
        "version": "v1",
        "validation": copy.deepcopy(SCHEMA),
        "conversion": {"strategy": "None"},
        "preserveUnknownFields": False,
    }
    base.update(spec)
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{base['names'].get('plural', '')}.{base['group']}"},
            "spec": base, "status": {"storedVersions": ["v1"]}}


def no_schema(validation, status_enabled, opts, path):
    return []


def errors(crd: dict, old: dict | None = None) -> list[str]:
    if old is None:
        return [str(e) for e in crd_validation.validate_crd(crd, no_schema)]
    return [str(e) for e in crd_validation.validate_crd_update(crd, old, no_schema)]


def test_valid_crd():
    assert errors(internal()) == []


def test_name_must_be_plural_dot_group():
    crd = internal(names={"plural": "Orders", "singular": "order", "kind": "Order", "listKind": "OrderList"})
    crd["metadata"]["name"] = "orders.example.com"
    assert errors(crd) == [
        'metadata.name: Invalid value: "orders.example.com": must be spec.names.plural+"."+spec.group',
        f'spec.names.plural: Invalid value: "Orders": {DNS1035_MSG}']


def test_namespace_on_a_cluster_scoped_kind():
    crd = internal()  # the REST layer clears it before validation (crd_internal does)
    crd["metadata"]["namespace"] = "default"
    assert errors(crd) == ["metadata.namespace: Forbidden: not allowed on this type"]


def test_group_and_scope():
    assert errors(internal(group="example"))[-1] == (
        'spec.group: Invalid value: "example": should be a domain with at least one dot')
    assert errors(internal(scope="")) == ["spec.scope: Required value"]
    assert errors(internal(scope="Global")) == [
        'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']


def test_versions_storage_and_unique_names():
    two = [{"name": "v1", "served": True, "storage": True}, {"name": "v1", "served": True, "storage": False}]
    assert errors(internal(versions=two)) == [
        'spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,'
        '"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,'
        '"SelectableFields":null},{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,'
        '"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,'
        '"SelectableFields":null}]: must contain unique version names']
    crd = internal(versions=[], version="")
    crd["status"]["storedVersions"] = None
    assert errors(crd) == [
        "spec.versions: Invalid value: []: must have exactly one version marked as storage version",
        "status.storedVersions: Invalid value: null: must have at least one stored version"]


def test_version_schema_renders_as_go_struct():
    versions = [{"name": "v1", "served": True, "storage": True,
                 "schema": {"openAPIV3Schema": {"type": "object", "default": {"a": 1},
                                                "additionalProperties": True}}},
                {"name": "v2", "served": True, "storage": True}]
    msg = next(e for e in errors(internal(versions=versions, validation=None)) if e.startswith("spec.versions:"))
    assert msg.startswith('spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,'
                          '"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"",'
                          '"Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"",'
                          '"Title":"","Default":{"a":1},"Maximum":null,')
    assert '"AdditionalProperties":{"Allows":true,"Schema":null}' in msg
    assert msg.endswith("must have exactly one version marked as storage version")


def test_spec_version_and_version_names():
    versions = [{"name": "V1.0", "served": True, "storage": True}]
    crd = internal(versions=versions, version="V1.0")
    crd["status"]["storedVersions"] = ["V1.0"]
    assert errors(crd) == [f'spec.versions[0].name: Invalid value: "V1.0": {DNS1035_MSG}',
                           f'spec.version: Invalid value: "V1.0": {DNS1035_MSG}']


def test_names():
    names = {"plural": "widgets", "singular": "Widget", "kind": "ClusterUsage", "listKind": "ClusterUsage",
             "shortNames": ["ok", "W_1"], "categories": ["Bad Cat!"]}
    assert errors(internal(names=names)) == [
        f'spec.names.singular: Invalid value: "Widget": {DNS1035_MSG}',
        f'spec.names.shortNames[1]: Invalid value: "W_1": {DNS1035_MSG}',
        'spec.names.listKind: Invalid value: "ClusterUsage": kind and listKind may not be the same',
        f'spec.names.categories[0]: Invalid value: "Bad Cat!": {DNS1035_MSG}']
    assert errors(internal(names={"plural": "widgets", "singular": "widget", "kind": "Wid-get!",
                                  "listKind": "Wid-get!List"})) == [
        f'spec.names.kind: Invalid value: "Wid-get!": may have mixed case, but should otherwise match: {DNS1035_MSG}',
        'spec.names.listKind: Invalid value: "Wid-get!List": may have mixed case, but should otherwise match: '
        + DNS1035_MSG]
    assert errors(internal(names={"plural": "widgets", "singular": "widget"})) == [
        "spec.names.kind: Required value", "spec.names.listKind: Required value"]


def test_printer_columns_and_subresources():
    columns = [{"name": "", "type": "object", "format": "uuid", "jsonPath": "spec.name"},
               {"name": "A", "type": "", "jsonPath": ""}]
    subresources = {"status": {}, "scale": {"specReplicasPath": ".status.replicas", "statusReplicasPath": "x",
                                            "labelSelectorPath": ".metadata.labels"}}
    assert errors(internal(additionalPrinterColumns=columns, subresources=subresources)) == [
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under '
        ".spec",
        'spec.subresources.scale.statusReplicasPath: Invalid value: "x": must be a simple json path starting with .',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under '
        "either .spec or .status",
        "spec.additionalPrinterColumns[0].name: Required value",
        'spec.additionalPrinterColumns[0].type: Invalid value: "object": must be one of '
        "boolean,date,integer,number,string",
        'spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of '
        "byte,date,date-time,double,float,int32,int64,password",
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.name": must be a simple json path '
        "starting with .",
        "spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string",
        "spec.additionalPrinterColumns[1].JSONPath: Required value"]


@pytest.mark.parametrize(("path", "error"), [
    (".spec.size", None),
    (".spec.labels.team", None),
    (".spec.ratio", "must point to a field of type string, boolean or integer. Enum string fields and strings "
                    "with formats are allowed."),
    (".spec.nope", "is an invalid path: does not refer to a valid field"),
    ("spec.size", "is an invalid path: expected [ or . but got: spec"),
    (".spec['size']", "is an invalid path: array notation is not allowed"),
    (".spec.", "is an invalid path: unexpected end of JSON path"),
])
def test_selectable_fields(path, error):
    got = errors(internal(selectableFields=[{"jsonPath": path}]))
    assert got == ([] if error is None else [f'spec.selectableFields[0].jsonPath: Invalid value: "{path}": {error}'])


def test_selectable_fields_duplicates_and_limit():
    fields = [{"jsonPath": ".spec.size"}, {"jsonPath": ".spec.size"}]
    assert errors(internal(selectableFields=fields)) == [
        'spec.selectableFields[1].jsonPath: Duplicate value: ".spec.size"']
    fields = [{"jsonPath": f".spec.labels.l{i}"} for i in range(9)]
    assert errors(internal(selectableFields=fields)) == [
        "spec.selectableFields: Too many: 9: must have at most 8 items"]


def test_deprecation_warning():
    versions = [{"name": "v1", "served": True, "storage": True, "deprecationWarning": "x"}]
    assert errors(internal(versions=versions)) == [
        'spec.versions[0].deprecationWarning: Invalid value: "x": can only be set for deprecated versions']
    versions = [{"name": "v1", "served": True, "storage": True, "deprecated": True, "deprecationWarning": "a\tb"}]
    assert errors(internal(versions=versions)) == [
        'spec.versions[0].deprecationWarning: Invalid value: "a\\tb": must only contain printable UTF-8 characters; '
        "non-printable character found at index 1"]


def webhook(**client_config) -> dict:
    return {"strategy": "Webhook", "webhookClientConfig": client_config, "conversionReviewVersions": ["v1"]}


@pytest.mark.parametrize(("conversion", "expected"), [
    ({"strategy": "Webhook"}, ["spec.conversion.webhookClientConfig: Required value: required when strategy is set "
                               "to Webhook", "spec.conversion.conversionReviewVersions: Required value"]),
    (webhook(), ["spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"]),
    (webhook(url="http://example.com/convert"), [
        'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; '
        "desired format: https://host[/path]"]),
    (webhook(url="https:///convert"), [
        'spec.conversion.webhookClientConfig.url: Invalid value: "": host must be specified; desired format: '
        "https://host[/path]"]),
    (webhook(url="https://example.com/convert#frag"), [
        'spec.conversion.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL']),
    (webhook(url="https://x.example.com/c?q=1"), [
        'spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the '
        "URL"]),
    (webhook(url="https://exa mple.com/%zz"), [
        'spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse '
        '"https://exa mple.com/%zz": invalid character " " in host name; desired format: https://host[/path]']),
    # The apiserver swaps name and namespace when it validates a service reference.
    (webhook(service={"namespace": "ns", "name": "", "port": 443}), [
        "spec.conversion.webhookClientConfig.service.namespace: Required value"]),
    (webhook(service={"namespace": "ns", "name": "conv", "path": "/a//b/", "port": 0}), [
        "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and "
        "65535, inclusive",
        'spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//b/": segment[1] may not be empty']),
    ({"strategy": "None", "webhookClientConfig": {"url": "https://x"}, "conversionReviewVersions": ["v1"]}, [
        "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
        "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook"]),
    ({"strategy": "Magic"}, ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", '
                             '"Webhook"']),
    ({"strategy": "Webhook", "webhookClientConfig": {"url": "https://x.example.com"},
      "conversionReviewVersions": ["v2", "v2"]}, [
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
        'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, '
        "v1beta1"]),
])
def test_conversion(conversion, expected):
    assert errors(internal(conversion=conversion)) == expected


def test_go_url_parser():
    u = parse("https://user:p@ss@host.example.com:8443/a%20b?x=1#f")
    assert (u.scheme, u.user_string(), u.host, u.path, u.raw_query, u.fragment) == (
        "https", "user:p%40ss", "host.example.com:8443", "/a b", "x=1", "f")
    with pytest.raises(URLError, match='^parse "https://h:x/": invalid port ":x" after host$'):
        parse("https://h:x/")
    with pytest.raises(URLError, match='^parse ":x": missing protocol scheme$'):
        parse(":x")
    assert parse_request_uri("https://github.com/kubernetes/enhancements/pull/1111").host == "github.com"
    with pytest.raises(URLError, match='^parse "nope": invalid URI for request$'):
        parse_request_uri("nope")


def test_ca_bundle():
    assert ca_bundle_error(b"garbage") == "unable to load root certificates: unable to parse bytes as PEM block"
    assert ca_bundle_error(b"-----BEGIN CERTIFICATE-----\nMIIDGTCCAgGgAwIBAgIUOS2M\n-----END CERTIFICATE-----\n") == (
        "unable to load root certificates: failed to parse certificate: x509: malformed certificate")


def test_api_approval():
    crd = internal(group="widgets.k8s.io")
    assert errors(crd) == [
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval '
        'annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111']
    crd["metadata"]["annotations"] = {"api-approved.kubernetes.io": "unapproved, experimental"}
    assert errors(crd) == []
    crd["metadata"]["annotations"] = {"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/1"}
    assert errors(crd) == []
    old = copy.deepcopy(crd)
    crd["metadata"]["annotations"] = {"api-approved.kubernetes.io": "nope"}
    crd["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"] = "1"
    assert errors(crd, old) == [
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "nope": protected groups must have approval '
        'annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see '
        "https://github.com/kubernetes/enhancements/pull/1111"]
    del old["metadata"]["annotations"]
    del crd["metadata"]["annotations"]
    assert errors(crd, old) == []  # a missing approval stays acceptable on update


def test_preserve_unknown_fields():
    crd = internal(preserveUnknownFields=True)
    crd["spec"]["validation"]["openAPIV3Schema"]["properties"]["spec"]["default"] = {}
    assert errors(crd) == [
        "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema",
        "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields "
        "to true in spec.versions[*].schema instead"]
    old = internal(preserveUnknownFields=True)
    old["metadata"]["resourceVersion"] = crd["metadata"]["resourceVersion"] = "1"
    assert errors(crd, old) == [
        "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema"]


def test_update_immutable_fields_and_stored_versions():
    old = internal()
    old["metadata"]["resourceVersion"] = "1"
    old["status"]["conditions"] = [{"type": "Established", "status": "True"}]
    new = internal(group="example.org", scope="Cluster",
                   names={"plural": "widgetz", "singular": "widget", "kind": "Gadget", "listKind": "GadgetList"},
                   versions=[{"name": "v2", "served": True, "storage": True}], version="v2")
    new["metadata"] = {"name": "widgets.example.com", "resourceVersion": "1"}
    new["status"] = {"storedVersions": ["v1", "v2"], "conditions": old["status"]["conditions"]}
    assert errors(new, old) == [
        'spec.scope: Invalid value: "Cluster": field is immutable',
        'spec.names.kind: Invalid value: "Gadget": field is immutable',
        'spec.group: Invalid value: "example.org": field is immutable',
        'spec.names.plural: Invalid value: "widgetz": field is immutable',
        'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage '
        "version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 "
        "and removes v1 from status.storedVersions"]


def test_update_options_ratchet_on_the_stored_crd():
    old = internal(conversion={"strategy": "Webhook", "conversionReviewVersions": ["v9"]})
    old["spec"]["validation"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"]["type"] = "strng"
    opts = crd_validation.update_options(old, internal())
    assert not opts.require_recognized_conversion_review_version
    assert not opts.require_valid_property_type
    assert not opts.require_immutable_names
    assert opts.require_structural_schema and opts.is_update
    assert opts.versions_with_unchanged_schemas == frozenset()
    assert crd_validation.update_options(internal(), internal()).versions_with_unchanged_schemas == {"v1"}


def test_map_list_keys_ratchet_when_the_stored_crd_breaks_the_rule():
    def list_of(list_type: str, items: dict, keys: list[str] | None = None) -> dict:
        return {"type": "array", "x-kubernetes-list-type": list_type, "items": items,
                **({"x-kubernetes-list-map-keys": keys} if keys else {})}

    item = {"type": "object", "properties": {"k": {"type": "string"}}}
    assert has_invalid_map_list_keys_map_set(list_of("map", item, ["k"]))  # neither required nor defaulted
    assert not has_invalid_map_list_keys_map_set(list_of("map", {**item, "required": ["k"]}, ["k"]))
    assert has_invalid_map_list_keys_map_set(list_of("map", {**item, "required": ["k"], "properties": {
        "k": {"type": "string", "nullable": True}}}, ["k"]))
    assert has_invalid_map_list_keys_map_set(list_of("set", {"type": "string", "nullable": True}))
    assert not has_invalid_map_list_keys_map_set(list_of("atomic", {"type": "string", "nullable": True}))


def test_schema_validator_is_called_like_the_apiserver():
    calls = []

    def validate_schema(validation, status_enabled, opts, path):
        calls.append((validation is not None, status_enabled, opts.require_structural_schema, str(path)))
        return []

    versions = [{"name": "v1", "served": True, "storage": True, "schema": SCHEMA, "subresources": {"status": {}}},
                {"name": "v2", "served": True, "storage": False, "schema": {"openAPIV3Schema": {"type": "object"}}}]
    crd = internal(versions=versions, validation=None)
    crd_validation.validate_crd(crd, validate_schema)
    assert calls == [(True, True, True, "spec.versions[0].schema"), (True, False, True, "spec.versions[1].schema"),
                     (False, True, True, "spec.validation")]


# ------------------------------------------------------------------ the apiserver's answers
def _outside_schemas(texts_and_fields):
    return collections.Counter(text for text, field in texts_and_fields if "openAPIV3Schema" not in field)


def _converters():
    """The real decode and convert steps; these tests wait for them."""
    return pytest.importorskip("crdtool.schema.crd.decode"), pytest.importorskip("crdtool.schema.crd.internal")


def _internal_form(doc, create: bool = True):
    crd_decode, crd_internal = _converters()
    decoded = crd_decode.decode_crd(doc.data)
    if decoded.crd is None:
        pytest.skip("not decodable")
    return crd_internal.to_internal(decoded.crd, create=create)


@requires_shared
@pytest.mark.parametrize("case", [c for c in load_cases("lint") if not c["expected"].get("decodeError")],
                         ids=lambda c: c["id"])
def test_lint_cases_outside_schemas(case):
    _converters()
    crd = _internal_form(document_for(case["crd"], case, "crd"))
    got = _outside_schemas((str(e), e.field) for e in crd_validation.validate_crd(crd, no_schema))
    want = _outside_schemas((e["error"], e["field"]) for e in case["expected"]["errors"])
    assert got == want


@requires_shared
@pytest.mark.parametrize("case", load_cases("lint-update"), ids=lambda c: c["id"])
def test_lint_update_cases_outside_schemas(case):
    _, crd_internal = _converters()
    crd = _internal_form(document_for(case["crd"], case, "crd"))
    old = _internal_form(document_for(case["oldCrd"], case, "old"), create=False)
    crd = crd_internal.prepare_for_update(crd, old)
    # kubectl apply sends the stored resourceVersion (an update without one is a 409 Conflict).
    meta = crd.setdefault("metadata", {})
    meta.setdefault("resourceVersion", (old.get("metadata") or {}).get("resourceVersion") or "1")
    got = _outside_schemas((str(e), e.field) for e in crd_validation.validate_crd_update(crd, old, no_schema))
    want = _outside_schemas((e["error"], e["field"]) for e in case["expected"]["errors"])
    assert got == want
