"""Go's texts of values (crdtool.model.gofmt): fmt.Sprint of decoded JSON, the white space of Go's unicode package."""

from __future__ import annotations

import math
import re

from crdtool.model.gofmt import (
    go_float_e,
    go_float_f,
    go_float_g,
    go_is_print,
    go_is_space,
    go_json,
    go_json_data,
    go_json_float,
    go_trim_space,
    go_value,
    x_text_float_e,
    x_text_float_f,
)


def test_go_space_is_unicode_is_space_not_pythons():
    assert all(go_is_space(ch) for ch in "\t\n\v\f\r \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000")
    assert not any(go_is_space(ch) for ch in "\x1c\x1d\x1e\x1f\u200bx")  # str.isspace takes U+001C..U+001F
    assert go_trim_space("\x1c a\u3000 ") == "\x1c a"


def test_go_value_is_fmt_sprint_of_decoded_json():
    assert go_value({"b": [1, 2.5, None], "a": True, "c": "x y"}) == "map[a:true b:[1 2.5 <nil>] c:x y]"
    assert [go_value(v) for v in (1e21, 1e-7, -0.0, 3, "s")] == ["1e+21", "1e-07", "-0", "3", "s"]


def test_go_is_print_is_unicode_is_print():
    assert all(go_is_print(ch) for ch in "a É1.€ \u0301")
    assert not any(go_is_print(ch) for ch in "\t\n\x7f\xa0\u2028\u200b")


