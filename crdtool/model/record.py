"""Records: classes of named fields that cost no more to create than a plain class.

A dataclass compiles its `__init__`, `__repr__`, `__eq__` (and, frozen, `__setattr__`, `__delattr__`,
`__hash__`) from generated source when its class statement runs: 0.5 to 2 ms a class on a small
machine, paid by every run that imports it. The records on the start-up path of every run (documents,
results, findings, errors, the validate path's schemas, requests and compiled rules) are Records
instead, which take some 20 µs: the fields are the class's `__slots__`, its `__init__` is written out,
and this base gives it a dataclass's `repr`, `==` and, for a FrozenRecord, hash, from the fields.
Records off that path stay dataclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

__all__ = ["FrozenRecord", "IdentityRecord", "Record", "replace"]

R = TypeVar("R", bound="Record")


class Record:
    """A record whose fields are its classes' `__slots__`, in declaration order (a base class's first).
    Two records are equal when they are of the same class and their fields are equal; a Record is
    not hashable (Python unsets `__hash__` where `__eq__` is defined), as a dataclass with `==` is not."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    #: Fields that keep what the others make, once asked (a dataclass's `field(repr=False, compare=False)`):
    #: not shown, compared nor hashed.
    _derived: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = tuple(name for klass in reversed(cls.__mro__) for name in klass.__dict__.get("__slots__", ())
                            if not name.startswith("__"))  # a `__dict__` slot (for cached properties) is no field
        cls._compared = tuple(name for name in cls._fields if name not in cls._derived)

    @classmethod
    def _remade(cls, **fields: Any) -> Any:
        """The record `replace` makes from all of a record's fields: one of its class, made by its `__init__`."""
        return cls(**fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._compared)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._compared)


class FrozenRecord(Record):
    """A record that is not changed once made, so that it can be hashed by its fields (a set member,
    a dict key, a cached function's argument), as a frozen dataclass is."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self._compared))


class IdentityRecord(Record):
    """A record that is compared and hashed by identity, not by its fields: schema nodes, CEL types and
    served versions, which are built once and then found by identity (model/memo.IdentityMemo), and whose
    fields are large trees that `==` would walk."""

    __slots__ = ()
    __eq__ = object.__eq__
    __hash__ = object.__hash__


def replace(record: R, **changes: Any) -> R:
    """A new record of `record`'s class, with `changes` to its fields (made by its `__init__`, as
    `dataclasses.replace` makes a dataclass's; a class whose records hold more than their fields says
    otherwise: `_remade`)."""
    unknown = changes.keys() - set(record._fields)
    if unknown:
        raise TypeError(f"{type(record).__qualname__} has no field {sorted(unknown)[0]!r}")
    remade: R = record._remade(**{name: changes[name] if name in changes else getattr(record, name)
                                  for name in record._fields})
    return remade
