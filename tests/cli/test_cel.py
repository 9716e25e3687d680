"""CEL rules end to end: `crdtool validate` evaluates them, `crdtool lint --costs` weighs them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from widgets import widget_crd

from crdtool.cli import cli

CEL = Path(__file__).resolve().parents[2] / "fixtures" / "crontab-cel"
CRD, VALID, INVALID = str(CEL / "crd.yaml"), str(CEL / "valid.yaml"), str(CEL / "invalid.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args] if args[0] != "--format" else list(args))


def _crd(rule: str, properties: dict) -> str:
    return json.dumps(widget_crd({"type": "object", "x-kubernetes-validations": [{"rule": rule}],
                                  "properties": properties}))


def test_rules_are_evaluated_with_messages_at_their_lines() -> None:
    res = run("validate", "-c", CRD, INVALID)
    assert res.exit_code == 1
    assert f"{INVALID}:5:1: error: spec: Invalid value: replicas must be between 1 and 5" in res.output
    assert f'{INVALID}:12:7: error: spec.hosts[1]: Invalid value: "10.0.0.1": hosts must be names, not IP ' \
           "addresses" in res.output
    assert "image is immutable" not in res.output  # a transition rule needs the stored object


def test_transition_rules_on_update() -> None:
    res = run("validate", "-c", CRD, "--old", VALID, INVALID)
    assert res.exit_code == 1
    assert "spec: Invalid value: image is immutable" in res.output
    assert run("validate", "-c", CRD, "--old", VALID, VALID).exit_code == 0


def test_valid_object_passes_its_rules() -> None:
    res = run("validate", "-c", CRD, VALID)
    assert res.exit_code == 0, res.output


def test_costs_table_and_json() -> None:
    res = run("lint", "--costs", CRD)
    assert res.exit_code == 0
    assert "4 CEL expressions (budgets: 10,000,000 per rule, 100,000,000 per CRD)" in res.output
    assert "spec.validation.openAPIV3Schema.properties[spec].properties[hosts].items.x-kubernetes-validations[0]" \
           ".rule" in res.output
    data = json.loads(run("--format", "json", "lint", "--costs", CRD).output)
    costs = {c["field"]: c for c in data["results"][0]["ruleCosts"]}
    hosts = costs["spec.validation.openAPIV3Schema.properties[spec].properties[hosts].items"
                  ".x-kubernetes-validations[0].rule"]
    # isIP over a string of at most 253 characters (1,012 bytes): 102 plus the call and `!`; 16 items.
    assert (hosts["maxCost"], hosts["maxCardinality"], hosts["expressionCost"]) == (104, 16, 1664)
    assert hosts["largestSizePath"] == "self"  # the 253-character host itself


def test_an_unbounded_nested_rule_is_rejected_quickly(tmp_path: Path) -> None:
    crd = tmp_path / "crd.json"
    crd.write_text(_crd("self.l.all(x, self.l.all(y, x != y))", {"l": {"type": "array", "items": {"type": "string"}}}))
    start = time.perf_counter()
    res = run("lint", str(crd))
    assert time.perf_counter() - start < 5  # exponential backtracking or cost walking would take minutes
    assert res.exit_code == 1
    assert "Forbidden: estimated rule cost exceeds budget by factor of more than 100x" in res.output


def test_a_catastrophic_regex_is_linear(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("self.s.matches('^(a+)+$')", {"s": {"type": "string", "maxLength": 200000}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "a" * 100_000 + "b"}}))
    start = time.perf_counter()
    res = run("validate", "-c", str(crd), str(cr))
    assert time.perf_counter() - start < 5  # exponential backtracking or cost walking would take minutes
    assert res.exit_code == 1
    assert "spec: Invalid value: failed rule: self.s.matches('^(a+)+$')" in res.output


def test_compile_errors_read_as_the_apiservers(tmp_path: Path) -> None:
    crd = tmp_path / "crd.json"
    crd.write_text(_crd("self.replicas == true", {"replicas": {"type": "integer"}}))
    res = run("lint", str(crd))
    assert res.exit_code == 1
    assert ("compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to "
            "'(int, bool)'") in res.output


def test_timestamp_literals_are_checked_as_cel_go_converts_them(tmp_path: Path) -> None:
    """time.Parse(time.RFC3339) takes a one-digit hour and a comma fraction; the moment must be in years 1-9999."""
    crd = tmp_path / "crd.json"
    for literal, refused in (("2020-01-01T1:00:00,5Z", False), ("0001-01-01T00:00:00+01:00", True),
                             ("2020-01-01T10:00:00+25:00", True)):
        crd.write_text(_crd(f"self.a < timestamp('{literal}')", {"a": {"type": "string", "format": "date-time"}}))
        res = run("lint", str(crd))
        assert res.exit_code == int(refused), (literal, res.output)
        assert ("compilation failed: ERROR: <input>:1:20: invalid timestamp argument" in res.output) is refused


def test_a_runaway_rule_stops_with_the_apiservers_error(tmp_path: Path) -> None:
    """A CRD refused for its rules' cost still validates (as a stored CRD would); the rule stops."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("self.l.all(x, self.l.all(y, x != y || true))",
                        {"l": {"type": "array", "items": {"type": "string"}}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"l": [str(i) for i in range(3000)]}}))
    start = time.perf_counter()
    res = run("validate", "-c", str(crd), str(cr))
    # stopped once its loops certainly cost past the limit (about a second), not run to their 9,000,000 iterations
    assert time.perf_counter() - start < 10
    assert res.exit_code == 1
    assert "estimated rule cost exceeds budget" in res.output  # the CRD's own finding is shown
    assert ("spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further "
            "validation rules will be run due to call cost exceeds limit for rule: "
            "self.l.all(x, self.l.all(y, x != y || true))") in res.output


