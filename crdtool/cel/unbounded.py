"""Rules whose comprehensions run more than CEL C++'s 10,000 iterations, evaluated all the same.

CEL C++ stops an evaluation after 10,000 comprehension iterations in all (`Iteration budget
exceeded`); the apiserver has no such cap, only its cost limits (which the caller checks). Such a
rule is evaluated again from a rewritten tree in which every comprehension over a computed range is
a call, `@k8s.loop(<n>, [free variables])`, that runs the loop here in chunks of
1,000 elements: each chunk is the comprehension itself over that slice of the range, starting from
the accumulator the previous chunk left (nested comprehensions are calls too, so no evaluation comes
near the cap). Between chunks the loop condition is asked whether to go on; the result expression
runs once, at the end. Two-variable comprehensions over a list see each element's index, so they run
one element at a time.

A chunk that yields an error does not end the loop, as in CEL: `all` and `exists` absorb it when a
later element decides. The error is carried as the accumulator by starting the next chunk from
`@k8s.fail(<message>)`, which yields that error again.

Values pass between the chunks as the engine's values, not as plain Python ones: a uint stays a uint
(as a `google.protobuf.UInt64Value`, which CEL reads as one), so that `type(x) == uint` or `x + 1u`
mean the same as in one evaluation. For that the range is evaluated here, from the comprehension's own
range expression, rather than handed over as the call's argument (the engine gives a function's
arguments as plain values). The free variables still arrive as the call's arguments, so a uint bound by
an enclosing comprehension and read inside a loop run here is an int there.

The engine counts no cost; what a loop run here certainly costs in cel-go's units can be counted. One
iteration evaluates the loop condition and the step, and cel-go's runtime (interpreter/runtimecost.go)
charges at least: 1 for each identifier and each field selected, 10, 30 or 40 for each list, map or
object built; of `a && b` and `a || b` the left side, of `c ? x : y` the condition and the cheaper
branch, of any other call its arguments (the call itself may cost 0); of a loop inside, its range,
initial accumulator and result (its iterations are counted as it runs). A `Meter` sums that for the
iterations that certainly ran (a chunk whose loop condition still holds after it ran all of its
elements; one element of any other) and, once the sum passes its limit, stops every loop of the
evaluation: the caller knows then that the actual cost passed that limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cel_expr_python import cel

from crdtool.cel.ast_proto import checked_expr_classes
from crdtool.model.record import Record

__all__ = ["CANCELLED", "Meter", "as_data", "declarations", "metered", "rewrite"]

_LOOP, _FAIL = "@k8s.loop", "@k8s.fail"
_RANGE, _ACCU = "@k8s.range", "@k8s.accu"
_CHUNK = 1000
_STATUS_PREFIX = re.compile(r"^[A-Z_]+: ")
#: cel-go's error when a call passes its cost limit (interpreter/runtimecost.go).
CANCELLED = "operation cancelled: actual cost limit exceeded"


class _Failure(Exception):
    """An error value the loop yields (its text without the runtime's status prefix)."""


class _Loop(Record):
    """One comprehension, split into programs, and the outer variables they read."""

    __slots__ = ("accu_var", "free", "by_index", "iteration_cost", "appends", "accu_init", "iter_range", "chunk",
                 "condition", "result", "failing_chunk", "failing_condition", "failing_result")

    accu_var: str
    free: list[str]
    by_index: bool  # two variables: a list's elements come with their index
    #: What one iteration certainly costs in cel-go's units (the loop condition's and the step's floor).
    iteration_cost: int
    #: `map` and `filter`: the step appends to a list and the loop never stops early, so each chunk starts
    #: from an empty list and the chunks' lists are joined here (the engine copies the list per append).
    appends: bool
    accu_init: Any
    #: The range expression (its own loops rewritten too).
    iter_range: Any
    #: The comprehension over `@range` from `@accu`, yielding its accumulator; and the loop condition and
    #: result over `accu`. The failing ones read the accumulator through `@k8s.fail`.
    chunk: Any
    condition: Any
    result: Any
    failing_chunk: Any
    failing_condition: Any
    failing_result: Any

    def __init__(self, accu_var: str, free: list[str], by_index: bool, iteration_cost: int = 0,
                 appends: bool = False, accu_init: Any = None, iter_range: Any = None, chunk: Any = None,
                 condition: Any = None, result: Any = None, failing_chunk: Any = None,
                 failing_condition: Any = None, failing_result: Any = None) -> None:
        self.accu_var = accu_var
        self.free = free
        self.by_index = by_index
        self.iteration_cost = iteration_cost
        self.appends = appends
        self.accu_init = accu_init
        self.iter_range = iter_range
        self.chunk = chunk
        self.condition = condition
        self.result = result
        self.failing_chunk = failing_chunk
        self.failing_condition = failing_condition
        self.failing_result = failing_result


_loops: list[_Loop] = []


class Meter(Record):
    """The certain cost of the loops one evaluation ran here, and the limit past which they stop."""

    __slots__ = ("limit", "spent")

    limit: int
    spent: int

    def __init__(self, limit: int, spent: int = 0) -> None:
        self.limit = limit
        self.spent = spent

    @property
    def exceeded(self) -> bool:
        return self.spent > self.limit

    def charge(self, loop: _Loop, iterations: int) -> None:
        self.spent += iterations * loop.iteration_cost
        if self.exceeded:
            raise _Failure(CANCELLED)


_meters: list[Meter] = []


@contextmanager
def metered(limit: int) -> Iterator[Meter]:
    """Count the loops evaluated inside the block (nested blocks count their own) and stop them all once
    their certain cost passes `limit`: then `Meter.exceeded`, and the evaluation's value is not its own."""
    meter = Meter(limit)
    _meters.append(meter)
    try:
        yield meter
    finally:
        _meters.pop()


#: The variables of the rules' environment (crdtool.cel.environment).
_ENV_VARIABLES = frozenset({"self", "oldSelf", "__oldSelfPresent", "__oldSelfValue"})


def rewrite(serialized: bytes, env: cel.Env, variables: frozenset[str] = _ENV_VARIABLES) -> cel.Expression | None:
    """The program of a checked expression whose comprehensions over computed ranges run here (None if
    it has none); `variables` are those `env` declares, which a loop reads as its arguments."""
    classes = checked_expr_classes()
    wrapper = classes["Any"]()
    wrapper.ParseFromString(serialized)
    checked = classes["CheckedExpr"]()
    checked.ParseFromString(wrapper.value)
    splitter = _Splitter(checked, wrapper, env)
    splitter.visit(checked.expr, variables)
    if not splitter.changed:
        return None
    return splitter.program(checked.expr)


class _Splitter:
    def __init__(self, checked: Any, wrapper: Any, env: cel.Env) -> None:
        self.checked, self.wrapper, self.env = checked, wrapper, env
        self.classes = checked_expr_classes()
        self.next_id = _max_id(checked.expr) + 1
        self.changed = False

    def visit(self, expr: Any, scope: frozenset[str]) -> None:
        """Rewrite the comprehensions under `expr`, innermost first; `scope` holds the variables bound."""
        if expr.HasField("comprehension_expr"):
            c = expr.comprehension_expr
            self.visit(c.iter_range, scope)
            self.visit(c.accu_init, scope)
            inner = scope | {c.iter_var, c.accu_var} | ({c.iter_var2} if c.iter_var2 else set())
            for part in (c.loop_condition, c.loop_step, c.result):
                self.visit(part, inner)
            if not c.iter_range.HasField("list_expr"):  # a literal range is short
                self.split(expr, scope)
            return
        for child in _children(expr):
            self.visit(child, scope)

    def split(self, expr: Any, scope: frozenset[str]) -> None:
        c = expr.comprehension_expr
        bound = {c.iter_var, c.iter_var2, c.accu_var}
        used = _idents(c.iter_range) | _idents(c.accu_init) \
            | ((_idents(c.loop_condition) | _idents(c.loop_step)) - bound) | (_idents(c.result) - {c.accu_var})
        loop = _Loop(c.accu_var, sorted(used & scope), bool(c.iter_var2),
                     _floor(c.loop_condition) + _floor(c.loop_step), _appends(c))
        loop.accu_init = self.program(c.accu_init)
        loop.iter_range = self.program(c.iter_range)
        chunk = self.classes["Expr"]()
        chunk.CopyFrom(expr)
        chunk.comprehension_expr.iter_range.Clear()
        chunk.comprehension_expr.iter_range.id = self.new_id()
        chunk.comprehension_expr.iter_range.ident_expr.name = _RANGE
        chunk.comprehension_expr.accu_init.Clear()
        chunk.comprehension_expr.accu_init.id = self.new_id()
        chunk.comprehension_expr.accu_init.ident_expr.name = _ACCU
        chunk.comprehension_expr.result.Clear()
        chunk.comprehension_expr.result.id = self.new_id()
        chunk.comprehension_expr.result.ident_expr.name = c.accu_var
        loop.chunk = self.program(chunk)
        loop.condition = self.program(c.loop_condition)
        loop.result = self.program(c.result)
        loop.failing_chunk = self.program(self.failing(chunk, _ACCU))
        loop.failing_condition = self.program(self.failing(c.loop_condition, c.accu_var))
        loop.failing_result = self.program(self.failing(c.result, c.accu_var))
        _loops.append(loop)
        expr_id = expr.id
        expr.Clear()
        expr.id = expr_id
        expr.call_expr.function = _LOOP
        number = expr.call_expr.args.add(id=self.new_id())
        number.const_expr.int64_value = len(_loops) - 1
        values = expr.call_expr.args.add(id=self.new_id())
        values.list_expr.SetInParent()
        for name in loop.free:
            values.list_expr.elements.add(id=self.new_id()).ident_expr.name = name
        self.reference(expr_id, "k8s_loop")
        self.changed = True

    def failing(self, part: Any, accu_var: str) -> Any:
        """A copy of `part` reading the accumulator as `@k8s.fail(accu)`."""
        copy = self.classes["Expr"]()
        copy.CopyFrom(part)
        stack = [copy]
        while stack:
            e = stack.pop()
            if _is_ident(e, accu_var):
                inner = self.classes["Expr"]()
                inner.CopyFrom(e)
                inner.id = self.new_id()
                call_id = e.id
                e.Clear()
                e.id = call_id
                e.call_expr.function = _FAIL
                e.call_expr.args.add().CopyFrom(inner)
                self.reference(call_id, "k8s_fail")
                continue
            stack.extend(_children(e))
        return copy

    def program(self, expr: Any) -> cel.Expression:
        """`expr` as a program of its own (the checked expression's types and references kept)."""
        checked = self.classes["CheckedExpr"]()
        checked.CopyFrom(self.checked)
        checked.expr.CopyFrom(expr)
        wrapper = self.classes["Any"]()
        wrapper.CopyFrom(self.wrapper)
        wrapper.value = checked.SerializeToString()
        return self.env.deserialize(wrapper.SerializeToString())

    def reference(self, expr_id: int, *overload_ids: str) -> None:
        """The call `expr_id` resolves to these overloads (the entry of the node it replaced, if any)."""
        for entry in self.checked.reference_map:
            if entry.key == expr_id:
                del entry.value.overload_id[:]
                entry.value.overload_id.extend(overload_ids)
                return
        self.checked.reference_map.add(key=expr_id).value.overload_id.extend(overload_ids)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1


def _children(expr: Any) -> list[Any]:
    if expr.HasField("select_expr"):
        return [expr.select_expr.operand]
    if expr.HasField("call_expr"):
        call = expr.call_expr
        return ([call.target] if call.HasField("target") else []) + list(call.args)
    if expr.HasField("list_expr"):
        return list(expr.list_expr.elements)
    if expr.HasField("struct_expr"):
        out = []
        for entry in expr.struct_expr.entries:
            if entry.HasField("map_key"):
                out.append(entry.map_key)
            out.append(entry.value)
        return out
    if expr.HasField("comprehension_expr"):
        c = expr.comprehension_expr
        return [c.iter_range, c.accu_init, c.loop_condition, c.loop_step, c.result]
    return []


#: common.ListCreateBaseCost; a map or an object costs MapCreateBaseCost (30) or StructCreateBaseCost (40).
_CREATE_COSTS = {"list_expr": 10, "struct_expr": 30}


def _floor(expr: Any) -> int:
    """What evaluating `expr` certainly costs in cel-go's runtime units, whatever the values."""
    if expr.HasField("ident_expr"):
        return 1
    if expr.HasField("select_expr"):
        return _floor(expr.select_expr.operand) + (0 if expr.select_expr.test_only else 1)
    if expr.HasField("call_expr"):
        call = expr.call_expr
        if call.function == _LOOP:  # a loop run here: its iterations are charged as they run
            return 0
        if call.function in ("_&&_", "_||_") and len(call.args) == 2:
            return _floor(call.args[0])
        if call.function == "_?_:_" and len(call.args) == 3:
            return _floor(call.args[0]) + min(_floor(call.args[1]), _floor(call.args[2]))
    if expr.HasField("comprehension_expr"):
        c = expr.comprehension_expr
        return _floor(c.iter_range) + _floor(c.accu_init) + _floor(c.result)
    base = next((cost for kind, cost in _CREATE_COSTS.items() if expr.HasField(kind)), 0)
    return base + sum(_floor(child) for child in _children(expr))


def _idents(expr: Any) -> set[str]:
    names, stack = set(), [expr]
    while stack:
        e = stack.pop()
        if e.HasField("ident_expr"):
            names.add(e.ident_expr.name)
        stack.extend(_children(e))
    return names


def _is_ident(expr: Any, name: str) -> bool:
    return expr.HasField("ident_expr") and expr.ident_expr.name == name


def _max_id(expr: Any) -> int:
    top, stack = 0, [expr]
    while stack:
        e = stack.pop()
        top = max(top, e.id)
        stack.extend(_children(e))
    return top


# --- running a loop ------------------------------------------------------------------------------------


def _run(number: int, values: list) -> Any:
    loop = _loops[number]
    meter = _meters[-1] if _meters else None
    if meter is not None and meter.exceeded:
        raise _Failure(CANCELLED)
    scope = dict(zip(loop.free, values, strict=True))
    iter_range, failed = _value(loop.iter_range, scope)
    if failed:
        raise _Failure(iter_range)
    accu, failed = _value(loop.accu_init, scope)
    if not failed and not isinstance(iter_range, (list, dict)):  # the engine's own error for such a range
        outcome, failed = _value(loop.chunk, {**scope, _RANGE: iter_range, _ACCU: accu})
        if failed:
            raise _Failure(outcome)
    if loop.appends and not failed and isinstance(accu, list):
        return _run_appending(loop, scope, accu, iter_range, meter)
    for chunk in _chunks(iter_range, loop.by_index):
        if meter is not None and meter.exceeded:  # a loop nested in this one passed the limit
            raise _Failure(CANCELLED)
        if not failed:
            proceed, _ = _value(loop.condition, {**scope, loop.accu_var: accu})
            if proceed is not True:
                break
        accu, failed = _value(loop.failing_chunk if failed else loop.chunk,
                              {**scope, _RANGE: chunk, _ACCU: accu})
        if meter is not None:
            # the chunk ran to its end when the condition still holds after it (else at least its first)
            whole = not failed and _value(loop.condition, {**scope, loop.accu_var: accu})[0] is True
            meter.charge(loop, len(chunk) if whole else 1)
    outcome, failed = _value(loop.failing_result if failed else loop.result, {**scope, loop.accu_var: accu})
    if failed:
        raise _Failure(outcome)
    return outcome


def _run_appending(loop: _Loop, scope: dict, accu: list, iter_range: Any, meter: Meter | None) -> Any:
    for chunk in _chunks(iter_range, loop.by_index):
        part, failed = _value(loop.chunk, {**scope, _RANGE: chunk, _ACCU: []})
        if failed or (meter is not None and meter.exceeded):
            raise _Failure(part if failed else CANCELLED)
        if meter is not None:
            meter.charge(loop, len(chunk))
        accu.extend(part)
    outcome, failed = _value(loop.result, {**scope, loop.accu_var: accu})
    if failed:
        raise _Failure(outcome)
    return outcome


def _appends(c: Any) -> bool:
    """Whether the comprehension is a `map` or `filter`: from `[]`, never stopping, each step `accu + [e]` or
    `cond ? accu + [e] : accu`, with the accumulator read nowhere else."""
    if not (c.accu_init.HasField("list_expr") and not c.accu_init.list_expr.elements
            and c.loop_condition.HasField("const_expr") and c.loop_condition.const_expr.bool_value):
        return False
    step = c.loop_step
    if step.HasField("call_expr") and step.call_expr.function == "_?_:_" and len(step.call_expr.args) == 3:
        condition, step, otherwise = step.call_expr.args
        if not _is_ident(otherwise, c.accu_var) or c.accu_var in _idents(condition):
            return False
    if not (step.HasField("call_expr") and step.call_expr.function == "_+_" and len(step.call_expr.args) == 2):
        return False
    accu, appended = step.call_expr.args
    return _is_ident(accu, c.accu_var) and appended.HasField("list_expr") and c.accu_var not in _idents(appended)


def _chunks(iter_range: Any, by_index: bool):
    """The range in slices (a list's elements one by one, keyed by index, when the loop reads indexes)."""
    if isinstance(iter_range, dict):
        items = list(iter_range.items())
        for start in range(0, len(items), _CHUNK):
            yield dict(items[start:start + _CHUNK])
    elif by_index:
        for i, item in enumerate(iter_range):
            yield {i: item}
    else:
        for start in range(0, len(iter_range), _CHUNK):
            yield iter_range[start:start + _CHUNK]


def _value(program: cel.Expression, data: dict) -> tuple[Any, bool]:
    """The program's value over `data`, and whether it is an error (then the value is its text)."""
    outcome = program.eval(data=data)
    if outcome.type().name() == "ERROR":
        return _STATUS_PREFIX.sub("", str(outcome.plain_value()), count=1), True
    return as_data(outcome), False


def as_data(value: cel.Value) -> Any:
    """`value` as data for another evaluation: plain, except that uints stay uints (plain values make
    them ints). Only lists and maps are walked."""
    kind = value.type().name()
    if kind == "UINT":
        from google.protobuf import wrappers_pb2

        return wrappers_pb2.UInt64Value(value=value.plain_value())
    if kind.startswith("LIST"):
        return [as_data(item) for item in value.value()]
    if kind.startswith("MAP"):
        return {key: as_data(item) for key, item in value.value().items()}
    return value.plain_value()


def _fail(message: Any) -> Any:
    raise _Failure(str(message))


def declarations() -> list[cel.FunctionDecl]:
    """The run-time functions of rewritten trees."""
    return [
        cel.FunctionDecl(_LOOP, [
            cel.Overload("k8s_loop", cel.Type.DYN, [cel.Type.INT, cel.Type.List(cel.Type.DYN)], False, _run)]),
        cel.FunctionDecl(_FAIL, [cel.Overload("k8s_fail", cel.Type.DYN, [cel.Type.STRING], False, _fail)]),
    ]
