"""`crdtool lint --costs`: every rule's estimated cost, as the apiserver weighs it against its budgets.

The apiserver multiplies a rule's estimated cost per evaluation by how often the rule can run (the
product of maxItems/maxProperties above it, or what fits in a request where a list or map above it
is unbounded) and rejects the CRD when one rule exceeds 10,000,000 or all rules together exceed
100,000,000. The recorder sits between the schema checks and the compiler and notes each rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crdtool.model.path import Path
from crdtool.schema.crd.schema import STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT
from crdtool.schema.crd.seam import RuleCompilation, RuleCompiler, RuleCompileRequest

__all__ = ["STATIC_ESTIMATED_COST_LIMIT", "STATIC_ESTIMATED_CRD_COST_LIMIT", "CostRecorder", "RuleCost"]


@dataclass(frozen=True, slots=True)
class RuleCost:
    """One rule (or messageExpression) and its estimated costs."""

    path: Path  # the rule's field: ...x-kubernetes-validations[i].rule
    expression: str
    max_cost: int  # per evaluation
    cardinality: int  # how many times it can run per object
    bounded: bool  # whether the schema bounds the cardinality (else the compiler's request-size estimate)
    compiled: bool
    largest_size_path: str = ""  # the value whose schema size weighs most in the cost

    @property
    def cost(self) -> int:
        """The rule's share of the budgets: its cost times its cardinality."""
        return min(self.max_cost * self.cardinality, (1 << 64) - 1)

    @property
    def rule_budget_percent(self) -> float:
        return 100.0 * self.cost / STATIC_ESTIMATED_COST_LIMIT

    @property
    def crd_budget_percent(self) -> float:
        return 100.0 * self.cost / STATIC_ESTIMATED_CRD_COST_LIMIT


@dataclass
class CostRecorder:
    """A RuleCompiler that compiles through `inner` and records each rule's cost, in schema order."""

    inner: RuleCompiler
    costs: list[RuleCost] = field(default_factory=list)

    def compile(self, request: RuleCompileRequest) -> list[RuleCompilation]:
        results = self.inner.compile(request)
        for i, (rule, cr) in enumerate(zip(request.rules, results, strict=False)):
            rule_path = request.path.child("x-kubernetes-validations").index(i)
            cardinality = cr.max_cardinality if request.max_cardinality is None else request.max_cardinality
            compiled = cr.error_type is None
            self.costs.append(RuleCost(rule_path.child("rule"), rule.get("rule") or "", cr.max_cost, cardinality,
                                       request.max_cardinality is not None, compiled, cr.largest_size_path))
            if cr.has_message_expression and cr.message_expression_error is None:
                self.costs.append(RuleCost(rule_path.child("messageExpression"), rule.get("messageExpression") or "",
                                           cr.message_expression_max_cost, 1, True, compiled))
        return results

    def validate_default(self, *args, **kwargs):
        return self.inner.validate_default(*args, **kwargs)

    def take(self) -> list[RuleCost]:
        """The costs recorded since the last call."""
        costs, self.costs = self.costs, []
        return costs