@pytest.mark.parametrize(("items", "cancelled"), [(500, False), (600, True)])
def test_a_rule_past_its_call_limit_is_cancelled_only_when_certainly_so(tmp_path: Path, items: int,
                                                                        cancelled: bool) -> None:
    """Each pair of items certainly costs 3 in cel-go's units: 600 items pass the per-call limit of 1,000,000
    for certain; 500 (750,000 certain, more than 1,000,000 in the worst case) may or may not: a note, and the
    rule's own outcome. (Only a CRD the apiserver refuses for its estimated cost can meet this, as a stored one.)"""
    rule = "self.l.all(a, self.l.exists_one(b, a == b))"
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd(rule, {"l": {"type": "array", "items": {"type": "string"}}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"l": [str(i) for i in range(items)]}}))
    res = run("validate", "-c", str(crd), str(cr))
    cancellation = ("'operation cancelled: actual cost limit exceeded': no further validation rules will be run "
                    f"due to call cost exceeds limit for rule: {rule}")
    unknown = f"not checked: the rule '{rule}' ran past 10,000 iterations on this value"
    assert (cancellation in res.output) is cancelled, res.output
    assert (unknown in " ".join(res.output.split())) is not cancelled, res.output
    assert "estimated rule cost exceeds budget" in res.output
    assert ("1 of 1 object would be rejected" in res.output) is cancelled


@pytest.mark.parametrize("rule", ["self.m.transformMap(k, v, v + k).size() == 1",
                                  "self.m.transformMapEntry(k, v, {v: k}).size() == 0",
                                  "self.m.all(k, v, v != k) && self.m.transformMap(k, v, k == 'a', v).size() == 9"])
def test_a_rule_the_engine_cannot_evaluate_is_noted_never_an_error(tmp_path: Path, rule: str) -> None:
    """transformMap and transformMapEntry expand to cel.@mapInsert, which the CEL engine checks but cannot run:
    the apiserver evaluates the rule, so crdtool says it did not, and does not refuse the object for it."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd(rule, {"m": {"type": "object", "maxProperties": 4,
                                     "additionalProperties": {"type": "string", "maxLength": 8}}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"m": {"a": "b"}}}))
    res = run("validate", "-c", str(crd), str(cr))
    assert res.exit_code == 0, res.output
    assert (f"note: spec: not checked: the rule '{rule}' calls transformMap() or transformMapEntry(), which "
            "crdtool's CEL engine cannot evaluate (cel.@mapInsert is not implemented at run time); the apiserver "
            "evaluates it") in " ".join(res.output.split())
    assert "error" not in res.output
    result = json.loads(run("--format", "json", "validate", "-c", str(crd), str(cr)).output)["results"][0]
    assert result["valid"] is True and result["errors"] == [] and len(result["notes"]) == 1

def test_a_message_expression_the_engine_cannot_evaluate_is_noted_beside_the_rules_message(tmp_path: Path) -> None:
    expression = "'keys: ' + self.m.transformMap(k, v, v).map(k, k).join(', ')"
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(json.dumps(widget_crd({
        "type": "object", "x-kubernetes-validations": [{"rule": "self.m.size() < 1", "messageExpression": expression}],
        "properties": {"m": {"type": "object", "maxProperties": 4,
                             "additionalProperties": {"type": "string", "maxLength": 8}}}})))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"m": {"a": "b"}}}))
    res = run("validate", "-c", str(crd), str(cr))
    assert res.exit_code == 1, res.output
    text = " ".join(res.output.split())
    assert "error: spec: Invalid value: failed rule: self.m.size() < 1" in text
    assert (f"note: spec: the messageExpression '{expression}' calls transformMap() or transformMapEntry(), which "
            "crdtool's CEL engine cannot evaluate (cel.@mapInsert is not implemented at run time): the apiserver's "
            "message is that expression's, not the rule's message shown here") in text

def test_a_policy_expression_the_engine_cannot_evaluate_is_noted_never_a_denial(tmp_path: Path) -> None:
    expression = "object.data.transformMap(k, v, v + k).size() == 0"
    inputs = tmp_path / "in.yaml"
    inputs.write_text(f"""apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: data}}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}}
  validations:
  - expression: "{expression}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {{name: data}}
