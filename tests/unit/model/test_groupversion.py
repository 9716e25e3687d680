"""schema.ParseGroupVersion and its readers (crdtool.model.groupversion)."""

from __future__ import annotations

import pickle

import pytest

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.groupversion import (
    GroupVersion,
    GroupVersionError,
    from_api_version_and_kind,
    group_of,
    parse_group_version,
    try_parse_group_version,
)


@pytest.mark.parametrize(("text", "group", "version"), [
    ("", "", ""), ("/", "", ""), ("v1", "", "v1"), ("apps/v1", "apps", "v1"), ("example.com/", "example.com", ""),
    ("/v1", "", "v1"),
])
def test_parse(text: str, group: str, version: str) -> None:
    assert parse_group_version(text) == GroupVersion(group, version)


@pytest.mark.parametrize("text", ["a/b/c", "//", "a//"])
def test_more_than_one_slash_is_go_s_error(text: str) -> None:
    with pytest.raises(GroupVersionError, match=f"^unexpected GroupVersion string: {text}$"):
        parse_group_version(text)
    assert try_parse_group_version(text) is None
    assert group_of(text) == ""


def test_strings_and_kinds() -> None:
    assert str(GroupVersion("", "v1")) == "v1" and str(GroupVersion("g", "v")) == "g/v"
    assert str(from_api_version_and_kind("v1", "Event")) == "/v1, Kind=Event"
    assert str(from_api_version_and_kind("a/b/c", "Foo")) == "/, Kind=Foo"
    assert from_api_version_and_kind(5, None).kind == ""


def test_a_typed_string_is_rendered_by_json_marshal() -> None:
    plain = FieldError.invalid("f", "bad\a<warn>", "d")
    typed = FieldError.invalid("f", TypedString("bad\a<warn>"), "d")
    assert str(plain) == 'f: Invalid value: "bad\\a<warn>": d'
    assert str(typed) == 'f: Invalid value: "bad\\u0007\\u003cwarn\\u003e": d'
    again = pickle.loads(pickle.dumps(typed))
    assert str(again) == str(typed)
