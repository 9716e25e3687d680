"""Where crdtool's CEL engine stops short of cel-go: cel-go's parser limits (recursion as its listener
and its tree builder count it, code points), and the object-sized cost estimate used when the engine's
iteration budget runs out."""

import pytest

from crdtool.cel.depth import parser_limit_error

_RECURSION = "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
_TREE = "ERROR: <input>:-1:0: max recursion depth exceeded"


def _nested(open_: str, inner: str, close: str, n: int) -> str:
    return open_ * n + inner + close * n


@pytest.mark.parametrize(("rule", "error"), [
    (_nested("(", "x", ")", 249), None),  # expr open 250 times: start's and one per parenthesis
    (_nested("(", "x", ")", 250), _RECURSION),
    (_nested("f(", "x", ")", 249), None),
    (_nested("f(", "x", ")", 250), _RECURSION),
    (_nested("[", "x", "]", 250), _RECURSION),
    (_nested("a.f(", "x", ")", 249), None),
    (_nested("(", "x == 1", ")", 248), None),  # relation: the right operand reopens the rule
    (_nested("(", "x == 1", ")", 249), _RECURSION),
    (_nested("a.f(", "x", ")", 250), _RECURSION),
    (_nested("1 + (", "1", ")", 124), None),  # calc: the right operand reopens the rule inside each level
    (_nested("1 + (", "1", ")", 125), _RECURSION),
    (" + ".join(["1"] * 251), None),  # 250 operators: the chain does not add up in the listener ...
    (" + ".join(["1"] * 252), _TREE),  # ... but the tree builder counts 251 nested operators
    ("a" + ".b" * 250, None),
    ("a" + ".b" * 251, _TREE),
    ("a" + "[0]" * 251, _TREE),
    ("x" + " == x" * 251, _TREE),
    ("self.l.all(x, x in [1, {'k': [2]}]) && self.s == '((((' ? a.b[c] : -1.5e3 > 2u", None),
    ("'" + "(" * 300 + "'", None),  # brackets in a string literal do not nest
    (r"self.s.matches(r'\(') && b'((' != b''", None),
    ("x" * 100_000, None),
    ("x" * 100_001, "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000"),
    (_nested("(", "x +", ")", 100), None),  # not CEL: the engine reports the syntax error
    (_nested("(", "x +", ")", 300), _RECURSION),  # too deep before the syntax error is reached
])
def test_cel_gos_parser_limits(rule: str, error: str | None) -> None:
    assert parser_limit_error(rule) == error


def test_a_deep_rule_is_decided_fast_and_without_recursion_errors() -> None:
    assert parser_limit_error(_nested("(", "x", ")", 40_000)) == _RECURSION
    assert parser_limit_error(_nested("1 + (", "1", ")", 10_000)) == _RECURSION


def test_sized_schema_takes_the_values_sizes() -> None:
    from crdtool.cel.sized import sized_schema
    from crdtool.schema.structural.structural import new_structural

    schema = new_structural({"type": "object", "properties": {
        "l": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}}}})
    sized = sized_schema(schema, [{"l": ["ab", "abcd"], "m": {"k": "xyz"}}, {"l": ["a"]}])
    assert sized.properties["l"].value_validation.max_items == 2
    assert sized.properties["l"].items.value_validation.max_length == 4
    assert sized.properties["m"].value_validation.max_properties == 1
    assert sized.properties["m"].additional_properties.value_validation.max_length == 3
    assert schema.properties["l"].value_validation.max_items == 100  # the schema itself is left as it was


def _list_rules(max_length: int | None) -> object:
    from crdtool.schema.structural.structural import new_structural

    item = {"type": "string", "x-kubernetes-validations": [{"rule": "self.matches('^a+b$')"}]}
    if max_length is not None:
        item["maxLength"] = max_length
    return new_structural({"type": "object", "properties": {"l": {"type": "array", "items": item}}})


def test_cheap_objects_stay_within_the_per_object_budget_unnoted() -> None:
    from crdtool.cel.evaluate import validate
    from crdtool.model.notes import Note
    from crdtool.model.path import Path

    # Unbounded strings: the static estimates of 300 runs exceed the budget, their sizes here do not.
    errs, warnings = validate(_list_rules(None), False, {"l": ["ab"] * 300}, None, Path.root("spec"), False)
    assert errs == [] and not [w for w in warnings if isinstance(w, Note)]


def test_objects_whose_rules_may_exceed_the_per_object_budget_are_noted() -> None:
    from crdtool.cel.evaluate import validate
    from crdtool.model.notes import Note
    from crdtool.model.path import Path

    long = "a" * 20_000 + "b"
    errs, warnings = validate(_list_rules(None), False, {"l": [long] * 800}, None, Path.root("spec"), False)
    notes = [w for w in warnings if isinstance(w, Note)]
    assert errs == []
    assert len(notes) == 1 and str(notes[0].path) == "spec"
    assert "exceeds the apiserver's runtime budget of 10,000,000 per object" in notes[0].message
