"""The apiserver's runtime cost limits on admission CEL, decided with bounds of the actual cost.

The apiserver counts the actual cost of every admission expression as cel-go runs it (k8s.io/apiserver
pkg/apis/cel/config.go, pkg/cel/environment/base.go's CostLimit, pkg/admission/plugin/cel/activation.go's
Evaluate): one call stops past PerCallLimit (1,000,000) with `operation cancelled: actual cost limit
exceeded`, an error of that expression (`expression 'X' resulted in error: ...`, which the failurePolicy
decides). The expressions of one evaluation (ForInput) share a budget: the first one whose cost (with
the variables it read) is more than what is left stops them all with `validation failed due to running
out of cost budget, no further validation rules will be run`, an error of the whole evaluation. The
budgets are RuntimeCELCostBudgetMatchConditions (2,500,000) for the matchConditions of a webhook or a
policy (webhook/matchconditions/matcher.go); RuntimeCELCostBudget (10,000,000) for a
ValidatingAdmissionPolicy's validations, whose messageExpressions get what the validations left, then
again for its auditAnnotations (policy/validating/validator.go), and for each mutation of a
MutatingAdmissionPolicy (policy/mutating/dispatcher.go). A variable is charged to the expression that
first reads it, once per evaluation (composition.go; crdtool.cel.admission.Composition).

cel-expr-python counts no cost, so crdtool bounds it from both sides. From above: cel-go's static
estimate (crdtool.cel.cost) with the sizes of the values at hand (object, oldObject, params, request,
namespaceObject and the variables' values) in place of a schema's bounds. From below: what the loops
that ran past the engine's 10,000 iterations certainly cost (crdtool.cel.unbounded's Meter). Where the
bound from above is within a limit, the apiserver finished as crdtool did; where the bound from below
passes it, the apiserver stopped, and crdtool gives its error; between the two crdtool keeps its answer
and says in a note that the apiserver may have stopped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from crdtool.cel.admission import Compiled, Composition, Evaluation, evaluate
from crdtool.cel.cost import MAX, Cost, estimate_over
from crdtool.cel.sized import PER_CALL_LIMIT, RUNTIME_BUDGET
from crdtool.cel.unbounded import CANCELLED
from crdtool.model.memo import IdentityMemo

__all__ = ["CALL_LIMIT_EXCEEDED", "MATCH_CONDITIONS_BUDGET", "OUT_OF_BUDGET", "PER_CALL_LIMIT", "RUNTIME_BUDGET",
           "CostCheck", "ForInput", "Spent", "ValueSizes"]

MATCH_CONDITIONS_BUDGET = 2_500_000  # RuntimeCELCostBudgetMatchConditions
OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run"
CALL_LIMIT_EXCEEDED = CANCELLED


class ValueSizes:
    """crdtool.cel.cost.PathSizes over the values of one evaluation: the sizes (a string's code points, a
    list's items, a map's entries; 1 for a scalar, as cel-go's actualSize) of every value a field path
    reaches from a variable. A path is walked only when an expression asks for it, once."""

    def __init__(self, roots: Mapping[str, Any]) -> None:
        self._roots = roots
        self._values: dict[tuple[str, ...], list[Any] | None] = {}
        self._sizes: dict[tuple[str, ...], Cost | None] = {}
        self._unknown: Cost | None = None

    def at(self, path: tuple[str, ...]) -> Cost | None:
        if path in self._sizes:
            return self._sizes[path]
        values = self._at(path)
        size = None
        if values is not None:
            sizes = [_size(v) for v in values]
            size = Cost(min(sizes), max(sizes)) if sizes else Cost()
        self._sizes[path] = size
        return size

    def forget(self, root: str) -> None:
        """Walk the paths from `root` again (its value changed: a variable was evaluated)."""
        for cache in (self._values, self._sizes):
            for path in [p for p in cache if p[0] == root]:
                del cache[path]
        self._unknown = None

    def unknown(self) -> Cost:
        """A value computed where the estimator loses track of sizes (`dyn(x)`, an optional's value): taken
        to be no larger than the JSON text of all the values at hand, which bounds each of their sizes
        and their sum."""
        if self._unknown is None:
            self._unknown = Cost(0, len(json.dumps(list(self._roots.values()), default=str)))
        return self._unknown

    def _at(self, path: tuple[str, ...]) -> list[Any] | None:
        if path in self._values:
            return self._values[path]
        found: list[Any] | None
        if len(path) == 1:
            root = self._roots.get(path[0], _ABSENT)
            found = None if root is _ABSENT else ([] if root is None else [root])
        else:
            parent = self._at(path[:-1])
            found = None if parent is None else _step(parent, path[-1])
        self._values[path] = found
        return found


_ABSENT = object()


def _step(values: list[Any], name: str) -> list[Any]:
    """The values one step of a path reaches: a field, a list's items, a map's keys (what iterating a
    map gives) or values."""
    out: list[Any] = []
    for v in values:
        if isinstance(v, dict):
            if name in ("@items", "@keys"):
                out.extend(v)
            elif name == "@values":
                out.extend(v.values())
            elif name in v:
                out.append(v[name])
        elif isinstance(v, list) and name in ("@items", "@values"):
            out.extend(v)
    return out


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, dict)) else 1


@dataclass(frozen=True)
class _Uniform:
    """Sizes that take every value to be `size` large."""

    size: int

    def at(self, path: tuple[str, ...]) -> Cost | None:
        return Cost(0, self.size)

    def unknown(self) -> Cost:
        return Cost(0, self.size)


@dataclass
class CostCheck:
    """The upper bounds of the expressions of one evaluation over its values."""

    sizes: ValueSizes
    _costs: IdentityMemo[int] = field(default_factory=IdentityMemo)

    def cost(self, compiled: Compiled, precise: bool = False) -> int:
        """An upper bound of one call of `compiled` over these values (0 for one that does not run: the
        apiserver evaluates no expression that failed to compile). Unless `precise`, a coarse bound
        (every value as large as all of them together) where it is within the per-call limit: computed
        once per expression and power of two, it spares most requests the estimate over their own sizes."""
        ast = compiled.ast() if not compiled.error else None
        if ast is None:
            return 0
        if not precise:
            total = self.sizes.unknown().max
            bucket = 1 << max(total - 1, 0).bit_length()
            coarse = compiled.cost_bounds.get(bucket)
            if coarse is None:
                coarse = compiled.cost_bounds[bucket] = estimate_over(ast, _Uniform(bucket)).max
            if coarse <= PER_CALL_LIMIT:
                return coarse
        found = self._costs.get(compiled)
        return found if found is not None else self._costs.put(compiled, estimate_over(ast, self.sizes).max)


@dataclass(frozen=True)
class Spent:
    """What the expressions of a budget cost: at least `lower`, at most `upper`."""

    lower: int = 0
    upper: int = 0


class ForInput:
    """One evaluation of a list of expressions (ConditionEvaluator.ForInput) under a `budget`, of which
    `spent` is already gone (a messageExpressions' evaluation starts from what the validations left).

    `evaluate` runs the expressions in order, as the apiserver does, until the budget is certainly
    exhausted (`exhausted`, then the apiserver's answer is OUT_OF_BUDGET for the whole evaluation).
    `notes` says where a limit lies between crdtool's bounds; `what` names the expressions there."""

    def __init__(self, what: str, budget: int, activation: Mapping[str, Any],
                 composition: Composition | None = None, spent: Spent = Spent()) -> None:
        self.what, self.budget, self.activation, self.composition = what, budget, activation, composition
        self.start = self.spent = spent
        self.exhausted = False
        self.notes: list[str] = []
        self._values: dict[str, Any] = {}
        self._costs = CostCheck(ValueSizes({**activation, "variables": self._values}))
        self._charged: list[tuple[Compiled, int]] = []  # each call and what it certainly cost

    def evaluate(self, label: str, compiled: Compiled | None) -> Evaluation | None:
        """Activation.Evaluate of the expression `label` (`validation`), None for a placeholder (a
        validation without messageExpression) or once the budget is exhausted."""
        if compiled is None or self.exhausted:
            return None
        outcome = evaluate(compiled, self.activation, self.composition)
        charged = self.composition.take() if self.composition is not None else []
        for name, variable in charged:
            if variable.error is None and variable.unsupported is None:
                self._values[name] = variable.value
                self._costs.sizes.forget("variables")
        lower, upper = self.spent.lower, self.spent.upper
        variables = self.composition.variables if self.composition is not None else {}
        for what, expression, result in [*((f'variable "{name}"', variables[name], variable)
                                           for name, variable in charged), (label, compiled, outcome)]:
            cost = self._costs.cost(expression)
            cancelled = result.error is not None and result.lower > PER_CALL_LIMIT
            if cost > PER_CALL_LIMIT and not cancelled:
                self.notes.append(
                    f"crdtool bounds the cost of {what} '{expression.expression}' over this request between "
                    f"{result.lower:,} and {_amount(cost)} (it cannot count cel-go's actual cost exactly): the "
                    f"apiserver's per-call limit of {PER_CALL_LIMIT:,} lies between the two, so whether the apiserver "
                    f"would stop it with '{CALL_LIMIT_EXCEEDED}' is unknown")
            lower = min(lower + result.lower, MAX)
            upper = min(upper + max(cost, result.lower), MAX)
            self._charged.append((expression, result.lower))
        if upper > self.budget:  # the coarse bounds may be what passes it: take each call's own
            upper = self.start.upper
            for expression, certain in self._charged:
                upper = min(upper + max(self._costs.cost(expression, precise=True), certain), MAX)
        self.spent = Spent(lower, upper)
        if lower > self.budget:
            self.exhausted = True
            return None
        return outcome

    def budget_notes(self) -> list[str]:
        """The note when the budget lies between crdtool's bounds of what this evaluation spent (and the
        evaluations before it on the same budget did not already cross it)."""
        if self.exhausted or self.spent.upper <= self.budget or self.start.upper > self.budget:
            return []
        return [f"crdtool bounds the cost of its {self.what} over this request between {self.spent.lower:,} and "
                f"{_amount(self.spent.upper)} (it cannot count cel-go's actual cost exactly): the apiserver's "
                f"runtime budget of {self.budget:,} for them lies between the two, so whether the apiserver would "
                f"stop with '{OUT_OF_BUDGET}' is unknown"]


def _amount(cost: int) -> str:
    return "unbounded" if cost >= MAX else f"{cost:,}"
