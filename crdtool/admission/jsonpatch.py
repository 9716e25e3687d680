"""JSON Patch as the apiserver applies a mutating webhook's patch: gopkg.in/evanphx/json-patch.v4
(DecodePatch, then Patch.Apply on the object's JSON), with its error texts.

Its semantics differ from RFC 6902 where its code does: `replace` of an absent object key adds
it (partialDoc.get never fails), a missing `value` is JSON null, an array index is read by Go's
strconv.Atoi (`+1`, `01`), negative indices count from the end, `-` appends on `add` only, and an
operation with no or an unknown `op` fails with `Unexpected kind: ...`.
"""

from __future__ import annotations

import json
from typing import Any

from crdtool.model import gojson
from crdtool.model.gofmt import go_json_kind
from crdtool.model.gounquote import replace_lone_surrogate_escapes
from crdtool.model.jsonvalue import deep_equal, json_copy

__all__ = ["PatchError", "apply", "decode"]

_MISSING = "missing value"
_INVALID_INDEX = "invalid index referenced"
_TEST_FAILED = "test failed"
_ABSENT = object()  # an operation member that is not there


class PatchError(Exception):
    """The patch does not decode or does not apply: the text is Go's error."""


def decode(data: bytes) -> list[dict[str, Any] | None]:
    """jsonpatch.DecodePatch: the operations of a JSON array of objects (null ones kept)."""
    problem = gojson.syntax_error(data)
    if problem is not None:
        raise PatchError(problem)
    value = json.loads(replace_lone_surrogate_escapes(data.decode("utf-8", "replace")))
    if value is None:
        return []
    if not isinstance(value, list):
        raise PatchError(f"json: cannot unmarshal {go_json_kind(value)} into Go value of type jsonpatch.Patch")
    for op in value:
        if op is not None and not isinstance(op, dict):
            raise PatchError(f"json: cannot unmarshal {go_json_kind(op)} into Go value of type jsonpatch.Operation")
    return value


def _string_member(op: dict[str, Any], name: str) -> str | None:
    """A member read as Go's Operation.Path/From does: None when absent or null; PatchError when not a string."""
    value = op.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise PatchError(f"json: cannot unmarshal {go_json_kind(value)} into Go value of type string")
    return value


def _kind(op: dict[str, Any] | None) -> str:
    if op is None or not isinstance(op.get("op"), str):
        return "unknown"
    return str(op["op"])


def _atoi(key: str) -> int:
    """strconv.Atoi, with its error text."""
    body = key[1:] if key[:1] in "+-" else key
    if not body or not body.isascii() or not body.isdigit():
        raise PatchError(f'strconv.Atoi: parsing "{key}": invalid syntax')
    return int(key)


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


class _Doc:
    """The document being patched, held in a one-element box so that a root `replace` can swap it."""

    def __init__(self, value: Any) -> None:
        self.root = value

    def find(self, path: str) -> tuple[Any, str] | None:
        """findObject: the container of the path's last part and that part, or None."""
        split = path.split("/")
        if len(split) < 2:
            return None
        node = self.root
        for part in split[1:-1]:
            try:
                child = _get(node, _unescape(part))
            except PatchError:
                return None
            if not isinstance(child, (dict, list)):
                return None
            node = child
        return node, _unescape(split[-1])


def _index(container: list[Any], key: str, size: int) -> int:
    idx = _atoi(key)
    if idx < 0:
        if idx < -size:
            raise PatchError(f"Unable to access invalid index: {idx}: {_INVALID_INDEX}")
        idx += size
    return idx


def _get(container: Any, key: str) -> Any:
    """container.get: an object's absent key is None (no error); an array's index must exist."""
    if isinstance(container, dict):
        return container.get(key)
    idx = _index(container, key, len(container))
    if idx >= len(container):
        raise PatchError(f"Unable to access invalid index: {idx}: {_INVALID_INDEX}")
    return container[idx]


def _add(container: Any, key: str, value: Any) -> None:
    if isinstance(container, dict):
        container[key] = value
        return
    if key == "-":
        container.append(value)
        return
    try:
        idx = _atoi(key)
    except PatchError as err:
        raise PatchError(f"value was not a proper array index: '{key}': {err}") from None
    size = len(container) + 1
    if idx >= size:
        raise PatchError(f"Unable to access invalid index: {idx}: {_INVALID_INDEX}")
    if idx < 0:
        if idx < -size:
            raise PatchError(f"Unable to access invalid index: {idx}: {_INVALID_INDEX}")
        idx += size
    container.insert(idx, value)


def _set(container: Any, key: str, value: Any) -> None:
    if isinstance(container, dict):
        container[key] = value
        return
    container[_index(container, key, len(container))] = value


def _remove(container: Any, key: str) -> None:
    if isinstance(container, dict):
        if key not in container:
            raise PatchError(f"Unable to remove nonexistent key: {key}: {_MISSING}")
        del container[key]
        return
    idx = _atoi(key)
    if idx >= len(container):
        raise PatchError(f"Unable to access invalid index: {idx}: {_INVALID_INDEX}")
    idx = _index(container, key, len(container))
    del container[idx]


def _path(op: dict[str, Any], what: str) -> str:
    try:
        path = _string_member(op, "path")
    except PatchError as err:
        raise PatchError(f"{what} operation failed to decode path: {err}") from None
    if path is None:
        raise PatchError(f"{what} operation failed to decode path: operation missing path field: {_MISSING}")
    return path


