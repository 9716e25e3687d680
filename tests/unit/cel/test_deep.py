"""Rules nested deeper than the CEL runtime parses, checked, costed and evaluated in pieces
(crdtool.cel.deep): the same errors, costs and outcomes as one piece where both work, and rules of
33 to 249 levels as cel-go checks and runs them."""

from __future__ import annotations

import re

import pytest

from crdtool.cel import compiler, cost, deep, library
from crdtool.cel.errors import go_runtime_error
from crdtool.cel.protos import build_schema_types
from crdtool.cel.types import schema_decl_type
from crdtool.cel.values import to_cel
from crdtool.model.path import Path
from crdtool.schema.structural.structural import new_structural

_PROPERTIES = {
    "replicas": {"type": "integer"}, "name": {"type": "string", "maxLength": 10}, "ratio": {"type": "number"},
    "items": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 5}},
    "m": {"type": "object", "additionalProperties": {"type": "integer"}},
    "objs": {"type": "array", "maxItems": 5, "items": {"type": "object", "properties": {
        "a": {"type": "string"}, "n": {"type": "integer"}}}},
}
_SCHEMA = new_structural({"type": "object", "properties": _PROPERTIES})
_TYPE = schema_decl_type(_SCHEMA, False)
_TYPES = build_schema_types(_TYPE, library.descriptor_files())


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces cut three levels deep: shallow rules split as deep ones are."""
    monkeypatch.setattr(deep, "CHUNK_DEPTH", 3)


_CHECKED = [
    "self.name + 'a' + 'b' + 'c' + 'd' + 'e' == 'x'",
    "self.items.all(x, x + 'a' + 'b' + 'c' + 'd' + 'e' != '')",
    "self.objs.exists(o, o.a + o.a + o.a + o.a + o.a == 'q' && o.n + o.n + o.n + o.n > 3)",
    "(self.name == 'a' ? 1 : self.name == 'b' ? 2 : self.name == 'c' ? 3 : self.name == 'd' ? 4 : 5) > 2",
    "self.items.map(x, x + 'a' + 'b' + 'c' + 'd').filter(y, y.size() + 1 + 2 + 3 > 2).size() >= 0",
    "[1u, 2u].all(u, u + 1u + 2u + 3u + 4u > 0u)",
    "[1u, 2u].map(u, u + 1u + 2u + 3u + 4u)[0] == 11u",
    "[[1u], [2u]].all(u, type(u[0] + 1u + 2u + 3u + 4u) == uint)",
    "self.items.all(x, self.items.exists(y, x + y + 'a' + 'b' + 'c' == y + x + 'a' + 'b'))",
    "has(self.objs) && self.objs.all(o, has(o.a) && o.a.size() + 1 + 2 + 3 + 4 > 0)",
    "self.objs.exists(o, o.a + 'x' + 'y' + 'z' + 'w' == 'qxyzw')",
    "self.objs.all(o, o.n + 1 + 2 + 3 + 4 == 10)",
    "self.m['nokey'] + 1 + 2 + 3 + 4 > 0 || true",
    "false && self.m['nokey'] + 1 + 2 + 3 + 4 > 0",
    "self.m['nokey'] + 1 + 2 + 3 + 4 > 0",
    "self.items.all(x, int(x) + 1 + 2 + 3 + 4 > 0)",
    "self.items.all(x, [b'a'].all(y, y + b'x' + b'y' + b'z' + b'w' == b'axyzw'))",
    "self.items.all(x, [timestamp('2020-01-01T00:00:00Z')].all(y, y + duration('1s') + duration('1s') > y))",
    "self.items.all(x, x + 'a' + 'b' + 'c' + 'd' + 'e' != oldSelf.name + 'a' + 'b' + 'c' + 'd')",
    "string(self.replicas) + string(self.ratio) + 'a' + 'b' + 'c' + 'd' != ''",
]
_OBJECTS = [
    {"replicas": 3, "name": "c", "ratio": 1.5, "items": ["a", "bb"], "m": {"k": 1},
     "objs": [{"a": "x", "n": 2}, {"n": 1}]},
    {"replicas": 0, "name": "zz", "items": [], "m": {}, "objs": []},
    {"name": "d", "items": ["q"], "objs": [{"a": "q", "n": 4}]},
]


def _outcome(program, data: dict) -> tuple:
    value = program.eval(data=data)
    if value.type().name() == "ERROR":
        return "error", go_runtime_error(str(value.plain_value()))
    return value.type().name(), value.plain_value()


@pytest.mark.parametrize("rule", _CHECKED)
def test_pieces_check_cost_and_evaluate_as_one_piece(rule: str, small_pieces) -> None:
    whole, error, text = compiler._check(rule, _TYPES, False)
    assert error is None
    pieces, deep_error, _ = compiler._check_deep(rule, _TYPES, False)
    assert deep_error is None and isinstance(pieces, deep.DeepChecked)
    assert len(pieces.plan.texts) > 1  # really split
    assert pieces.return_type().name() == whole.return_type().name()
    assert cost.estimate_with_largest(pieces.ast, _TYPE) == \
        cost.estimate_with_largest(compiler._decoded(whole), _TYPE)
    one, _ = compiler._eval_program(text, False, _TYPE)
    split = compiler._deep_program(pieces.plan, False, _TYPE)
    for obj in _OBJECTS:
        data = {"self": to_cel(obj, _TYPE), "oldSelf": to_cel(obj, _TYPE)}
        assert _outcome(split, data) == _outcome(one, data)


_ERRORS = [
    "self.name + 'a' + 'b' + 'c' + 'd' + self.nope == 'x'",
    "self.name + 'a' +\n 'b' + 'c' +\n   'd' + 1 + 'e' == 'x'",
    "self.items.all(x,\n  x.startsWith(1) || x + 'a' + 'b' + 'c' + 'd' + 'e' == '')",
    "self.objs.all(o, o.a.size() + o.n + 1 + 2 + 3 + o.zz > 0)",
    "foo.bar + 1 + 2 + 3 + 4 + 5 > 0",
    "self.items.all(x, [1, 'a'].size() + 1 + 2 + 3 + 4 > 0)",
    "self.items.all(x, timestamp('bad') > timestamp('2020-01-01T00:00:00Z') || x + 'a' + 'b' + 'c' + 'd' == '')",
    "has(self) || self.name + 'a' + 'b' + 'c' + 'd' + 'e' == ''",
    "self.items.exists(x, x + 'a' + 'b' + 'c' + 'd' + 'e' == 1) && self.name + 'a' + 'b' + 'c' + 'd' + 'e' == 2",
    "self.objs.map(o, o.a + 'b' + 'c' + 'd' + 'e').exists(s, s.size() + 1 + 2 + 3 + 'x' > 0)",
    "{'a': 1 + 2 + 3 + 4 + 5, 2: 'x' + 'y' + 'z' + 'w'}.size() > 0",
    "[self.name + 'a' + 'b' + 'c' + 'd', 1 + 2 + 3 + 4 + 5].size() > 0",
    "self.items.all(x, x.foo() + 'a' + 'b' + 'c' + 'd' == '')",
]


@pytest.mark.parametrize("rule", _ERRORS)
def test_pieces_report_errors_as_one_piece(rule: str, small_pieces) -> None:
    _, error, _ = compiler._check(rule, _TYPES, False)
    assert error is not None
    assert compiler._check_deep(rule, _TYPES, False)[1] == error


def test_optional_old_self_rules_split_where_no_piece_reads_old_self(small_pieces) -> None:
    rule = "self.name + 'a' + 'b' + 'c' + 'd' + 'e' == 'x' || !oldSelf.hasValue()"
    whole, _, text = compiler._check(rule, _TYPES, True)
    pieces, error, _ = compiler._check_deep(rule, _TYPES, True)
    assert error is None and isinstance(pieces, deep.DeepChecked)
    assert cost.estimate(pieces.ast, _TYPE) == cost.estimate(compiler._decoded(whole), _TYPE)
    (one, _), split = compiler._eval_program(text, True, _TYPE), compiler._deep_program(pieces.plan, True, _TYPE)
    for present in (True, False):
        data = {"self": to_cel({"name": "x"}, _TYPE), "__oldSelfPresent": present,
                "__oldSelfValue": to_cel({"name": "y"}, _TYPE)}
        assert _outcome(split, data) == _outcome(one, data)


# --- deeper than the runtime parses ---------------------------------------------------------------------


def _rule(rule: str, message_expression: str = "", properties: dict | None = None) -> compiler.CompiledRule:
    entry = {"rule": rule, **({"messageExpression": message_expression} if message_expression else {})}
    schema = new_structural({"type": "object", "properties": properties or _PROPERTIES,
                             "x-kubernetes-validations": [entry]})
    return compiler.compile_node(schema, False).rules[0]


def _errors(rule: str, obj: dict, message_expression: str = "", properties: dict | None = None) -> list[str]:
    from crdtool.cel.evaluate import validate

    entry = {"rule": rule, **({"messageExpression": message_expression} if message_expression else {})}
    schema = new_structural({"type": "object", "properties": properties or _PROPERTIES,
                             "x-kubernetes-validations": [entry]})
    errs, _ = validate(schema, False, obj, None, Path.root("spec"), False)
    return [str(e) for e in errs]


def _concatenation(n: int) -> str:
    return " + ".join(["self.name"] * n)


@pytest.mark.parametrize("n", [33, 100, 249])
def test_deep_concatenations_compile_cost_and_run(n: int) -> None:
    rule = f"{_concatenation(n)} != 'x'"
    with pytest.raises(compiler.TooDeepError):
        compiler._compile_text(compiler.environment.check_env(_TYPES), rule, _TYPES, False)
    compiled = _rule(rule)
    assert compiled.compiled and not compiled.unsupported and compiled.deep_rule is not None
    assert compiled.compilation.max_cost == _concatenation_cost(n) + 1  # and the comparison
    assert _errors(rule, {"name": "ab"}) == []
    assert _errors(f"{_concatenation(n)} == 'x'", {"name": "ab"}) == \
        [f"spec: Invalid value: failed rule: {_concatenation(n)} == 'x'"]


def _concatenation_cost(n: int) -> int:
    """The estimate of `self.name + ...` (n terms): quadratic, as each `+` costs a tenth of its operands'
    sizes (maxLength 10 is up to 40 bytes per term)."""
    return 2 * n * n + 4 * n - 4


def test_a_shallow_concatenation_costs_as_the_formula_says() -> None:
    """The cost formula of the deep tests, held against the one-piece estimate of shallow chains."""
    for n in (2, 5, 20, 30):
        rule = _rule(f"{_concatenation(n)} != 'x'")
        assert rule.deep_rule is None
        assert rule.compilation.max_cost == _concatenation_cost(n) + 1
        message = _rule("self.name == 'ok'", _concatenation(n))
        assert message.compilation.message_expression_max_cost == _concatenation_cost(n)


def _type_error(n: int) -> tuple[str, str]:
    rule = " + ".join(["'a'"] * n) + " + 1 == 'x'"
    column = rule.index(" + 1 ") + 2
    return rule, (f"compilation failed: ERROR: <input>:1:{column}: found no matching overload for '_+_' applied "
                  f"to '(string, int)'\n | {rule}\n | {'.' * (column - 1)}^")


@pytest.mark.parametrize("n", [5, 40, 249])
def test_type_errors_deep_inside_at_cel_gos_positions(n: int) -> None:
    rule, error = _type_error(n)
    compiled = _rule(rule)
    assert compiled.compilation.error_detail == error
    assert not compiled.compiled


def test_a_type_error_on_a_later_line_keeps_its_line_and_column() -> None:
    terms = "\n".join(f"  self.name + '{i}' +" for i in range(30))
    rule = f"self.items.all(x,\n{terms}\n  x + 1 == 'y')"
    compiled = _rule(rule)
    assert compiled.compilation.error_detail == (
        "compilation failed: ERROR: <input>:32:5: found no matching overload for '_+_' applied to "
        "'(string, int)'\n |   x + 1 == 'y')\n | ....^")


def _ternary(n: int) -> str:
    return "(" + "".join(f"self.name == 'v{i}' ? {i} : " for i in range(n)) + "-1) >= 0"


@pytest.mark.parametrize("n", [31, 100])
def test_deep_ternaries_run_each_arm(n: int) -> None:
    rule = _ternary(n)
    assert _rule(rule).compiled
    assert _errors(rule, {"name": f"v{n - 1}"}) == []
    assert _errors(rule, {"name": "v3"}) == []
    assert _errors(rule, {"name": "zz"}) == [f"spec: Invalid value: failed rule: {rule}"]


@pytest.mark.parametrize("n", [3, 40])
def test_a_ternary_arm_of_the_wrong_type_is_cel_gos_error(n: int) -> None:
    rule = "(" + "".join(f"self.name == 'v{i}' ? {i} : " for i in range(n)) + "'none') >= 0"
    detail = _rule(rule).compilation.error_detail or ""
    # The innermost ternary joins an int and a string: cel-go reports the operator at the last `?`.
    column = rule.rindex("?") + 1
    assert detail.startswith(f"compilation failed: ERROR: <input>:1:{column}: found no matching overload for "
                             "'_?_:_' applied to '(bool, int, string)'")


def _nested_objects(depth: int) -> dict:
    node: dict = {"type": "string", "maxLength": 8}
    for _ in range(depth):
        node = {"type": "object", "properties": {"f": node}}
    return node["properties"]


def test_deep_selections() -> None:
    chain = "self" + ".f" * 40
    rule = f"{chain} == 'x'"
    compiled = _rule(rule, properties=_nested_objects(40))
    assert compiled.compiled and not compiled.compilation.error_detail
    obj: dict = {"f": "x"}
    for _ in range(39):
        obj = {"f": obj}
    assert _errors(rule, obj, properties=_nested_objects(40)) == []
    wrong = _errors(f"{chain} == 'y'", obj, properties=_nested_objects(40))
    assert wrong == [f"spec: Invalid value: failed rule: {chain} == 'y'"]
    bad = _rule(f"{chain}.g == 'x'", properties=_nested_objects(40)).compilation.error_detail or ""
    assert bad.startswith(f"compilation failed: ERROR: <input>:1:{len(chain) + 1}: type 'string' does not support "
                          "field selection")


def test_deep_parentheses() -> None:
    rule = "(" * 200 + "self.name == 'x'" + ")" * 200
    assert _rule(rule).compiled
    assert _errors(rule, {"name": "x"}) == []
    assert _errors(rule, {"name": "y"}) == [f'spec: Invalid value: failed rule: {rule}']


def test_deep_bodies_of_macros_see_their_variables() -> None:
    body = " + ".join(["x"] * 60)
    rule = f"self.items.all(x, {body} != 'aa') && self.items.exists(x, ({body}).size() == 60)"
    assert _rule(rule).compiled
    assert _errors(rule, {"items": ["a"]}) == []
    assert _errors(rule, {"items": ["bb"]}) == [f"spec: Invalid value: failed rule: {rule}"]
    error = _rule(f"self.items.all(x, {body} + 1 != 'aa')").compilation.error_detail or ""
    assert error.startswith(f"compilation failed: ERROR: <input>:1:{18 + len(body) + 2}: found no matching "
                            "overload for '_+_' applied to '(string, int)'")


def test_uints_cross_pieces_as_uints() -> None:
    terms = " + ".join(["u"] * 40)
    ones = " + ".join(["1u"] * 40)
    rule = f"[1u, 2u].all(u, type({terms}) == uint && {terms} >= 40u) && [[3u]].all(l, l[0] + {ones} > 0u)"
    assert _rule(rule).compiled
    assert _errors(rule, {}) == []


def test_runtime_errors_deep_inside_read_as_in_one_piece() -> None:
    terms = " + ".join(["self.m['k']"] * 40)
    rule = f"{terms} > 0"
    assert _errors(rule, {"m": {"k": 1}}) == []
    assert _errors(rule, {"m": {}}) == [f'spec: Invalid value: "object": no such key: k evaluating rule: {rule}']
    assert _errors(f"self.m.size() == 0 || {terms} > 0", {"m": {}}) == []


def test_a_deep_message_expression_is_checked_costed_and_evaluated() -> None:
    message = " + ".join(["self.name"] * 40)
    compiled = _rule("self.name == 'ok'", message)
    assert compiled.compilation.message_expression_error is None
    assert compiled.deep_message is not None
    assert compiled.compilation.message_expression_max_cost == _concatenation_cost(40)
    assert _errors("self.name == 'ok'", {"name": "ab"}, message) == [f'spec: Invalid value: {"ab" * 40}']
    bad = _rule("self.name == 'ok'", message + " + 1").compilation.message_expression_error or ""
    assert re.match(r"messageExpression compilation failed: ERROR: <input>:1:\d+: found no matching overload", bad)


def test_what_cannot_be_split_stays_unsupported() -> None:
    # Every deep node reads oldSelf, an optional: no piece but the whole could be cut out.
    rule = "oldSelf.value().name + " + " + ".join(["'a'"] * 40) + " == 'x'"
    schema = new_structural({"type": "object", "properties": _PROPERTIES,
                             "x-kubernetes-validations": [{"rule": rule, "optionalOldSelf": True}]})
    compiled = compiler.compile_node(schema, False).rules[0]
    assert compiled.unsupported and compiled.compilation.unsupported


def test_a_deep_transition_rule_runs_only_on_update() -> None:
    rule = " + ".join(["self.name"] * 40) + " != " + " + ".join(["oldSelf.name"] * 40)
    assert _rule(rule).compilation.uses_old_self
    assert _errors(rule, {"name": "a"}) == []  # a create: not run
    from crdtool.cel.evaluate import validate

    schema = new_structural({"type": "object", "properties": _PROPERTIES, "x-kubernetes-validations": [{"rule": rule}]})
    errs, _ = validate(schema, False, {"name": "a"}, {"name": "a"}, Path.root("spec"), False)
    assert [str(e) for e in errs] == [f"spec: Invalid value: failed rule: {rule}"]


def test_deep_rules_read_back_from_the_persistent_cache_evaluate_alike(tmp_path) -> None:
    from crdtool.cache import Cache
    from crdtool.cel.evaluate import validate

    message = " + ".join(["self.name"] * 40)
    rules = [{"rule": _ternary(40).replace(">= 0", "< 30"), "messageExpression": message}]

    def outcome(store: Cache) -> list[str]:
        schema = new_structural({"type": "object", "properties": _PROPERTIES, "x-kubernetes-validations": rules})
        errs, _ = validate(schema, False, {"name": "v39"}, None, Path.root("spec"), False, store=store)
        return [str(e) for e in errs]

    store = Cache(tmp_path, "b" * 16)
    first = outcome(store)
    assert first == [f"spec: Invalid value: {'v39' * 40}"]
    compiler._cache.clear()
    compiler._by_fingerprint.clear()
    assert outcome(store) == first


def test_a_piece_the_runtime_refuses_leaves_the_rule_unsupported() -> None:
    # Lists nested 45 deep: CEL C++'s checker stops at 13 nested types, at no source position.
    compiled = _rule("[" * 45 + "self.name" + "]" * 45 + " != []")
    assert compiled.unsupported and not compiled.compiled


def test_syntax_nodes_carry_their_spans() -> None:
    from crdtool.cel.depth import syntax_nodes

    source = "self.a.all(x, x + 'b' == 'c' ? -1 : [1][0]) || !has(self.b)"
    nodes = syntax_nodes(source)
    assert nodes is not None
    spans = [(n.kind, source[n.start:n.end], n.name) for n in nodes]
    assert spans[:4] == [("or", source, ""), ("call", "self.a.all(x, x + 'b' == 'c' ? -1 : [1][0])", "all"),
                         ("select", "self.a", "a"), ("ident", "self", "self")]
    assert ("ternary", "x + 'b' == 'c' ? -1 : [1][0]", "") in spans
    assert ("calc", "x + 'b'", "") in spans and ("index", "[1][0]", "") in spans
    assert ("global", "has(self.b)", "has") in spans and ("unary", "!has(self.b)", "") in spans
    assert syntax_nodes("1 +") is None and syntax_nodes(" + ".join(["1"] * 252)) is None
