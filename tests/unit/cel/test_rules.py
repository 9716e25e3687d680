"""Rules compiled and evaluated as the apiserver does: compile errors, results, messages, oldSelf, ratcheting."""

from __future__ import annotations

from crdtool.cel.compiler import compile_node
from crdtool.cel.evaluate import validate
from crdtool.model.path import Path
from crdtool.schema.structural.structural import new_structural


def _node(rules: list[dict], properties: dict | None = None, **extra):
    schema = {"type": "object", "x-kubernetes-validations": rules, "properties": properties or {
        "replicas": {"type": "integer"}, "name": {"type": "string"}, "ratio": {"type": "number"},
        "items": {"type": "array", "items": {"type": "string"}}}, **extra}
    return new_structural(schema)


def _details(schema, obj, old=None, ratcheting=False):
    errs, warnings = validate(schema, False, obj, old, Path.root("spec"), ratcheting)
    return [str(e) for e in errs], warnings


def test_compile_errors_read_as_cel_go() -> None:
    node = compile_node(_node([
        {"rule": "self.nonExistingField > 0"}, {"rule": "self.replicas == true"}, {"rule": "has(self)"},
        {"rule": "self.replicas"}, {"rule": "self.name.startsWith(1)"}, {"rule": "foo.bar > 1"},
        {"rule": "self.replicas > 1", "messageExpression": "self.replicas"},
    ]), False)
    details = [r.compilation.error_detail or r.compilation.message_expression_error for r in node.rules]
    assert details == [
        "compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n"
        " | self.nonExistingField > 0\n | ....^",
        "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, bool)'\n"
        " | self.replicas == true\n | ..............^",
        "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^",
        "cel expression must evaluate to a bool",
        "compilation failed: ERROR: <input>:1:21: found no matching overload for 'startsWith' applied to "
        "'string.(int)'\n | self.name.startsWith(1)\n | ....................^",
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n"
        " | foo.bar > 1\n | ^",
        "messageExpression must evaluate to a string",
    ]


def test_errors_on_an_operand_already_in_error_are_not_reported() -> None:
    # cel-go's checker reads an operand of error type as dyn (checkSelect, checkComprehension): only the
    # undefined field is reported, not the selections and the comprehension over it
    node = compile_node(_node([{"rule": "self.nope.items.all(i, i.x > 0)"}]), False)
    assert node.rules[0].compilation.error_detail == (
        "compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope.items.all(i, i.x > 0)\n | ....^")


def test_transition_rules_are_recognised() -> None:
    node = compile_node(_node([{"rule": "self.replicas >= oldSelf.replicas"}, {"rule": "self.replicas > 0"},
                               {"rule": "oldSelf.hasValue()", "optionalOldSelf": True}]), False)
    assert [r.compilation.uses_old_self for r in node.rules] == [True, False, True]


def test_a_rule_reads_old_self_as_the_apiserver_finds_it() -> None:
    # The apiserver's UsesOldSelf is a checked reference named oldSelf: read inside macros it counts, and so
    # does a macro's own variable named oldSelf once read (cel-go's checker references it like any identifier);
    # named in a string, as a field, as an unread macro variable, or only as optionalOldSelf's binding, it does not.
    rules = [{"rule": "self.items.all(i, oldSelf.items.exists(j, j == i))"},
             {"rule": "self.items.map(x, x).size() >= oldSelf.items.size()"},
             {"rule": "self.name != 'oldSelf'"}, {"rule": "!has(self.oldSelf)"},
             {"rule": "self.items.all(i, oldSelf.hasValue())", "optionalOldSelf": True},
             {"rule": "self.replicas > 0", "optionalOldSelf": True},
             {"rule": "self.items.all(oldSelf, oldSelf != '')"}, {"rule": "self.items.all(oldSelf, true)"}]
    node = compile_node(_node(rules, {"items": {"type": "array", "items": {"type": "string"}},
                                      "name": {"type": "string"}, "replicas": {"type": "integer"},
                                      "oldSelf": {"type": "string"}}), False)
    assert [r.compilation.error_detail for r in node.rules] == [""] * 8
    assert [r.compilation.uses_old_self for r in node.rules] == [True, True, False, False, True, False, True, False]


def test_failed_rules_and_messages() -> None:
    schema = _node([
        {"rule": "self.replicas <= 10"},
        {"rule": "self.name.startsWith('a')", "message": "name must start with a"},
        {"rule": "self.replicas < 5", "messageExpression": "'replicas is ' + string(self.replicas)"},
        {"rule": "self.ratio < 1.0", "fieldPath": ".ratio", "reason": "FieldValueForbidden"},
    ])
    errs, _ = _details(schema, {"replicas": 20, "name": "b", "ratio": 2})
    assert errs == [
        "spec: Invalid value: failed rule: self.replicas <= 10",
        "spec: Invalid value: name must start with a",
        "spec: Invalid value: replicas is 20",
        "spec.ratio: Forbidden: failed rule: self.ratio < 1.0",
    ]


