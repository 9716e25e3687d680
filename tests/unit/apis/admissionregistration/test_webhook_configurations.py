"""What the apiserver refuses when a ValidatingWebhookConfiguration or MutatingWebhookConfiguration is
created or updated, traced to kubernetes' pkg/apis/admissionregistration/validation/validation_test.go
(TestValidateValidatingWebhookConfiguration, TestValidateMutatingWebhookConfiguration and their
Update tests, whose tables are the same for both kinds) and, where a row is crdtool's own, to
validation.go. The Go tests check that the aggregate contains a text; each row here states every
error the configuration gets, in the apiserver's order.

The configurations are v1 objects as stored: decoded and defaulted (defaults.go) before validation,
as the apiserver's create handler does; the Go tests' `newValidatingWebhookConfiguration(hooks, true)`
gives a webhook without admissionReviewVersions ["v1beta1"], as `config(...)` does here.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.apis import openapi
from crdtool.apis.defaults import set_object_defaults
from crdtool.apis.validation import validation_for

GROUP = "admissionregistration.k8s.io"
KINDS = ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")
URL = {"url": "https://example.com"}
LABEL_NAME = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
              "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
              "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
DNS1035 = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
           "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
           "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
SUBDOMAIN = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
             "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
SIDE_EFFECTS_REQUIRED = "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"
NO_CLIENT = "webhooks[0].clientConfig: Required value: exactly one of url or service is required"
URL_FORM = "; desired format: https://host[/path]"


def hook(name: str = "webhook.k8s.io", **fields: Any) -> dict[str, Any]:
    return {"name": name, **fields}


def ok(name: str = "webhook.k8s.io", **fields: Any) -> dict[str, Any]:
    """A webhook the Go tests give validClientConfig and SideEffectClassNone."""
    return hook(name, **{"clientConfig": URL, "sideEffects": "None", **fields})


def unknown(name: str = "webhook.k8s.io", **fields: Any) -> dict[str, Any]:
    """A webhook the Go tests give validClientConfig and SideEffectClassUnknown."""
    return hook(name, **{"clientConfig": URL, "sideEffects": "Unknown", **fields})


def rule(**fields: Any) -> dict[str, Any]:
    return {"operations": ["CREATE"], "apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"], **fields}


def service(path: str | None = None, port: int = 443, **fields: Any) -> dict[str, Any]:
    ref: dict[str, Any] = {"namespace": "ns", "name": "n", "port": port, **fields}
    if path is not None:
        ref["path"] = path
    return {"service": ref}


def config(*hooks: dict[str, Any], default_versions: bool = True) -> list[dict[str, Any]]:
    """newValidatingWebhookConfiguration's webhooks: ["v1beta1"] where none are listed (when asked)."""
    out = copy.deepcopy(list(hooks))
    for h in out:
        if default_versions and not h.get("admissionReviewVersions"):
            h["admissionReviewVersions"] = ["v1beta1"]
    return out


def stored(kind: str, webhooks: list[dict[str, Any]]) -> dict[str, Any]:
    """The configuration as the apiserver holds it: decoded JSON with the v1 defaults."""
    obj = {"apiVersion": f"{GROUP}/v1", "kind": kind, "metadata": {"name": "config"},
           "webhooks": copy.deepcopy(webhooks)}
    set_object_defaults(obj, openapi.definition_name(GROUP, "v1", kind))
    return obj


def create_errors(kind: str, webhooks: list[dict[str, Any]]) -> list[str]:
    validation = validation_for(GROUP, kind)
    assert validation is not None
    return [str(e) for e in validation.create(stored(kind, webhooks))]


def update_errors(kind: str, webhooks: list[dict[str, Any]], old: list[dict[str, Any]]) -> list[str]:
    validation = validation_for(GROUP, kind)
    assert validation is not None and validation.update is not None
    return [str(e) for e in validation.update(stored(kind, webhooks), stored(kind, old))]


def _match_conditions(count: int) -> list[dict[str, str]]:
    """get65MatchConditions' conditions: test0, test1, ... each `true`."""
    return [{"name": f"test{i}", "expression": "true"} for i in range(count)]


def _path_errors(path: str, *details: str) -> list[str]:
    return [f'webhooks[0].clientConfig.service.path: Invalid value: "{path}": {d}' for d in details]


