"""string.format at run time, as cel-go v0.26.1's stringFormatter (ext/formatting.go) formats: the cases of
its formatting_test.go that apply to the en_US locale and to values cel-expr-python carries exactly."""

from __future__ import annotations

import pytest
from cel_expr_python import cel

from crdtool.cel import environment
from crdtool.cel.library import rewrite
from crdtool.cel.library.formatting import format_string

ENV = environment.eval_env()


def run(expr: str) -> str:
    value = ENV.compile(rewrite(expr).text).eval(data={"self": None})
    assert value.type() == cel.Type.STRING, value.value()
    return value.value()


def error_text(expr: str) -> str:
    value = ENV.compile(rewrite(expr).text).eval(data={"self": None})
    assert value.type() == cel.Type.ERROR, value.value()
    return str(value.value())


@pytest.mark.parametrize(("template", "args", "expected"), [
    ("no substitution", "", "no substitution"),
    ("str is %s and some more", "'filler'", "str is filler and some more"),
    ("%% and also %%", "", "% and also %"),
    ("%%%s%%", "'text'", "%text%"),
    ("%s%%", "'percent on the right'", "percent on the right%"),
    ("%%%s", "'percent on the left'", "%percent on the left"),
    ("%d %d %d, %s %s %s, %d %d %d, %s %s %s", "1, 2, 3, 'A', 'B', 'C', 4, 5, 6, 'D', 'E', 'F'",
     "1 2 3, A B C, 4 5 6, D E F"),
    ("\\u0025\\u0025escaped \\u0025s\\u0025\\u0025", "'percent'", "%escaped percent%"),
    ("%.3f", "1.2345", "1.234"),
    ("this is 5 in binary: %b", "5", "this is 5 in binary: 101"),
    ("this is -5 in binary: %b", "-5", "this is -5 in binary: -101"),
    ("unsigned 64 in binary: %b", "uint(64)", "unsigned 64 in binary: 1000000"),
    ("bit set from bool: %b", "true", "bit set from bool: 1"),
    ("%b", "false", "0"),
    ("%o", "11", "13"),
    ("%o", "-11", "-13"),
    ("this is an unsigned octal: %o", "uint(65535)", "this is an unsigned octal: 177777"),
    ("%x is 30 in hexadecimal", "30", "1e is 30 in hexadecimal"),
    ("%X is 20 in hexadecimal", "30", "1E is 20 in hexadecimal"),
    ("%x is -30 in hexadecimal", "-30", "-1e is -30 in hexadecimal"),
    ("%X is 6000 in hexadecimal", "uint(6000)", "1770 is 6000 in hexadecimal"),
    ("%x", "'Hello world!'", "48656c6c6f20776f726c6421"),
    ("%X", "'Hello world!'", "48656C6C6F20776F726C6421"),
    ("%x", "b'byte string'", "6279746520737472696e67"),
    ("%x", "b'\\x00\\x00byte string\\x00'", "00006279746520737472696e6700"),
    ("%X", "b'byte string'", "6279746520737472696E67"),
    ("%.6e", "1052.032911275", "1.052033\u202f\u00d7\u202f10\u2070\u00b3"),
    ("%f", "2.71828", "2.718280"),
    ("%e", "2.71828", "2.718280\u202f\u00d7\u202f10\u2070\u2070"),
    ("%s", "2.71", "2.71"),
    ("%s", "[2.71]", "[2.710000]"),
    ("%s", "0.000000002", "2e-09"),
    ("%s", "[0.000000002]", "[0.000000]"),
    ("%f", "'NaN'", "NaN"),
    ("%f", "'Infinity'", "∞"),
    ("%f", "'-Infinity'", "-∞"),
    ("%s", "double('NaN')", "NaN"),
    ("%s", "double('Inf')", "+Inf"),
    ("%s", "double('-Inf')", "-Inf"),
    ("%s", "[double('NaN'), double('+Inf'), double('-Inf')]", '["NaN", "+Inf", "-Inf"]'),
    ("%d", "uint(64)", "64"),
    ("null: %s", "null", "null: null"),
    ("%s", "999999999999", "999999999999"),
    ("some bytes: %s", "b'xyz'", "some bytes: xyz"),
    ("type is %s", "type('test string')", "type is string"),
    ("%s", "timestamp('2023-02-03T23:31:20+00:00')", "2023-02-03T23:31:20Z"),
    ("%s", "duration('1h45m47s')", "6347s"),
    ("%s", "['abc', 3.14, null, [9, 8, 7, 6], timestamp('2023-02-03T23:31:20Z')]",
     '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]'),
    ("%s", "{'key1': b'xyz', 'key5': null, 'key2': duration('2h'), 'key4': true, 'key3': 2.71828}",
     '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}'),
    # cel-go's case has the key 1 beside true, which one Python dict cannot hold apart
    ("map with multiple key types: %s", "{5: 'value1', uint(2): 'value2', true: double('NaN')}",
     'map with multiple key types: {2:"value2", 5:"value1", true:"NaN"}'),
    ("true bool: %s, false bool: %s", "true, false", "true bool: true, false bool: false"),
    ("dynamic string: %s", "dyn('a string')", "dynamic string: a string"),
    ("dynIntStr: %s dynDoubleStr: %s", "dyn(32), dyn(56.8)", "dynIntStr: 32 dynDoubleStr: 56.8"),
    ("dynamic hex int: %X (uppercase)", "dyn(26)", "dynamic hex int: 1A (uppercase)"),
    ("dynamic hex int: %x (unsigned)", "dyn(uint(500))", "dynamic hex int: 1f4 (unsigned)"),
    ("dynamic double: %.3f", "dyn(4.5)", "dynamic double: 4.500"),
    ("dyntype list: %s", "dyn([6, 4.2, 'a string'])", 'dyntype list: [6, 4.200000, "a string"]'),
    ("dyntype map: %s", "dyn({'strKey': 'x', true: 42, 6: duration('7m2s')})",
     'dyntype map: {"strKey":"x", 6:duration("422s"), true:42}'),
    # TestStringFormatHeterogeneousLiterals
    ("list: %s", "[[1, 2, [3.0, 4]]]", "list: [[1, 2, [3.000000, 4]]]"),
    ("list element: %s", "[[1, 2, [3.0, 4]]][0]", "list element: [1, 2, [3.000000, 4]]"),
    # members go through clauseForType: a type value prints as its name, strings and bytes with Go's %q
    ("%s", "[type(1), [int], 'tab\\there', b'\\x01']", '[int, [int], "tab\\there", b"\\x01"]'),
    ("%s", "{'b': [duration('1.5s')], 'a': {'x': -0.5}}", '{"a":{"x":-0.500000}, "b":[duration("1.5s")]}'),
    ("%s", "[1.0/0.0, -1.0/0.0]", '["+Inf", "-Inf"]'),
    ("%s", "timestamp('0001-01-01T00:00:00.5Z')", "0001-01-01T00:00:00.5Z"),
    # x/text's printer reads `%.<p>f` and `%<p>e`: a number past its limit leaves no verb
    ("%.0f|%.0e", "2.5, 2.5", "2|2.500000\u202f\u00d7\u202f10\u2070\u2070"),
    ("%.10000010f|%.10000010e", "1.0, 'NaN'", "%!(NOVERB)|%!(NOVERB)"),
    ("%.20e", "1.0", "     1.000000\u202f\u00d7\u202f10\u2070\u2070"),  # a width, in runes
])
def test_formats_as_cel_go(template: str, args: str, expected: str) -> None:
    assert run(f"'{template}'.format([{args}])") == expected


