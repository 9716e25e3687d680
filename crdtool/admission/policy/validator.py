"""One ValidatingAdmissionPolicy compiled and evaluated for one request and one param: k8s.io/apiserver
pkg/admission/plugin/policy/validating (plugin.go's compilePolicy, validator.go's Validate) and the
match conditions' matcher (pkg/admission/plugin/webhook/matchconditions/matcher.go).

What the apiserver decides per validation: admit, deny with the validation's message (its
messageExpression's value, else its message, else `failed expression: EXPR`) and reason (Invalid by
default), or, when an expression fails, deny or admit by the policy's failurePolicy with the error
as the message. Audit annotations are published, left out, or (failing) deny under Fail.
What crdtool cannot evaluate (the authorizer) is an `unsupported` decision, which the dispatcher
reports instead of guessing. The apiserver's cost limits on each evaluation are checked with a worst-case
estimate over the request's values (crdtool.cel.admission_cost): where one may be exceeded, a note says
that crdtool's answer may not be the apiserver's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.admission.policy.model import Policy
from crdtool.cel import admission as celadm
from crdtool.cel import admission_cost
from crdtool.model.gofmt import go_trim_space

__all__ = ["AuditAnnotation", "CompiledPolicy", "Decision", "compile_policy"]

MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024  # celconfig.MaxEvaluatedMessageExpressionSizeBytes


@dataclass
class Decision:
    """PolicyDecision: action "admit" or "deny", "error" when an expression failed, the message and reason."""

    action: str
    message: str = ""
    reason: str = ""
    evaluation_error: bool = False
    #: Set when crdtool could not evaluate what decides this (the decision is then unknown).
    unsupported: str = ""
    index: int = 0


@dataclass
class AuditAnnotation:
    """PolicyAuditAnnotation: "publish" (with a value), "exclude" or "error"."""

    key: str
    action: str
    value: str = ""
    error: str = ""


@dataclass
class CompiledPolicy:
    """A policy's expressions compiled once (the apiserver's Validator)."""

    policy: Policy
    compiler: celadm.AdmissionCompiler
    variables: list[tuple[str, celadm.Compiled]] = field(default_factory=list)
    match_conditions: list[tuple[str, celadm.Compiled]] = field(default_factory=list)
    validations: list[tuple[dict[str, Any], celadm.Compiled, celadm.Compiled | None]] = field(default_factory=list)
    audit_annotations: list[tuple[dict[str, Any], celadm.Compiled]] = field(default_factory=list)

    def validate(self, activation: dict[str, Any]) -> tuple[list[Decision], list[AuditAnnotation], list[str]]:
        """Validate: the decisions and audit annotations for one request (and param), and what crdtool
        cannot tell of the apiserver's cost limits on them."""
        fail = self.policy.failure_policy
        on_error = "admit" if fail == "Ignore" else "deny"
        variables = self._variables(activation)
        costs = self.cost_check(activation, variables)
        matched = self._match(activation, variables, on_error)
        notes = self.match_cost_notes(costs)
        if matched is not None:
            return matched, [], notes
        decisions = [self._decide(i, validation, compiled, message, activation, variables, on_error)
                     for i, (validation, compiled, message) in enumerate(self.validations)]
        spent, found = costs.evaluation("validations", [("validation", c) for _, c, _ in self.validations],
                                        admission_cost.RUNTIME_BUDGET)
        notes += found
        # messageExpressions run for every validation, with what the validations left of the budget
        notes += costs.evaluation("validations and messageExpressions",
                                  [("messageExpression", m) for _, _, m in self.validations if m is not None],
                                  admission_cost.RUNTIME_BUDGET, spent)[1]
        notes += costs.evaluation("auditAnnotations", [("auditAnnotation", c) for _, c in self.audit_annotations],
                                  admission_cost.RUNTIME_BUDGET)[1]
        return decisions, [self._annotate(a, compiled, activation, variables, fail)
                           for a, compiled in self.audit_annotations], notes

    def cost_check(self, activation: dict[str, Any], variables: dict[str, celadm.Evaluation]
                   ) -> admission_cost.CostCheck:
        """The apiserver's cost limits over this request's values (and the variables' values)."""
        values = {name: outcome.value for name, outcome in variables.items()
                  if outcome.error is None and outcome.unsupported is None}
        return admission_cost.CostCheck(admission_cost.ValueSizes({**activation, "variables": values}),
                                        self.variables)

    def match_cost_notes(self, costs: admission_cost.CostCheck) -> list[str]:
        """The matchConditions' cost against their own budget (matchconditions/matcher.go)."""
        return costs.evaluation("matchConditions", [("matchCondition", c) for _, c in self.match_conditions],
                                admission_cost.MATCH_CONDITIONS_BUDGET)[1]

    def mutation_cost_notes(self, compiled: celadm.Compiled, activation: dict[str, Any],
                            variables: dict[str, celadm.Evaluation]) -> list[str]:
        """A MutatingAdmissionPolicy's mutation over the object it mutates: a budget of its own
        (mutating/dispatcher.go's dispatchOne), shared with the variables it reads."""
        return self.cost_check(activation, variables).evaluation(
            "mutation and the variables it reads", [("mutation", compiled)], admission_cost.RUNTIME_BUDGET)[1]

    def _variables(self, activation: dict[str, Any]) -> dict[str, celadm.Evaluation]:
        """The variables evaluated in order, each seeing those before it (failures kept as errors)."""
        values: dict[str, celadm.Evaluation] = {}
        for name, compiled in self.variables:
            outcome = celadm.evaluate(compiled, activation, values)
            if outcome.error is not None or compiled.error:
                outcome = celadm.Evaluation(error=celadm.variable_failure(name, compiled, outcome))
            values[name] = outcome
        return values

    def _match(self, activation: dict[str, Any], variables: dict[str, celadm.Evaluation],
               on_error: str) -> list[Decision] | None:
        """matchconditions.Matcher.Match: None when the conditions hold; no decisions when one is false;
        one decision for errors (the apiserver's aggregate of them)."""
        errors: list[str] = []
        unsupported = ""
        for _, compiled in self.match_conditions:
            outcome = celadm.evaluate(compiled, activation, variables)
            if outcome.unsupported:
                unsupported = unsupported or f"matchCondition '{compiled.expression}' {outcome.unsupported}"
            elif outcome.error is not None:
                errors.append(outcome.error)
            elif outcome.value is False:
                return []
        if unsupported:
            return [Decision("unknown", unsupported=unsupported)]
        if errors:
            if on_error == "admit":
                return []
            message = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
            return [Decision("deny", message=message, evaluation_error=True)]
        return None

    def _decide(self, index: int, validation: dict[str, Any], compiled: celadm.Compiled,
                message_expression: celadm.Compiled | None, activation: dict[str, Any],
                variables: dict[str, celadm.Evaluation], on_error: str) -> Decision:
        outcome = celadm.evaluate(compiled, activation, variables)
        if outcome.unsupported:
            return Decision("unknown", unsupported=f"validation '{compiled.expression}' {outcome.unsupported}",
                            index=index)
        if outcome.error is not None:
            return Decision(on_error, message=outcome.error, evaluation_error=True, index=index)
        if outcome.value is True:
            return Decision("admit", index=index)
        message = ""
        if message_expression is not None:
            evaluated = celadm.evaluate(message_expression, activation, variables)
            if isinstance(evaluated.value, str) and evaluated.error is None:
                message = go_trim_space(evaluated.value)
                if len(message.encode()) > MAX_MESSAGE_EXPRESSION_BYTES or "\n" in message:
                    message = ""
        if not message and validation.get("message"):
            message = go_trim_space(str(validation["message"]))
        if not message:
            message = f"failed expression: {go_trim_space(compiled.expression)}"
        reason = validation.get("reason") or "Invalid"
        return Decision("deny", message=message, reason=reason, index=index)

    @staticmethod
    def _annotate(annotation: dict[str, Any], compiled: celadm.Compiled, activation: dict[str, Any],
                  variables: dict[str, celadm.Evaluation], fail: str) -> AuditAnnotation:
        key = str(annotation.get("key") or "")
        failed = "exclude" if fail == "Ignore" else "error"
        outcome = celadm.evaluate(compiled, activation, variables)
        if outcome.unsupported:
            return AuditAnnotation(key, "exclude")
        if outcome.error is not None:
            return AuditAnnotation(key, failed, error=outcome.error)
        if outcome.value is None:
            return AuditAnnotation(key, "exclude")
        if isinstance(outcome.value, str):
            value = go_trim_space(outcome.value)
            return AuditAnnotation(key, "publish", value=value) if value else AuditAnnotation(key, "exclude")
        return AuditAnnotation(key, "error", error=(
            f"valueExpression '{annotation.get('valueExpression')}' resulted in unsupported return type: "
            f"{_go_type(outcome.value)}. Return type must be either string or null."))