spec: {{policyName: data, validationActions: [Deny]}}
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: c, namespace: default}}
data: {{a: b}}
""")
    res = run("validate", str(inputs))
    assert res.exit_code == 0, res.output
    assert (f"note: not checked: ValidatingAdmissionPolicy 'data' with binding 'data': validation '{expression}' "
            "calls transformMap() or transformMapEntry(), which crdtool's CEL engine cannot evaluate "
            "(cel.@mapInsert is not implemented at run time)") in " ".join(res.output.split())
    assert "3 objects would be accepted" in res.output

def test_a_rule_that_does_not_compile_is_reported_on_objects(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("math.abs(self.v) == 1", {"v": {"type": "integer"}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"v": 1}}))
    res = run("validate", "-c", str(crd), str(cr))
    assert res.exit_code == 1
    assert ("spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:1: "
            "undeclared reference to 'math' (in container '')") in res.output


def test_deep_recursion_beyond_cel_gos_limit_is_the_apiservers_compile_error(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("(" * 5000 + "self.s == 'x'" + ")" * 5000, {"s": {"type": "string"}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    start = time.perf_counter()
    res = run("lint", "--format", "kubectl", str(crd))
    validated = run("validate", "--format", "kubectl", "-c", str(crd), str(cr))
    assert time.perf_counter() - start < 2
    assert res.exit_code == 1
    assert "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250" in res.output
    assert validated.exit_code == 1
    assert ('The Widget "w" is invalid: spec: Invalid value: "object": rule compile error: compilation failed: '
            "ERROR: <input>:-1:0: expression recursion limit exceeded: 250") in validated.output


def _with_rule(rule: dict, properties: dict) -> str:
    doc = json.loads(_crd("true", properties))
    doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] = [rule]
    return json.dumps(doc)


def test_a_rule_that_cannot_be_cut_into_pieces_is_noted_not_passed_silently(tmp_path: Path) -> None:
    # Every part nested deeper than the engine parses reads oldSelf, an optional here: no piece can take it.
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    rule = "oldSelf.value().s + " + " + ".join(["'a'"] * 40) + " == 'x'"
    crd.write_text(_with_rule({"rule": rule, "optionalOldSelf": True}, {"s": {"type": "string"}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    res = run("lint", str(crd))
    assert res.exit_code == 0
    assert "x-kubernetes-validations[0].rule: not checked: the rule nests deeper than" in res.output
    notes = json.loads(run("--format", "json", "lint", str(crd)).output)["results"][0]["notes"]
    assert [n["field"] for n in notes] == ["spec.validation.openAPIV3Schema.properties[spec]"
                                           ".x-kubernetes-validations[0].rule"]
    validated = run("validate", "-c", str(crd), str(cr))
    assert "note: " in validated.output and "properties[spec].x-kubernetes-validations[0].rule: not checked" in \
        validated.output


_ENUM = [f"v{i}" for i in range(40)]


def _deep_crd(rule: str, message_expression: str) -> str:
    properties = {"s": {"type": "string", "maxLength": 8}, "size": {"type": "string", "enum": _ENUM}}
    return _with_rule({"rule": rule, "messageExpression": message_expression}, properties)


def test_rules_deeper_than_the_engine_parses_are_checked_and_evaluated(tmp_path: Path) -> None:
    """A 40-arm ternary over an enum and a 40-term messageExpression: the apiserver accepts the CRD and
    evaluates both; so does crdtool, in pieces its CEL engine parses."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    ternary = "(" + "".join(f"self.size == '{v}' ? {i} : " for i, v in enumerate(_ENUM)) + "-1) < 30"
    message = " + ".join(["self.s"] * 20 + ["'/'"] * 20)
    crd.write_text(_deep_crd(ternary, message))
    res = run("lint", str(crd))
    assert res.exit_code == 0, res.output
    assert "not checked" not in res.output
    for size, verdict in (("v3", 0), ("v29", 0), ("v30", 1), ("v39", 1)):
        cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                  "spec": {"s": "ab", "size": size}}))
        validated = run("validate", "--format", "kubectl", "-c", str(crd), str(cr))
        assert validated.exit_code == verdict, validated.output
        assert "note:" not in validated.output
        if verdict:
            assert f'The Widget "w" is invalid: spec: Invalid value: {"ab" * 20}{"/" * 20}\n' \
                in validated.output


