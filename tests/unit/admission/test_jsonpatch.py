"""JSON Patch as gopkg.in/evanphx/json-patch.v4 applies it (patch.go: its operations and errors)."""

from __future__ import annotations

import json

import pytest

from crdtool.admission import jsonpatch


def _apply(ops, doc):
    return jsonpatch.apply(jsonpatch.decode(json.dumps(ops).encode()), doc)


@pytest.mark.parametrize(("ops", "doc", "expected"), [
    ([{"op": "add", "path": "/a", "value": 1}], {}, {"a": 1}),
    ([{"op": "add", "path": "/l/-", "value": 3}], {"l": [1, 2]}, {"l": [1, 2, 3]}),
    ([{"op": "add", "path": "/l/0", "value": 0}], {"l": [1]}, {"l": [0, 1]}),
    ([{"op": "add", "path": "/l/1", "value": 9}], {"l": [1]}, {"l": [1, 9]}),  # index == len appends
    ([{"op": "add", "path": "/l/-1", "value": 9}], {"l": [1, 2]}, {"l": [1, 2, 9]}),  # from the grown end
    ([{"op": "add", "path": "/l/+0", "value": 9}], {"l": [1]}, {"l": [9, 1]}),  # strconv.Atoi takes a sign
    ([{"op": "add", "path": "/a"}], {}, {"a": None}),  # no value: null
    ([{"op": "replace", "path": "/missing", "value": 1}], {}, {"missing": 1}),  # partialDoc.get never fails
    ([{"op": "replace", "path": "", "value": {"b": 2}}], {"a": 1}, {"b": 2}),
    ([{"op": "remove", "path": "/a~1b"}], {"a/b": 1, "c": 2}, {"c": 2}),
    ([{"op": "remove", "path": "/l/-1"}], {"l": [1, 2]}, {"l": [1]}),
    ([{"op": "move", "from": "/a", "path": "/b"}], {"a": 1}, {"b": 1}),
    ([{"op": "copy", "from": "/a", "path": "/b"}], {"a": [1]}, {"a": [1], "b": [1]}),
    ([{"op": "test", "path": "/a", "value": {"x": [1]}}], {"a": {"x": [1]}}, {"a": {"x": [1]}}),
    ([{"op": "test", "path": "/missing"}], {}, {}),  # absent and no value: equal
])
def test_operations(ops, doc, expected) -> None:
    assert _apply(ops, doc) == expected


def test_the_document_is_not_changed_in_place() -> None:
    doc = {"a": {"b": 1}}
    _apply([{"op": "replace", "path": "/a/b", "value": 2}], doc)
    assert doc == {"a": {"b": 1}}


@pytest.mark.parametrize(("ops", "doc", "message"), [
    ([{"op": "add", "path": "/a/b", "value": 1}], {}, 'add operation does not apply: doc is missing path: "/a/b": '
                                                      "missing value"),
    ([{"op": "add", "value": 1}], {}, "add operation failed to decode path: missing value"),
    ([{"op": "add", "path": "/l/5", "value": 1}], {"l": []}, "error in add for path: '/l/5': Unable to access "
                                                             "invalid index: 5: invalid index referenced"),
    ([{"op": "add", "path": "/l/x", "value": 1}], {"l": []}, "error in add for path: '/l/x': value was not a proper "
                                                             "array index: 'x': strconv.Atoi: parsing \"x\": "
                                                             "invalid syntax"),
    ([{"op": "remove", "path": "/a"}], {}, "error in remove for path: '/a': Unable to remove nonexistent key: a: "
                                           "missing value"),
    ([{"op": "remove", "path": "/l/3"}], {"l": [1]}, "error in remove for path: '/l/3': Unable to access invalid "
                                                     "index: 3: invalid index referenced"),
    ([{"op": "replace", "path": "/l/3", "value": 1}], {"l": [1]}, "replace operation does not apply: doc is missing "
                                                                  "key: /l/3: missing value"),
    ([{"op": "replace", "path": "/a/b", "value": 1}], {}, "replace operation does not apply: doc is missing path: "
                                                          "/a/b: missing value"),
    ([{"op": "move", "path": "/b"}], {}, "move operation failed to decode from: operation, missing from field: "
                                         "missing value"),
    ([{"op": "test", "path": "/a", "value": 2}], {"a": 1}, "testing value /a failed: test failed"),
    ([{"op": "frobnicate", "path": "/a"}], {}, "Unexpected kind: frobnicate"),
    ([{"path": "/a"}], {}, "Unexpected kind: unknown"),
    ([None], {}, "Unexpected kind: unknown"),
])
def test_errors(ops, doc, message) -> None:
    with pytest.raises(jsonpatch.PatchError) as err:
        _apply(ops, doc)
    assert str(err.value) == message


@pytest.mark.parametrize(("data", "message"), [
    (b'{"op": "add"}', "json: cannot unmarshal object into Go value of type jsonpatch.Patch"),
    (b"[1]", "json: cannot unmarshal number into Go value of type jsonpatch.Operation"),
    (b"[", "unexpected end of JSON input"),
])
def test_decode_errors(data, message) -> None:
    with pytest.raises(jsonpatch.PatchError) as err:
        jsonpatch.decode(data)
    assert str(err.value) == message


def test_null_is_an_empty_patch() -> None:
    assert jsonpatch.decode(b"null") == []
