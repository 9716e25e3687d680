"""The text of `crdtool lint --costs`: each rule's estimated cost against the apiserver's budgets."""

from __future__ import annotations

from crdtool.engine.costs import STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT
from crdtool.engine.results import Result

__all__ = ["render_costs"]


def render_costs(results: list[Result]) -> str:
    """One table per CRD: cost per evaluation, runs per object, their product and its budget shares."""
    out: list[str] = []
    for result in results:
        if result.rule_costs is None:
            continue
        out.append(f"{result.name or result.document.source}: {len(result.rule_costs)} CEL expressions "
                   f"(budgets: {STATIC_ESTIMATED_COST_LIMIT:,} per rule, {STATIC_ESTIMATED_CRD_COST_LIMIT:,} "
                   "per CRD)")
        if not result.rule_costs:
            continue
        out.append(f"  {'cost':>12} {'x runs':>12} {'= total':>16} {'% rule':>8} {'% CRD':>8}  expression")
        total = 0
        for c in sorted(result.rule_costs, key=lambda c: -c.cost):
            runs = f"{c.cardinality:,}" + ("" if c.bounded else "*")
            note = "" if c.compiled else "  (does not compile)"
            out.append(f"  {c.max_cost:>12,} {runs:>12} {c.cost:>16,} {c.rule_budget_percent:>7.1f}% "
                       f"{c.crd_budget_percent:>7.1f}%  {c.path}{note}")
            out.append(f"  {'':>60}{_one_line(c.expression)}")
            if c.largest_size_path and c.cost:
                out.append(f"  {'':>60}largest size: {c.largest_size_path}")
            total = min(total + c.cost, (1 << 64) - 1)
        out.append(f"  total {total:,} = {100.0 * total / STATIC_ESTIMATED_CRD_COST_LIMIT:.1f}% of the CRD budget"
                   + ("; * runs estimated from the request size: a list or map above the rule has no "
                      "maxItems/maxProperties" if any(not c.bounded for c in result.rule_costs) else ""))
    return "\n".join(out) + ("\n" if out else "")


def _one_line(text: str, width: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."