# Go's renderings of float64, from Go's own tests:
# - strconv.FormatFloat: golang/go src/strconv/ftoa_test.go (`ftoatests`), with `%v` and `%g` being FormatFloat(f,
#   'g', -1, 64) (src/fmt/print.go, fmtFloat); 'g' with the shortest digits switches to an exponent when the exponent
#   is < -4 or >= 6 (src/strconv/ftoa.go, formatDigits: "if precision was the shortest possible, use precision 6 for
#   this decision"), written with two digits at least (fmtE), so 1e20 is 1e+20 and 1e-7 1e-07.
# - encoding/json: src/encoding/json/encode.go (floatEncoder: 'f' unless |f| < 1e-6 or |f| >= 1e21, then 'e' with
#   "e-09" cleaned to "e-9") and the regular expressions of its TestMarshalFloat (encode_test.go), checked below.
BELOW_1E23, ABOVE_1E23 = 99999999999999974834176.0, 100000000000000008388608.0
NAN, INF = float("nan"), float("inf")
FORMAT_G = [  # (value, FormatFloat(value, 'g', -1, 64))
    (1, "1"), (20, "20"), (1234567.8, "1.2345678e+06"), (200000, "200000"), (2000000, "2e+06"), (0, "0"),
    (-1, "-1"), (12, "12"), (123456700, "1.234567e+08"), (1e23, "1e+23"), (BELOW_1E23, "9.999999999999997e+22"),
    (ABOVE_1E23, "1.0000000000000001e+23"), (5e-324, "5e-324"), (-5e-324, "-5e-324"), (32, "32"), (NAN, "NaN"),
    (INF, "+Inf"), (-INF, "-Inf"), (2.2250738585072012e-308, "2.2250738585072014e-308"),
    (2.2250738585072011e-308, "2.225073858507201e-308"), (383260575764816448, "3.8326057576481645e+17"),
    (-5.8339553793802237e+23, "-5.8339553793802237e+23"),
    # the same rules (exponent < -4 or >= 6, two exponent digits at least) at their edges
    (0.1, "0.1"), (1e20, "1e+20"), (1e21, "1e+21"), (1e-7, "1e-07"), (123456789.0, "1.23456789e+08"), (-0.0, "-0"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (999999.0, "999999"), (1e6, "1e+06"), (1e-4, "0.0001"),
    (1e-5, "1e-05"), (1e100, "1e+100"),
]
FORMAT_F = [  # (value, prec, FormatFloat(value, 'f', prec, 64))
    (1, 5, "1.00000"), (0, 5, "0.00000"), (-1, 5, "-1.00000"), (12, 5, "12.00000"), (123456700, 5, "123456700.00000"),
    (1.2345e6, 5, "1234500.00000"), (1e23, 17, "99999999999999991611392.00000000000000000"),
    (1e23, -1, "100000000000000000000000"), (BELOW_1E23, -1, "99999999999999970000000"),
    (ABOVE_1E23, -1, "100000000000000010000000"), (0.9, 1, "0.9"), (0.09, 1, "0.1"), (0.0999, 1, "0.1"),
    (0.05, 1, "0.1"), (0.05, 0, "0"), (0.5, 1, "0.5"), (0.5, 0, "0"), (1.5, 0, "2"),
    (383260575764816448, 0, "383260575764816448"), (498484681984085570, -1, "498484681984085570"),
    (-0.0, -1, "-0"), (1e-7, -1, "0.0000001"), (NAN, 6, "NaN"), (INF, 6, "+Inf"), (-INF, -1, "-Inf"),
]
FORMAT_E = [  # (value, prec, FormatFloat(value, 'e', prec, 64))
    (1, 5, "1.00000e+00"), (0, 5, "0.00000e+00"), (-1, 5, "-1.00000e+00"), (12, 5, "1.20000e+01"),
    (123456700, 5, "1.23457e+08"), (1.2345e6, 5, "1.23450e+06"), (1e23, 17, "9.99999999999999916e+22"),
]
JSON = [  # (value, json.Marshal(value))
    (0.1, "0.1"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (1e-6, "0.000001"), (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"), (123456789.0, "123456789"), (-0.0, "-0"), (0.0, "0"), (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (1e23, "1e+23"), (1.234e-6, "0.000001234"),
    (-1e21, "-1e+21"), (999999999999999900000.0, "999999999999999900000"), (1e-10, "1e-10"),
]


def test_go_float_g_is_strconv_format_float_g_shortest():
    assert [go_float_g(float(v)) for v, _ in FORMAT_G] == [want for _, want in FORMAT_G]
    assert [go_value(float(v)) for v, _ in FORMAT_G] == [want for _, want in FORMAT_G]


def test_go_float_f_and_e_are_strconv_format_float_f_and_e():
    assert [go_float_f(float(v), prec) for v, prec, _ in FORMAT_F] == [want for _, _, want in FORMAT_F]
    assert [go_float_e(float(v), prec) for v, prec, _ in FORMAT_E] == [want for _, _, want in FORMAT_E]


def test_go_json_float_is_encoding_json():
    assert [go_json_float(v) for v, _ in JSON] == [want for _, want in JSON]
    assert go_json({"a": [1e20, 1e-7]}) == '{"a":[100000000000000000000,1e-7]}'


# encoding/json's TestMarshalFloat: no output may match any of these, over many float64 values.
_JSON_BAD = [re.compile(p) for p in (
    r"p", r"^\+", r"^-?0[^.]", r"^-?\.", r"\.(e|$)", r"\.[0-9]+0(e|$)", r"^-?(0|[0-9]{2,})\..*e", r"e[0-9]",
    r"e[+-]0", r"e-[1-6]$", r"e+(.|1.|20)$", r"^-?0\.0000000", r"^-?[0-9]{22}", r"[1-9][0-9]{16}[1-9]",
    r"[1-9][0-9.]{17}[1-9]")]


def test_go_json_float_passes_encoding_jsons_marshal_float_checks():
    values = [0.0, 5e-324, 1.7976931348623157e308]
    for exponent in range(-330, 310):
        for mantissa in (1.0, 1.5, 9.999999999999999, 3.141592653589793):
            values.append(mantissa * 10.0 ** exponent if -308 < exponent < 308 else 0.0)
    for v in values:
        if not math.isfinite(v):
            continue
        for f in (v, -v):
            text = go_json_float(f)
            assert float(text) == f, text
            assert not any(bad.search(text) for bad in _JSON_BAD), (f, text)


# cel-go's string.format `%f` and `%e` (strings versions below 4, the apiserver's 2) print through
# golang.org/x/text/message in en_US: cases of google/cel-go v0.26.1 ext/formatting_test.go, and of
# golang/text message/fmt_test.go and examples_test.go for grouping and the infinities.
NNBSP = "\u202f"


def test_x_text_float_f_is_the_en_us_printers_fixed_point():
    assert [x_text_float_f(v, p) for v, p in [(1.2345, 3), (2.71828, 6), (4.5, 3), (1.0, 1), (NAN, 6), (INF, 6),
                                             (-INF, 1)]] == [
        "1.234", "2.718280", "4.500", "1.0", "NaN", "∞", "-∞"]
    # en's decimal pattern #,##0.### groups the integer digits by thousands (examples_test: 123,456.78)
    assert [x_text_float_f(v, 2) for v in (123456.78, -1234567.891, 999.999, 1e21)] == [
        "123,456.78", "-1,234,567.89", "1,000.00", "1,000,000,000,000,000,000,000.00"]


def test_x_text_float_e_is_the_en_us_printers_scientific_notation():
    assert x_text_float_e(1052.032911275, 6) == f"1.052033{NNBSP}×{NNBSP}10⁰³"
    assert x_text_float_e(2.71828, 6) == f"2.718280{NNBSP}×{NNBSP}10⁰⁰"
    assert x_text_float_e(-0.00012) == f"-1.200000{NNBSP}×{NNBSP}10⁻⁰⁴"
    assert x_text_float_e(1e100) == f"1.000000{NNBSP}×{NNBSP}10¹⁰⁰"
    assert x_text_float_e(INF, 20) == " " * 19 + "∞" and x_text_float_e(-INF, 6) == "    -∞"  # fmt_test: %20e
    assert x_text_float_e(1.5, 30) == " " * 15 + f"1.500000{NNBSP}×{NNBSP}10⁰⁰"  # padded to 30 characters


def test_json_marshal_refuses_the_first_non_finite_float_in_its_writing_order() -> None:
    from crdtool.model.gofmt import json_unsupported_value

    assert json_unsupported_value({"a": [1, {"b": 1.5}], "c": "NaN"}) is None
    assert json_unsupported_value({"z": NAN, "a": [1, {"b": -INF}]}) == (("a", 1, "b"), "-Inf")
    assert json_unsupported_value([INF]) == ((0,), "+Inf")
    assert json_unsupported_value(NAN) == ((), "NaN")


def test_json_data_writes_integral_floats_as_go_does_copying_only_then() -> None:
    plain = {"a": [1, "x", 2.5, {"b": None, "c": True}], "d": 1e21}
    assert go_json_data(plain) is plain  # nothing Python writes otherwise: the value itself
    floats = {"a": [1.0, {"b": 9223372036854775807.0}], "c": 2.5, "d": -0.0}
    converted = go_json_data(floats)
    assert converted == {"a": [1, {"b": 9223372036854776000}], "c": 2.5, "d": 0}
    assert all(type(v) is int for v in (converted["a"][0], converted["a"][1]["b"], converted["d"]))
    assert floats == {"a": [1.0, {"b": 9223372036854775807.0}], "c": 2.5, "d": -0.0}  # the input is left as it was
    assert type(floats["a"][0]) is float
