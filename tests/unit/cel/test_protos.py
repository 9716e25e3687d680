"""Object types as protobuf messages: wide objects and long property names (crdtool.cel.protos)."""

from __future__ import annotations

import pytest

from crdtool.cel.protos import WIDE, UndeclarableError, build_schema_types, selectable_names
from crdtool.cel.types import DeclField, DeclType


def _object(names: list[str], kind: str = "string") -> DeclType:
    def field_type() -> DeclType:
        return DeclType("list", elem_type=DeclType("string")) if kind == "list" else DeclType(kind)
    return DeclType("object", fields={n: DeclField(n, n, field_type()) for n in names})


def _root(types):
    """The message of the object type itself (the one the apiserver names `selfType<N>`)."""
    full = next(full for full, name in types.type_names.items() if "." not in name)
    return types.pool.FindMessageTypeByName(full)


def test_selectable_names_are_every_identifier_of_the_expressions() -> None:
    assert selectable_names(["self.a_b.c2 == oldSelf.x__dash__y", "has(self.`q`)"]) == frozenset(
        {"self", "a_b", "c2", "oldSelf", "x__dash__y", "has", "q"})


def test_a_narrow_object_declares_every_field_without_a_oneof() -> None:
    names = [f"p{i}" for i in range(WIDE)]
    message = _root(build_schema_types(_object(names), names=frozenset({"p1"})))
    assert [f.name for f in message.fields] == names
    assert not message.oneofs


def test_a_wide_object_declares_the_named_fields_sharing_storage() -> None:
    names = [f"p{i}" for i in range(70_000)]
    named = frozenset(names[::7])
    types = build_schema_types(_object(names), names=named)
    message = _root(types)
    assert [f.name for f in message.fields] == names[::7]
    assert [f.name for f in message.oneofs[0].fields] == names[::7]


def test_list_fields_of_a_wide_object_stay_outside_the_oneof() -> None:
    names = [f"a{i}" for i in range(WIDE + 1)]
    types = build_schema_types(_object(names, "list"), names=frozenset(names))
    message = _root(types)
    assert len(message.fields) == WIDE + 1
    assert not message.oneofs


def test_without_names_a_wide_object_declares_every_field() -> None:
    names = [f"p{i}" for i in range(5000)]
    types = build_schema_types(_object(names))
    assert len(_root(types).fields) == 5000


def test_a_long_name_is_declared_only_when_named_and_then_refused() -> None:
    long_name = "y" * 30_000
    types = build_schema_types(_object(["a", long_name]), names=frozenset({"a"}))
    assert [f.name for f in _root(types).fields] == ["a"]
    with pytest.raises(UndeclarableError, match=r"^a property name longer than \d+ characters$"):
        build_schema_types(_object(["a", long_name]), names=frozenset({long_name}))


def test_what_protobuf_cannot_lay_out_is_undeclarable() -> None:
    names = [f"a{i}" for i in range(9000)]
    with pytest.raises(UndeclarableError, match="^Message size exceeded maximum size of 65535 bytes$"):
        build_schema_types(_object(names, "list"), names=frozenset(names))
