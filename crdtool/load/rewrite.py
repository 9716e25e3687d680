"""`--write`: rewrite input files in place with ruamel.yaml's round trip (comments, order and
quoting kept), atomically, and only when something changed."""

from __future__ import annotations

import io
import os
import re
import tempfile
from typing import Any

from crdtool.load.document import InputError

_SEQUENCE_ITEM = re.compile(r"^( *)- ")
_KEY_LINE = re.compile(r"^( *)[^#\s-][^#]*:\s*(#.*)?$")


def _round_trip(text: str):
    """ruamel.yaml set up to write as the file is written (its sequence indentation kept)."""
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.allow_duplicate_keys = True  # the value read (the last) is set on the first key; the rest go
    offset = _sequence_offset(text)
    y.indent(mapping=2, sequence=offset + 2, offset=offset)
    return y


def _sequence_offset(text: str) -> int:
    """How far the file indents a block sequence's dash under its key (`key:\n  - a` is 2)."""
    previous = None
    for line in text.splitlines():
        item = _SEQUENCE_ITEM.match(line)
        if item and previous:
            return max(0, len(item.group(1)) - len(previous.group(1)))
        if line.strip() and not line.lstrip().startswith("#"):
            previous = _KEY_LINE.match(line)
    return 0


def sync(node: Any, before: Any, after: Any) -> Any:
    """Make a round-trip node, read as `before`, equal to `after`; only what differs is touched (a value
    that did not change keeps its spelling, e.g. `y` that the apiserver reads as true); returns the
    node to keep."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if before == after and type(before) is type(after):
        return node
    if isinstance(after, dict) and isinstance(before, dict) and isinstance(node, CommentedMap):
        for key in [k for k in node if k not in after]:
            del node[key]
        for key, value in after.items():
            node[key] = sync(node[key], before[key], value) if key in node and key in before else value
        return node
    if (isinstance(after, list) and isinstance(before, list) and isinstance(node, CommentedSeq)
            and len(node) == len(before) == len(after)):
        for i, value in enumerate(after):
            node[i] = sync(node[i], before[i], value)
        return node
    return after


def rewrite(path: str, targets: dict[int | tuple[int, int], tuple[Any, Any]]) -> bool:
    """Change documents of a file from how crdtool read them to new values: `targets` maps a
    document's index, or (index, item) for an item of a `kind: List`, to (as read, new value).
    False when nothing changed."""
    if path in ("-", "<stdin>"):
        raise InputError(path, "--write cannot rewrite standard input")
    from ruamel.yaml import YAMLError

    with open(path, encoding="utf-8") as f:
        original = f.read()
    y = _round_trip(original)
    try:
        docs = list(y.load_all(original))
    except YAMLError as err:
        raise InputError(path, f"cannot rewrite the file: {err}") from err
    for key, (before, after) in targets.items():
        if isinstance(key, tuple):
            index, item = key
            docs[index]["items"][item] = sync(docs[index]["items"][item], before, after)
        else:
            docs[key] = sync(docs[key], before, after)
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
