"""string.format through the CLI: clauses cel-go's validator refuses make the rule, the message expression
or the policy fail to compile (lint refuses them as the apiserver does); at run time the formatted
message, or the formatting error, is cel-go's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from files import write_file
from widgets import widget_crd

from crdtool.cli import cli

_PROPERTIES = {"d": {"type": "number"}, "i": {"type": "integer"}, "s": {"type": "string"},
               "t": {"type": "string", "format": "date-time"}, "l": {"type": "array", "items": {"type": "string"}},
               "m": {"type": "object", "additionalProperties": {"type": "integer"}},
               "o": {"type": "object", "properties": {"a": {"type": "string"}}}}
_STRING_CLAUSE = ("error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, "
                  "maps, lists, types, durations, and timestamps, was given ")


def run(*args: str):
    return CliRunner().invoke(cli, ["--no-color", *args])


def _crd_and_cr(tmp_path: Path, validation: dict, spec: dict | None = None) -> tuple[str, str]:
    """crd.json, the Widget CRD whose `spec` has the rule `validation`, and cr.json, a Widget of that `spec`."""
    crd = write_file(tmp_path, "crd.json", widget_crd({"type": "object", "properties": _PROPERTIES,
                                                       "x-kubernetes-validations": [validation]}))
    cr = write_file(tmp_path, "cr.json", {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                                          "spec": spec or {}})
    return crd, cr


@pytest.mark.parametrize(("field", "expression", "error"), [
    ("rule", "'%d'.format([self.d]) != ''",
     "1:18: error during formatting: decimal clause can only be used on integers, was given double"),
    ("rule", "'%o %x'.format([self.i, self.t]) != ''", "1:29: error during formatting: only integers, byte "
                                                       "buffers, and strings can be formatted as hex, was given "
                                                       "google.protobuf.Timestamp"),
    ("rule", "'%s'.format([[self.s, self.o]]) != ''", "1:27: " + _STRING_CLAUSE + "selfType"),
    ("rule", "'%s'.format([self.s, self.i]) != ''", "1:12: too many arguments supplied to string.format "
                                                    "(expected 1, got 2)"),
    ("messageExpression", "'%s and %s'.format([self.s])", "1:19: index 1 out of range"),
    ("messageExpression", "'100%'.format([self.s])", "1:14: unexpected end of string"),
    ("messageExpression", "'%.d'.format([self.i])", "1:13: could not parse formatting clause: error while parsing "
                                                    "precision: error while converting precision to integer: "
                                                    'strconv.Atoi: parsing "": invalid syntax'),
], ids=["d-of-double", "x-of-timestamp", "s-of-object-in-list", "too-many", "too-few", "end", "precision"])
def test_lint_refuses_what_the_validator_refuses(tmp_path: Path, field: str, expression: str, error: str) -> None:
    validation = {"rule": expression} if field == "rule" else {"rule": "true", "messageExpression": expression}
    crd, _ = _crd_and_cr(tmp_path, validation)
    res = run("lint", "--format", "kubectl", crd)
    assert res.exit_code == 1, res.output
    failed = "compilation failed" if field == "rule" else "messageExpression compilation failed"
    assert f"x-kubernetes-validations[0].{field}: Invalid value: " in res.output
    assert f"{failed}: ERROR: <input>:{error}" in res.output  # an object type by the name the rule's types have
    assert f"\n | {expression}\n" in res.output


@pytest.mark.parametrize("expression", [
    "'%d %s'.format([dyn(self.d), self.o.a])",  # dyn is checked at run time
    "self.s.format([self.d])",  # so is a format string that is no literal
    "'%d'.format(self.l)",  # and arguments that are no list literal
    "'%s %s %b %x %o %f %e'.format([self.l, self.m, true, self.s, self.i, self.d, 'NaN'])",
])
def test_lint_accepts_what_the_validator_accepts(tmp_path: Path, expression: str) -> None:
    crd, _ = _crd_and_cr(tmp_path, {"rule": "true", "messageExpression": expression})
    res = run("lint", crd)
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(("expression", "message"), [
    ("'%b|%b|%o|%X|%x'.format([true, false, self.i, self.i, self.s])", "1|0|377|FF|6869"),
    ("'%s'.format([[self.t, self.l, 2.5, self.i]])", '[timestamp("2024-01-02T03:04:05Z"), ["a", "b"], 2.500000, 255]'),
    ("'%s'.format([self.m])", '{"a":1, "b":2}'),
    ("'%s|%s'.format([self.t, self.d])", "2024-01-02T03:04:05Z|0.5"),
], ids=["binary-octal-hex", "list-members", "map-entries", "scalars"])
def test_validate_prints_the_formatted_message(tmp_path: Path, expression: str, message: str) -> None:
    crd, cr = _crd_and_cr(tmp_path, {"rule": "false", "messageExpression": expression},
                          {"d": 0.5, "i": 255, "s": "hi", "t": "2024-01-02T03:04:05Z", "l": ["a", "b"],
                           "m": {"b": 2, "a": 1}})
    res = run("validate", "--format", "kubectl", "-c", crd, cr)
    assert res.exit_code == 1, res.output
    assert f'The Widget "w" is invalid: spec: Invalid value: {message}\n' in res.output


def test_a_formatting_error_at_run_time_fails_the_rule(tmp_path: Path) -> None:
    crd, cr = _crd_and_cr(tmp_path, {"rule": "'%d'.format([dyn(self.d)]) != ''"}, {"d": 0.5})
    res = run("validate", "--format", "kubectl", "-c", crd, cr)
    assert res.exit_code == 1, res.output
    assert ('spec: Invalid value: "object": error during formatting: decimal clause can only be used on '
            "integers, was given double") in res.output


POLICY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: formats
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  validations:
  - expression: "true"
    messageExpression: "'%d replicas'.format([1.5])"
"""


def test_a_policy_message_expression_the_validator_refuses_does_not_compile(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(POLICY)
    res = run("lint", str(policy))
    assert res.exit_code == 1, res.output
    assert ("""spec.validations[0].messageExpression: Invalid value: "'%d replicas'.format([1.5])": compilation """
            "failed: ERROR: <input>:1:23: error during formatting: decimal clause can only be used on integers, "
            "was given double") in res.output
