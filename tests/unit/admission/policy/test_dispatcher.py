"""ValidatingAdmissionPolicy behaviour on one request, case by case, through the plugin's stage of the
admission chain (crdtool.admission.policy.stage). Each case names the k8s.io/apiserver (v0.36.0) source it follows:
pkg/admission/plugin/policy/validating (dispatcher.go, validator.go), policy/generic
(policy_matcher.go, policy_dispatcher.go CollectParams, policy_source.go), policy/matching
(matching.go), webhook/predicates (rules, namespace, object), webhook/matchconditions (matcher.go)
and plugin/cel (activation.go, composition.go, condition.go).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from crdtool.admission.chain import Attributes, Inputs, Resource, Verdict
from crdtool.admission.policy.stage import build_validating
from crdtool.load.document import Document

DEPLOYMENTS = Resource("apps", "v1", "Deployment", "deployments")
PODS = Resource("", "v1", "Pod", "pods")
NODES = Resource("", "v1", "Node", "nodes", namespaced=False)
RULE = {"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}
FORBIDDEN = 'deployments.apps "web" is forbidden: '
CONFIGMAP_KIND = {"apiVersion": "v1", "kind": "ConfigMap"}


def deployment(replicas: int | None = 3, labels: dict[str, str] | None = None, name: str = "web") -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "apps/v1", "kind": "Deployment",
                           "metadata": {"name": name, "namespace": "default"}, "spec": {}}
    if replicas is not None:
        obj["spec"]["replicas"] = replicas
    if labels:
        obj["metadata"]["labels"] = labels
    return obj


def policy(name: str = "p", **spec: Any) -> dict[str, Any]:
    spec.setdefault("matchConstraints", {"resourceRules": [RULE]})
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
            "metadata": {"name": name}, "spec": spec}


def binding(name: str = "b", policy_name: str = "p", actions: tuple[str, ...] = ("Deny",), **spec: Any) -> dict:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
            "metadata": {"name": name}, "spec": {"policyName": policy_name, "validationActions": list(actions), **spec}}


def configmap(name: str, data: dict[str, str], namespace: str = "default",
              labels: dict[str, str] | None = None) -> dict:
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}


def check(expression: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"expression": expression, **extra}]


@dataclass
class Case:
    id: str
    source: str  # the apiserver code the expectation follows
    documents: list[dict[str, Any]]
    obj: dict[str, Any] | None = field(default_factory=deployment)
    old: dict[str, Any] | None = None
    resource: Resource = DEPLOYMENTS
    operation: str = "CREATE"
    name: str = "web"
    namespace: str = "default"
    namespace_object: dict[str, Any] | None = None
    equivalents: tuple[tuple[str, str], ...] = ()
    refusal: str | None = None
    reason: str = "Invalid"
    code: int = 422
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    annotations: dict[str, str] = field(default_factory=dict)


def denied(message: str, policy_name: str = "p", binding_name: str = "b", prefix: str = FORBIDDEN) -> str:
    return f"{prefix}ValidatingAdmissionPolicy '{policy_name}' with binding '{binding_name}' denied request: {message}"


# Every pair of 600 items: 360,000 iterations of the inner loop, each certainly costing 3 in cel-go's units
# (two identifiers compared, the accumulator read in either branch): past the per-call limit of 1,000,000.
PAIRS = "object.spec.items.all(a, object.spec.items.exists_one(b, a == b))"
WIDE = {**deployment(), "spec": {"items": [f"item {i}" for i in range(600)]}}
# 12,000 iterations, each certainly costing 73 (a list of two maps built, its item read twice; the accumulator
# in either branch): 876,000 per call, within the per-call limit (its estimate too); 12 of them pass 10,000,000.
COSTLY = "object.spec.items.exists_one(i, [{'a': i}, {'b': i}].size() == 0) == false"
LONG = {**deployment(), "spec": {"items": [f"i{n}" for n in range(12_000)]}}
OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run"

NS_PROD = {"metadata": {"name": "default", "labels": {"env": "prod"}}}

CASES = [
    # --- validator.go: Validate, the message of a failed validation -------------------------------------
    Case("false-default-message", "validator.go: failed expression: %v",
         [policy(validations=check("object.spec.replicas < 2")), binding()],
         refusal=denied("failed expression: object.spec.replicas < 2")),
    Case("false-message", "validator.go: message = strings.TrimSpace(validation.Message)",
         [policy(validations=check("object.spec.replicas < 2", message="  too many replicas ")), binding()],
         refusal=denied("too many replicas")),
    Case("false-message-expression", "validator.go: message from messageExpression",
         [policy(validations=check("object.spec.replicas < 2", message="m",
                                   messageExpression="'replicas: ' + string(object.spec.replicas)")), binding()],
         refusal=denied("replicas: 3")),
    Case("message-expression-error-falls-back", "validator.go: messageResult.Error: fallback to message",
         [policy(validations=check("object.spec.replicas < 2", message="fallback",
                                   messageExpression="object.spec.missing")), binding()],
         refusal=denied("fallback")),
    Case("message-expression-blank-falls-back", "validator.go: whitespace message: fallback",
         [policy(validations=check("object.spec.replicas < 2", message="fallback", messageExpression="'   '")),
          binding()],
         refusal=denied("fallback")),
    Case("message-expression-newline-falls-back", "validator.go: multi-line message denied",
         [policy(validations=check("object.spec.replicas < 2", messageExpression="'a\\nb'")), binding()],
         refusal=denied("failed expression: object.spec.replicas < 2")),
    Case("message-expression-too-long-falls-back", "validator.go: MaxEvaluatedMessageExpressionSizeBytes",
         [policy(validations=check("object.spec.replicas < 2", message="short",
                                   messageExpression="'" + "x" * 5121 + "'")),
          binding()],
         refusal=denied("short")),
    Case("expression-trimmed-in-default-message", "validator.go: strings.TrimSpace(validation.Expression)",
         [policy(validations=check("  object.spec.replicas < 2\n")), binding()],
         refusal=denied("failed expression: object.spec.replicas < 2")),
    Case("true-admits", "validator.go: EvalResult True: ActionAdmit",
         [policy(validations=check("object.spec.replicas < 5")), binding()]),
    Case("first-failed-validation-wins", "dispatcher.go: deniedDecisions[0]",
         [policy(validations=[{"expression": "false", "message": "one"}, {"expression": "false", "message": "two"}]),
          binding()],
         refusal=denied("one")),
    # --- dispatcher.go: reason and code -----------------------------------------------------------------
    Case("reason-forbidden-403", "dispatcher.go: reasonToCode Forbidden",
         [policy(validations=check("false", reason="Forbidden")), binding()],
         refusal=denied("failed expression: false"), reason="Forbidden", code=403),
    Case("reason-too-large-413", "dispatcher.go: reasonToCode RequestEntityTooLarge",
         [policy(validations=check("false", reason="RequestEntityTooLarge")), binding()],
         refusal=denied("failed expression: false"), reason="RequestEntityTooLarge", code=413),
    Case("reason-default-invalid-422", "dispatcher.go: empty reason: StatusReasonInvalid",
         [policy(validations=check("false")), binding()],
         refusal=denied("failed expression: false"), reason="Invalid", code=422),
    Case("core-resource-name", "admission.NewForbidden: GroupResource without a group",
         [policy(matchConstraints={"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"],
                                                      "operations": ["CREATE"], "resources": ["pods"]}]},
                 validations=check("false")), binding()],
         obj={"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}}, resource=PODS,
         refusal=denied("failed expression: false", prefix='pods "web" is forbidden: ')),
    Case("generate-name", "admission.extractResourceName: generateName before generation",
         [policy(validations=check("false")), binding()],
         obj={"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"generateName": "web-"}}, name="",
         refusal=denied("failed expression: false", prefix='deployments.apps "web-" is forbidden: ')),
    # --- validator.go: evaluation errors and failurePolicy ----------------------------------------------
    Case("runtime-error-fail", "activation.go: expression '%v' resulted in error: %v",
         [policy(validations=check("object.spec.missing == 1")), binding()],
         refusal=denied("expression 'object.spec.missing == 1' resulted in error: no such key: missing")),
    Case("runtime-error-ignore", "validator.go: policyDecisionActionForError(Ignore) = ActionAdmit",
         [policy(failurePolicy="Ignore", validations=check("object.spec.missing == 1")), binding()]),
    Case("compile-error-at-run-time", "activation.go: compilation error: %v",
         [policy(validations=check("object.spec.replicas <")), binding()],
         refusal=denied("compilation error: compilation failed: ERROR: <input>:1:23: Syntax error: mismatched "
                        "input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, "
                        "NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec.replicas <\n"
                        " | ......................^")),
    # --- dispatcher.go: validationActions ---------------------------------------------------------------
    Case("warn", "dispatcher.go: Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s",
         [policy(validations=check("false", message="no")), binding(actions=("Warn",))],
         warnings=["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': no"]),
    Case("audit", "dispatcher.go: publishValidationFailureAnnotations",
         [policy(validations=check("false", message="no <b>")), binding(actions=("Audit",))],
         annotations={"validation.policy.admission.k8s.io/validation_failure":
                      '[{"message":"no \\u003cb\\u003e","policy":"p","binding":"b","expressionIndex":0,'
                      '"validationActions":["Audit"]}]'}),
    Case("deny-and-audit", "dispatcher.go: each action of the binding",
         [policy(validations=[{"expression": "true"}, {"expression": "false", "message": "no"}]),
          binding(actions=("Deny", "Audit"))],
         refusal=denied("no"),
         annotations={"validation.policy.admission.k8s.io/validation_failure":
                      '[{"message":"no","policy":"p","binding":"b","expressionIndex":1,'
                      '"validationActions":["Deny","Audit"]}]'}),
    Case("warn-and-audit", "dispatcher.go: Warn adds no denial",
         [policy(validations=check("false", message="no")), binding(actions=("Warn", "Audit"))],
         warnings=["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': no"],
         annotations={"validation.policy.admission.k8s.io/validation_failure":
                      '[{"message":"no","policy":"p","binding":"b","expressionIndex":0,'
                      '"validationActions":["Warn","Audit"]}]'}),
    # --- bindings ----------------------------------------------------------------------------------------
    Case("no-binding-no-effect", "policy_source.go: a policy runs through its bindings only",
         [policy(validations=check("false"))]),
    Case("binding-of-another-policy", "policy_source.go: bindings by spec.policyName",
         [policy(validations=check("false")), binding(policy_name="other")]),
    Case("two-bindings-first-denies", "dispatcher.go: bindings in order, first denial reported",
         [policy(validations=check("false")), binding("b1"), binding("b2")],
         refusal=denied("failed expression: false", binding_name="b1")),
    Case("first-policy-wins", "dispatcher.go: deniedDecisions[0] across policies",
         [policy("p1", validations=check("false", message="first")), binding("b1", "p1"),
          policy("p2", validations=check("false", message="second")), binding("b2", "p2")],
         refusal=denied("first", "p1", "b1")),
    Case("binding-match-resources-narrow", "policy_matcher.go BindingMatches",
         [policy(validations=check("false")),
          binding(matchResources={"namespaceSelector": {"matchLabels": {"env": "test"}}})],
         namespace_object=NS_PROD),
    Case("binding-match-resources-match", "policy_matcher.go BindingMatches",
         [policy(validations=check("false")),
          binding(matchResources={"namespaceSelector": {"matchLabels": {"env": "prod"}}})],
         namespace_object=NS_PROD, refusal=denied("failed expression: false")),
    # --- matching.go and rules.Matcher --------------------------------------------------------------------
    Case("group-mismatch", "rules.go: group()",
         [policy(matchConstraints={"resourceRules": [{**RULE, "apiGroups": ["batch"]}]},
                 validations=check("false")), binding()]),
    Case("operation-mismatch", "rules.go: operation()",
         [policy(matchConstraints={"resourceRules": [{**RULE, "operations": ["UPDATE"]}]},
                 validations=check("false")), binding()]),
    Case("operation-wildcard", "rules.go: OperationAll",
         [policy(matchConstraints={"resourceRules": [{**RULE, "operations": ["*"]}]},
                 validations=check("false")), binding()], refusal=denied("failed expression: false")),
    Case("resource-wildcard", "rules.go: resource() '*'",
         [policy(matchConstraints={"resourceRules": [{**RULE, "resources": ["*"]}]},
                 validations=check("false")), binding()], refusal=denied("failed expression: false")),
    Case("subresource-rule-not-main", "rules.go: resource() subresource must match",
         [policy(matchConstraints={"resourceRules": [{**RULE, "resources": ["deployments/status"]}]},
                 validations=check("false")), binding()]),
    Case("resource-slash-wildcard", "rules.go: resource() 'deployments/*' matches the main resource",
         [policy(matchConstraints={"resourceRules": [{**RULE, "resources": ["deployments/*"]}]},
                 validations=check("false")), binding()], refusal=denied("failed expression: false")),
    Case("exclude-rules", "matching.go: ExcludeResourceRules",
         [policy(matchConstraints={"resourceRules": [RULE], "excludeResourceRules": [RULE]},
                 validations=check("false")), binding()]),
    Case("resource-names-other", "matching.go: ResourceNames",
         [policy(matchConstraints={"resourceRules": [{**RULE, "resourceNames": ["api"]}]},
                 validations=check("false")), binding()]),
    Case("resource-names-this", "matching.go: ResourceNames",
         [policy(matchConstraints={"resourceRules": [{**RULE, "resourceNames": ["web"]}]},
                 validations=check("false")), binding()], refusal=denied("failed expression: false")),
    Case("scope-cluster-on-namespaced", "rules.go: scope() Cluster",
         [policy(matchConstraints={"resourceRules": [{**RULE, "scope": "Cluster"}]},
                 validations=check("false")), binding()]),
    Case("scope-namespaced-on-cluster", "rules.go: scope() Namespaced",
         [policy(matchConstraints={"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["*"],
                                                      "resources": ["nodes"], "scope": "Namespaced"}]},
                 validations=check("false")), binding()],
         obj={"apiVersion": "v1", "kind": "Node", "metadata": {"name": "web"}}, resource=NODES, namespace=""),
    Case("namespace-selector-match", "namespace/matcher.go MatchNamespaceSelector",
         [policy(matchConstraints={"resourceRules": [RULE], "namespaceSelector": {"matchLabels": {"env": "prod"}}},
                 validations=check("false")), binding()],
         namespace_object=NS_PROD, refusal=denied("failed expression: false")),
    Case("namespace-selector-expression-mismatch", "namespace/matcher.go, labels.Selector NotIn",
         [policy(matchConstraints={"resourceRules": [RULE], "namespaceSelector": {"matchExpressions": [
             {"key": "env", "operator": "NotIn", "values": ["prod"]}]}}, validations=check("false")), binding()],
         namespace_object=NS_PROD),
    Case("namespace-selector-unknown-namespace", "namespace/matcher.go GetNamespaceLabels (crdtool: a note)",
         [policy(matchConstraints={"resourceRules": [RULE], "namespaceSelector": {"matchLabels": {"env": "prod"}}},
                 validations=check("false")), binding()],
         notes=["not checked: ValidatingAdmissionPolicy 'p': its namespaceSelector needs the labels of namespace "
                '"default", which is not among the inputs']),
    Case("namespace-selector-cluster-scoped", "namespace/matcher.go: cluster-scoped requests match",
         [policy(matchConstraints={"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["*"],
                                                      "resources": ["nodes"]}],
                                   "namespaceSelector": {"matchLabels": {"env": "prod"}}},
                 validations=check("false")), binding()],
         obj={"apiVersion": "v1", "kind": "Node", "metadata": {"name": "web"}}, resource=NODES, namespace="",
         refusal=denied("failed expression: false", prefix='nodes "web" is forbidden: ')),
    Case("object-selector-match", "object/matcher.go MatchObjectSelector",
         [policy(matchConstraints={"resourceRules": [RULE], "objectSelector": {"matchLabels": {"team": "a"}}},
                 validations=check("false")), binding()],
         obj=deployment(labels={"team": "a"}), refusal=denied("failed expression: false")),
    Case("object-selector-mismatch", "object/matcher.go MatchObjectSelector",
         [policy(matchConstraints={"resourceRules": [RULE], "objectSelector": {"matchLabels": {"team": "a"}}},
                 validations=check("false")), binding()],
         obj=deployment(labels={"team": "b"})),
    Case("object-selector-old-object", "object/matcher.go: the object or the old object",
         [policy(matchConstraints={"resourceRules": [RULE], "objectSelector": {"matchExpressions": [
             {"key": "team", "operator": "Exists"}]}}, validations=check("false")), binding()],
         obj=deployment(), old=deployment(labels={"team": "a"}), operation="UPDATE",
         refusal=denied("failed expression: false")),
    Case("match-policy-equivalent", "matching.go: equivalent resources, matchKind",
         [policy(matchConstraints={"resourceRules": [{**RULE, "apiVersions": ["v1beta2"]}]},
                 validations=check("request.kind.version == 'v1'",
                                   messageExpression="request.kind.version + ' ' + request.requestKind.version")),
          binding()],
         equivalents=(("v1", "Deployment"), ("v1beta2", "Deployment")),
         refusal=denied("v1beta2 v1")),
    Case("match-policy-exact", "matching.go: matchPolicy Exact",
         [policy(matchConstraints={"resourceRules": [{**RULE, "apiVersions": ["v1beta2"]}], "matchPolicy": "Exact"},
                 validations=check("false")), binding()],
         equivalents=(("v1", "Deployment"), ("v1beta2", "Deployment"))),
    Case("exempt-admission-configuration", "rules.go IsExemptAdmissionConfigurationResource",
         [policy(matchConstraints={"resourceRules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["*"],
                                                      "resources": ["*"]}]}, validations=check("false")), binding()],
         obj={"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
              "metadata": {"name": "web"}},
         resource=Resource("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy",
                           "validatingadmissionpolicies", namespaced=False), namespace=""),
    # --- matchconditions/matcher.go ------------------------------------------------------------------------
    Case("match-condition-false-skips", "matcher.go: a false condition: no match",
         [policy(matchConditions=[{"name": "big", "expression": "object.spec.replicas > 5"}],
                 validations=check("false")), binding()]),
    Case("match-condition-true", "matcher.go: all conditions true",
         [policy(matchConditions=[{"name": "small", "expression": "object.spec.replicas < 5"}],
                 validations=check("false")), binding()], refusal=denied("failed expression: false")),
    Case("match-condition-error-fail", "matcher.go: errors under Fail; validator.go: matchResults.Error",
         [policy(matchConditions=[{"name": "x", "expression": "object.spec.nope == 1"}],
                 validations=check("false")), binding()],
         refusal=denied("expression 'object.spec.nope == 1' resulted in error: no such key: nope")),
    Case("match-condition-error-ignore", "matcher.go: errors under Ignore: no match",
         [policy(failurePolicy="Ignore", matchConditions=[{"name": "x", "expression": "object.spec.nope"}],
                 validations=check("false")), binding()]),
    Case("match-condition-false-beats-error", "matcher.go: a false condition returns before errors",
         [policy(matchConditions=[{"name": "x", "expression": "object.spec.nope"},
                                  {"name": "y", "expression": "false"}], validations=check("false")), binding()]),
    # --- composition.go: variables ---------------------------------------------------------------------------
    Case("variable", "composition.go: variables.NAME",
         [policy(variables=[{"name": "r", "expression": "object.spec.replicas"}],
                 validations=check("variables.r < 2", messageExpression="'r=' + string(variables.r)")), binding()],
         refusal=denied("r=3")),
    Case("variable-chain", "composition.go: later variables see earlier ones",
         [policy(variables=[{"name": "r", "expression": "object.spec.replicas"},
                            {"name": "double", "expression": "variables.r * 2"}],
                 validations=check("variables.double < 6")), binding()],
         refusal=denied("failed expression: variables.double < 6")),
    Case("variable-error", "composition.go: composited variable %q fails to evaluate: %v",
         [policy(variables=[{"name": "r", "expression": "object.spec.nope"}],
                 validations=check("variables.r < 2")), binding()],
         refusal=denied("expression 'variables.r < 2' resulted in error: composited variable \"r\" fails to "
                        "evaluate: no such key: nope")),
    Case("variable-error-unread", "composition.go: variables are evaluated lazily",
         [policy(variables=[{"name": "r", "expression": "object.spec.nope"}],
                 validations=check("object.spec.replicas < 5")), binding()]),
    Case("variable-error-short-circuited", "composition.go: a read the evaluation never reaches evaluates nothing",
         [policy(variables=[{"name": "r", "expression": "object.spec.nope"}],
                 validations=check("object.spec.replicas < 5 || variables.r")), binding()]),
    Case("variable-error-in-variable", "composition.go: a variable reading a failing one fails with it",
         [policy(variables=[{"name": "r", "expression": "object.spec.nope"},
                            {"name": "s", "expression": "variables.r + 1"}],
                 validations=check("variables.s < 2")), binding()],
         refusal=denied("expression 'variables.s < 2' resulted in error: composited variable \"s\" fails to "
                        "evaluate: composited variable \"r\" fails to evaluate: no such key: nope")),
    Case("variable-message-expression", "validator.go: messageExpressions read the variables in their own "
         "evaluation", [policy(variables=[{"name": "n", "expression": "object.metadata.name"}],
                              validations=check("false", messageExpression="'no ' + variables.n")), binding()],
         refusal=denied("no web")),
    # --- activation.go: runtime cost, past the CEL engine's 10,000 iterations ---------------------------------
    Case("loop-past-10000-iterations", "activation.go: no iteration limit, only the cost limit",
         [policy(validations=check("object.spec.items.all(i, i < 11999)")), binding()],
         obj={**deployment(), "spec": {"items": list(range(12_000))}},
         refusal=denied("failed expression: object.spec.items.all(i, i < 11999)")),
    Case("loop-past-10000-iterations-in-variable", "composition.go: a variable's loop, read lazily",
         [policy(variables=[{"name": "big", "expression": "object.spec.items.filter(i, i > 11990)"}],
                 validations=check("variables.big.size() < 9",
                                   messageExpression="variables.big.map(i, string(i)).join(', ')")),
          binding()],
         obj={**deployment(), "spec": {"items": list(range(12_000))}},
         refusal=denied("11991, 11992, 11993, 11994, 11995, 11996, 11997, 11998, 11999")),
    Case("per-call-limit-fail", "activation.go: expression '%v' resulted in error: operation cancelled: actual cost "
         "limit exceeded (cel-go runtimecost.go)",
         [policy(validations=check(PAIRS)), binding()], obj=WIDE,
         refusal=denied(f"expression '{PAIRS}' resulted in error: operation cancelled: actual cost limit exceeded")),
    Case("per-call-limit-ignore", "validator.go: policyDecisionActionForError(Ignore) = ActionAdmit",
         [policy(failurePolicy="Ignore", validations=check(PAIRS)), binding()], obj=WIDE),
    Case("per-call-limit-in-variable", "composition.go: the variable's own call limit",
         [policy(variables=[{"name": "pairs", "expression": PAIRS}], validations=check("variables.pairs")),
          binding()], obj=WIDE,
         refusal=denied("expression 'variables.pairs' resulted in error: composited variable \"pairs\" fails to "
                        "evaluate: operation cancelled: actual cost limit exceeded")),
    Case("budget-fail", "activation.go: validation failed due to running out of cost budget (ForInput's error: "
         "validator.go's one decision)",
         [policy(validations=check(COSTLY) * 12 + check("false")), binding()], obj=LONG,
         refusal=denied(OUT_OF_BUDGET)),
    Case("budget-ignore", "validator.go: policyDecisionActionForError(Ignore)",
         [policy(failurePolicy="Ignore", validations=check(COSTLY) * 12 + check("false")), binding()], obj=LONG),
    Case("budget-variables-charged-once", "composition.go: a variable's cost counts once per evaluation",
         [policy(variables=[{"name": "costly", "expression": COSTLY}],
                 validations=check("variables.costly") * 12 + check("false")), binding()], obj=LONG,
         refusal=denied("failed expression: false")),
    Case("budget-message-expressions", "validator.go: messageExpressions get what the validations left; out of "
         "budget, every validation is an error",
         [policy(validations=[{"expression": COSTLY, "messageExpression": f"string({COSTLY})"}] * 6), binding()],
         obj=LONG, refusal=denied(f"failed messageExpression: {OUT_OF_BUDGET}")),
    Case("budget-match-conditions", "matcher.go: RuntimeCELCostBudgetMatchConditions, the filter's error under Fail",
         [policy(matchConditions=[{"name": f"c{i}", "expression": COSTLY} for i in range(3)],
                 validations=check("true")), binding()], obj=LONG,
         refusal=denied(OUT_OF_BUDGET)),
    Case("budget-match-conditions-ignore", "matcher.go: under Ignore, no match",
         [policy(failurePolicy="Ignore", matchConditions=[{"name": f"c{i}", "expression": COSTLY} for i in range(3)],
                 validations=check("false")), binding()], obj=LONG),
    Case("budget-audit-annotations", "validator.go: the auditAnnotations' error replaces the decisions",
         [policy(validations=check("true"), auditAnnotations=[
             {"key": f"k{i}", "valueExpression": f"string({COSTLY})"} for i in range(12)]), binding()], obj=LONG,
         refusal=denied(OUT_OF_BUDGET)),
    # --- activation.go / condition.go: request, object, oldObject, namespaceObject --------------------------------
    Case("request-operation", "condition.go CreateAdmissionRequest: operation",
         [policy(validations=check("request.operation != 'CREATE'")), binding()],
         refusal=denied("failed expression: request.operation != 'CREATE'")),
    Case("request-user", "condition.go CreateAdmissionRequest: userInfo",
         [policy(validations=check("request.userInfo.username == 'nobody'",
                                   messageExpression="'by ' + request.userInfo.username")), binding()],
         refusal=denied("by crdtool")),
    Case("request-name-namespace", "condition.go CreateAdmissionRequest: name, namespace",
         [policy(validations=check("false", messageExpression="request.namespace + '/' + request.name")), binding()],
         refusal=denied("default/web")),
    Case("old-object-null-on-create", "activation.go: oldObject is null on create",
         [policy(validations=check("oldObject != null")), binding()],
         refusal=denied("failed expression: oldObject != null")),
    Case("old-object-on-update", "activation.go: oldObject on update",
         [policy(validations=check("oldObject == null || object.spec.replicas >= oldObject.spec.replicas",
                                   message="no scale down")), binding()],
         obj=deployment(2), old=deployment(3), operation="UPDATE", refusal=denied("no scale down")),
    Case("namespace-object", "condition.go CreateNamespaceObject",
         [policy(validations=check("namespaceObject.metadata.labels.env != 'prod'",
                                   messageExpression="'in ' + namespaceObject.metadata.name")), binding()],
         namespace_object=NS_PROD, refusal=denied("in default")),
    Case("authorizer-not-evaluated", "activation.go: authorizer (crdtool cannot consult one: a note)",
         [policy(validations=check("authorizer.group('apps').resource('deployments').check('scale').allowed()")),
          binding()],
         notes=["not checked: ValidatingAdmissionPolicy 'p' with binding 'b': validation "
                "'authorizer.group('apps').resource('deployments').check('scale').allowed()' reads the authorizer, "
                "which crdtool cannot consult without a cluster"]),
    # --- policy_dispatcher.go CollectParams, policy_source.go ------------------------------------------------------
    Case("params-by-name", "CollectParams: paramRef.name",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("object.spec.replicas <= int(params.data.max)",
                                                              messageExpression="'max ' + params.data.max")),
          binding(paramRef={"name": "limits", "parameterNotFoundAction": "Deny"}),
          configmap("limits", {"max": "2"})],
         refusal=denied("max 2")),
    Case("params-by-name-other-namespace", "CollectParams: paramRef.namespace",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("object.spec.replicas <= int(params.data.max)")),
          binding(paramRef={"name": "limits", "namespace": "ops", "parameterNotFoundAction": "Deny"}),
          configmap("limits", {"max": "5"}, namespace="ops"), configmap("limits", {"max": "1"})]),
    Case("params-not-found-deny", "CollectParams: no params found with `Deny` parameterNotFoundAction",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("true")),
          binding(paramRef={"name": "limits", "parameterNotFoundAction": "Deny"})],
         refusal=denied("failed to configure binding: no params found for policy binding with `Deny` "
                        "parameterNotFoundAction")),
    Case("params-not-found-deny-ignore", "dispatcher.go addConfigError: Ignore",
         [policy(failurePolicy="Ignore", paramKind=CONFIGMAP_KIND, validations=check("false")),
          binding(paramRef={"name": "limits", "parameterNotFoundAction": "Deny"})]),
    Case("params-not-found-allow", "CollectParams: Allow evaluates nothing (crdtool: a note)",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("false")),
          binding(paramRef={"name": "limits", "parameterNotFoundAction": "Allow"})],
         notes=["not checked: ValidatingAdmissionPolicy 'p' with binding 'b': no params among the inputs match its "
                "paramRef (parameterNotFoundAction Allow: the apiserver evaluates nothing without params; give the "
                "params to check it)"]),
    Case("params-by-selector-each", "CollectParams: paramRef.selector, one evaluation per param",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("object.spec.replicas <= int(params.data.max)",
                                                              messageExpression="string(params.metadata.name)")),
          binding(paramRef={"selector": {"matchLabels": {"kind": "limit"}}, "parameterNotFoundAction": "Deny"}),
          configmap("a", {"max": "9"}, labels={"kind": "limit"}),
          configmap("b", {"max": "1"}, labels={"kind": "limit"}),
          configmap("c", {"max": "0"})],
         refusal=denied("b")),
    Case("params-namespaced-for-cluster-resource",
         "CollectParams: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
         [policy(paramKind=CONFIGMAP_KIND, matchConstraints={"resourceRules": [
             {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["*"], "resources": ["nodes"]}]},
             validations=check("true")),
          binding(paramRef={"name": "x", "parameterNotFoundAction": "Deny"})],
         obj={"apiVersion": "v1", "kind": "Node", "metadata": {"name": "web"}}, resource=NODES, namespace="",
         refusal=denied("failed to configure binding: cannot use namespaced paramRef in policy binding that matches "
                        "cluster-scoped resources", prefix='nodes "web" is forbidden: ')),
    Case("params-namespace-for-cluster-kind", "CollectParams: paramRef.namespace must not be provided",
         [policy(paramKind={"apiVersion": "v1", "kind": "Node"}, validations=check("true")),
          binding(paramRef={"name": "x", "namespace": "ops", "parameterNotFoundAction": "Deny"})],
         refusal=denied("failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped "
                        "`paramKind`")),
    Case("param-kind-not-served", "policy_source.go: failed to find resource referenced by paramKind",
         [policy(paramKind={"apiVersion": "v1", "kind": "NoSuchKind"}, validations=check("true")),
          binding(paramRef={"name": "x", "parameterNotFoundAction": "Deny"})],
         refusal=f"{FORBIDDEN}ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to "
                 "find resource referenced by paramKind: '/v1, Kind=NoSuchKind'"),
    Case("param-kind-unknown-crd", "policy_source.go (crdtool: a custom kind without its CRD is a note)",
         [policy(paramKind={"apiVersion": "example.com/v1", "kind": "Limit"}, validations=check("false")),
          binding(paramRef={"name": "x", "parameterNotFoundAction": "Deny"})],
         notes=["not checked: ValidatingAdmissionPolicy 'p': its paramKind Limit (example.com/v1) is neither a "
                "built-in kind nor defined by a CRD among the inputs"]),
    Case("params-null-without-param-ref", "CollectParams: no paramRef: one evaluation with null params",
         [policy(paramKind=CONFIGMAP_KIND, validations=check("params != null")), binding()],
         refusal=denied("failed expression: params != null")),
    # --- validator.go / dispatcher.go: audit annotations --------------------------------------------------------
    Case("audit-annotation-published", "dispatcher.go auditAnnotationCollector.publish: POLICY/KEY",
         [policy(auditAnnotations=[{"key": "replicas", "valueExpression": "string(object.spec.replicas)"}]),
          binding()],
         annotations={"p/replicas": "3"}),
    Case("audit-annotation-null-excluded", "validator.go: NullType: AuditAnnotationActionExclude",
         [policy(auditAnnotations=[{"key": "r", "valueExpression": "null"}]), binding()]),
    Case("audit-annotation-with-validations", "validator.go: StringType: AuditAnnotationActionPublish",
         [policy(validations=check("true"), auditAnnotations=[{"key": "r", "valueExpression": "string(1)"}]),
          binding()],
         annotations={"p/r": "1"}),
    Case("audit-annotation-error-fail", "dispatcher.go: AuditAnnotationActionError denies",
         [policy(auditAnnotations=[{"key": "r", "valueExpression": "string(object.spec.nope)"}]), binding()],
         refusal=denied("expression 'string(object.spec.nope)' resulted in error: no such key: nope")),
    Case("audit-annotation-error-ignore", "validator.go auditAnnotationEvaluationForError(Ignore): exclude",
         [policy(failurePolicy="Ignore",
                 auditAnnotations=[{"key": "r", "valueExpression": "string(object.spec.nope)"}]),
          binding()]),
    Case("validation-of-dyn-type", "compile.go: must evaluate to %v but got %v (a dyn result is not a bool)",
         [policy(validations=check("object.spec.paused")), binding()],
         refusal=denied("compilation error: must evaluate to bool but got dyn")),
]


def _attributes(case: Case) -> Attributes:
    return Attributes(operation=case.operation, object=case.obj or {}, old_object=case.old, resource=case.resource,
                      name=case.name, namespace=case.namespace, namespace_object=case.namespace_object,
                      equivalents=case.equivalents, convert=lambda obj, version: obj)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_policy_behaviour(case: Case) -> None:
    docs = [Document("inputs.yaml", i, d) for i, d in enumerate(case.documents)]
    verdict = Verdict()
    for stage in build_validating(Inputs(documents=docs)):
        verdict.add(stage.validate(_attributes(case)))
    if case.refusal is None:
        assert verdict.status is None
    else:
        assert verdict.status is not None
        assert (verdict.status.message, verdict.status.reason, verdict.status.code) == \
            (case.refusal, case.reason, case.code)
    assert verdict.warnings == case.warnings
    assert verdict.notes == case.notes
    assert verdict.audit_annotations == case.annotations


def test_case_count() -> None:
    assert len(CASES) >= 50