def test_a_type_error_deep_inside_a_rule_is_cel_gos(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    rule = " + ".join(["self.s"] * 39) + " + 1 == 'x'"
    column = rule.index(" + 1 ") + 2
    crd.write_text(_deep_crd(rule, "'m'"))
    error = (f"compilation failed: ERROR: <input>:1:{column}: found no matching overload for '_+_' applied to "
             f"'(string, int)'\n | {rule}\n | {'.' * (column - 1)}^")
    res = run("lint", "--format", "kubectl", str(crd))
    assert res.exit_code == 1
    assert "x-kubernetes-validations[0].rule: Invalid value: " in res.output
    assert error in res.output
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    validated = run("validate", "--format", "kubectl", "-c", str(crd), str(cr))
    assert validated.exit_code == 1
    assert f'spec: Invalid value: "object": rule compile error: {error}' in validated.output


def test_a_deep_rule_over_unbounded_values_exceeds_the_cost_budget(tmp_path: Path) -> None:
    crd = tmp_path / "crd.json"
    rule = "self.l.all(x, self.l.exists(y, " + " + ".join(["x"] * 40) + " == y))"
    crd.write_text(_crd(rule, {"l": {"type": "array", "items": {"type": "string"}}}))
    res = run("lint", str(crd))
    assert res.exit_code == 1
    assert "Forbidden: estimated rule cost exceeds budget by factor of more than 100x" in res.output


@pytest.mark.parametrize(("rule", "items", "max_cost"), [
    # cel-go's lists extension (version 3) estimates: 1 for the call and 10 for the new list, plus a
    # factor times the length it reports; `self.l` costs 2, `.size()` and a comparison of ints 1 each
    ("self.l.slice(0, 1) == [1]", {"type": "integer"}, 2 + 12 + 10 + 1),  # a slice of 1; [1] 10; `==` of 1 item 1
    ("self.l.reverse().size() > 0", {"type": "integer"}, 2 + 21 + 1 + 1),  # as long as the list (10)
    ("self.l.distinct().size() == self.l.size()", {"type": "integer"}, 2 + 211 + 1 + 3 + 1),  # 2 × 10 × 10
    ("self.l.sort() == self.l", {"type": "string", "maxLength": 4}, 2 + 221 + 2 + 1),  # 2.1 × 10 × 10 for strings
    ("lists.range(5).size() == 5", {"type": "integer"}, 16 + 1 + 1),  # the literal's length
    ("[self.l, self.l].flatten(1).size() > 0", {"type": "integer"}, 14 + 13 + 1 + 1),  # the literal's 2 items
])
def test_list_building_functions_cost_what_cel_go_estimates(tmp_path: Path, rule: str, items: dict,
                                                            max_cost: int) -> None:
    crd = tmp_path / "crd.json"
    crd.write_text(_crd(rule, {"l": {"type": "array", "maxItems": 10, "items": items}}))
    data = json.loads(run("--format", "json", "lint", "--costs", str(crd)).output)
    assert [c["maxCost"] for c in data["results"][0]["ruleCosts"]] == [max_cost]


def test_distinct_over_a_long_list_exceeds_the_cost_budget(tmp_path: Path) -> None:
    """distinct() compares each pair: over 10,000 items, 2 × 10^8, twenty times the budget of a rule."""
    crd = tmp_path / "crd.json"
    crd.write_text(_crd("self.l.distinct().size() == self.l.size()",
                        {"l": {"type": "array", "maxItems": 10_000, "items": {"type": "integer"}}}))
    res = run("lint", str(crd))
    assert res.exit_code == 1
    assert "Forbidden: estimated rule cost exceeds budget by factor of 20.0x" in res.output


def test_rules_beyond_the_engines_iteration_cap_are_evaluated(tmp_path: Path) -> None:
    """100,000 iterations: over the CEL engine's cap of 10,000, within the apiserver's runtime cost limit."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("self.l.all(x, x != 'zz')", {"l": {"type": "array", "maxItems": 100_000,
                                                          "items": {"type": "string", "maxLength": 2}}}))
    for items, verdict in ((["a"] * 100_000, 0), (["a"] * 99_999 + ["zz"], 1)):
        cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                  "spec": {"l": items}}))
        res = run("validate", "-c", str(crd), str(cr))
        assert res.exit_code == verdict, res.output
        assert "note:" not in res.output
        if verdict:
            assert "spec: Invalid value: failed rule: self.l.all(x, x != 'zz')" in res.output


def test_loops_past_the_cap_keep_cels_error_semantics(tmp_path: Path) -> None:
    """An error in one iteration is absorbed when a later element decides `all`, and surfaces otherwise;
    `filter` and `map` past the cap keep their elements in order."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    schema = {"l": {"type": "array", "maxItems": 30_000, "items": {"type": "integer"}}}

    def verdict(rule: str, items: list) -> str:
        crd.write_text(_crd(rule, schema))
        cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                  "spec": {"l": items}}))
        res = run("validate", "-c", str(crd), str(cr))
        assert res.exit_code in (0, 1), res.output
        return "accepted" if res.exit_code == 0 else res.output.split("error: ", 1)[1].split("\n", 1)[0]

    all_rule = "self.l.all(x, 10 / x > 0 && x != 7)"
    assert verdict(all_rule, [1] * 20_000 + [0, 7]) == f"spec: Invalid value: failed rule: {all_rule}"
    assert verdict(all_rule, [1] * 20_000 + [0, 1]) == (
        f"spec: Invalid value: \"object\": division by zero evaluating rule: {all_rule}")
    assert verdict(all_rule, [1] * 20_000) == "accepted"
    filtered = "self.l.filter(x, x % 2 == 1).map(x, x * 10)[5000] == 100010"
    assert verdict(filtered, list(range(10_500))) == "accepted"
    assert verdict(filtered, list(range(2, 10_502))) == f"spec: Invalid value: failed rule: {filtered}"