# (the Go test's name, the webhooks, every error the apiserver gives, in order)
CREATE_CASES: list[tuple[str, list[dict[str, Any]], list[str]]] = [
    ("AdmissionReviewVersions are required", config(unknown(), default_versions=False),
     ['webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"]),
    ("should fail on bad AdmissionReviewVersion value",
     config(hook(clientConfig=URL, admissionReviewVersions=["0v"])),
     [SIDE_EFFECTS_REQUIRED, f'webhooks[0].admissionReviewVersions[0]: Invalid value: "0v": {DNS1035}',
      'webhooks[0].admissionReviewVersions: Invalid value: ["0v"]: must include at least one of v1, v1beta1']),
    ("should pass on valid AdmissionReviewVersion", config(ok(admissionReviewVersions=["v1beta1"])), []),
    ("should pass on mix of accepted and unaccepted AdmissionReviewVersion",
     config(ok(admissionReviewVersions=["v1beta1", "invalid-version"])), []),
    ("should fail on invalid AdmissionReviewVersion",
     config(hook(clientConfig=URL, admissionReviewVersions=["invalidVersion"])),
     [SIDE_EFFECTS_REQUIRED, f'webhooks[0].admissionReviewVersions[0]: Invalid value: "invalidVersion": {DNS1035}',
      'webhooks[0].admissionReviewVersions: Invalid value: ["invalidVersion"]: must include at least one of v1, '
      "v1beta1"]),
    ("should fail on duplicate AdmissionReviewVersion",
     config(hook(clientConfig=URL, admissionReviewVersions=["v1beta1", "v1beta1"])),
     [SIDE_EFFECTS_REQUIRED, 'webhooks[0].admissionReviewVersions[1]: Invalid value: "v1beta1": duplicate version']),
    ("all Webhooks must have a fully qualified name", config(ok(), ok("k8s.io"), ok("")),
     ['webhooks[1].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots',
      "webhooks[2].name: Required value"]),
    ("Webhooks must have unique names when created", config(unknown(), unknown()),
     ['webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].name: Duplicate value: "webhook.k8s.io"']),
    ("Operations must not be empty or nil",
     config(hook(rules=[rule(operations=[]), {k: v for k, v in rule().items() if k != "operations"}])),
     ["webhooks[0].rules[0].operations: Required value", "webhooks[0].rules[1].operations: Required value",
      SIDE_EFFECTS_REQUIRED, NO_CLIENT]),
    ('"" is NOT a valid operation', config(hook(rules=[rule(operations=["CREATE", ""])])),
     ['webhooks[0].rules[0].operations[1]: Unsupported value: "": supported values: "*", "CONNECT", "CREATE", '
      '"DELETE", "UPDATE"', SIDE_EFFECTS_REQUIRED, NO_CLIENT]),
    ("operation must be either create/update/delete/connect", config(hook(rules=[rule(operations=["PATCH"])])),
     ['webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", '
      '"DELETE", "UPDATE"', SIDE_EFFECTS_REQUIRED, NO_CLIENT]),
    ("wildcard operation cannot be mixed with other strings", config(hook(rules=[rule(operations=["CREATE", "*"])])),
     ['webhooks[0].rules[0].operations: Invalid value: ["CREATE","*"]: if \'*\' is present, must not specify other '
      "operations", SIDE_EFFECTS_REQUIRED, NO_CLIENT]),
    ('resource "*" can co-exist with resources that have subresources',
     config(ok(rules=[rule(resources=["*", "a/b", "a/*", "*/b"])])), []),
    ('resource "*" cannot mix with resources that don\'t have subresources',
     config(ok(rules=[rule(resources=["*", "a"])])),
     ['webhooks[0].rules[0].resources: Invalid value: ["*","a"]: if \'*\' is present, must not specify other '
      "resources without subresources"]),
    ("resource a/* cannot mix with a/x", config(ok(rules=[rule(resources=["a/*", "a/x"])])),
     ["webhooks[0].rules[0].resources[1]: Invalid value: \"a/x\": if 'a/*' is present, must not specify a/x"]),
    ("resource a/* can mix with a", config(ok(rules=[rule(resources=["a/*", "a"])])), []),
    ("resource */a cannot mix with x/a", config(ok(rules=[rule(resources=["*/a", "x/a"])])),
     ["webhooks[0].rules[0].resources[1]: Invalid value: \"x/a\": if '*/a' is present, must not specify x/a"]),
    ("resource */* cannot mix with other resources", config(ok(rules=[rule(resources=["*/*", "a"])])),
     ['webhooks[0].rules[0].resources: Invalid value: ["*/*","a"]: if \'*/*\' is present, must not specify other '
      "resources"]),
    ('FailurePolicy can only be "Ignore" or "Fail"', config(ok(failurePolicy="other")),
     ['webhooks[0].failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"']),
    ("SideEffects are required", config(hook(clientConfig=URL)), [SIDE_EFFECTS_REQUIRED]),
    ('SideEffects can only be "None" or "NoneOnDryRun" when created',
     config(hook(clientConfig=URL, sideEffects="other")),
     ['webhooks[0].sideEffects: Unsupported value: "other": supported values: "None", "NoneOnDryRun"']),
    ("both service and URL missing", config(ok(clientConfig={})), [NO_CLIENT]),
    ("both service and URL provided",
     config(ok(clientConfig={**service(), "url": "example.com/k8s/webhook"})), [NO_CLIENT]),
    ("blank URL", config(ok(clientConfig={"url": ""})),
     [f"webhooks[0].clientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme{URL_FORM}",
      f'webhooks[0].clientConfig.url: Invalid value: "": host must be specified{URL_FORM}']),
    ("wrong scheme", config(ok(clientConfig={"url": "http://example.com"})),
     [f"webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme{URL_FORM}"]),
    ("missing host", config(ok(clientConfig={"url": "https:///fancy/webhook"})),
     [f'webhooks[0].clientConfig.url: Invalid value: "": host must be specified{URL_FORM}']),
    ("fragment", config(ok(clientConfig={"url": "https://example.com/#bookmark"})),
     ['webhooks[0].clientConfig.url: Invalid value: "bookmark": fragments are not permitted in the URL']),
    ("query", config(ok(clientConfig={"url": "https://example.com?arg=value"})),
     ['webhooks[0].clientConfig.url: Invalid value: "arg=value": query parameters are not permitted in the URL']),
    ("user", config(ok(clientConfig={"url": "https://harry.potter@example.com/"})),
     ['webhooks[0].clientConfig.url: Invalid value: "harry.potter": user information is not permitted in the URL']),
    ("just totally wrong", config(ok(clientConfig={"url": "arg#backwards=thisis?html.index/port:host//:https"})),
     [f"webhooks[0].clientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme{URL_FORM}",
      f'webhooks[0].clientConfig.url: Invalid value: "": host must be specified{URL_FORM}',
      'webhooks[0].clientConfig.url: Invalid value: "backwards=thisis?html.index/port:host//:https": fragments are '
      "not permitted in the URL"]),
    ("path must start with slash", config(ok(clientConfig=service("foo/"))),
     _path_errors("foo/", "must start with a '/'")),
    ("path accepts slash", config(ok(clientConfig=service("/"))), []),
    ("path accepts no trailing slash", config(ok(clientConfig=service("/foo"))), []),
    ("path fails //", config(ok(clientConfig=service("//"))), _path_errors("//", "segment[0] may not be empty")),
    ("path no empty step", config(ok(clientConfig=service("/foo//bar/"))),
     _path_errors("/foo//bar/", "segment[1] may not be empty")),
    ("path no empty step 2", config(ok(clientConfig=service("/foo/bar//"))),
     _path_errors("/foo/bar//", "segment[2] may not be empty")),
    ("path no non-subdomain", config(ok(clientConfig=service("/apis/foo.bar/v1alpha1/--bad"))),
     _path_errors("/apis/foo.bar/v1alpha1/--bad", f"segment[3]: {SUBDOMAIN}")),
    ("invalid port 0", config(ok(clientConfig=service("https://apis/foo.bar", port=0))),
     ["webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, "
      "inclusive",
      *_path_errors("https://apis/foo.bar", "must start with a '/'", f"segment[0]: {SUBDOMAIN}",
                    "segment[1] may not be empty")]),
    ("invalid port >65535", config(ok(clientConfig=service("https://apis/foo.bar", port=65536))),
     ["webhooks[0].clientConfig.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, "
      "inclusive",
      *_path_errors("https://apis/foo.bar", "must start with a '/'", f"segment[0]: {SUBDOMAIN}",
                    "segment[1] may not be empty")]),
    ("timeout seconds cannot be greater than 30", config(ok(timeoutSeconds=31)),
     ["webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"]),
    ("timeout seconds cannot be smaller than 1", config(ok(timeoutSeconds=0)),
     ["webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds"]),
    ("timeout seconds must be positive", config(ok(timeoutSeconds=-1)),
     ["webhooks[0].timeoutSeconds: Invalid value: -1: the timeout value must be between 1 and 30 seconds"]),
    ("valid timeout seconds",
     config(ok(timeoutSeconds=1), ok("webhook2.k8s.io", timeoutSeconds=15), ok("webhook3.k8s.io", timeoutSeconds=30)),
     []),
    ("single match condition must have a name", config(ok(matchConditions=[{"expression": "true"}])),
     ["webhooks[0].matchConditions[0].name: Required value"]),
    ("all match conditions must have a name",
     config(ok(matchConditions=[{"expression": "true"}, {"expression": "true"}]),
            ok(matchConditions=[{"name": "", "expression": "true"}])),
     ["webhooks[0].matchConditions[0].name: Required value", "webhooks[0].matchConditions[1].name: Required value",
      "webhooks[1].matchConditions[0].name: Required value", 'webhooks[1].name: Duplicate value: "webhook.k8s.io"']),
    ("single match condition must have a qualified name",
     config(ok(matchConditions=[{"name": "-hello", "expression": "true"}])),
     [f'webhooks[0].matchConditions[0].name: Invalid value: "-hello": {LABEL_NAME}']),
    ("all match conditions must have qualified names",
     config(ok(matchConditions=[{"name": ".io", "expression": "true"},
                                {"name": "thing.test.com", "expression": "true"}]),
            ok("webhook2.k8s.io", matchConditions=[{"name": "some name", "expression": "true"}])),
     [f'webhooks[0].matchConditions[0].name: Invalid value: ".io": {LABEL_NAME}',
      f'webhooks[1].matchConditions[0].name: Invalid value: "some name": {LABEL_NAME}']),
    ("expression is required", config(ok(matchConditions=[{"name": "webhook.k8s.io"}])),
     ["webhooks[0].matchConditions[0].expression: Required value"]),
    ("expression is required to have some value",
     config(ok(matchConditions=[{"name": "webhook.k8s.io", "expression": ""}])),
     ["webhooks[0].matchConditions[0].expression: Required value"]),
    ("invalid expression",
     config(ok(matchConditions=[{"name": "webhook.k8s.io", "expression": "object.x in [1, 2, "}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "object.x in [1, 2,": compilation failed: ERROR: '
      "<input>:1:19: Syntax error: missing ']' at '<EOF>'\n | object.x in [1, 2,\n | ..................^"]),
    ("unique names same hook",
     config(ok(matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}] * 2)),
     ['webhooks[0].matchConditions[1].name: Duplicate value: "webhook.k8s.io"']),
    ("repeat names allowed across different hooks",
     config(ok(matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}]),
            ok("webhook2.k8s.io", matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}])), []),
    ("must evaluate to bool", config(ok(matchConditions=[{"name": "webhook.k8s.io", "expression": "6"}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "6": must evaluate to bool but got int']),
    ("max of 64 match conditions", config(ok(matchConditions=_match_conditions(65))),
     ["webhooks[0].matchConditions: Too many: 65: must have at most 64 items"]),
    # validation.go beyond the Go tests' rows
    ("validation.go: matchPolicy one of Equivalent, Exact", config(ok(matchPolicy="Sometimes")),
     ['webhooks[0].matchPolicy: Unsupported value: "Sometimes": supported values: "Equivalent", "Exact"']),
    ("validation.go: NoneOnDryRun side effects", config(hook(clientConfig=URL, sideEffects="NoneOnDryRun")), []),
    ("validation.go: rule scope", config(ok(rules=[rule(scope="Somewhere")])),
     ['webhooks[0].rules[0].scope: Unsupported value: "Somewhere": supported values: "*", "Cluster", "Namespaced"']),
    ("validation.go: rule groups and versions",
     config(ok(rules=[rule(apiGroups=[], apiVersions=["*", ""], resources=[])])),
     ["webhooks[0].rules[0].apiGroups: Required value",
      'webhooks[0].rules[0].apiVersions: Invalid value: ["*",""]: if \'*\' is present, must not specify other API '
      "versions", "webhooks[0].rules[0].apiVersions[1]: Required value",
      "webhooks[0].rules[0].resources: Required value"]),
    ("validation.go: selectors validated strictly on create",
     config(ok(namespaceSelector={"matchLabels": {"a": "-b"}},
               objectSelector={"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["v"]}]})),
     ['webhooks[0].namespaceSelector.matchLabels: Invalid value: "-b": a valid label must be an empty string or '
      "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
      "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "webhooks[0].objectSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is "
      "'Exists' or 'DoesNotExist'"]),
    ("validation.go: the service's name and namespace (passed to ValidateWebhookService swapped)",
     config(ok(clientConfig={"service": {"name": "", "namespace": ""}})),
     ["webhooks[0].clientConfig.service.name: Required value",
      "webhooks[0].clientConfig.service.namespace: Required value"]),
    ("validation.go: only the namespace missing is reported on service.name",
     config(ok(clientConfig={"service": {"name": "webhook", "namespace": ""}})),
     ["webhooks[0].clientConfig.service.name: Required value"]),
    ("validation.go: a name that is no DNS subdomain", config(ok("Webhook.K8s.io")),
     [f'webhooks[0].name: Invalid value: "Webhook.K8s.io": {SUBDOMAIN}']),
    ("validation.go: match conditions see no params",
     config(ok(matchConditions=[{"name": "p", "expression": "params != null"}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "params != null": compilation failed: ERROR: '
      "<input>:1:1: undeclared reference to 'params' (in container '')\n | params != null\n | ^"]),
    ("validation.go: match conditions are typed and may ask the authorizer",
     config(ok(matchConditions=[{"name": "op", "expression": "request.operation == 'CREATE'"},
                                {"name": "authz",
                                 "expression": "authorizer.path('/healthz').check('get').allowed()"}])),
     []),
    ("validation.go: an undefined request field",
     config(ok(matchConditions=[{"name": "x", "expression": "  request.nope == 1  "}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "request.nope == 1": compilation failed: ERROR: '
      "<input>:1:8: undefined field 'nope'\n | request.nope == 1\n | .......^"]),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "webhooks", "expected"), CREATE_CASES, ids=[c[0] for c in CREATE_CASES])
def test_create(kind: str, name: str, webhooks: list[dict[str, Any]], expected: list[str]) -> None:
    assert create_errors(kind, webhooks) == expected


def test_reinvocation_policy_is_a_mutating_webhooks_only() -> None:
    """validateMutatingWebhook checks reinvocationPolicy after the selectors; a validating webhook has none
    (the field is dropped as unknown when it is decoded)."""
    webhooks = config(ok(reinvocationPolicy="Always"))
    assert create_errors("MutatingWebhookConfiguration", webhooks) == [
        'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']
    assert create_errors("MutatingWebhookConfiguration", config(ok(reinvocationPolicy="IfNeeded"))) == []


# (the Go test's name, the new webhooks, the stored ones, every error)
UPDATE_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], list[str]]] = [
    ("should pass on valid new AdmissionReviewVersion",
     config(unknown(admissionReviewVersions=["v1beta1"])), config(unknown()), []),
    ("should pass on valid new AdmissionReviewVersion (v1)",
     config(unknown(admissionReviewVersions=["v1"])), config(unknown()), []),
    ("should pass on invalid AdmissionReviewVersion with invalid previous versions",
     config(unknown(admissionReviewVersions=["invalid-v1", "invalid-v2"])),
     config(unknown(admissionReviewVersions=["invalid-v0"])), []),
    ("should fail on invalid AdmissionReviewVersion with valid previous versions",
     config(unknown(admissionReviewVersions=["invalid-v1"])),
     config(unknown(admissionReviewVersions=["v1beta1", "invalid-v1"])),
     ['webhooks[0].admissionReviewVersions: Invalid value: ["invalid-v1"]: must include at least one of v1, v1beta1']),
    ("should fail on invalid AdmissionReviewVersion with missing previous versions",
     config(unknown(admissionReviewVersions=["invalid-v1"])), config(unknown(), default_versions=False),
     ['webhooks[0].admissionReviewVersions: Invalid value: ["invalid-v1"]: must include at least one of v1, v1beta1']),
    ("Webhooks must have unique names when old config has unique names",
     config(unknown(), unknown()), config(unknown(), default_versions=False),
     ['webhooks[1].name: Duplicate value: "webhook.k8s.io"']),
    ("Webhooks can have duplicate names when old config has duplicate names",
     config(unknown(), unknown()), config(unknown(), unknown()), []),
    ("Webhooks can't have side effects when old config has no side effects", config(unknown()), config(ok()),
     ['webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"']),
    ("Webhooks can have side effects when old config has side effects", config(unknown()), config(unknown()), []),
    ("Webhooks must compile CEL expressions with StoredExpression environment if unchanged",
     config(ok(matchConditions=[{"name": "checkStorage", "expression": "test() == true"}])),
     config(ok(matchConditions=[{"name": "checkStorage", "expression": "test() == true"}])), []),
    ("Webhooks must compile CEL expressions with NewExpression environment if changed",
     config(ok(matchConditions=[{"name": "checkStorage", "expression": "test() == true"}])),
     config(ok(matchConditions=[{"name": "checkStorage", "expression": "true"}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "test() == true": compilation failed: ERROR: '
      "<input>:1:5: undeclared reference to 'test' (in container '')\n | test() == true\n | ....^"]),
    # validation.go beyond the Go tests' rows
    ("validation.go: sideEffects required lists every class when the stored webhooks had side effects",
     config(hook(clientConfig=URL)), config(unknown()),
     ["webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown"]),
    ("validation.go: a label value the stored selector already held is kept",
     config(ok(namespaceSelector={"matchExpressions": [{"key": "k", "operator": "In", "values": ["-x", "-y"]}]})),
     config(ok(namespaceSelector={"matchExpressions": [{"key": "k", "operator": "In", "values": ["-x"]}]})), []),
    ("validation.go: a webhook more or fewer compiles every matchCondition again",
     config(ok(matchConditions=[{"name": "c", "expression": "test()"}]), ok("webhook2.k8s.io")),
     config(ok(matchConditions=[{"name": "c", "expression": "test()"}])),
     ['webhooks[0].matchConditions[0].expression: Invalid value: "test()": compilation failed: ERROR: '
      "<input>:1:5: undeclared reference to 'test' (in container '')\n | test()\n | ....^"]),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "webhooks", "old", "expected"), UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
def test_update(kind: str, name: str, webhooks: list[dict[str, Any]], old: list[dict[str, Any]],
                expected: list[str]) -> None:
    assert update_errors(kind, webhooks, old) == expected


def test_a_selector_is_strict_again_when_the_stored_one_was_valid() -> None:
    webhooks = config(ok(objectSelector={"matchLabels": {"k": "-x"}}))
    assert update_errors(KINDS[0], webhooks, config(ok())) == create_errors(KINDS[0], webhooks) != []


@pytest.mark.parametrize("kind", KINDS)
def test_the_v1_defaults(kind: str) -> None:
    """defaults.go: failurePolicy, matchPolicy, selectors, timeoutSeconds (reinvocationPolicy for a
    mutating webhook), a rule's scope, a service's port; sideEffects and admissionReviewVersions none."""
    obj = stored(kind, [hook(rules=[rule()], clientConfig=service())])
    expected = {"name": "webhook.k8s.io", "rules": [rule(scope="*")], "clientConfig": service(port=443),
                "failurePolicy": "Fail", "matchPolicy": "Equivalent", "namespaceSelector": {}, "objectSelector": {},
                "timeoutSeconds": 10}
    if kind == "MutatingWebhookConfiguration":
        expected["reinvocationPolicy"] = "Never"
    assert obj["webhooks"] == [expected]
    kept = stored(kind, [hook(failurePolicy="Ignore", matchPolicy="Exact", timeoutSeconds=3,
                              reinvocationPolicy="IfNeeded", rules=[rule(scope="Cluster")],
                              clientConfig=service(port=8443))])["webhooks"][0]
    assert (kept["failurePolicy"], kept["matchPolicy"], kept["timeoutSeconds"], kept["rules"][0]["scope"],
            kept["clientConfig"]["service"]["port"]) == ("Ignore", "Exact", 3, "Cluster", 8443)
