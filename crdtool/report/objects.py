"""Objects as `-o yaml|json` prints them (prune, default, convert): one JSON value (a `List` of
several), or YAML documents in the objects' own key order."""

from __future__ import annotations

import json
from typing import IO, Any


def _shallower_than(value: Any, limit: int) -> bool:
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > limit:
            return False
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else ())]
    return True


def print_objects(objects: list, output: str, stream: IO[str]) -> None:
    """`objects` as `output` ("yaml" or "json") on `stream`."""
    if output == "json":
        from crdtool.model.gofmt import go_json_data

        objects = go_json_data(objects)
        value = objects[0] if len(objects) == 1 else {"apiVersion": "v1", "kind": "List", "items": objects}
        # json's indenting encoder is pure Python and quadratic in the depth: deep objects come out compact
        indent = 2 if _shallower_than(value, 200) else None
        stream.write(json.dumps(value, indent=indent, ensure_ascii=False) + "\n")
        return
    from crdtool.report.diff import to_yaml

    stream.write("---\n".join(to_yaml(o) for o in objects))
