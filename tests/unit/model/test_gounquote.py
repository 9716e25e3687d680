"""Go's reading of JSON string escapes: lone UTF-16 surrogates become U+FFFD, valid pairs stay."""

from __future__ import annotations

import json

import pytest

from crdtool.model.gounquote import replace_lone_surrogate_escapes


@pytest.mark.parametrize("escaped, go_string", [
    (r"\udc00x", "\ufffdx"),
    (r"\ud800", "\ufffd"),
    (r"\ud800\udc00", "\U00010000"),
    (r"\uD83D\uDE00", "\U0001f600"),
    (r"\ud800\ud800\udc00", "\ufffd\U00010000"),  # the first high half has no low half: the next pairs
    (r"\udc00\ud800", "\ufffd\ufffd"),
    (r"\ud800\u0041", "\ufffdA"),
    (r"\ud800x\udc00", "\ufffdx\ufffd"),  # not adjacent: no pair
    (r"\\udc00", "\\udc00"),  # an escaped backslash, then plain text
    (r"\\\udc00", "\\\ufffd"),
    (r"\ud800\\udc00", "\ufffd\\udc00"),
    (r"plain \u00e9", "plain \u00e9"),
])
def test_escapes(escaped: str, go_string: str) -> None:
    text = '{"k": "' + escaped + '"}'
    fixed = replace_lone_surrogate_escapes(text)
    assert len(fixed) == len(text)  # offsets (line and column of every node) are kept
    assert json.loads(fixed) == {"k": go_string}


def test_keys_are_read_like_values() -> None:
    assert json.loads(replace_lone_surrogate_escapes(r'{"\udfff": 1}')) == {"\ufffd": 1}


def test_text_without_surrogate_escapes_is_returned_as_is() -> None:
    text = '{"a": "\\u0041\\\\ud800"}'
    assert replace_lone_surrogate_escapes(text) is text


def test_pairs_can_be_replaced_too_for_a_reader_that_refuses_them() -> None:
    text = r'{"k": "\ud83d\ude00\udc00"}'
    fixed = replace_lone_surrogate_escapes(text, keep_pairs=False)
    assert len(fixed) == len(text) and json.loads(fixed) == {"k": "\ufffd\ufffd\ufffd"}
