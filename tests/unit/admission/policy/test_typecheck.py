"""A ValidatingAdmissionPolicy's status.typeChecking, as the status controller computes it: the cases of
k8s.io/apiserver pkg/admission/plugin/policy/validating/typechecking_test.go (TestExtractTypeNames,
TestTypeCheck), then the kinds crdtool resolves itself (built-in definitions, CRDs' published schemas)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from crdtool.admission.policy.kinds import GVK, Cluster, SchemaNotFound, gvk_string
from crdtool.admission.policy.typecheck import MAX_TYPES_TO_CHECK, check, types_to_check
from crdtool.cel.types import DeclType, schema_decl_type
from crdtool.schema.structural.structural import new_structural

DEPLOYMENTS = {"apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}
PODS = {"apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}


def policy(*rules: dict[str, Any], **spec: Any) -> dict[str, Any]:
    spec["matchConstraints"] = {"resourceRules": list(rules or [DEPLOYMENTS])}
    return {"metadata": {"name": "p"}, "spec": spec}


def validations(*expressions: str) -> list[dict[str, str]]:
    return [{"expression": e} for e in expressions]


class FakeCluster(Cluster):
    """buildTypeChecker: the RESTMapper knows Pod and Deployment, and the schema resolver answers every
    kind with one schema (None: ErrSchemaNotFound)."""

    def __init__(self, schema: dict[str, Any] | None) -> None:
        super().__init__()
        self.schema = schema

    def decl_type(self, gvk: GVK) -> DeclType | None:
        if self.schema is None:
            raise SchemaNotFound(gvk_string(gvk))
        return schema_decl_type(new_structural(self.schema), True)


# TestExtractTypeNames: typesToCheck
@pytest.mark.parametrize("name, spec_policy, expected", [
    ("empty", {"spec": {}}, []),
    ("specific", policy(DEPLOYMENTS), [("apps", "v1", "Deployment")]),
    ("multiple", policy(DEPLOYMENTS, PODS), [("", "v1", "Pod"), ("apps", "v1", "Deployment")]),
    ("all resources", policy({**DEPLOYMENTS, "resources": ["*"]}), []),
    ("sub resources", policy({**DEPLOYMENTS, "resources": ["pods/*"]}), []),
    ("mixtures", policy(DEPLOYMENTS, {**DEPLOYMENTS, "apiVersions": ["*"]}), [("apps", "v1", "Deployment")]),
])
def test_types_to_check(name: str, spec_policy: dict[str, Any], expected: list[GVK]) -> None:
    assert types_to_check(spec_policy["spec"], FakeCluster(None))[0] == expected


STRING_FOO = {"type": "object", "properties": {"foo": {"type": "string"}}}
INT_FOO = {"type": "object", "properties": {"foo": {"type": "integer"}}}

# TestTypeCheck: (name, policy, schema, the warnings' fieldRefs, a text each warning holds)
TYPE_CHECK_CASES = [
    ("empty", {"spec": {}}, None, [], None),
    ("unresolved schema", policy(validations=validations("object.foo == 'bar'")), None, [], None),
    ("passed check", policy(validations=validations("object.foo == 'bar'")), STRING_FOO, [], None),
    ("undefined field", policy(validations=validations("object.foo == 'bar'")),
     {"type": "object", "properties": {"bar": {"type": "string"}}},
     ["spec.validations[0].expression"], "undefined field 'foo'"),
    ("field type mismatch", policy(validations=validations("object.foo == 'bar'")), INT_FOO,
     ["spec.validations[0].expression"], "found no matching overload"),
    ("params", policy(validations=validations("object.foo == params.bar"),
                      paramKind={"apiVersion": "v1", "kind": "DoesNotMatter"}), STRING_FOO,
     ["spec.validations[0].expression"], "undefined field 'bar'"),
    ("params with untyped schema", policy(validations=validations("params != null"),
                                          paramKind={"apiVersion": "v1", "kind": "Config"}), {}, [], None),
    ("multiple expressions", policy(validations=validations("object.foo == 'bar'", "object.bar == 'foo'")),
     STRING_FOO, ["spec.validations[1].expression"], None),
    ("message expressions", policy(validations=[{"expression": "object.foo == 'bar'",
                                                 "messageExpression": "object.foo + 114514"}]),
     STRING_FOO, ["spec.validations[0].messageExpression"], None),
    ("authorizer", policy(validations=validations(
        "authorizer.group('').resource('endpoints').check('create').allowed()")), STRING_FOO, [], None),
    ("authorizer invalid", policy(validations=validations("authorizer.allowed()")), STRING_FOO,
     ["spec.validations[0].expression"],
     "found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer"),
    ("additionalProperties: true", policy(
        {"apiGroups": ["example.com"], "apiVersions": ["v1alpha1"], "resources": ["reproducers"]},
        validations=validations("has(object.spec.text)")),
     {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {"text": {"type": "string"}}},
         "status": {"type": "object", "properties": {
             "problematicProperty": {"type": "object", "additionalProperties": True}}}}}, [], None),
    ("schema without type", policy(validations=validations("true")), {}, [], None),
    ("variables valid", policy(validations=validations("variables.works"),
                               variables=[{"name": "works", "expression": "true"}]), INT_FOO, [], None),
    ("variables missing field", policy(validations=validations("variables.nonExisting"),
                                       variables=[{"name": "works", "expression": "true"}]), INT_FOO,
     ["spec.validations[0].expression"], "undefined field 'nonExisting'"),
    ("variables field wrong type", policy(validations=validations("variables.name == object.foo"),
                                          variables=[{"name": "name", "expression": "'something'"}]), INT_FOO,
     ["spec.validations[0].expression"], "found no matching overload for '_==_' applied to '(string, int)"),
    ("error in variables, not reported during type checking.",
     policy(validations=validations("variables.name == object.foo"),
            variables=[{"name": "name", "expression": "object.foo == 'str'"}]), INT_FOO, [], None),
]


@pytest.mark.parametrize("name, spec_policy, schema, field_refs, contains", TYPE_CHECK_CASES,
                         ids=[c[0] for c in TYPE_CHECK_CASES])
def test_type_check(name: str, spec_policy: dict[str, Any], schema: dict[str, Any] | None, field_refs: list[str],
                    contains: str | None) -> None:
    warnings = check(spec_policy, FakeCluster(schema)).warnings
    assert [w.field_ref for w in warnings] == field_refs
    for w in warnings:
        assert contains is None or contains in w.warning


def test_a_warning_names_the_kind_and_holds_cel_gos_error() -> None:
    # TypeCheckingResult.String: "%v: %s\n" of the GVK and the issues
    warnings = check(policy(validations=validations("object.foo == 'bar'")), FakeCluster(INT_FOO)).warnings
    assert warnings[0].warning == (
        "apps/v1, Kind=Deployment: ERROR: <input>:1:12: found no matching overload for '_==_' applied to "
        "'(int, string)'\n | object.foo == 'bar'\n | ...........^\n")


def test_the_warnings_of_several_kinds_are_joined_by_newlines() -> None:
    # TypeCheckingResults.String: each kind's result, sorted by group, version, kind, joined with "\n"
    warnings = check(policy(DEPLOYMENTS, PODS, validations=validations("object.nope")),
                     FakeCluster(STRING_FOO)).warnings
    pod, deployment = warnings[0].warning.split("\n\n")
    assert pod.startswith("/v1, Kind=Pod: ERROR: <input>:1:7: undefined field 'nope'")
    assert deployment.startswith("apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'nope'")
    assert deployment.endswith("^\n")


def test_a_rule_stops_at_ten_kinds() -> None:
    # maxTypesToCheck: counted per rule, the kinds found so far returned at once
    crds = [_crd(f"k{i}", group="example.com") for i in range(12)]
    rule = {"apiGroups": ["example.com"], "apiVersions": ["v1"], "resources": [f"k{i}s" for i in range(12)]}
    found, notes = types_to_check(policy(rule)["spec"], Cluster(crds))
    assert len(found) == MAX_TYPES_TO_CHECK and notes == []
    assert ("example.com", "v1", "K9") not in found  # sorted resource names: k0s, k10s, k11s, k1s, ... k7s


def test_the_core_group_matches_the_resource_in_every_group() -> None:
    # DefaultRESTMapper.KindsFor without a group: every group's resource of that version and name
    found, _ = types_to_check(policy({"apiGroups": [""], "apiVersions": ["v1"], "resources": ["events"]})["spec"],
                              Cluster())
    assert found == [("", "v1", "Event"), ("events.k8s.io", "v1", "Event")]


def test_singular_names_and_upper_case_resolve() -> None:
    found, _ = types_to_check(policy({**DEPLOYMENTS, "resources": ["Deployment"]})["spec"], Cluster())
    assert found == [("apps", "v1", "Deployment")]


# The kinds crdtool knows: built-in definitions, and CRDs' schemas as the apiserver publishes them.

def _crd(name: str, group: str = "stable.example.com", schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{name}s.{group}"},
            "spec": {"group": group, "scope": "Namespaced",
                     "names": {"plural": f"{name}s", "singular": name, "kind": name.capitalize()},
                     "versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": schema or {"type": "object"}}}]}}


CRONTAB = _crd("crontab", schema={"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "replicas": {"type": "integer"}, "port": {"x-kubernetes-int-or-string": True},
    "template": {"type": "object", "x-kubernetes-embedded-resource": True,
                 "x-kubernetes-preserve-unknown-fields": True}}}}})
CRONTABS = {"apiGroups": ["stable.example.com"], "apiVersions": ["v1"], "resources": ["crontabs"]}


@pytest.mark.parametrize("expression", [
    "object.spec.replicas <= 3",
    "object.metadata.labels['app'] == 'x'",  # metadata is the whole ObjectMeta in the published schema
    "object.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z')",
    "object.spec.template.metadata.namespace == 'x'",  # an embedded resource has one too
    "object.spec.port == 80 || object.spec.port == 'http'",
])
def test_a_crds_schema_types_object(expression: str) -> None:
    assert check(policy(CRONTABS, validations=validations(expression)), Cluster([CRONTAB])).warnings == []


@pytest.mark.parametrize("expression, error", [
    ("object.spec.replica <= 3", "undefined field 'replica'"),
    ("object.spec.replicas == 'three'", "found no matching overload for '_==_' applied to '(int, string)'"),
    ("object.status.ready", "undefined field 'status'"),
])
def test_a_crds_schema_finds_mistakes(expression: str, error: str) -> None:
    warnings = check(policy(CRONTABS, validations=validations(expression)), Cluster([CRONTAB])).warnings
    assert len(warnings) == 1 and warnings[0].warning.startswith("stable.example.com/v1, Kind=Crontab: ERROR: ")
    assert error in warnings[0].warning


@pytest.mark.parametrize("expression, error", [
    ("object.spec.replicas > 1", ""),
    ("object.spec.template.spec.containers.all(c, c.image != '')", ""),
    ("object.spec.template.spec.containers.all(c, c.imag != '')", "undefined field 'imag'"),
    # a Quantity has no type in the OpenAPI v3 definitions: a ResourceList is not exposed to CEL
    ("object.spec.template.spec.containers.all(c, has(c.resources.limits))", "undefined field 'limits'"),
    ("object.spec.strategy.rollingUpdate.maxSurge == 1", ""),  # IntOrString: dyn
    ("object.metadata.creationTimestamp + 1", "found no matching overload for '_+_' applied to "
                                              "'(google.protobuf.Timestamp, int)'"),
])
def test_a_builtin_kinds_definitions_type_object(expression: str, error: str) -> None:
    warnings = check(policy(validations=validations(expression)), Cluster()).warnings
    assert [error in w.warning for w in warnings] == ([True] if error else [])


def test_type_names_are_the_kinds_with_a_number() -> None:
    warnings = check(policy(validations=validations("object.spec + 1")), Cluster()).warnings
    assert re.search(r"applied to '\(Deployment\d+\.spec, int\)'", warnings[0].warning)


def test_params_are_typed_by_the_param_kind() -> None:
    spec_policy = policy(paramKind={"apiVersion": "v1", "kind": "ConfigMap"},
                         validations=validations("object.spec.replicas < int(params.data.max)",
                                                 "params.spec.max > 1"))
    warnings = check(spec_policy, Cluster()).warnings
    assert [w.field_ref for w in warnings] == ["spec.validations[1].expression"]
    assert "undefined field 'spec'" in warnings[0].warning


def test_authorizer_request_resource_is_not_declared_to_the_type_checker() -> None:
    # buildEnvSet declares `authorizer` alone: its requestResource is a field the Authorizer type lacks
    warnings = check(policy(validations=validations("authorizer.requestResource.check('get').allowed()")),
                     Cluster()).warnings
    assert [w.field_ref for w in warnings] == ["spec.validations[0].expression"]
    assert "undefined field 'requestResource'" in warnings[0].warning


def test_what_crdtool_cannot_resolve_is_noted() -> None:
    result = check(policy(CRONTABS, paramKind={"apiVersion": "example.com/v1", "kind": "Limits"},
                          validations=validations("object.spec.replicas <= params.max")), Cluster())
    assert result.warnings == []
    assert [(str(n.path), n.message) for n in result.notes] == [
        ("spec.matchConstraints.resourceRules[0]",
         "not type-checked against crontabs (stable.example.com/v1): neither a built-in resource nor one of a "
         "CRD among the inputs")]


def test_a_param_kind_crdtool_does_not_know_is_noted() -> None:
    result = check(policy(CRONTABS, paramKind={"apiVersion": "example.com/v1", "kind": "Limits"},
                          validations=validations("object.spec.replicas <= params.max")), Cluster([CRONTAB]))
    assert result.warnings == []
    assert [(str(n.path), n.message) for n in result.notes] == [
        ("spec.paramKind", "type-checked with params as dyn: Limits (example.com/v1) is neither a built-in kind "
                           "nor defined by a CRD among the inputs")]


def test_a_built_in_kind_without_a_schema_here_is_noted() -> None:
    rule = {"apiGroups": ["apiextensions.k8s.io"], "apiVersions": ["v1"], "resources": ["customresourcedefinitions"]}
    result = check(policy(rule, validations=validations("object.spec.nope")), Cluster())
    assert result.warnings == []
    assert [n.message for n in result.notes] == [
        "not type-checked against apiextensions.k8s.io/v1, Kind=CustomResourceDefinition: crdtool has no schema "
        "of the built-in kind CustomResourceDefinition (apiextensions.k8s.io/v1)"]


def test_an_unknown_resource_of_a_built_in_group_is_no_kind() -> None:
    # the RESTMapper finds nothing: the controller skips it, and crdtool knows every built-in resource
    result = check(policy({**DEPLOYMENTS, "resources": ["nothings"]}, validations=validations("object.x")), Cluster())
    assert result.warnings == [] and result.notes == []


def test_a_version_the_crd_does_not_serve_maps_to_nothing() -> None:
    # the CRD among the inputs is the cluster's: its unserved version is no resource, and nothing to note
    crd = _crd("crontab")
    crd["spec"]["versions"].append({"name": "v2", "served": False, "storage": False,
                                    "schema": {"openAPIV3Schema": {"type": "object"}}})
    found, notes = types_to_check(policy({**CRONTABS, "apiVersions": ["v1", "v2"]})["spec"], Cluster([crd]))
    assert found == [("stable.example.com", "v1", "Crontab")] and notes == []


def test_a_crd_without_a_singular_name_is_found_by_its_kinds_lower_case() -> None:
    crd = _crd("crontab")
    del crd["spec"]["names"]["singular"]
    found, _ = types_to_check(policy({**CRONTABS, "resources": ["crontab"]})["spec"], Cluster([crd]))
    assert found == [("stable.example.com", "v1", "Crontab")]