def test_a_message_expression_past_the_cap_gives_its_message(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    doc = json.loads(_crd("self.l.all(x, x != 7)", {"l": {"type": "array", "maxItems": 30_000,
                                                          "items": {"type": "integer"}}}))
    rules = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"]
    rules[0].update(message="has a seven",
                    messageExpression="string(self.l.filter(x, x == 7).size()) + ' sevens'")
    crd.write_text(json.dumps(doc))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"l": [1] * 20_000 + [7, 7]}}))
    res = run("validate", "-c", str(crd), str(cr))
    assert res.exit_code == 1
    assert 'spec: Invalid value: 2 sevens' in res.output, res.output


def test_uints_stay_uints_past_the_cap(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    schema = {"l": {"type": "array", "maxItems": 30_000, "items": {"type": "integer"}}}
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"l": list(range(12_000))}}))
    for rule, verdict in (("type(self.l.map(x, uint(x))[0]) == uint", 0),
                          ("self.l.map(x, uint(x)).all(y, type(y) == uint)", 0),
                          ("self.l.map(x, uint(x)).all(y, type(y) == int)", 1),
                          ("self.l.map(x, uint(x)).filter(y, y >= 11990u).map(y, y + 1u)[9] == 12000u", 0)):
        crd.write_text(_crd(rule, schema))
        res = run("validate", "-c", str(crd), str(cr))
        assert res.exit_code == verdict, (rule, res.output)
        assert "note:" not in res.output


def test_cel_gos_limits_decide_deep_rules(tmp_path: Path) -> None:
    """A chain of 251 selections is deeper than cel-go's tree builder goes; 125 levels of `1 + (...)`
    are deeper than its parser goes (two calc levels each); both refuse the CRD and every object."""
    cr = tmp_path / "cr.json"
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    cases = [("self.s.size() == 0 || " + "1 + (" * 125 + "1" + ")" * 125 + " > 0",
              "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"),
             ("self.s.size() == 0 || " + " + ".join(["1"] * 252) + " > 0",
              "ERROR: <input>:-1:0: max recursion depth exceeded")]
    for i, (rule, error) in enumerate(cases):
        crd = tmp_path / f"crd{i}.json"
        crd.write_text(_crd(rule, {"s": {"type": "string"}}))
        res = run("lint", "--format", "kubectl", str(crd))
        assert res.exit_code == 1
        assert "x-kubernetes-validations[0].rule: Invalid value: " in res.output
        assert f"compilation failed: {error}" in res.output
        validated = run("validate", "--format", "kubectl", "-c", str(crd), str(cr))
        assert validated.exit_code == 1
        assert ('The Widget "w" is invalid: spec: Invalid value: "object": rule compile error: '
                f"compilation failed: {error}") in validated.output


