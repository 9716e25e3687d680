"""A webhook's matchConditions: CEL expressions over the request, compiled and evaluated as the
apiserver does (k8s.io/apiserver pkg/admission/plugin/webhook/accessors.go GetCompiledMatcher,
matchconditions/matcher.go, pkg/admission/plugin/cel compile.go, condition.go, activation.go).

They are compiled in the admission environment a policy's are (crdtool.cel.admission): `object` and
`oldObject` dyn, `request` a kubernetes.AdmissionRequest, `namespaceObject` a kubernetes.Namespace
(null for a webhook: its matcher is given no namespace), `authorizer`, no `params`; each must
evaluate to bool. The request is CreateAdmissionRequest (crdtool.admission.request) with the kind
the webhook matched and the request's own resource, as the matcher's VersionedAttributes have them.

The first condition that is false means no match; otherwise every error (a condition that did not
compile is `compilation error: ...` there, evaluated as activation.go does) is the answer under
failurePolicy Fail (`expression 'X' resulted in error: ...`, several as Go's aggregate `[a, b]`),
and no match under Ignore; the conditions' cost budget certainly spent is its own error under Fail
(crdtool.cel.admission_cost). `authorizer` checks cannot be answered offline: unless a condition is
false, the webhook's match is then undecided, and it is not called (as a policy with such a
condition is not checked), which the caller says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from crdtool.admission.chain import Attributes, JSONObject, Resource
from crdtool.admission.request import admission_request

__all__ = ["Matched", "compile_condition", "evaluate", "match"]


@dataclass
class Matched:
    """What matchconditions.Matcher.Match finds before failurePolicy decides: the budget certainly
    spent (`exhausted`), a false condition (`matches` False), the first condition crdtool cannot
    evaluate (`unsupported`, as `matchCondition 'X' WHY`), the conditions' errors."""

    exhausted: bool = False
    matches: bool = True
    unsupported: str = ""
    errors: list[str] = field(default_factory=list)

    def error(self) -> str:
        """The errors as the matcher returns them: one alone, several as Go's aggregate `[a, b]`."""
        return self.errors[0] if len(self.errors) == 1 else "[" + ", ".join(self.errors) + "]"


def match(compiled: list[Any], activation: dict[str, Any], composition: Any, notes: list[str]) -> Matched:
    """matchconditions.Matcher.Match over compiled conditions (crdtool.cel.admission.Compiled), a
    webhook's or a policy's (with its variables, `composition`): every condition is evaluated (the
    filter's ForInput, under RuntimeCELCostBudgetMatchConditions) before any is looked at; the first
    false one means no match. Where crdtool cannot tell whether a cost limit stopped them, the note
    goes to `notes`."""
    from crdtool.cel import admission_cost

    checks = admission_cost.ForInput("matchConditions", admission_cost.MATCH_CONDITIONS_BUDGET, activation,
                                     composition)
    outcomes = [checks.evaluate("matchCondition", condition) for condition in compiled]
    notes += checks.notes + checks.budget_notes()
    if checks.exhausted:
        return Matched(exhausted=True, matches=False)
    found = Matched()
    for condition, outcome in zip(compiled, outcomes, strict=True):
        assert outcome is not None, "every condition is evaluated unless the budget ran out"
        if outcome.unsupported:
            found.unsupported = found.unsupported or f"matchCondition '{condition.expression}' {outcome.unsupported}"
        elif outcome.error is not None:
            found.errors.append(outcome.error)
        elif outcome.value is False:
            return Matched(matches=False)
    return found


@cache
def _compiler() -> Any:
    """The webhook matchConditions' compiler: no params, no variables (OptionalVariableDeclarations
    {HasParams: false, HasAuthorizer: true})."""
    from crdtool.cel.admission import AdmissionCompiler

    return AdmissionCompiler(has_params=False)


@cache
def compile_condition(expression: str) -> Any:
    """One condition compiled (crdtool.cel.admission.Compiled): its program, or the compile error the
    apiserver gives (`compilation failed: ERROR: ...`, `must evaluate to bool but got T`)."""
    from crdtool.cel import admission as celadm

    return _compiler().compile(expression, (celadm.BOOL,), authorizer=True)


def evaluate(conditions: Any, attributes: Attributes, invoked: Resource, obj: JSONObject | None,
             old: JSONObject | None, failure_policy: str, notes: list[str] | None = None,
             who: str = "") -> tuple[str | None, bool, str]:
    """(the error under failurePolicy Fail, or None; whether the conditions match; the first condition
    crdtool cannot evaluate, as `matchCondition 'X' WHY`, "" when none: then there is no match) of a
    webhook that matched the request as `invoked`, whose object and old object it gets as `obj` and `old`.

    Every condition is evaluated (the filter's ForInput) before any is looked at, under the budget
    of RuntimeCELCostBudgetMatchConditions: once it is certainly spent, the answer is its error under
    Fail and no match under Ignore. Where crdtool cannot tell whether a cost limit stopped them, a note
    on `who` (the webhook) goes to `notes`."""
    from crdtool.cel import admission_cost

    request = admission_request(attributes, invoked, attributes.resource)
    activation = {"object": obj, "oldObject": old, "request": request, "namespaceObject": None, "params": None}
    expressions = [str(c.get("expression") or "") if isinstance(c, dict) else ""
                   for c in (conditions if isinstance(conditions, list) else [])]
    found_notes: list[str] = []
    found = match([compile_condition(e) for e in expressions], activation, None, found_notes)
    if notes is not None:
        notes.extend(f"not checked: {who}: {note}" for note in found_notes)
    if found.exhausted:
        return (None if failure_policy == "Ignore" else admission_cost.OUT_OF_BUDGET), False, ""
    if not found.matches:
        return None, False, ""
    if found.unsupported:
        return None, False, found.unsupported
    if not found.errors:
        return None, True, ""
    if failure_policy == "Ignore":
        return None, False, ""
    return found.error(), False, ""
