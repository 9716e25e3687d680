"""`--write`: rewrite input files in place with ruamel.yaml's round trip (comments, order and
quoting kept), atomically, and only when something changed."""

from __future__ import annotations

import io
import os
import tempfile
from typing import Any

from crdtool.load.document import InputError


def _round_trip():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.allow_duplicate_keys = True  # the value read (the last) is set on the first key; the rest go
    return y


def sync(node: Any, target: Any) -> Any:
    """Make a round-trip node equal to `target`, touching only what differs; returns the node to keep."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(target, dict) and isinstance(node, CommentedMap):
        for key in [k for k in node if k not in target]:
            del node[key]
        for key, value in target.items():
            node[key] = sync(node[key], value) if key in node else value
        return node
    if isinstance(target, list) and isinstance(node, CommentedSeq) and len(node) == len(target):
        for i, value in enumerate(target):
            node[i] = sync(node[i], value)
        return node
    if node == target and type(node) is type(target):
        return node
    return target


def rewrite(path: str, targets: dict[int, Any]) -> bool:
    """Set documents (by index) of a file to the target values; False when nothing changed."""
    if path in ("-", "<stdin>"):
        raise InputError(path, "--write cannot rewrite standard input")
    from ruamel.yaml import YAMLError

    y = _round_trip()
    with open(path, encoding="utf-8") as f:
        original = f.read()
    try:
        docs = list(y.load_all(original))
    except YAMLError as err:
        raise InputError(path, f"cannot rewrite the file: {err}") from err
    for index, target in targets.items():
        docs[index] = sync(docs[index], target)
    out = io.StringIO()
    y.dump_all(docs, out)
    text = out.getvalue()
    if text == original:
        return False
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".crdtool-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True
