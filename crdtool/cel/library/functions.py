"""Collecting a library's function declarations: overloads grouped by function name.

cel-expr-python checks calls against each overload's full parameter types but dispatches at run time
on kinds only (a list, a message, a string): overloads that differ only inside a kind, such as
`list(int).min()` and `list(string).min()`, or `isGreaterThan` on quantities and on versions, share
one run-time implementation (returning dyn), which picks the overload by the arguments' types.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from cel_expr_python import cel

__all__ = ["Library"]


class Library:
    """Overloads added one by one, declared per function name (cel-expr-python wants one FunctionDecl each)."""

    def __init__(self) -> None:
        self._overloads: dict[str, list[tuple[str, cel.Type, list[cel.Type], bool, Callable]]] = {}

    def function(self, name: str, overload_id: str, result: cel.Type, params: list[cel.Type],
                 impl: Callable) -> None:
        """A global function `name(params...) -> result`."""
        self._overloads.setdefault(name, []).append((overload_id, result, params, False, impl))

    def member(self, name: str, overload_id: str, result: cel.Type, params: list[cel.Type],
               impl: Callable) -> None:
        """A member function `params[0].name(params[1:]...) -> result`."""
        self._overloads.setdefault(name, []).append((overload_id, result, params, True, impl))

    def names(self) -> list[str]:
        """The functions' names, in the order of their declarations."""
        return list(self._overloads)

    def global_only(self) -> frozenset[str]:
        """The functions declared with no member overload (`sign(q)`, never `q.sign()`)."""
        return frozenset(name for name, overloads in self._overloads.items() if not any(o[3] for o in overloads))

    def declarations(self) -> list[cel.FunctionDecl]:
        """For type checking: every overload with its own types (implementations are not run)."""
        return [cel.FunctionDecl(name, [cel.Overload(overload_id, result, params, member, _unused)
                                        for overload_id, result, params, member, _ in overloads])
                for name, overloads in self._overloads.items()]

    def runtime_declarations(self) -> list[cel.FunctionDecl]:
        """For evaluation (values typed dyn): one overload per function, member-ness and arity, whose
        implementation picks the declared overload the arguments' run-time types match."""
        decls = []
        for name, overloads in self._overloads.items():
            groups: dict[tuple, list] = {}
            for ov in overloads:
                groups.setdefault((ov[3], tuple(_kind(t) for t in ov[2])), []).append(ov)
            declared = [cel.Overload(f"{group[0][0]}_dyn", cel.Type.DYN, [_loose(t) for t in group[0][2]], member,
                                     _dispatcher(group))
                        for (member, _), group in groups.items()]
            decls.append(cel.FunctionDecl(name, declared))
        return decls


def _kind(t: cel.Type) -> str:
    """The run-time kind cel-expr-python dispatches on."""
    if t.is_message():
        return "message"
    return t.name().split("<", 1)[0].split("(", 1)[0].lower()


def _loose(t: cel.Type) -> cel.Type:
    """A parameter type that accepts any value of its kind (a list of anything, a map of anything)."""
    kind = _kind(t)
    if kind == "list":
        return cel.Type.List(cel.Type.DYN)
    if kind == "map":
        return cel.Type.Map(cel.Type.DYN, cel.Type.DYN)
    return t


def _unused(*args):
    raise RuntimeError("a type-checking declaration was evaluated")


_PY_TYPES = {"int": int, "uint": int, "double": float, "bool": bool, "string": str, "bytes": bytes, "list": list,
             "map": dict}


_ELEMENT_TYPES = {"int": int, "uint": int, "double": float, "bool": bool, "string": str, "bytes": bytes,
                  "duration": datetime.timedelta, "timestamp": datetime.datetime}


def _matches(t: cel.Type, value) -> bool:
    if t.is_message():
        return getattr(getattr(value, "DESCRIPTOR", None), "full_name", None) == t.name()
    full = t.name().lower()
    name = full.split("<", 1)[0].split("(", 1)[0]
    expected = _PY_TYPES.get(name)
    if expected is None:
        return True
    if name == "list" and value and "<" in full:
        element = _ELEMENT_TYPES.get(full[len("list<"):-1])
        first = value[0]
        if element is int and isinstance(first, bool):
            return False
        if element is not None and not isinstance(first, element):
            return False
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


def _dispatcher(group: list) -> Callable:
    """The implementation of the first overload of `group` whose parameter types the arguments have."""
    candidates = [(params, impl) for _, _, params, _, impl in group]

    def dispatch(*args):
        for params, impl in candidates:
            if all(_matches(p, a) for p, a in zip(params, args, strict=False)):
                return impl(*args)
        raise ValueError("no such overload")
    return dispatch
