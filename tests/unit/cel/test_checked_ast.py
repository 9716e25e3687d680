"""The protobuf wire-format reader behind checked_ast: keys, varints and lengths of every width."""

from __future__ import annotations

from cel_expr_python import cel

from crdtool.cel.checked_ast import _fields, decode


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def test_fields_of_one_and_several_byte_keys_varints_and_lengths() -> None:
    long_text = b"x" * 300  # a length of two bytes
    buf = (_varint(1 << 3 | 0) + _varint(5)  # one-byte key and varint
           + _varint(2 << 3 | 0) + _varint(300)  # a varint of two bytes
           + _varint(3 << 3 | 2) + _varint(len(long_text)) + long_text
           + _varint(20 << 3 | 2) + _varint(2) + b"ab"  # a key of two bytes (field 20)
           + _varint(1 << 3 | 0) + _varint((1 << 64) - 1)  # repeated, ten bytes
           + _varint(4 << 3 | 1) + b"12345678" + _varint(5 << 3 | 5) + b"1234")
    assert _fields(buf) == {1: [5, (1 << 64) - 1], 2: [300], 3: [long_text], 20: [b"ab"], 4: [b"12345678"],
                            5: [b"1234"]}


def test_a_checked_expression_decodes_to_its_tree_and_types() -> None:
    env = cel.NewEnv(variables={"self": cel.Type.List(cel.Type.INT)})
    # enough nodes for ids and lengths past one byte
    text = " && ".join(f"self.all(x, x > {n})" for n in range(40))
    ast = decode(env.compile(text).serialize())
    assert ast.root.kind == "call" and ast.root.name == "_&&_"
    comprehensions, stack = [], [ast.root]
    while stack:
        node = stack.pop()
        if node.kind == "comprehension":
            comprehensions.append(node)
        stack.extend(n for n in (node.target, node.iter_range, node.loop_step, *node.args) if n is not None)
    assert len(comprehensions) == 40 and {c.iter_var for c in comprehensions} == {"x"}
    assert ast.types[ast.root.id] == ("bool",)
    assert sorted(ast.positions.values())[-1] > 128