def _from(op: dict[str, Any], what: str) -> str:
    try:
        source = _string_member(op, "from")
    except PatchError as err:
        raise PatchError(f"{what} operation failed to decode from: {err}") from None
    if source is None:
        raise PatchError(f"{what} operation failed to decode from: operation, missing from field: {_MISSING}")
    return source


def _located(doc: _Doc, op: dict[str, Any], name: str) -> tuple[str, tuple[Any, str]]:
    """The path of an add or remove and where it points, both failures in evanphx's words for these two
    operations (replace, move, copy and test word theirs differently)."""
    try:
        path = _path(op, name)
    except PatchError:
        raise PatchError(f"{name} operation failed to decode path: {_MISSING}") from None
    found = doc.find(path)
    if found is None:
        raise PatchError(f'{name} operation does not apply: doc is missing path: "{path}": {_MISSING}')
    return path, found


def _apply_add(doc: _Doc, op: dict[str, Any]) -> None:
    path, found = _located(doc, op, "add")
    try:
        _add(*found, json_copy(op.get("value")))
    except PatchError as err:
        raise PatchError(f"error in add for path: '{path}': {err}") from None


def _apply_remove(doc: _Doc, op: dict[str, Any]) -> None:
    path, found = _located(doc, op, "remove")
    try:
        _remove(*found)
    except PatchError as err:
        raise PatchError(f"error in remove for path: '{path}': {err}") from None


def _apply_replace(doc: _Doc, op: dict[str, Any]) -> None:
    path = _path(op, "replace")
    value = json_copy(op.get("value"))
    if path == "":
        if not isinstance(value, (dict, list)):
            raise PatchError("replace operation value must be object or array: %!w(<nil>)")
        doc.root = value
        return
    found = doc.find(path)
    if found is None:
        raise PatchError(f"replace operation does not apply: doc is missing path: {path}: {_MISSING}")
    container, key = found
    try:
        _get(container, key)
    except PatchError:
        raise PatchError(f"replace operation does not apply: doc is missing key: {path}: {_MISSING}") from None
    try:
        _set(container, key, value)
    except PatchError as err:
        raise PatchError(f"error in remove for path: '{path}': {err}") from None


def _apply_move(doc: _Doc, op: dict[str, Any]) -> None:
    source = _from(op, "move")
    found = doc.find(source)
    if found is None:
        raise PatchError(f"move operation does not apply: doc is missing from path: {source}: {_MISSING}")
    container, key = found
    try:
        value = _get(container, key)
        _remove(container, key)
    except PatchError as err:
        raise PatchError(f"error in move for path: '{key}': {err}") from None
    path = _path(op, "move")
    found = doc.find(path)
    if found is None:
        raise PatchError(f"move operation does not apply: doc is missing destination path: {path}: {_MISSING}")
    try:
        _add(*found, value)
    except PatchError as err:
        raise PatchError(f"error in move for path: '{path}': {err}") from None


def _apply_test(doc: _Doc, op: dict[str, Any]) -> None:
    path = _path(op, "test")
    expected = op.get("value", _ABSENT)
    if path == "":
        if expected is _ABSENT or not deep_equal(doc.root, expected):
            raise PatchError(f"testing value {path} failed: {_TEST_FAILED}")
        return
    found = doc.find(path)
    if found is None:
        raise PatchError(f"test operation does not apply: is missing path: {path}: {_MISSING}")
    try:
        actual = _get(*found)
    except PatchError as err:
        raise PatchError(f"error in test for path: '{path}': {err}") from None
    if actual is None and (expected is _ABSENT or expected is None):
        return
    if expected is _ABSENT or not deep_equal(actual, expected):
        raise PatchError(f"testing value {path} failed: {_TEST_FAILED}")


def _apply_copy(doc: _Doc, op: dict[str, Any]) -> None:
    source = _from(op, "copy")
    found = doc.find(source)
    if found is None:
        raise PatchError(f"copy operation does not apply: doc is missing from path: {source}: {_MISSING}")
    try:
        value = _get(*found)
    except PatchError as err:
        raise PatchError(f"error in copy for from: '{source}': {err}") from None
    try:
        path = _path(op, "copy")
    except PatchError:
        raise PatchError(f"copy operation failed to decode path: {_MISSING}") from None
    found = doc.find(path)
    if found is None:
        raise PatchError(f"copy operation does not apply: doc is missing destination path: {path}: {_MISSING}")
    try:
        _add(*found, json_copy(value))
    except PatchError as err:
        raise PatchError(f"error while adding value during copy: {err}") from None


_OPERATIONS = {"add": _apply_add, "remove": _apply_remove, "replace": _apply_replace, "move": _apply_move,
               "test": _apply_test, "copy": _apply_copy}


def apply(operations: list[dict[str, Any] | None], obj: Any) -> Any:
    """Patch.Apply: the patched copy of `obj` (PatchError at the first operation that fails)."""
    doc = _Doc(json_copy(obj))
    for op in operations:
        handler = _OPERATIONS.get(_kind(op))
        if handler is None or op is None:
            raise PatchError(f"Unexpected kind: {_kind(op)}")
        handler(doc, op)
    return doc.root
