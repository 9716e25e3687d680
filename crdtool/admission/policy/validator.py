"""One ValidatingAdmissionPolicy compiled and evaluated for one request and one param: k8s.io/apiserver
pkg/admission/plugin/policy/validating (plugin.go's compilePolicy, validator.go's Validate) and the
match conditions' matcher (pkg/admission/plugin/webhook/matchconditions/matcher.go).

What the apiserver decides per validation: admit, deny with the validation's message (its
messageExpression's value, else its message, else `failed expression: EXPR`) and reason (Invalid by
default), or, when an expression fails, deny or admit by the policy's failurePolicy with the error
as the message. Audit annotations are published, left out, or (failing) deny under Fail.
What crdtool cannot evaluate (the authorizer) is an `unsupported` decision, which the dispatcher
reports instead of guessing. The apiserver's cost limits on each evaluation are decided with bounds of
the actual cost over the request's values (crdtool.cel.admission_cost): a limit certainly passed is the
apiserver's error, one that may be passed a note that crdtool's answer may not be the apiserver's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.admission import conditions
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
        """Validate: the decisions and audit annotations for one request (and param), and where crdtool
        cannot tell whether the apiserver's cost limits stopped them.

        As validator.go: the matchConditions, then the validations, then every messageExpression with the
        budget the validations left, then the auditAnnotations; each evaluation (ForInput) with the
        variables read lazily in a context of its own."""
        on_error = "admit" if self.policy.failure_policy == "Ignore" else "deny"
        variables = self.composition(activation)
        notes: list[str] = []
        matched = self.match(activation, variables, on_error, notes)
        if matched is not None:
            return matched, [], notes
        checks = admission_cost.ForInput("validations", admission_cost.RUNTIME_BUDGET, activation, variables.context())
        outcomes = [checks.evaluate("validation", compiled) for _, compiled, _ in self.validations]
        notes += checks.notes + checks.budget_notes()
        if checks.exhausted:
            return [self._budget_error(on_error)], [], notes
        messages = admission_cost.ForInput("validations and messageExpressions", admission_cost.RUNTIME_BUDGET,
                                           activation, variables.context(), checks.spent)
        texts = [messages.evaluate("messageExpression", message) for _, _, message in self.validations]
        notes += messages.notes + messages.budget_notes()
        decisions = [self._decide(i, validation, compiled, outcome, texts[i], messages.exhausted, on_error)
                     for i, ((validation, compiled, _), outcome) in enumerate(zip(self.validations, outcomes,
                                                                                    strict=True))]
        audits = admission_cost.ForInput("auditAnnotations", admission_cost.RUNTIME_BUDGET, activation,
                                         variables.context())
        annotations = [self._annotate(a, compiled, audits.evaluate("auditAnnotation", compiled))
                       for a, compiled in self.audit_annotations]
        notes += audits.notes + audits.budget_notes()
        if audits.exhausted:
            return [self._budget_error(on_error)], [], notes
        return decisions, annotations, notes

    def composition(self, activation: dict[str, Any]) -> celadm.Composition:
        """The policy's variables over one activation, evaluated lazily (each evaluation takes a context)."""
        return celadm.Composition(self.variables, activation)

    def match(self, activation: dict[str, Any], variables: celadm.Composition, on_error: str,
              notes: list[str]) -> list[Decision] | None:
        """matchconditions.Matcher.Match: None when the conditions hold; no decisions when one is false;
        one decision for errors (the apiserver's aggregate of them, or its budget's error). Every
        condition is evaluated (ForInput) before any is looked at. Cost notes go to `notes`."""
        found = conditions.match([compiled for _, compiled in self.match_conditions], activation,
                                 variables.context(), notes)
        if found.exhausted:
            return [] if on_error == "admit" else [self._budget_error(on_error)]
        if not found.matches:
            return []
        if found.unsupported:
            return [Decision("unknown", unsupported=found.unsupported)]
        if found.errors:
            if on_error == "admit":
                return []
            return [Decision("deny", message=found.error(), evaluation_error=True)]
        return None

    @staticmethod
    def _budget_error(on_error: str) -> Decision:
        """An evaluation stopped by its budget: the policy's one decision (cel.Error's Detail as the message)."""
        return Decision(on_error, message=admission_cost.OUT_OF_BUDGET, evaluation_error=True)

    def _decide(self, index: int, validation: dict[str, Any], compiled: celadm.Compiled,
                outcome: celadm.Evaluation | None, message: celadm.Evaluation | None, out_of_budget: bool,
                on_error: str) -> Decision:
        """One validation's decision, from its outcome and its messageExpression's (`out_of_budget`: the
        messageExpressions ran out of the budget, an error for every validation that did not fail)."""
        assert outcome is not None, "every validation is evaluated unless the budget ran out"
        if outcome.unsupported:
            return Decision("unknown", unsupported=f"validation '{compiled.expression}' {outcome.unsupported}",
                            index=index)
        if outcome.error is not None:
            return Decision(on_error, message=outcome.error, evaluation_error=True, index=index)
        if out_of_budget:
            return Decision(on_error, message=f"failed messageExpression: {admission_cost.OUT_OF_BUDGET}",
                            evaluation_error=True, index=index)
        if outcome.value is True:
            return Decision("admit", index=index)
        text = ""
        if message is not None and isinstance(message.value, str) and message.error is None:
            text = go_trim_space(message.value)
            if len(text.encode()) > MAX_MESSAGE_EXPRESSION_BYTES or "\n" in text:
                text = ""
        if not text and validation.get("message"):
            text = go_trim_space(str(validation["message"]))
        if not text:
            text = f"failed expression: {go_trim_space(compiled.expression)}"
        reason = validation.get("reason") or "Invalid"
        return Decision("deny", message=text, reason=reason, index=index)

    def _annotate(self, annotation: dict[str, Any], compiled: celadm.Compiled,
                  outcome: celadm.Evaluation | None) -> AuditAnnotation:
        key = str(annotation.get("key") or "")
        failed = "exclude" if self.policy.failure_policy == "Ignore" else "error"
        if outcome is None or outcome.unsupported:  # the budget ran out: the caller answers for all
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
