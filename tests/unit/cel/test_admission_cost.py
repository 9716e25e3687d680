"""The worst-case cost of admission expressions over a request's own values (crdtool.cel.admission_cost):
cel-go's estimate with the values' sizes, each field selection charged as cel-go's runtime charges a
qualifier, and the apiserver's limits (k8s.io/apiserver pkg/apis/cel/config.go) applied per evaluation."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.cel import admission as celadm
from crdtool.cel.admission_cost import MATCH_CONDITIONS_BUDGET, PER_CALL_LIMIT, CostCheck, ValueSizes
from crdtool.cel.cost import Cost


def compiled(expression: str, compiler: celadm.AdmissionCompiler | None = None) -> celadm.Compiled:
    result = (compiler or celadm.AdmissionCompiler(has_params=True)).compile(expression, (celadm.ANY,), True)
    assert not result.error, result.error
    return result


def check(obj: Any = None, variables: dict[str, Any] | None = None, params: Any = None,
          compiler: celadm.AdmissionCompiler | None = None) -> CostCheck:
    sizes = ValueSizes({"object": obj, "oldObject": None, "params": params, "namespaceObject": None,
                        "request": {"operation": "CREATE", "userInfo": {"username": "alice"}},
                        "variables": variables or {}})
    return CostCheck(sizes, [(v.name, compiler.variable_results()[v.name]) for v in compiler.variables]
                     if compiler else [])


def menu(n: int, length: int = 5) -> dict[str, Any]:
    return {"spec": {"replicas": 2, "dishes": ["d" * length] * n, "prices": {f"k{i}": i for i in range(n)}}}


def test_sizes_follow_fields_items_keys_and_values() -> None:
    sizes = ValueSizes({"object": {"spec": {"list": ["ab", "abcd"], "map": {"x": "abc", "yy": [1, 2]}}},
                        "oldObject": None})
    assert sizes.at(("object", "spec", "list")) == Cost(2, 2)
    assert sizes.at(("object", "spec", "list", "@items")) == Cost(2, 4)
    assert sizes.at(("object", "spec", "map", "@keys")) == Cost(1, 2)
    assert sizes.at(("object", "spec", "map", "@items")) == Cost(1, 2)  # iterating a map gives its keys
    assert sizes.at(("object", "spec", "map", "@values")) == Cost(2, 3)
    assert sizes.at(("object", "spec", "map", "x")) == Cost(3, 3)
    assert sizes.at(("object", "spec", "missing")) == Cost(0, 0)
    assert sizes.at(("oldObject", "spec")) == Cost(0, 0)  # null: nothing there
    assert sizes.at(("object", "spec", "map", "yy", "@items")) == Cost(1, 1)  # scalars: cel-go's actualSize 1
    assert sizes.at(("self",)) is None  # not a variable of admission


def test_a_select_chain_is_charged_as_the_runtime_charges_it() -> None:
    # cel-go's runtime: the attribute `object` (1), its qualifiers spec and replicas (1 each), the `<=` call
    # (1, on scalars); the static estimate would charge no selection on a dyn value.
    assert check(menu(3)).cost(compiled("object.spec.replicas <= 3"), precise=True) == 4


def test_a_comprehension_grows_with_the_list_and_nesting_with_its_square() -> None:
    single = compiled("object.spec.dishes.all(d, d.size() < 10)")
    nested = compiled("object.spec.dishes.all(a, object.spec.dishes.all(b, a.size() <= b.size()))")
    small, large = check(menu(50)), check(menu(100))
    assert 1.9 < large.cost(single, True) / small.cost(single, True) < 2.1
    assert 3.8 < large.cost(nested, True) / small.cost(nested, True) < 4.1


def test_string_functions_grow_with_the_strings() -> None:
    expression = compiled("object.spec.dishes.all(d, d.matches('^[a-z]+$'))")
    short, long = check(menu(10, length=10)), check(menu(10, length=1000))
    # cel-go's matches: ceil((1 + len(string)) * 0.1) * ceil(len(regex) * 0.25), here once per dish
    per_dish = (101 - 2) * 2
    assert long.cost(expression, True) - short.cost(expression, True) == 10 * per_dish


def test_map_keys_and_values_are_sized_by_the_map() -> None:
    expression = compiled("object.spec.prices.all(k, object.spec.prices[k] >= 0)")
    assert 1.9 < check(menu(200)).cost(expression, True) / check(menu(100)).cost(expression, True) < 2.1


def test_variables_are_sized_by_their_values() -> None:
    compiler = celadm.AdmissionCompiler(has_params=False)
    compiler.compile_variable("names", "object.spec.dishes")
    expression = compiled("variables.names.all(a, variables.names.exists(b, a == b))", compiler)
    few = check(menu(10), {"names": ["x"] * 10}, compiler=compiler)
    many = check(menu(10), {"names": ["x"] * 1000}, compiler=compiler)
    assert many.cost(expression, True) > 5000 * few.cost(expression, True) / 10


def test_the_coarse_bound_is_never_below_the_estimate() -> None:
    costs = check(menu(30, length=40), params={"data": {"max": "3"}})
    for text in ("object.spec.replicas <= int(params.data.max)", "object.spec.dishes.exists(d, d == 'x')",
                 "object.spec.dishes.map(d, d + '!').all(d, d.endsWith('!'))", "request.userInfo.username != ''"):
        expression = compiled(text)
        assert costs.cost(expression) >= costs.cost(expression, precise=True) > 0


def test_a_cheap_evaluation_has_no_note() -> None:
    costs = check(menu(100))
    total, notes = costs.evaluation("validations", [("validation", compiled("object.spec.replicas <= 3"))],
                                    10_000_000)
    assert notes == [] and total <= PER_CALL_LIMIT


def test_an_expression_past_the_per_call_limit_is_named_with_its_estimate() -> None:
    costs = check(menu(1000))
    expression = compiled("object.spec.dishes.all(a, object.spec.dishes.all(b, a == b))")
    total, notes = costs.evaluation("validations", [("validation", expression)], 10_000_000)
    estimate = costs.cost(expression, precise=True)
    assert estimate > PER_CALL_LIMIT
    assert notes[0] == (
        f"the worst-case cost of validation '{expression.expression}' over this request ({estimate:,}) exceeds "
        "the apiserver's per-call limit of 1,000,000; crdtool cannot count its actual cost, so whether the "
        "apiserver would stop it with 'operation cancelled: actual cost limit exceeded' is unknown")


def test_several_expressions_share_the_budget() -> None:
    costs = check(menu(300, length=300))
    expression = compiled("object.spec.dishes.all(d, d.matches('^[a-z]*(x|y|z)$'))")
    one = costs.cost(expression, precise=True)
    assert one <= PER_CALL_LIMIT  # each call within its limit ...
    count = MATCH_CONDITIONS_BUDGET // one + 1
    total, notes = costs.evaluation("matchConditions", [("matchCondition", expression)] * count,
                                    MATCH_CONDITIONS_BUDGET)
    assert total == one * count > MATCH_CONDITIONS_BUDGET  # ... but not all of them together
    assert notes == [
        f"the worst-case cost of its matchConditions over this request ({total:,}) exceeds the apiserver's "
        "runtime budget of 2,500,000 for them; crdtool cannot count their actual cost, so whether the apiserver "
        "would stop with 'validation failed due to running out of cost budget, no further validation rules will "
        "be run' is unknown"]
    # messageExpressions get what the validations left: only the evaluation that crosses the budget says so
    assert costs.evaluation("messageExpressions", [("messageExpression", expression)], MATCH_CONDITIONS_BUDGET,
                            spent=total)[1] == []


@pytest.mark.parametrize(("expression", "charged"), [
    ("variables.b.size() > 0", ["a", "b"]),  # b reads a: both are evaluated
    ("variables.a.size() > 0", ["a"]),
    ("object.spec.replicas > 0", []),
    ("'variables.b' != ''", []),  # a string, not a read
])
def test_variables_are_charged_where_read(expression: str, charged: list[str]) -> None:
    compiler = celadm.AdmissionCompiler(has_params=False)
    compiler.compile_variable("a", "object.spec.dishes.map(a, object.spec.dishes.map(b, b))")
    compiler.compile_variable("b", "variables.a")
    obj = menu(400)
    costs = check(obj, {"a": [obj["spec"]["dishes"]] * 400, "b": [obj["spec"]["dishes"]] * 400}, compiler=compiler)
    own = compiled(expression, compiler)
    total, notes = costs.evaluation("validations", [("validation", own)], 10_000_000)
    expected = sum(costs.cost(compiler.variable_results()[name], precise=True) for name in charged)
    assert total == expected + costs.cost(own, precise=True)
    assert [n.split("'")[0] for n in notes if "per-call" in n] == \
        [f'the worst-case cost of variable "{name}" ' for name in charged if name == "a"]


def test_an_expression_that_does_not_compile_costs_nothing() -> None:
    broken = celadm.AdmissionCompiler(has_params=False).compile("object.spec.(", (celadm.BOOL,), True)
    assert broken.error
    assert check(menu(10)).evaluation("validations", [("validation", broken)], 1) == (0, [])