def test_runtime_errors() -> None:
    schema = _node([{"rule": "self.replicas > 1"}, {"rule": "self.items[3] == 'x'"},
                    {"rule": "10 / self.replicas > 1"}])
    errs, _ = _details(schema, {"items": ["a"], "replicas": 0})
    assert errs == [
        "spec: Invalid value: failed rule: self.replicas > 1",
        'spec: Invalid value: "object": index out of bounds: 3 evaluating rule: self.items[3] == \'x\'',
        'spec: Invalid value: "object": division by zero evaluating rule: 10 / self.replicas > 1',
    ]
    errs, _ = _details(schema, {"items": ["a"]})
    assert errs[0] == 'spec: Invalid value: "object": no such key: replicas evaluating rule: self.replicas > 1'


def test_scalar_values_are_shown() -> None:
    schema = new_structural({"type": "object", "properties": {
        "v": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 10"}]}}})
    errs, _ = _details(schema, {"v": 20})
    assert errs == ["spec.v: Invalid value: 20: failed rule: self < 10"]


def test_transition_rules_run_only_with_an_old_value() -> None:
    schema = _node([{"rule": "self.replicas >= oldSelf.replicas", "message": "may not shrink"}])
    assert _details(schema, {"replicas": 1}) == ([], [])
    assert _details(schema, {"replicas": 1}, {"replicas": 2})[0] == ["spec: Invalid value: may not shrink"]


def test_optional_old_self() -> None:
    schema = _node([{"rule": "!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas",
                     "optionalOldSelf": True, "message": "may not shrink"}])
    assert _details(schema, {"replicas": 1}) == ([], [])
    assert _details(schema, {"replicas": 1}, {"replicas": 2})[0] == ["spec: Invalid value: may not shrink"]


def test_unchanged_values_are_ratcheted() -> None:
    schema = new_structural({"type": "object", "properties": {
        "a": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 10"}]},
        "b": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 10"}]}}})
    errs, warnings = _details(schema, {"a": 20, "b": 30}, {"a": 20, "b": 5}, ratcheting=True)
    assert errs == ["spec.b: Invalid value: 30: failed rule: self < 10"]
    assert warnings == ["spec.a: Invalid value: 20: failed rule: self < 10"]


def test_nodes_of_one_type_share_its_messages_each_under_its_own_type_name(monkeypatch) -> None:
    # The apiserver names the type of each rule-bearing node anew (selfType<N>, counting nodes): nodes of
    # the same type with other rules share the messages made for the first, renamed.
    import re

    from crdtool.cel import protos

    made = []
    build = protos.build_schema_types
    monkeypatch.setattr(protos, "build_schema_types", lambda *args: made.append(args) or build(*args))
    props = {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}
    numbers = []
    for value in ("'one'", "'two'", "'three'"):
        node = compile_node(_node([{"rule": f"self.spec == {value}"}], props), False)
        detail = node.rules[0].compilation.error_detail
        assert "found no matching overload for '_==_' applied to '(selfType" in detail
        numbers.append(int(re.search(r"selfType(\d+)\.spec, string", detail).group(1)))
    assert numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2]
    assert len(made) <= 1  # (none when an earlier test made them)


def test_a_wide_type_narrowed_to_some_fields_is_not_shared_with_rules_naming_others() -> None:
    props = {f"f{i}": {"type": "integer"} for i in range(1100)}
    for i in (1, 2):
        node = compile_node(_node([{"rule": f"self.f{i} > 0"}], props), False)
        assert node.rules[0].compilation.error_detail == ""


def test_a_global_library_function_called_as_a_member_is_cel_gos_no_matching_overload() -> None:
    """sign(), isQuantity(), url() ... have no member overload: cel-go names the receiver's and the
    arguments' types; a name the library does not declare stays an undeclared reference."""
    rules = [{"rule": "quantity(self.name).add(quantity('1')).sign() == 1"}, {"rule": "self.name.isQuantity()"},
             {"rule": "self.name.quantity('x') == quantity('1')"}, {"rule": "self.name.nosuch()"}]
    node = compile_node(_node(rules), False)
    assert [r.compilation.error_detail.split("\n")[0] for r in node.rules] == [
        "compilation failed: ERROR: <input>:1:44: found no matching overload for 'sign' applied to "
        "'kubernetes.Quantity.()'",
        "compilation failed: ERROR: <input>:1:21: found no matching overload for 'isQuantity' applied to 'string.()'",
        "compilation failed: ERROR: <input>:1:19: found no matching overload for 'quantity' applied to "
        "'string.(string)'",
        "compilation failed: ERROR: <input>:1:17: undeclared reference to 'nosuch' (in container '')"]
