"""The checked AST of a compiled rule, decoded from cel-expr-python's serialized `cel.expr.CheckedExpr`.

The cost estimator walks it: node kinds, call functions and overload ids, comprehension parts and the
type the checker gave each node. No Python package carries cel-spec's protobuf classes, so this is a
small reader of the protobuf wire format for the fields it needs (field numbers from cel-spec's
syntax.proto and checked.proto).
"""

from __future__ import annotations

import struct
from functools import lru_cache

from crdtool.model.record import Record

__all__ = ["CheckedAst", "Node", "decode"]

# cel.expr.Type: PrimitiveType enum values and the type_kind oneof's field numbers.
_PRIMITIVES = {1: "bool", 2: "int", 3: "uint", 4: "double", 5: "string", 6: "bytes"}
_WELL_KNOWN = {1: "any", 2: "timestamp", 3: "duration"}


def _fields(buf: bytes) -> dict[int, list]:
    """The fields of one message: number -> values (ints for varints and fixed, bytes for the rest).

    Most keys, small ints and lengths take one byte: those are read inline (a checked rule is decoded
    whenever it is costed, so this loop is a good part of compiling a CRD's rules)."""
    out: dict[int, list] = {}
    pos, end = 0, len(buf)
    while pos < end:
        key = buf[pos]
        if key & 0x80:
            key, pos = _varint(buf, pos)
        else:
            pos += 1
        wire = key & 7
        if wire == 0 or wire == 2:  # a varint: the value, or the length of the bytes that follow
            value = buf[pos]
            if value & 0x80:
                value, pos = _varint(buf, pos)
            else:
                pos += 1
            if wire == 2:
                value, pos = buf[pos:pos + value], pos + value
        elif wire == 1:
            value = buf[pos:pos + 8]
            pos += 8
        elif wire == 5:
            value = buf[pos:pos + 4]
            pos += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        values = out.get(key >> 3)
        if values is None:
            out[key >> 3] = [value]
        else:
            values.append(value)
    return out


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _signed(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def _one(fields: dict[int, list], number: int, default=None):
    values = fields.get(number)
    return values[-1] if values else default


def _text(fields: dict[int, list], number: int) -> str:
    value = _one(fields, number, b"")
    return value.decode() if isinstance(value, bytes) else ""


class Node(Record):
    """One expression node. `kind`: const, ident, select, call, list, map, struct, comprehension."""

    __slots__ = ("id", "kind", "name", "test_only", "target", "args", "keys", "optional", "const", "iter_var",
                 "iter_var2", "accu_var", "iter_range", "accu_init", "loop_condition", "loop_step", "result")

    id: int
    kind: str
    name: str  # ident name, select field, call function
    test_only: bool  # select: has()
    target: Node | None  # select operand, member call target
    args: list[Node]  # call args, list elements, map/struct values
    keys: list[Node]  # map keys, beside their values in `args`
    optional: frozenset[int]  # list elements and map entries marked optional (`?`), by index
    const: object  # const value (str, bytes, int, float, bool, None)
    # Comprehension parts.
    iter_var: str
    iter_var2: str
    accu_var: str
    iter_range: Node | None
    accu_init: Node | None
    loop_condition: Node | None
    loop_step: Node | None
    result: Node | None

    def __init__(self, id: int, kind: str, name: str = "", test_only: bool = False,
                 target: Node | None = None, args: list[Node] | None = None, keys: list[Node] | None = None,
                 optional: frozenset[int] = frozenset(), const: object = None, iter_var: str = "",
                 iter_var2: str = "", accu_var: str = "", iter_range: Node | None = None,
                 accu_init: Node | None = None, loop_condition: Node | None = None,
                 loop_step: Node | None = None, result: Node | None = None) -> None:
        self.id = id
        self.kind = kind
        self.name = name
        self.test_only = test_only
        self.target = target
        self.args = [] if args is None else args
        self.keys = [] if keys is None else keys
        self.optional = optional
        self.const = const
        self.iter_var = iter_var
        self.iter_var2 = iter_var2
        self.accu_var = accu_var
        self.iter_range = iter_range
        self.accu_init = accu_init
        self.loop_condition = loop_condition
        self.loop_step = loop_step
        self.result = result


class CheckedAst(Record):
    __slots__ = ("root", "types", "overloads", "references", "source_info", "_positions")
    _derived = ("_positions",)  # decoded from `source_info` when first asked

    root: Node
    types: dict[int, tuple]  # node id -> ("list", elem) | ("map", key, value) | ("message", name) | (name,)
    overloads: dict[int, list[str]]  # call node id -> overload ids
    references: dict[int, str]  # ident node id -> the declaration it resolved to
    #: The serialized SourceInfo, decoded into `positions` when first asked: only an error's place needs them.
    source_info: bytes
    _positions: dict[int, int] | None

    def __init__(self, root: Node, types: dict[int, tuple], overloads: dict[int, list[str]],
                 references: dict[int, str], source_info: bytes = b"",
                 _positions: dict[int, int] | None = None) -> None:
        self.root = root
        self.types = types
        self.overloads = overloads
        self.references = references
        self.source_info = source_info
        self._positions = _positions

    @classmethod
    def assembled(cls, root: Node, types: dict[int, tuple], overloads: dict[int, list[str]],
                  references: dict[int, str], positions: dict[int, int]) -> CheckedAst:
        """A tree put together from others (crdtool.cel.deep's pieces), its positions already known."""
        return cls(root, types, overloads, references, _positions=positions)

    @property
    def positions(self) -> dict[int, int]:
        """Node id -> code point offset in the source."""
        if self._positions is None:
            self._positions = {}
            for entry in _fields(self.source_info).get(4, []):
                e = _fields(entry)
                self._positions[_signed(_one(e, 1, 0))] = _signed(_one(e, 2, 0))
        return self._positions

    def type_kind(self, node: Node) -> str:
        t = self.types.get(node.id)
        return t[0] if t else "dyn"


def decode(serialized: bytes) -> CheckedAst:
    """The CheckedExpr inside the google.protobuf.Any that `Expression.serialize()` returns."""
    any_fields = _fields(serialized)
    checked = _fields(_one(any_fields, 2, b""))
    types: dict[int, tuple] = {}
    for entry in checked.get(3, []):
        node_id, type_ = _type_entry(entry)
        types[node_id] = type_
    overloads: dict[int, list[str]] = {}
    references: dict[int, str] = {}
    for entry in checked.get(2, []):
        node_id, ids, name = _reference_entry(entry)
        if ids:
            overloads[node_id] = list(ids)
        else:
            references[node_id] = name
    return CheckedAst(_expr(_one(checked, 4, b"")), types, overloads, references, bytes(_one(checked, 5, b"")))


@lru_cache(maxsize=8192)
def _type_entry(entry: bytes) -> tuple[int, tuple]:
    """An entry of the type map: (node id, type). Memoized: rules repeat the same entries (node 1 is a
    bool, node 2 `self`'s message), and most of a checked tree's bytes are its types."""
    e = _fields(entry)
    return _signed(_one(e, 1, 0)), _type(_one(e, 2, b""))


@lru_cache(maxsize=8192)
def _reference_entry(entry: bytes) -> tuple[int, tuple[str, ...], str]:
    """An entry of the reference map: (node id, overload ids, the name of an identifier's declaration)."""
    e = _fields(entry)
    ref = _fields(_one(e, 2, b""))
    return _signed(_one(e, 1, 0)), tuple(v.decode() for v in ref.get(3, [])), _text(ref, 1)


def _type(buf: bytes) -> tuple:
    f = _fields(buf)
    if 3 in f:
        return (_PRIMITIVES.get(_one(f, 3), "dyn"),)
    if 4 in f:
        return ("wrapper", _PRIMITIVES.get(_one(f, 4), "dyn"))
    if 5 in f:
        return (_WELL_KNOWN.get(_one(f, 5), "dyn"),)
    if 6 in f:
        return ("list", _type(_one(_fields(_one(f, 6)), 1, b"")))
    if 7 in f:
        m = _fields(_one(f, 7))
        return ("map", _type(_one(m, 1, b"")), _type(_one(m, 2, b"")))
    if 9 in f:
        return ("message", _one(f, 9).decode())
    if 10 in f:
        return ("type_param", _one(f, 10).decode())
    if 2 in f:
        return ("null",)
    if 11 in f:
        param = _one(f, 11)
        return ("type", _type(param)) if param else ("type",)
    if 12 in f:
        return ("error",)
    if 14 in f:
        a = _fields(_one(f, 14))
        return ("abstract", _text(a, 1), *[_type(p) for p in a.get(2, [])])
    return ("dyn",)


def _expr(buf: bytes) -> Node:
    f = _fields(buf)
    node_id = _signed(_one(f, 2, 0))
    if 3 in f:
        return Node(node_id, "const", const=_constant(_one(f, 3)))
    if 4 in f:
        return Node(node_id, "ident", name=_text(_fields(_one(f, 4)), 1))
    if 5 in f:
        s = _fields(_one(f, 5))
        return Node(node_id, "select", name=_text(s, 2), test_only=bool(_one(s, 3, 0)),
                    target=_expr(_one(s, 1, b"")))
    if 6 in f:
        c = _fields(_one(f, 6))
        target = _one(c, 1)
        return Node(node_id, "call", name=_text(c, 2), target=_expr(target) if target is not None else None,
                    args=[_expr(a) for a in c.get(3, [])])
    if 7 in f:
        create = _fields(_one(f, 7))
        return Node(node_id, "list", args=[_expr(a) for a in create.get(1, [])],
                    optional=frozenset(_packed(create.get(2, []))))
    if 8 in f:
        s = _fields(_one(f, 8))
        values, keys, optional = [], [], set()
        for i, entry in enumerate(s.get(2, [])):
            e = _fields(entry)
            values.append(_expr(_one(e, 4, b"")))
            if 3 in e:
                keys.append(_expr(_one(e, 3)))
            if _one(e, 5, 0):
                optional.add(i)
        return Node(node_id, "map" if not _text(s, 1) else "struct", name=_text(s, 1), args=values, keys=keys,
                    optional=frozenset(optional))
    if 9 in f:
        c = _fields(_one(f, 9))
        return Node(node_id, "comprehension", iter_var=_text(c, 1), iter_var2=_text(c, 8), accu_var=_text(c, 3),
                    iter_range=_expr(_one(c, 2, b"")), accu_init=_expr(_one(c, 4, b"")),
                    loop_condition=_expr(_one(c, 5, b"")), loop_step=_expr(_one(c, 6, b"")),
                    result=_expr(_one(c, 7, b"")))
    return Node(node_id, "unspecified")


def _packed(values: list) -> list[int]:
    """A repeated int32 field's values, packed (bytes) or not (ints)."""
    out: list[int] = []
    for v in values:
        if isinstance(v, int):
            out.append(v)
            continue
        pos = 0
        while pos < len(v):
            n, pos = _varint(v, pos)
            out.append(n)
    return out


def _constant(buf: bytes):
    f = _fields(buf)
    if 6 in f:
        return _one(f, 6).decode()
    if 7 in f:
        return bytes(_one(f, 7))
    if 2 in f:
        return bool(_one(f, 2))
    if 3 in f:
        return _signed(_one(f, 3))
    if 4 in f:
        return _one(f, 4)
    if 5 in f:
        return struct.unpack("<d", _one(f, 5))[0]
    if 8 in f or 9 in f:
        return 0
    return None
