"""CEL runtime errors in cel-go's words: a table of expressions, inputs and the apiserver's texts.

Sources of the expected texts: google/cel-go v0.26.0 (Kubernetes 1.36's) common/types/err.go,
int.go, uint.go, double.go, string.go, bytes.go, timestamp.go, overflow.go (conversions, division,
overflow), interpreter/attributes.go (`no such key`, `index out of bounds`), interpreter/interpretable.go
and common/decls/decls.go (`no such overload`), common/types/list.go (index types), ext/strings.go,
ext/lists.go; k8s.io/apiserver v0.36.3 pkg/cel/library ip.go, cidr.go, urls.go, quantity.go, regex.go,
lists.go, semverlib.go, with Go's net/netip, net/url and regexp texts inside them. The wrapping of a
rule's runtime error in its field error is apiextensions-apiserver pkg/apiserver/schema/cel/validation.go.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cel_expr_python import cel
from click.testing import CliRunner
from widgets import widget_crd

from crdtool.cel import environment
from crdtool.cel.errors import go_runtime_error, not_evaluable
from crdtool.cel.library import rewrite
from crdtool.cli import cli

ENV = environment.eval_env()

ROWS: list[tuple[str, Any, str]] = [
    # string.go ConvertToType
    ("int('abc')", None, "type conversion error from 'string' to 'int'"),
    ("int('1.5')", None, "type conversion error from 'string' to 'int'"),
    ("int('9223372036854775808')", None, "type conversion error from 'string' to 'int'"),
    ("int(self)", "", "type conversion error from 'string' to 'int'"),
    ("int(self)", "1e3", "type conversion error from 'string' to 'int'"),
    ("uint('abc')", None, "type conversion error from 'string' to 'uint'"),
    ("uint('-1')", None, "type conversion error from 'string' to 'uint'"),
    ("uint(self)", "18446744073709551616", "type conversion error from 'string' to 'uint'"),
    ("double('abc')", None, "type conversion error from 'string' to 'double'"),
    ("double(self)", "1.0.0", "type conversion error from 'string' to 'double'"),
    ("duration('abc')", None, "type conversion error from 'string' to 'google.protobuf.Duration'"),
    ("duration('1')", None, "type conversion error from 'string' to 'google.protobuf.Duration'"),
    ("duration(self)", "1 h", "type conversion error from 'string' to 'google.protobuf.Duration'"),
    ("duration('9999999999h')", None, "type conversion error from 'string' to 'google.protobuf.Duration'"),
    ("duration('-9999999999999h')", None, "type conversion error from 'string' to 'google.protobuf.Duration'"),
    ("timestamp('abc')", None, "type conversion error from 'string' to 'google.protobuf.Timestamp'"),
    ("timestamp('2020-01-01')", None, "type conversion error from 'string' to 'google.protobuf.Timestamp'"),
    ("timestamp(self)", "2020-01-01 00:00:00Z", "type conversion error from 'string' to 'google.protobuf.Timestamp'"),
    # double.go, int.go, uint.go ConvertToType (overflow.go checks)
    ("int(1e100)", None, "integer overflow"),
    ("int(-1e100)", None, "integer overflow"),
    ("int(self)", 1e19, "integer overflow"),
    ("int(18446744073709551615u)", None, "integer overflow"),
    ("uint(-1)", None, "unsigned integer overflow"),
    ("uint(self)", -5, "unsigned integer overflow"),
    ("uint(-1.0)", None, "unsigned integer overflow"),
    ("uint(1e100)", None, "unsigned integer overflow"),
    # bytes.go
    ("string(b'\\xff')", None, "invalid UTF-8 in bytes, cannot convert to string"),
    ("string(b'a\\xc3')", None, "invalid UTF-8 in bytes, cannot convert to string"),
    # int.go timestamp conversion
    ("timestamp(253402300800)", None, "timestamp overflow"),
    ("timestamp(-62135596801)", None, "timestamp overflow"),
    ("timestamp(self)", 10**12, "timestamp overflow"),
    # err.go: division and modulus by zero
    ("1 / 0", None, "division by zero"),
    ("self / 0", 7, "division by zero"),
    ("10 / self", 0, "division by zero"),
    ("1 % 0", None, "modulus by zero"),
    ("self % 0", -3, "modulus by zero"),
    ("1u / 0u", None, "division by zero"),
    ("1u % 0u", None, "modulus by zero"),
    ("uint(self) / 0u", 3, "division by zero"),
    # overflow.go
    ("9223372036854775807 + 1", None, "integer overflow"),
    ("self + 1", 9223372036854775807, "integer overflow"),
    ("-9223372036854775808 - 1", None, "integer overflow"),
    ("self - 1", -9223372036854775808, "integer overflow"),
    ("9223372036854775807 * 2", None, "integer overflow"),
    ("self * self", 4294967296, "integer overflow"),
    ("-(-9223372036854775807 - 1)", None, "integer overflow"),
    ("-self", -9223372036854775808, "integer overflow"),
    ("(-9223372036854775807 - 1) / -1", None, "integer overflow"),
    ("(-9223372036854775807 - 1) % -1", None, "integer overflow"),
    ("18446744073709551615u + 1u", None, "unsigned integer overflow"),
    ("0u - 1u", None, "unsigned integer overflow"),
    ("18446744073709551615u * 2u", None, "unsigned integer overflow"),
    # attributes.go: index out of bounds, no such key
    ("[1, 2][5]", None, "index out of bounds: 5"),
    ("[1, 2][-1]", None, "index out of bounds: -1"),
    ("self[3] == 'x'", ["a"], "index out of bounds: 3"),
    ("self[0] == 'x'", [], "index out of bounds: 0"),
    ("self.items[2]", {"items": [1, 2]}, "index out of bounds: 2"),
    ("{'a': 1}['b']", None, "no such key: b"),
    ("{'a': 1}.b", None, "no such key: b"),
    ("self.replicas > 1", {"name": "x"}, "no such key: replicas"),
    ("self.spec.replicas > 1", {"spec": {}}, "no such key: replicas"),
    ("self['my-key'] == 1", {"other": 1}, "no such key: my-key"),
    ("{1: 'a'}[2]", None, "no such key: 2"),
    ("self.a.b.c == 1", {"a": {"b": {}}}, "no such key: c"),
    # list.go: index types
    ("[1][dyn('a')]", None, "unsupported index type 'string' in list"),
    ("self.l[self.i]", {"l": [1], "i": "0"}, "unsupported index type 'string' in list"),
    # interpretable.go / decls.go: operators bound to a trait, and guarded overloads
    ("dyn(1) + dyn('a')", None, "no such overload"),
    ("self + 1", "a", "no such overload"),
    ("self + 'a'", 1, "no such overload"),
    ("dyn(1.5) + dyn(1)", None, "no such overload"),
    ("dyn([1]) + dyn(1)", None, "no such overload"),
    ("dyn(true) + dyn(true)", None, "no such overload: _+_"),
    ("dyn({}) + dyn({})", None, "no such overload: _+_"),
    ("dyn(null) + dyn(1)", None, "no such overload: _+_"),
    ("self - 1", "a", "no such overload"),
    ("self * 2", "a", "no such overload"),
    ("self / 2", "a", "no such overload"),
    ("self % 2", 1.5, "no such overload: _%_"),
    ("dyn('a') < dyn(1)", None, "no such overload"),
    ("self < 1", "a", "no such overload"),
    ("self >= 1", True, "no such overload"),
    ("dyn([1]) < dyn([2])", None, "no such overload: _<_"),
    ("dyn({}) > dyn({})", None, "no such overload: _>_"),
    ("-dyn('a')", None, "no such overload"),
    ("-self", [1], "no such overload: -_"),
    ("size(self)", 1, "no such overload: size"),
    ("self.size() > 0", 1, "no such overload: size"),
    ("size(self)", True, "no such overload: size"),
    ("self.matches('a')", 1, "no such overload: matches"),
    ("'abc'.matches(dyn(1))", None, "no such overload"),
    ("dyn(1) in dyn(2)", None, "no such overload"),
    ("1 in self", "abc", "no such overload"),
    ("int(self)", [1], "no such overload: int(list)"),
    ("int(self)", {"a": 1}, "no such overload: int(map)"),
    ("uint(self)", True, "no such overload: uint(bool)"),
    ("double(self)", [1.0], "no such overload: double(list)"),
    ("duration(self)", 5, "no such overload: duration(int)"),
    ("self.startsWith('a')", 1, "no such overload: startsWith(int, string)"),
    ("self.contains('a')", [1], "no such overload: contains(list, string)"),
    ("self.lowerAscii() == 'a'", 1, "no such overload: lowerAscii(int)"),
    ("url(self).getHost() == ''", 1, "no such overload: url(int)"),
    ("self.getScheme() == ''", 1, "no such overload: getScheme(int)"),
    ("isURL(self)", 1, "no such overload: isURL(int)"),
    # ext/strings.go
    ("'abc'.substring(5)", None, "index out of range: 5"),
    ("'abc'.substring(-1)", None, "index out of range: -1"),
    ("'abc'.substring(2, 1)", None, "invalid substring range. start: 2, end: 1"),
    ("'abc'.substring(1, 9)", None, "index out of range: 9"),
    ("'abc'.charAt(5)", None, "index out of range: 5"),
    ("'abc'.indexOf('b', 5)", None, "index out of range: 5"),
    ("'abc'.lastIndexOf('b', 5)", None, "index out of range: 5"),
    ("self.substring(1) == ''", "", "index out of range: 1"),
    # ext/lists.go
    ("[1, 2].slice(3, 4)", None, "cannot slice(3, 4), list is length 2"),
    ("[1, 2].slice(2, 1)", None, "cannot slice(2, 1), start index must be less than or equal to end index"),
    ("[1, 2].slice(-1, 1)", None, "cannot slice(-1, 1), negative indexes not supported"),
    ("[1, [2]].flatten(-1)", None, "level must be non-negative"),
    ("dyn([1, 'a']).sort()", None, "list elements must have the same type"),
    # optional.go
    ("optional.none().value()", None, "optional.none() dereference"),
    ("self.?b.value()", {"a": 1}, "optional.none() dereference"),
    # string.go Match: Go's regexp error
    ("'abc'.matches(self)", "(", "error parsing regexp: missing closing ): `(`"),
    ("'abc'.matches(self)", "[a", "error parsing regexp: missing closing ]: `[a`"),
    ("'abc'.matches(self)", "a**", "error parsing regexp: invalid nested repetition operator: `**`"),
    ("'abc'.matches(self)", "*", "error parsing regexp: missing argument to repetition operator: `*`"),
    # k8s library/regex.go
    ("'abc'.find('(')", None, "Illegal regex: error parsing regexp: missing closing ): `(`"),
    ("'abc'.findAll('[')", None, "Illegal regex: error parsing regexp: missing closing ]: `[`"),
    ("'abc'.findAll(self, 1)", "a{2,1}", "Illegal regex: error parsing regexp: invalid repeat count: `{2,1}`"),
    ("'abc'.find(self)", "\\C", "Illegal regex: error parsing regexp: invalid escape sequence: `\\C`"),
    # k8s library/ip.go (net/netip ParseAddr)
    ("ip('1.2.3')", None,
     'IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short'),
    ("ip(self)", "abc",
     'IP Address "abc" parse error during conversion from string: ParseAddr("abc"): unable to parse IP'),
    ("ip('01.2.3.4')", None, 'IP Address "01.2.3.4" parse error during conversion from string: '
                             'ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'),
    ("ip('256.0.0.1')", None, 'IP Address "256.0.0.1" parse error during conversion from string: '
                              'ParseAddr("256.0.0.1"): IPv4 field has value >255'),
    ("ip('1.2.3.4%eth0')", None, 'IP Address "1.2.3.4%eth0" parse error during conversion from string: '
                                 'ParseAddr("1.2.3.4%eth0"): unexpected character (at "%eth0")'),
    ("ip('::1::')", None, 'IP Address "::1::" parse error during conversion from string: '
                          'ParseAddr("::1::"): multiple :: in address (at ":")'),
    ("ip('fe80::1%eth0')", None, 'IP address "fe80::1%eth0" with zone value is not allowed'),
    ("ip('::ffff:1.2.3.4')", None, 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'),
    ("cidr('10.0.0.0/8').containsIP('1.2.3')", None,
     'IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short'),
    # k8s library/cidr.go (net/netip ParsePrefix)
    ("cidr('1.2.3.4')", None, "network address parse error during conversion from string: network address "
                              "parse error during conversion from string: netip.ParsePrefix(\"1.2.3.4\"): no '/'"),
    ("cidr('1.2.3.4/33')", None, "network address parse error during conversion from string: network address "
                                 "parse error during conversion from string: netip.ParsePrefix(\"1.2.3.4/33\"): "
                                 "prefix length out of range"),
    ("cidr('1.2.3.4/024')", None, "network address parse error during conversion from string: network address "
                                  "parse error during conversion from string: netip.ParsePrefix(\"1.2.3.4/024\"): "
                                  "bad bits after slash: \"024\""),
    ("cidr('1.2.3.4/')", None, "network address parse error during conversion from string: network address "
                               "parse error during conversion from string: netip.ParsePrefix(\"1.2.3.4/\"): "
                               "bad bits after slash: \"\""),
    ("cidr('1.2.3/24')", None, "network address parse error during conversion from string: network address "
                               "parse error during conversion from string: netip.ParsePrefix(\"1.2.3/24\"): "
                               "ParseAddr(\"1.2.3\"): IPv4 address too short"),
    ("cidr('fe80::1%eth0/64')", None, "network address parse error during conversion from string: network "
                                      "address parse error during conversion from string: "
                                      "netip.ParsePrefix(\"fe80::1%eth0/64\"): IPv6 zones cannot be present in a "
                                      "prefix"),
    ("cidr('::ffff:1.2.3.4/120')", None, "network address parse error during conversion from string: "
                                         "IPv4-mapped IPv6 address \"::ffff:1.2.3.4/120\" is not allowed"),
    # k8s library/urls.go (net/url ParseRequestURI)
    ("url('../relative-path')", None,
     'URL parse error during conversion from string: parse "../relative-path": invalid URI for request'),
    ("url(self)", "https://a b/",
     'URL parse error during conversion from string: parse "https://a b/": invalid character " " in host name'),
    ("url('https://[::1')", None,
     'URL parse error during conversion from string: parse "https://[::1": missing \']\' in host'),
    ("url('https://h:x/')", None,
     'URL parse error during conversion from string: parse "https://h:x/": invalid port ":x" after host'),
    ("url('')", None, 'URL parse error during conversion from string: parse "": empty url'),
    ("url('https://a:b:c/')", None,
     'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":b:c" after host'),
    # k8s library/quantity.go, semverlib.go, lists.go
    ("quantity('200K')", None, "unable to parse quantity's suffix"),
    ("quantity(self)", "Three",
     "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("quantity('9999999999999999999999999999999999999G').asInteger()", None, "cannot convert value to integer"),
    ("semver('Three')", None, "No Major.Minor.Patch elements found"),
    ("[].min()", None, "min called on empty list"),
    ("self.max()", [], "max called on empty list"),
]


def _runtime_error(expr: str, value: Any) -> str:
    outcome = ENV.compile(rewrite(expr).text).eval(data={"self": value})
    assert outcome.type() == cel.Type.ERROR, outcome.value()
    return go_runtime_error(str(outcome.value()))


@pytest.mark.parametrize(("expr", "value", "expected"), ROWS)
def test_runtime_errors_read_as_cel_gos(expr: str, value: Any, expected: str) -> None:
    assert _runtime_error(expr, value) == expected


def test_the_table_is_large_enough() -> None:
    assert len(ROWS) >= 100


def _crd(rules: list[dict], properties: dict) -> str:
    return json.dumps(widget_crd({"type": "object", "x-kubernetes-validations": rules, "properties": properties}))


def test_runtime_errors_in_field_errors_through_the_cli(tmp_path: Path) -> None:
    """validation.go: `<err> evaluating rule: <rule>`, and for `no such overload` the longer explanation."""
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(_crd([{"rule": "int(self.s) > 0"}, {"rule": "self.v + 1 > 0"},
                         {"rule": "self.v * 2 > 0", "message": "v must double"}],
                        {"s": {"type": "string"}, "v": {"x-kubernetes-int-or-string": True}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"s": "abc", "v": "x"}}))
    res = CliRunner().invoke(cli, ["--no-color", "validate", "-c", str(crd), str(cr)])
    assert res.exit_code == 1, res.output
    assert ("spec: Invalid value: \"object\": type conversion error from 'string' to 'int' evaluating rule: "
            "int(self.s) > 0") in res.output
    assert ("spec: Invalid value: \"object\": 'no such overload': call arguments did not match a supported "
            "operator, function or macro signature for rule: self.v + 1 > 0") in res.output
    assert ("spec: Invalid value: \"object\": 'no such overload': call arguments did not match a supported "
            "operator, function or macro signature for rule: v must double") in res.output


@pytest.mark.parametrize("expression", ["{'a': 'b'}.transformMap(k, v, v + k)",
                                        "{'a': 'b'}.transformMapEntry(k, v, {v: k})",
                                        "['x'].transformMap(i, v, v)"])
def test_a_function_the_engine_checks_but_cannot_run_is_its_limit_not_an_error(expression: str) -> None:
    """The macros expand to cel.@mapInsert, which the engine declares to its checker but does not run:
    that is no answer of the apiserver's (cel-go runs it), so it is told apart from runtime errors."""
    try:
        outcome = ENV.compile(expression).eval(ENV.Activation({}))
        text = str(outcome.plain_value())
    except RuntimeError as err:
        text = str(err)
    assert not_evaluable(text) == ("calls transformMap() or transformMapEntry(), which crdtool's CEL engine cannot "
                                   "evaluate (cel.@mapInsert is not implemented at run time)")
    assert not_evaluable("no such overload") is None
