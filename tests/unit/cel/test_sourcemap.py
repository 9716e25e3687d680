"""Compile errors of rules whose format calls are compiled rewritten (cel.library.format): at the
positions of the rule as written and naming the functions written, as cel-go reports them."""

from __future__ import annotations

import pytest

from crdtool.cel.compiler import compile_node
from crdtool.cel.errors import CompileIssue
from crdtool.cel.sourcemap import SourceMap
from crdtool.schema.structural.structural import new_structural


def _error(rule: str) -> str:
    node = compile_node(new_structural({"type": "object", "x-kubernetes-validations": [{"rule": rule}],
                                        "properties": {"s": {"type": "string"}}}), False)
    return node.rules[0].compilation.error_detail


@pytest.mark.parametrize(("rule", "error"), [
    ("format.named(1).hasValue()", "ERROR: <input>:1:13: found no matching overload for 'format.named' applied to "
     "'(int)'\n | format.named(1).hasValue()\n | ............^"),
    ("format.dns1123Label().validate(1).hasValue()", "ERROR: <input>:1:31: found no matching overload for "
     "'validate' applied to 'kubernetes.NamedFormat.(int)'\n | format.dns1123Label().validate(1).hasValue()\n"
     " | ..............................^"),
    ("format.named('x').value().validate(self.nope).hasValue()", "ERROR: <input>:1:40: undefined field 'nope'\n"
     " | format.named('x').value().validate(self.nope).hasValue()\n | .......................................^"),
    ("format.dns1123Label().validate(self.s).hasValue() && self.s == 1", "ERROR: <input>:1:61: found no matching "
     "overload for '_==_' applied to '(string, int)'\n | format.dns1123Label().validate(self.s).hasValue() && "
     "self.s == 1\n | " + "." * 60 + "^"),
])
def test_errors_are_placed_and_named_as_the_rule_is_written(rule: str, error: str) -> None:
    assert _error(rule) == "compilation failed: " + error


def test_a_rewrite_maps_its_own_text_to_the_call_and_copies_to_their_origin() -> None:
    written = "f(ab)"
    rewritten = SourceMap.identity(written).replaced(0, 5, ["(__g(", (2, 4), ") + ", (2, 4), ")"], 1,
                                                     {"__g": "f"})
    assert rewritten.text == "(__g(ab) + ab)"
    issues = [CompileIssue(1, 5, "found no matching overload for '__g' applied to '(int)'"),
              CompileIssue(1, 6, "x"), CompileIssue(1, 12, "x")]  # the copies of `ab`: one error
    assert [(i.line, i.column, i.message) for i in rewritten.in_source(issues, written)] == [
        (1, 2, "found no matching overload for 'f' applied to '(int)'"), (1, 3, "x")]
