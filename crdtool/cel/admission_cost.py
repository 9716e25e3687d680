"""The apiserver's runtime cost limits on admission CEL, checked with a worst-case estimate.

The apiserver counts the actual cost of every admission expression as cel-go runs it (k8s.io/apiserver
pkg/apis/cel/config.go, pkg/cel/environment/base.go's CostLimit, pkg/admission/plugin/cel/activation.go's
Evaluate): one call stops past PerCallLimit (1,000,000) with `operation cancelled: actual cost limit
exceeded`, and the expressions of one evaluation (ForInput) share a budget: the first one past it
stops them all with `validation failed due to running out of cost budget, no further validation rules
will be run`. The budgets are RuntimeCELCostBudgetMatchConditions (2,500,000) for the matchConditions
of a webhook or a policy (webhook/matchconditions/matcher.go); RuntimeCELCostBudget (10,000,000) for a
ValidatingAdmissionPolicy's validations, whose messageExpressions get what the validations left, then
again for its auditAnnotations (policy/validating/validator.go), and for each mutation of a
MutatingAdmissionPolicy (policy/mutating/dispatcher.go). A variable is charged to the expression that
first reads it, once per evaluation: composition.go builds its lazy map of variables for each.

cel-expr-python counts no cost. crdtool estimates it instead: cel-go's static estimate (crdtool.cel.cost)
with the sizes of the values at hand (object, oldObject, params, request, namespaceObject and the
variables' values) in place of a schema's bounds. That bounds the actual cost from above: within the
limits, the apiserver would have finished the expressions as crdtool did and crdtool's answer stands;
beyond them crdtool cannot tell whether the apiserver would have stopped, and says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.cel.admission import Compiled, reads_variable
from crdtool.cel.cost import MAX, Cost, estimate_over
from crdtool.cel.sized import PER_CALL_LIMIT, RUNTIME_BUDGET

__all__ = ["MATCH_CONDITIONS_BUDGET", "PER_CALL_LIMIT", "RUNTIME_BUDGET", "CostCheck", "ValueSizes"]

MATCH_CONDITIONS_BUDGET = 2_500_000  # RuntimeCELCostBudgetMatchConditions
OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run"
CALL_LIMIT_EXCEEDED = "operation cancelled: actual cost limit exceeded"


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
    """The expressions of one request (one policy, binding and param; or one webhook) against the apiserver's
    limits. `variables` are the policy's, in order, each costed where it is read."""

    sizes: ValueSizes
    variables: Sequence[tuple[str, Compiled]] = ()
    _costs: dict[int, tuple[Compiled, int]] = field(default_factory=dict)

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
        found = self._costs.get(id(compiled))
        if found is None or found[0] is not compiled:
            found = self._costs[id(compiled)] = (compiled, estimate_over(ast, self.sizes).max)
        return found[1]

    def evaluation(self, what: str, expressions: Sequence[tuple[str, Compiled]], budget: int, spent: int = 0
                   ) -> tuple[int, list[str]]:
        """One ForInput: the worst-case cost of `expressions` (each labelled, as `validation`) and of the
        variables they read, added to `spent`, and a note for each limit that may be exceeded: an
        expression's per-call limit, and the `budget` (`what` names its expressions) when this evaluation
        is the one that may cross it (`spent` is what earlier ones charged to the same budget)."""
        calls = [(label, compiled) for label, compiled in expressions if not compiled.error]
        if not calls:
            return spent, []
        texts = [compiled.expression for _, compiled in calls]
        read: list[tuple[str, Compiled]] = []
        for name, compiled in reversed(self.variables):  # a variable reads only those before it
            if any(reads_variable(text, name) for text in texts):
                read.insert(0, (f'variable "{name}"', compiled))
                if not compiled.error:
                    texts.append(compiled.expression)
        costs = [self.cost(compiled) for _, compiled in [*read, *calls]]
        if sum(costs, spent) > budget:
            costs = [self.cost(compiled, precise=True) for _, compiled in [*read, *calls]]
        notes = []
        total = spent
        for (label, compiled), cost in zip([*read, *calls], costs, strict=True):
            total = min(total + cost, MAX)
            if cost > PER_CALL_LIMIT:
                notes.append(f"the worst-case cost of {label} '{compiled.expression}' over this request "
                             f"({_amount(cost)}) exceeds the apiserver's per-call limit of {PER_CALL_LIMIT:,}; "
                             f"crdtool cannot count its actual cost, so whether the apiserver would stop it with "
                             f"'{CALL_LIMIT_EXCEEDED}' is unknown")
        if total > budget >= spent:
            notes.append(f"the worst-case cost of its {what} over this request ({_amount(total)}) exceeds the "
                         f"apiserver's runtime budget of {budget:,} for them; crdtool cannot count their actual "
                         f"cost, so whether the apiserver would stop with '{OUT_OF_BUDGET}' is unknown")
        return total, notes


def _amount(cost: int) -> str:
    return "unbounded" if cost >= MAX else f"{cost:,}"