def _go_type(value: Any) -> str:
    """The CEL type name cel-go prints for a value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "double"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return type(value).__name__


def compile_policy(policy: Policy) -> CompiledPolicy:
    """compilePolicy: variables first (each declared to what follows), then match conditions,
    validations, audit annotations and message expressions (these without the authorizer)."""
    spec = policy.spec
    compiler = celadm.AdmissionCompiler(has_params=policy.param_kind is not None)
    compiled = CompiledPolicy(policy, compiler)
    for variable in _items(spec.get("variables")):
        name = str(variable.get("name") or "")
        compiled.variables.append((name, compiler.compile_variable(name, str(variable.get("expression") or ""))))
    for condition in _items(spec.get("matchConditions")):
        compiled.match_conditions.append((str(condition.get("name") or ""), compiler.compile(
            str(condition.get("expression") or ""), (celadm.BOOL,), authorizer=True)))
    for validation in _items(spec.get("validations")):
        expression = compiler.compile(str(validation.get("expression") or ""), (celadm.BOOL,), authorizer=True)
        message_source = str(validation.get("messageExpression") or "")
        message = compiler.compile(message_source, (celadm.STRING,), authorizer=False) if message_source else None
        compiled.validations.append((validation, expression, message))
    for annotation in _items(spec.get("auditAnnotations")):
        compiled.audit_annotations.append((annotation, compiler.compile(
            str(annotation.get("valueExpression") or ""), (celadm.STRING, celadm.NULL), authorizer=True)))
    return compiled


def _items(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
