#!/usr/bin/env python3
"""Write crdtool/cel/pool_files.py: the descriptor files of the rules' evaluation environment, serialized.

    python scripts/gen_pool_files.py > crdtool/cel/pool_files.py

They are protobuf's well-known types struct, timestamp and duration, as google.protobuf's *_pb2
modules declare them, and the Kubernetes libraries' opaque types (crdtool.cel.library.opaque). With
them written out, a run that only evaluates rules fills its descriptor pool from bytes and imports
neither protobuf's descriptor messages (descriptor_pb2) nor the well-known types' modules.
tests/unit/cel/test_pool_files.py checks the file against what those modules make.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def serialized_files() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """(well-known, opaque) files, each a serialized FileDescriptorProto."""
    from google.protobuf import duration_pb2, struct_pb2, timestamp_pb2

    from crdtool.cel.library import opaque

    well_known = tuple(module.DESCRIPTOR.serialized_pb for module in (struct_pb2, timestamp_pb2, duration_pb2))
    opaque_files = tuple(proto.SerializeToString(deterministic=True) for proto in opaque.descriptor_files())
    return well_known, opaque_files


def _literal(data: bytes) -> list[str]:
    """`bytes.fromhex(...)` of `data`, 96 hex digits a line."""
    text = data.hex()
    pieces = [text[i:i + 96] for i in range(0, len(text), 96)]
    return ["    bytes.fromhex(", *(f'        "{piece}"' for piece in pieces), "    ),"]


def render() -> str:
    well_known, opaque_files = serialized_files()
    lines = ['"""The descriptor files of the rules\' evaluation environment (environment.library_pool), serialized:',
             "protobuf's well-known types struct, timestamp and duration, and the Kubernetes libraries' opaque",
             "types. Written by scripts/gen_pool_files.py: do not edit.", '"""', "",
             "WELL_KNOWN = ("]
    for data in well_known:
        lines += _literal(data)
    lines += [")", "OPAQUE = ("]
    for data in opaque_files:
        lines += _literal(data)
    lines += [")", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(render())
