"""Go's texts of values (crdtool.model.gofmt): fmt.Sprint of decoded JSON, the white space of Go's unicode package."""

from __future__ import annotations

from crdtool.model.gofmt import go_is_print, go_is_space, go_trim_space, go_value


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
