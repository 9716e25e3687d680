"""Objects with very many properties, or very long property names: the apiserver declares their CEL
types without limit; crdtool checks their rules the same, and says so where its engine cannot."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from widgets import widget_crd

from crdtool.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args])


def _crd(properties: dict, rules: list[str]) -> str:
    return json.dumps(widget_crd({"type": "object", "x-kubernetes-validations": [{"rule": r} for r in rules],
                                  "properties": properties}), indent=1)


def _strings(count: int, suffix: str = "") -> dict:
    return {f"p{i}{suffix}": {"type": "string"} for i in range(count)}


def _widget(spec: dict) -> str:
    return json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec})


def _errors(output: str) -> list[str]:
    """The findings' texts, without the file position and snippet (which differ with the CRD's size)."""
    return [line.split(": error: ", 1)[1] for line in output.splitlines() if ": error: " in line]


RULES = ["self.p1 + 1 > 0", "self.nope == 'a'", "!has(self.p3) || self.p3 != 'bad'"]


def test_a_wide_object_s_rules_are_checked_as_a_narrow_one_s(tmp_path: Path) -> None:
    # 5,000 string properties are past what one protobuf message lays out (65535 bytes)
    wide, narrow = tmp_path / "wide.json", tmp_path / "narrow.json"
    wide.write_text(_crd(_strings(5000), RULES))
    narrow.write_text(_crd(_strings(5), RULES))
    linted, expected = run("lint", str(wide)), run("lint", str(narrow))
    assert "internal error" not in linted.output
    assert linted.exit_code == expected.exit_code == 1
    assert len(_errors(expected.output)) == 2  # the type error and the undefined field
    assert _errors(linted.output) == _errors(expected.output)


def test_seventy_thousand_properties_are_linted_and_validated(tmp_path: Path) -> None:
    # past the 65535 fields a protobuf message can have
    crd, bad, good = tmp_path / "crd.json", tmp_path / "bad.json", tmp_path / "good.json"
    crd.write_text(_crd(_strings(70_000), ["!has(self.p69999) || self.p69999 != 'bad'"]))
    bad.write_text(_widget({"p69999": "bad", "p0": "x"}))
    good.write_text(_widget({"p69999": "good", "p0": "x"}))
    linted = run("lint", str(crd))
    assert linted.exit_code == 0, linted.output
    assert "note:" not in linted.output
    refused = run("validate", "-c", str(crd), str(bad))
    assert refused.exit_code == 1
    assert "spec: Invalid value: failed rule: !has(self.p69999) || self.p69999 != 'bad'" in refused.output
    assert run("validate", "-c", str(crd), str(good)).exit_code == 0


def test_a_very_long_property_name_does_not_hide_the_object_s_type(tmp_path: Path) -> None:
    # protobuf's descriptors refuse a field name of 30,000 characters; the rules do not name it
    crd = tmp_path / "crd.json"
    properties = {**_strings(5), "x" * 30_000: {"type": "string"}}
    crd.write_text(_crd(properties, RULES))
    narrow = tmp_path / "narrow.json"
    narrow.write_text(_crd(_strings(5), RULES))
    linted, expected = run("lint", str(crd)), run("lint", str(narrow))
    assert linted.exit_code == 1
    assert _errors(linted.output) == _errors(expected.output)


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_a_rule_naming_a_property_too_long_for_the_engine_is_noted_not_refused(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.yaml", tmp_path / "cr.json"
    long_name = "y" * 30_000
    crd_object = json.loads(_crd({long_name: {"type": "string"}, "s": {"type": "string"}}, [f"!has(self.{long_name})"]))
    text = yaml.safe_dump(crd_object, width=100_000)  # YAML: a long key is an explicit one (`? key`)
    crd.write_text(text)
    cr.write_text(_widget({"s": "x"}))
    linted = run("lint", str(crd))
    assert linted.exit_code == 0, linted.output
    line = _line_of(text, "- rule: ")
    assert (f"{crd}:{line}:") in linted.output
    assert ("note: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: not checked: "
            "the CEL engine crdtool uses declares a rule's object types as protobuf messages, and protobuf cannot "
            "declare this one (a property name longer than") in linted.output
    validated = run("validate", "-c", str(crd), str(cr))
    assert validated.exit_code == 0, validated.output
    assert "x-kubernetes-validations[0].rule: not checked" in validated.output


def test_a_rule_naming_more_list_properties_than_a_message_holds_is_noted(tmp_path: Path) -> None:
    # 9,000 list fields take more than the 65535 bytes of a message's layout, and lists cannot share storage
    crd = tmp_path / "crd.json"
    properties = {f"a{i}": {"type": "array", "items": {"type": "string"}} for i in range(9000)}
    rule = "size([" + ",".join(f"self.a{i}" for i in range(9000)) + "]) > 0"
    crd.write_text(_crd(properties, [rule]))
    linted = run("lint", str(crd))
    assert linted.exit_code == 0, linted.output
    assert "x-kubernetes-validations[0].rule: not checked: " in linted.output
    assert "(Message size exceeded maximum size of 65535 bytes)" in linted.output


POLICY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: wide-typo
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["widgets"]
  validations:
  - expression: "object.spec.nope == 'x'"
"""


def test_a_policy_is_type_checked_against_a_wide_kind_or_says_why_not(tmp_path: Path) -> None:
    policy, wide, wider = tmp_path / "policy.yaml", tmp_path / "wide.json", tmp_path / "wider.json"
    policy.write_text(POLICY)
    wide.write_text(_crd(_strings(5000), ["true"]))
    linted = run("lint", str(policy), str(wide))
    assert linted.exit_code == 0, linted.output
    assert "example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'nope'" in linted.output
    wider.write_text(_crd(_strings(70_000), ["true"]))
    linted = run("lint", str(policy), str(wider))
    assert linted.exit_code == 0, linted.output
    assert "internal error" not in linted.output
    assert (f"{policy}:6:3: note: spec.matchConstraints: not type-checked against example.com/v1, Kind=Widget: "
            "the CEL engine crdtool uses declares object types as protobuf messages, and protobuf cannot declare "
            "this one (Fields in message exceed the limit of 65535)") in linted.output
