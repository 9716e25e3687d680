"""The cost of admission expressions over a request's own values (crdtool.cel.admission_cost): from above,
cel-go's estimate with the values' sizes, each field selection charged as cel-go's runtime charges a
qualifier; from below, what the loops run past the engine's 10,000 iterations certainly cost. The
apiserver's limits (k8s.io/apiserver pkg/apis/cel/config.go) are applied per evaluation (ForInput) as
plugin/cel/activation.go applies them, the cases traced to composition_test.go and validator_test.go."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.cel import admission as celadm
from crdtool.cel.admission_cost import (
    MATCH_CONDITIONS_BUDGET,
    OUT_OF_BUDGET,
    PER_CALL_LIMIT,
    RUNTIME_BUDGET,
    CostCheck,
    ForInput,
    ValueSizes,
)
from crdtool.cel.cost import Cost


def compiled(expression: str, compiler: celadm.AdmissionCompiler | None = None) -> celadm.Compiled:
    result = (compiler or celadm.AdmissionCompiler(has_params=True)).compile(expression, (celadm.ANY,), True)
    assert not result.error, result.error
    return result


def activation(obj: Any = None, params: Any = None) -> dict[str, Any]:
    return {"object": obj, "oldObject": None, "params": params, "namespaceObject": None,
            "request": {"operation": "CREATE", "userInfo": {"username": "alice"}}}


def check(obj: Any = None, variables: dict[str, Any] | None = None, params: Any = None) -> CostCheck:
    return CostCheck(ValueSizes({**activation(obj, params), "variables": variables or {}}))


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
    few = check(menu(10), {"names": ["x"] * 10})
    many = check(menu(10), {"names": ["x"] * 1000})
    assert many.cost(expression, True) > 5000 * few.cost(expression, True) / 10


def test_the_coarse_bound_is_never_below_the_estimate() -> None:
    costs = check(menu(30, length=40), params={"data": {"max": "3"}})
    for text in ("object.spec.replicas <= int(params.data.max)", "object.spec.dishes.exists(d, d == 'x')",
                 "object.spec.dishes.map(d, d + '!').all(d, d.endsWith('!'))", "request.userInfo.username != ''"):
        expression = compiled(text)
        assert costs.cost(expression) >= costs.cost(expression, precise=True) > 0


def composition(compiler: celadm.AdmissionCompiler, values: dict[str, Any]) -> celadm.Composition:
    return celadm.Composition([(v.name, compiler.variable_results()[v.name]) for v in compiler.variables], values)


def test_a_cheap_evaluation_is_decided_without_a_note() -> None:
    checks = ForInput("validations", RUNTIME_BUDGET, activation(menu(100)))
    outcome = checks.evaluate("validation", compiled("object.spec.replicas <= 3"))
    assert outcome is not None and outcome.value is True
    assert checks.notes == checks.budget_notes() == [] and not checks.exhausted
    assert 0 == checks.spent.lower < checks.spent.upper <= PER_CALL_LIMIT


# Every pair of dishes: the inner loop's iterations certainly cost 3 each in cel-go's units (the two
# identifiers compared, and the accumulator read in either branch of the step), its estimate about twice that.
UNIQUE = "object.spec.dishes.all(a, object.spec.dishes.exists_one(b, a == b))"


@pytest.mark.parametrize(("dishes", "error"), [
    (300, None),  # estimate within the limit: the answer stands, no note
    (500, None),  # 750,000 certain, more than 1,000,000 estimated: a note
    (600, "operation cancelled: actual cost limit exceeded"),  # 1,080,000 certain: cel-go's cancellation
])
def test_a_call_past_its_limit_is_cancelled_when_certainly_so_and_noted_when_perhaps(dishes: int,
                                                                                      error: str | None) -> None:
    obj = {"spec": {"dishes": [f"dish {i}" for i in range(dishes)]}}
    checks = ForInput("validations", RUNTIME_BUDGET, activation(obj))
    outcome = checks.evaluate("validation", compiled(UNIQUE))
    assert outcome is not None
    estimate = check(obj).cost(compiled(UNIQUE), precise=True)
    if error is not None:  # activation.go: the expression's error, charged what it cost
        assert outcome.error == f"expression '{UNIQUE}' resulted in error: {error}"
        assert outcome.lower > PER_CALL_LIMIT and checks.notes == []
    elif estimate <= PER_CALL_LIMIT:
        assert outcome.value is True and checks.notes == []
    else:
        assert outcome.value is True and outcome.lower == dishes * dishes * 3 + dishes * 2
        assert checks.notes == [
            f"crdtool bounds the cost of validation '{UNIQUE}' over this request between {outcome.lower:,} and "
            f"{estimate:,} (it cannot count cel-go's actual cost exactly): the apiserver's per-call limit of "
            "1,000,000 lies between the two, so whether the apiserver would stop it with 'operation cancelled: "
            "actual cost limit exceeded' is unknown"]


def test_the_budget_certainly_spent_stops_the_evaluation() -> None:
    # 500 dishes: each call certainly costs 750,000; the fourth passes the matchConditions' 2,500,000
    obj = {"spec": {"dishes": [f"dish {i}" for i in range(500)]}}
    checks = ForInput("matchConditions", MATCH_CONDITIONS_BUDGET, activation(obj))
    outcomes = [checks.evaluate("matchCondition", compiled(UNIQUE)) for _ in range(5)]
    assert [o is not None for o in outcomes] == [True, True, True, False, False]
    assert checks.exhausted and checks.spent.lower > MATCH_CONDITIONS_BUDGET
    assert checks.budget_notes() == []  # the caller answers with OUT_OF_BUDGET
    assert OUT_OF_BUDGET == ("validation failed due to running out of cost budget, no further validation rules will "
                             "be run")


def test_a_budget_perhaps_spent_is_noted_once() -> None:
    costs = check(menu(300, length=300))
    expression = compiled("object.spec.dishes.all(d, d.matches('^[a-z]*(x|y|z)$'))")
    one = costs.cost(expression, precise=True)
    assert one <= PER_CALL_LIMIT  # each call within its limit ...
    count = MATCH_CONDITIONS_BUDGET // one + 1
    checks = ForInput("matchConditions", MATCH_CONDITIONS_BUDGET, activation(menu(300, length=300)))
    for _ in range(count):
        checks.evaluate("matchCondition", expression)
    assert checks.spent.upper == one * count > MATCH_CONDITIONS_BUDGET  # ... but not all of them together
    assert checks.budget_notes() == [
        f"crdtool bounds the cost of its matchConditions over this request between 0 and {one * count:,} (it "
        "cannot count cel-go's actual cost exactly): the apiserver's runtime budget of 2,500,000 for them lies "
        "between the two, so whether the apiserver would stop with 'validation failed due to running out of cost "
        "budget, no further validation rules will be run' is unknown"]
    # messageExpressions get what the validations left: only the evaluation that crosses the budget says so
    after = ForInput("messageExpressions", MATCH_CONDITIONS_BUDGET, activation(menu(300, length=300)),
                     spent=checks.spent)
    after.evaluate("messageExpression", expression)
    assert after.budget_notes() == []


# A variable whose evaluation certainly costs 20,000 x 2 (each iteration reads the accumulator in the
# loop condition and in the step).
CHECKED = "object.spec.dishes.all(d, d != '')"


@pytest.mark.parametrize(("expression", "budget", "exhausted"), [
    # composition_test.go "out of budget during lazy evaluation": the variable alone passes the budget
    ("variables.checked", 30_000, True),
    # composition_test.go "lazy evaluation, budget counts only once": read twice, charged once
    ("variables.checked && variables.checked", 79_999, False),
    # a variable the evaluation never reaches costs nothing
    ("object.spec.replicas > 5 && variables.checked", 30_000, False),
])
def test_a_variable_is_charged_once_where_read(expression: str, budget: int, exhausted: bool) -> None:
    compiler = celadm.AdmissionCompiler(has_params=False)
    compiler.compile_variable("checked", CHECKED)
    values = activation(menu(20_000))
    checks = ForInput("validations", budget, values, composition(compiler, values))
    outcome = checks.evaluate("validation", compiled(expression, compiler))
    assert checks.exhausted is exhausted
    if not exhausted:
        assert outcome is not None and outcome.error is None
        assert checks.spent.lower == (40_000 if "replicas" not in expression else 0)


def test_each_evaluation_context_charges_the_variables_it_reads_again() -> None:
    compiler = celadm.AdmissionCompiler(has_params=False)
    compiler.compile_variable("checked", CHECKED)
    values = activation(menu(20_000))
    variables = composition(compiler, values)
    read = compiled("variables.checked", compiler)
    spent = []
    for context in (variables.context(), variables.context()):
        checks = ForInput("validations", RUNTIME_BUDGET, values, context)
        checks.evaluate("validation", read)
        checks.evaluate("validation", read)
        spent.append(checks.spent.lower)
    assert spent == [40_000, 40_000]


def test_a_variable_past_its_limit_fails_where_read() -> None:
    compiler = celadm.AdmissionCompiler(has_params=False)
    compiler.compile_variable("pairs", UNIQUE)
    obj = {"spec": {"dishes": [f"dish {i}" for i in range(600)]}}
    values = activation(obj)
    checks = ForInput("validations", RUNTIME_BUDGET, values, composition(compiler, values))
    unread = checks.evaluate("validation", compiled("true || variables.pairs", compiler))
    read = checks.evaluate("validation", compiled("variables.pairs", compiler))
    assert unread is not None and unread.value is True
    assert read is not None and read.error == (
        "expression 'variables.pairs' resulted in error: composited variable \"pairs\" fails to evaluate: "
        "operation cancelled: actual cost limit exceeded")
    assert checks.notes == [] and checks.spent.lower > PER_CALL_LIMIT


def test_an_expression_that_does_not_compile_costs_nothing() -> None:
    broken = celadm.AdmissionCompiler(has_params=False).compile("object.spec.(", (celadm.BOOL,), True)
    assert broken.error
    assert check(menu(10)).cost(broken, precise=True) == 0
    checks = ForInput("validations", 1, activation(menu(10)))
    outcome = checks.evaluate("validation", broken)
    assert outcome is not None and outcome.error is not None and outcome.error.startswith("compilation error: ")
    assert not checks.exhausted and checks.spent.upper == 0
