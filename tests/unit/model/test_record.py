"""Records (crdtool.model.record): a dataclass's repr, ==, hash and replace, without its cost at import."""

from __future__ import annotations

import pickle

import pytest

from crdtool.model.record import FrozenRecord, IdentityRecord, Record, replace


class Point(Record):
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int = 0) -> None:
        self.x = x
        self.y = y


class Point3(Point):
    __slots__ = ("z",)

    def __init__(self, x: int, y: int = 0, z: int = 0) -> None:
        super().__init__(x, y)
        self.z = z


class Key(FrozenRecord):
    __slots__ = ("group", "kind")

    def __init__(self, group: str, kind: str) -> None:
        self.group = group
        self.kind = kind


class Memoized(FrozenRecord):
    __slots__ = ("text", "_length")
    _derived = ("_length",)

    def __init__(self, text: str, _length: int | None = None) -> None:
        self.text = text
        self._length = _length


class Node(IdentityRecord):
    __slots__ = ("children",)

    def __init__(self, children: list[Node] | None = None) -> None:
        self.children = [] if children is None else children


class Cached(Record):
    __slots__ = ("name", "__dict__")

    def __init__(self, name: str) -> None:
        self.name = name


def test_fields_are_the_slots_in_order_base_first() -> None:
    assert Point3._fields == ("x", "y", "z")
    assert Cached._fields == ("name",)  # an instance dict is no field


def test_repr_names_every_field() -> None:
    assert repr(Point3(1, 2, 3)) == "Point3(x=1, y=2, z=3)"
    assert repr(Key("apps", "Deployment")) == "Key(group='apps', kind='Deployment')"


def test_equal_by_fields_and_class() -> None:
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(1, 3)
    assert Point3(1, 2, 0) != Point(1, 2)  # another class, as a dataclass compares
    assert Point(1) != (1, 0)


def test_a_record_is_unhashable_a_frozen_record_hashes_by_its_fields() -> None:
    with pytest.raises(TypeError):
        hash(Point(1))
    assert hash(Key("apps", "Deployment")) == hash(Key("apps", "Deployment"))
    assert {Key("apps", "Deployment"): 1}[Key("apps", "Deployment")] == 1


def test_an_identity_record_is_itself_only() -> None:
    a, b = Node(), Node()
    assert a != b and a == a and len({a, b, a}) == 2
    assert repr(Node()) == "Node(children=[])"


def test_derived_fields_are_neither_shown_compared_nor_hashed() -> None:
    asked = Memoized("abc", _length=3)
    assert asked == Memoized("abc") and hash(asked) == hash(Memoized("abc"))
    assert repr(asked) == "Memoized(text='abc')"


def test_replace_makes_a_new_record_through_init() -> None:
    p = Point3(1, 2, 3)
    q = replace(p, y=5)
    assert q == Point3(1, 5, 3) and p == Point3(1, 2, 3) and type(q) is Point3
    with pytest.raises(TypeError, match="no field 'w'"):
        replace(p, w=1)


def test_records_pickle() -> None:
    c = Cached("a")
    c.__dict__["memo"] = 1
    back = pickle.loads(pickle.dumps(c))
    assert back == c and back.__dict__ == {"memo": 1}
    assert pickle.loads(pickle.dumps(Point3(1, 2, 3))) == Point3(1, 2, 3)
    assert pickle.loads(pickle.dumps(Key("a", "B"))) == Key("a", "B")
