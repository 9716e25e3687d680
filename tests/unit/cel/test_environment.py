"""The checking environments: one per rule-bearing node, whatever its number of rules."""

from __future__ import annotations

from cel_expr_python import cel

from crdtool.cel import environment
from crdtool.cel.compiler import compile_node
from crdtool.schema.structural.structural import new_structural


def test_a_nodes_rules_share_its_checking_environments(monkeypatch) -> None:
    """Making an environment reads every field of the node's types, and so does its first compile: one
    per rule made a node with thousands of fields and rules quadratic (minutes for 5,000 rules)."""
    made: list[object] = []
    original = cel.NewEnv

    def counted(*args, **kwargs):
        made.append(kwargs.get("variables"))
        return original(*args, **kwargs)

    monkeypatch.setattr(environment.cel, "NewEnv", counted)
    fields = {f"f{i}": {"type": "string", "maxLength": 10} for i in range(60)}
    rules = [{"rule": f"!has(self.f{i}) || self.f{i}.size() > 1"} for i in range(60)]
    rules += [{"rule": "self.f0 == oldSelf.f0"}, {"rule": "self.nosuch > 1"},
              {"rule": "oldSelf.hasValue()", "optionalOldSelf": True}]
    node = compile_node(new_structural({"type": "object", "properties": fields, "x-kubernetes-validations": rules}),
                        False)
    assert [r.compilation.error_detail for r in node.rules[:61]] == [""] * 61
    assert node.rules[61].compilation.error_detail.startswith("compilation failed: ERROR: <input>:1:5: undefined field")
    assert not node.rules[62].compilation.error_detail and node.rules[62].compilation.uses_old_self
    assert sorted(sorted(v) for v in made) == [["oldSelf", "self"], ["self"]]