@pytest.mark.parametrize(("template", "args", "message"), [
    ("%a", "1", 'could not parse formatting clause: unrecognized formatting clause "a"'),
    ("%d %d %d", "0, 1", "index 2 out of range"),
    ("string is %b", "'abc'",
     "error during formatting: only integers and bools can be formatted as binary, was given string"),
    ("%d", "duration('30m2s')",
     "error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration"),
    ("octal: %o", "'a string'",
     "error during formatting: octal clause can only be used on integers, was given string"),
    ("double is %x", "0.5", "error during formatting: only integers, byte buffers, and strings can be formatted "
                            "as hex, was given double"),
    ("double is %E", "0.5", 'could not parse formatting clause: unrecognized formatting clause "E"'),
    ("object is %s", "ip('1.2.3.4')", "error during formatting: string clause can only be used on strings, bools, "
                                      "bytes, ints, doubles, maps, lists, types, durations, and timestamps, was "
                                      "given net.IP"),
    ("%s", "[1, 2, ip('1.2.3.4')]", "error during formatting: no formatting function for net.IP"),
    ("%s", "{1: 'a', 2: ip('1.2.3.4')}", "error during formatting: no formatting function for net.IP"),
    ("null: %d", "null", "error during formatting: decimal clause can only be used on integers, was given null_type"),
    ("null: %e", "null", "error during formatting: scientific clause can only be used on doubles, was given null_type"),
    ("null: %f", "null",
     "error during formatting: fixed-point clause can only be used on doubles, was given null_type"),
    ("null: %x", "null", "error during formatting: only integers, byte buffers, and strings can be formatted as hex, "
                         "was given null_type"),
    ("null: %X", "null", "error during formatting: only integers, byte buffers, and strings can be formatted as hex, "
                         "was given null_type"),
    ("null: %b", "null", "error during formatting: only integers and bools can be formatted as binary, was given "
                         "null_type"),
    ("null: %o", "null", "error during formatting: octal clause can only be used on integers, was given null_type"),
    ("%s %s", "'abc'", "index 1 out of range"),
    ("filler %", "", "index 0 out of range"),  # the argument is looked up before the end of the string
    ("filler %", "1", "unexpected end of string"),
    ("%j", "123", 'could not parse formatting clause: unrecognized formatting clause "j"'),
    ("int is %d", "5.2", "error during formatting: decimal clause can only be used on integers, was given double"),
    ("%d", "1.0/0.0", "error during formatting: decimal clause can only be used on integers, was given double"),
    ("%d", "double('NaN')", "error during formatting: decimal clause can only be used on integers, was given double"),
    ("double is %f", "true",
     "error during formatting: fixed-point clause can only be used on doubles, was given bool"),
    ("double is %.34", "5.0",
     "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"),
    ("%.x", "1.0", "could not parse formatting clause: error while parsing precision: error while converting "
                   'precision to integer: strconv.Atoi: parsing "": invalid syntax'),
    ("%.99999999999999999999f", "1.0", "could not parse formatting clause: error while parsing precision: error "
                                       'while converting precision to integer: strconv.Atoi: parsing '
                                       '"99999999999999999999": value out of range'),
    ("double is %e", "true", "error during formatting: scientific clause can only be used on doubles, was given bool"),
    ("%x", "true", "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was "
                   "given bool"),
    ("%o", "true", "error during formatting: octal clause can only be used on integers, was given bool"),
    ("%b", "[1]", "error during formatting: only integers and bools can be formatted as binary, was given list"),
    ("%d", "type(1)", "error during formatting: decimal clause can only be used on integers, was given type"),
    ("%s", "b'\\xff'", 'error during formatting: could not convert argument "invalid UTF-8 in bytes, cannot '
                       'convert to string" to string'),
    ("%s", "[b'\\xff']", 'error during formatting: could not convert argument "invalid UTF-8 in bytes, cannot '
                         'convert to string" to string'),
    ("%\u00e9", "1", 'could not parse formatting clause: unrecognized formatting clause "\u00c3"'),  # its first byte
])
def test_errors_as_cel_go(template: str, args: str, message: str) -> None:
    assert error_text(f"'{template}'.format([{args}])").endswith(message)


def test_map_keys_cel_go_cannot_format() -> None:
    """formatMap names a key type it has no clause for (CEL's own map keys never reach it)."""
    with pytest.raises(ValueError, match=r"^error during formatting: no formatting function for map key of type "
                                         r"double$"):
        format_string("%s", [{1.5: 1}])