def test_a_deep_rule_within_cel_gos_limits_is_not_refused(tmp_path: Path) -> None:
    # 200 parentheses: cel-go parses it (the apiserver accepts the CRD); crdtool checks it in pieces.
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("(" * 200 + "self.s == 'x'" + ")" * 200, {"s": {"type": "string"}}))
    res = run("lint", str(crd))
    assert res.exit_code == 0, res.output
    assert "not checked" not in res.output
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    validated = run("validate", "-c", str(crd), str(cr))
    assert validated.exit_code == 1
    assert "failed rule: " + "(" * 200 in validated.output


def test_mixed_type_literals_are_cel_gos_type_errors(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd("[1, 'a'].size() > 0 && {'a': 1, 2: 'b'}.size() > 0 && '%s'.format([[1, 'a']]) != ''",
                        {"s": {"type": "string"}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "y"}}))
    errors = ("compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
              " | [1, 'a'].size() > 0 && {'a': 1, 2: 'b'}.size() > 0 && '%s'.format([[1, 'a']]) != ''\n"
              " | ....^\n"
              "ERROR: <input>:1:33: expected type 'string' but found 'int'\n"
              " | [1, 'a'].size() > 0 && {'a': 1, 2: 'b'}.size() > 0 && '%s'.format([[1, 'a']]) != ''\n"
              " | ................................^\n"
              "ERROR: <input>:1:36: expected type 'int' but found 'string'\n")
    res = run("lint", "--format", "kubectl", str(crd))
    assert res.exit_code == 1
    assert errors in res.output
    assert "1:65" not in res.output  # literals inside format() are exempt
    validated = run("validate", "--format", "kubectl", "-c", str(crd), str(cr))
    assert validated.exit_code == 1
    assert 'spec: Invalid value: "object": rule compile error: ' + errors in validated.output


def test_a_message_expression_that_cannot_be_cut_into_pieces_is_noted(tmp_path: Path) -> None:
    # 40 nested type() calls: a type value cannot pass between pieces, so no piece can be cut out.
    crd = tmp_path / "crd.json"
    doc = json.loads(_crd("self.s == 'x'", {"s": {"type": "string"}}))
    rule = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"][0]
    rule["messageExpression"] = "type(" * 40 + "self.s" + ")" * 40 + " == type ? 'a' : 'b'"
    crd.write_text(json.dumps(doc))
    res = run("lint", str(crd))
    assert res.exit_code == 0, res.output
    assert "x-kubernetes-validations[0].messageExpression: not checked: the messageExpression nests deeper" in \
        res.output
    assert "x-kubernetes-validations[0].rule: not checked" not in res.output


def test_message_expressions_count_in_the_crds_cost_total(tmp_path: Path) -> None:
    """Twelve cheap rules whose messageExpressions each cost about 9.4 million: the total exceeds 100
    million, and each messageExpression (not its rule) is named as a contributor."""
    crd = tmp_path / "crd.json"
    doc = json.loads(_crd("true", {"l": {"type": "array", "maxItems": 600,
                                         "items": {"type": "string", "maxLength": 10}}}))
    spec = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec["x-kubernetes-validations"] = [
        {"rule": "true", "messageExpression": "self.l.map(x, self.l.map(y, x + y).join(',')).join(',')"}] * 12
    crd.write_text(json.dumps(doc))
    res = run("lint", str(crd))
    assert res.exit_code == 1
    contributors = [line.split(": error: ", 1)[1] for line in res.output.splitlines()
                    if "contributed" in line and ": error: " in line]
    path = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations"
    assert contributors == [f"{path}[{i}].messageExpression: Forbidden: contributed to estimated rule cost total "
                            "exceeding cost limit for entire OpenAPIv3 schema" for i in range(4)]
    assert ("spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for "
            "entire OpenAPIv3 schema exceeds budget by factor of 1.129617x") in res.output
