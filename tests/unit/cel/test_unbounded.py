"""Comprehensions run loop by loop (crdtool.cel.unbounded): the same outcomes as the engine's own
evaluation where both run, and outcomes past the engine's iteration cap."""

from __future__ import annotations

import pytest

from crdtool.cel import environment, unbounded

_RULES = [
    "self.all(x, x > 0)",
    "self.exists(x, x == 3)",
    "self.exists_one(x, x == 3)",
    "self.all(x, self.exists(y, y == x))",
    "self.map(x, x * 2).filter(y, y % 3 == 0).size()",
    "self.map(x, x > 2, x - 1)",
    "self.all(i, v, v > i)",
    "self.all(x, 6 / (x - 4) > -10)",  # an error absorbed by a later false, or surfacing
    "self.filter(x, 6 / (x - 4) > 0)",
    "self.map(x, [x].all(y, y > 0))",  # a literal range stays with the engine
    "[1, 2].all(y, self.all(x, x != y * 100))",
]


def _eval(program, data: dict) -> tuple[str, str]:
    outcome = program.eval(data=data)
    value = outcome.plain_value()
    if outcome.type().name() == "ERROR":
        value = str(value).split(": ", 1)[-1]
    return outcome.type().name(), repr(value)


@pytest.mark.parametrize("rule", _RULES)
@pytest.mark.parametrize("values", [[1, 2, 3], [5, 4, 3], [], [3, 3, 7]])
def test_the_same_outcome_as_the_engine(rule: str, values: list) -> None:
    program = environment.eval_env().compile(rule)
    split = unbounded.rewrite(program.serialize(), environment.eval_env())
    assert split is not None
    assert _eval(split, {"self": values}) == _eval(program, {"self": values})


def test_past_the_engines_cap() -> None:
    env = environment.eval_env()
    values = list(range(1, 30_001))
    for rule, expected in (("self.all(x, x > 0)", True), ("self.exists(x, x == 30000)", True),
                           ("self.all(x, x < 30000)", False), ("self.exists_one(x, x == 29999)", True)):
        program = env.compile(rule)
        with pytest.raises(RuntimeError, match="budget"):
            program.eval(data={"self": values})
        assert unbounded.rewrite(program.serialize(), env).eval(data={"self": values}).plain_value() == expected


def test_appending_steps_keep_order_past_the_cap() -> None:
    env = environment.eval_env()
    program = unbounded.rewrite(env.compile("self.filter(x, x % 3 == 0).map(x, x / 3)").serialize(), env)
    assert program.eval(data={"self": list(range(1, 30_001))}).plain_value() == list(range(1, 10_001))


def test_maps_iterate_their_keys() -> None:
    env = environment.eval_env()
    values = {f"k{i}": i for i in range(12_000)}
    program = unbounded.rewrite(env.compile("self.all(k, self[k] >= 0) && self.exists(k, v, v == 11999)")
                                .serialize(), env)
    assert program.eval(data={"self": values}).plain_value() is True


def test_a_rule_without_comprehensions_is_left_as_it_is() -> None:
    env = environment.eval_env()
    assert unbounded.rewrite(env.compile("self.size() > 2").serialize(), env) is None


@pytest.mark.parametrize(("rule", "expected"), [
    ("type(self.map(x, 1u)[0]) == uint", True),
    ("self.map(x, uint(x)).all(y, type(y) == uint)", True),
    ("self.map(x, {'k': uint(x)}).all(m, type(m.k) == uint)", True),
    ("self.map(x, uint(x)).filter(y, y > 11990u).size() == 9", True),
])
def test_uints_cross_the_chunks_as_uints(rule: str, expected: bool) -> None:
    env = environment.eval_env()
    program = env.compile(rule)
    split = unbounded.rewrite(program.serialize(), env)
    assert split.eval(data={"self": list(range(12_000))}).plain_value() is expected
    assert split.eval(data={"self": list(range(20))}).plain_value() == program.eval(
        data={"self": list(range(20))}).plain_value()


def test_a_range_that_is_no_list_gives_the_engines_error() -> None:
    env = environment.eval_env()
    program = env.compile("dyn(self[0]).all(x, true)")
    split = unbounded.rewrite(program.serialize(), env)
    assert str(split.eval(data={"self": [1]}).plain_value()) == str(program.eval(data={"self": [1]}).plain_value())


# What one iteration certainly costs in cel-go's runtime units (interpreter/runtimecost.go): identifiers and
# list/map creations; of `&&` its left side, of `?:` the condition and the cheaper branch.
@pytest.mark.parametrize(("rule", "per_iteration"), [
    ("self.all(x, x >= 0)", 2),  # @not_strictly_false(accu) reads accu; accu && ... reads accu
    ("self.exists(x, x == 29999)", 2),  # ... the loop stops there: the last chunk counts one iteration
    ("self.exists_one(x, x == 3)", 2),  # x == 3 ? accu + 1 : accu
    ("self.filter(x, x < 0).size() == 0", 2),  # x < 0 ? accu + [x] : accu
    ("self.map(x, {'k': x}).size() > 0", 42),  # accu + [{'k': x}]: accu, x, a list (10) and a map (30)
])
def test_a_meter_counts_what_the_iterations_certainly_cost(rule: str, per_iteration: int) -> None:
    env = environment.eval_env()
    split = unbounded.rewrite(env.compile(rule).serialize(), env)
    with unbounded.metered(10_000_000) as meter:
        assert split.eval(data={"self": list(range(30_000))}).plain_value() is True
    ran = 29_001 if "exists(" in rule else 30_000
    assert meter.spent == ran * per_iteration and not meter.exceeded


def test_a_meter_past_its_limit_stops_every_loop() -> None:
    env = environment.eval_env()
    split = unbounded.rewrite(env.compile("self.all(x, self.all(y, x != y + 1000000)) || true").serialize(), env)
    with unbounded.metered(50_000) as meter:
        outcome = split.eval(data={"self": list(range(20_000))})
    # the error is absorbed by `|| true`, but the evaluation did not finish as the apiserver's would
    assert meter.exceeded and 50_000 < meter.spent < 55_000  # stopped within a chunk of the limit
    assert outcome.plain_value() is True
    assert unbounded.CANCELLED == "operation cancelled: actual cost limit exceeded"


def test_the_variables_of_another_environment_reach_the_loops() -> None:
    from crdtool.cel import admission

    env = admission.eval_env()
    program = env.compile("object.items.all(x, x < params.max)")
    names = frozenset({"object", "params"})
    split = unbounded.rewrite(program.serialize(), env, names)
    assert split is not None
    data = {"object": {"items": list(range(12_000))}, "params": {"max": 12_000}}
    assert split.eval(data=data).plain_value() is True
    assert split.eval(data={**data, "params": {"max": 11_999}}).plain_value() is False
