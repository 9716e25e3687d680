"""Doubles in the apiserver's messages are Go's renderings of them, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from widgets import widget_crd

from crdtool.cli import cli


def _crd(message_expression: str) -> str:
    return json.dumps(widget_crd({"type": "object", "properties": {"x": {"type": "number"}},
                                  "x-kubernetes-validations": [{"rule": "self.x < 0.0",
                                                                "messageExpression": message_expression}]}))


@pytest.mark.parametrize(("message_expression", "message"), [
    # cel-go: %s of a double is fmt's %g; in a list, its clause %.6f; a duration FormatFloat('f', -1) + "s"
    ("'%s|%s|%s|%s'.format([self.x, [self.x, 0.5], duration('1234567.5s'), 1e-7])",
     "1.23456789e+08|[123456789.000000, 0.500000]|1234567.5s|1e-07"),
    # cel-go's %f and %e go through golang.org/x/text's en_US printer: grouped digits, ∞, × 10ⁿ;
    # `%.2e` is the verb `%2e` there (a width: the precision stays 6); an int is no double for them
    ("'%.2f|%.2e|%f|%f'.format([self.x, self.x, 'Infinity', 'NaN'])",
     "123,456,789.00|1.234568\u202f×\u202f10⁰⁸|∞|NaN"),
], ids=["s-verb-lists-durations", "f-and-e-en-us-printer"])
def test_string_format_renders_doubles_as_cel_go(tmp_path: Path, message_expression: str, message: str) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd(message_expression))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"x": 123456789.0}}))
    res = CliRunner().invoke(cli, ["--no-color", "validate", "--format", "kubectl", "-c", str(crd), str(cr)])
    assert res.exit_code == 1
    assert f'The Widget "w" is invalid: spec: Invalid value: {message}' in res.output
