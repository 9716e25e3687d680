"""Set and map list semantics for `==`, `!=` and `+`, as the apiserver's unstructured values have them.

In the apiserver a value read from an array with `x-kubernetes-list-type: set` or `map` is not a plain
CEL list: its equality ignores order (map lists compare items by their keys), and `+` is a union (set)
or a merge by key (map: the right side's item replaces the left's in place, new keys are appended).
Objects and maps compare their fields with the same schema-aware equality, so `self == oldSelf` on an
object holding a map list ignores the order of that list too. The left operand decides, as cel-go's
`lhs.Equal(rhs)` and `lhs.Add(rhs)` do.

cel-expr-python's lists are plain. So where a rule's left operand of `==`, `!=` or `+` is such a value
(statically: `self`, `oldSelf` and the fields, items, map values and comprehension variables drawn
from them), the checked expression is rewritten to call the functions below with the operand's schema
type, and evaluated from the rewritten tree (no source text is rewritten).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from cel_expr_python import cel

from crdtool.cel.names import escape
from crdtool.cel.types import DeclType

__all__ = ["declarations", "needs_rewrite", "rewrite"]

_EQUALS, _NOT_EQUALS, _ADD = "@k8s.equals", "@k8s.notEquals", "@k8s.add"
_OPERATORS = {"_==_": _EQUALS, "_!=_": _NOT_EQUALS, "_+_": _ADD}
_KINDS = ("list", "map")
# function -> (overload id prefix, operand kinds)
_OVERLOADS = {_EQUALS: ("k8s_equals", _KINDS), _NOT_EQUALS: ("k8s_not_equals", _KINDS), _ADD: ("k8s_add", ("list",))}


def _overload_ids(function: str) -> list[str]:
    prefix, kinds = _OVERLOADS[function]
    return [f"{prefix}_{left}_{right}" for left in kinds for right in kinds]

#: The schema types the rewritten expressions refer to, by the number passed to the functions.
_types: list[DeclType] = []
_type_ids: dict[int, int] = {}

# A static type: a schema type, ("optional", type or None) or ("elements", type) for a list literal.
_Typ = Any


def needs_rewrite(t: DeclType | None) -> bool:
    """Whether a value of this type holds a set or map list anywhere (else plain CEL semantics hold)."""
    return t is not None and _holds_keyed_list(t, set())


def _holds_keyed_list(t: DeclType, seen: set[int]) -> bool:
    if id(t) in seen:
        return False
    seen.add(id(t))
    if t.kind == "list":
        return _list_type(t) in ("set", "map") or (t.elem_type is not None and _holds_keyed_list(t.elem_type, seen))
    if t.kind == "map":
        return t.elem_type is not None and _holds_keyed_list(t.elem_type, seen)
    if t.kind == "object":
        return any(_holds_keyed_list(f.type, seen) for f in t.fields.values())
    return False


def _list_type(t: DeclType) -> str:
    return (t.schema.x_list_type if t.schema is not None else None) or "atomic"


def rewrite(serialized: bytes, self_type: DeclType, variables: dict[str, str]) -> bytes | None:
    """The serialized checked expression with set/map semantics applied, or None if nothing changed.

    `variables` names the inputs that hold a value of `self_type` (e.g. self, oldSelf) or an optional
    of it (value "optional")."""
    from crdtool.cel.ast_proto import checked_expr_classes  # only rules over set and map lists need it

    classes = checked_expr_classes()
    wrapper = classes["Any"]()
    wrapper.ParseFromString(serialized)
    checked = classes["CheckedExpr"]()
    checked.ParseFromString(wrapper.value)
    scope: dict[str, _Typ] = {name: ("optional", self_type) if how == "optional" else self_type
                              for name, how in variables.items()}
    rewriter = _Rewriter(checked)
    rewriter.visit(checked.expr, scope)
    if not rewriter.changed:
        return None
    wrapper.value = checked.SerializeToString()
    return wrapper.SerializeToString()


class _Rewriter:
    def __init__(self, checked: Any) -> None:
        self.checked = checked
        self.changed = False
        self.next_id: int | None = None  # found at the first rewrite: most expressions have none

    def visit(self, expr: Any, scope: dict[str, _Typ]) -> _Typ:
        """The static type of `expr` (None: not a schema value), rewriting its operators on the way."""
        if expr.HasField("ident_expr"):
            return scope.get(expr.ident_expr.name)
        if expr.HasField("select_expr"):
            select = expr.select_expr
            operand = self.visit(select.operand, scope)
            return None if select.test_only else _member(operand, select.field)
        if expr.HasField("call_expr"):
            return self.visit_call(expr, scope)
        if expr.HasField("list_expr"):
            types = [self.visit(e, scope) for e in expr.list_expr.elements]
            first = types[0] if types else None
            return ("elements", first) if first is not None and all(_same(first, t) for t in types) else None
        if expr.HasField("struct_expr"):
            for entry in expr.struct_expr.entries:
                if entry.HasField("map_key"):
                    self.visit(entry.map_key, scope)
                self.visit(entry.value, scope)
            return None
        if expr.HasField("comprehension_expr"):
            self.visit_comprehension(expr.comprehension_expr, scope)
        return None

    def visit_comprehension(self, c: Any, scope: dict[str, _Typ]) -> None:
        source = self.visit(c.iter_range, scope)
        inner = dict(scope)
        first, second = None, None
        if isinstance(source, DeclType) and source.kind == "list":
            first, second = (None, source.elem_type) if c.iter_var2 else (source.elem_type, None)
        elif isinstance(source, DeclType) and source.kind == "map":
            second = source.elem_type
        elif isinstance(source, tuple) and source[0] == "elements" and not c.iter_var2:
            first = source[1]
        inner[c.iter_var] = first
        if c.iter_var2:
            inner[c.iter_var2] = second
        self.visit(c.accu_init, scope)
        inner[c.accu_var] = None
        for part in (c.loop_condition, c.loop_step, c.result):
            self.visit(part, inner)

    def visit_call(self, expr: Any, scope: dict[str, _Typ]) -> _Typ:
        call = expr.call_expr
        target = self.visit(call.target, scope) if call.HasField("target") else None
        args = [self.visit(a, scope) for a in call.args]
        name = call.function
        replacement = _OPERATORS.get(name)
        if replacement is not None and len(args) == 2 and isinstance(args[0], DeclType) \
                and needs_rewrite(args[0]) and (name != "_+_" or _list_type(args[0]) in ("set", "map")):
            self.replace(expr, replacement, args[0])
            return args[0] if name == "_+_" else None
        if name == "_[_]" and len(args) == 2 and isinstance(args[0], DeclType) and args[0].kind in _KINDS:
            return args[0].elem_type
        if name == "_[?_]" and len(args) == 2 and isinstance(args[0], DeclType) and args[0].kind in _KINDS:
            return ("optional", args[0].elem_type)
        if name == "_?._" and len(args) == 2 and call.args[1].HasField("const_expr"):
            return ("optional", _member(args[0], call.args[1].const_expr.string_value))
        if name == "_?_:_" and len(args) == 3:
            return _either(args[1], args[2])
        if name == "optional.of" and len(args) == 1:
            return ("optional", args[0])
        if name == "optional.none" and not args:
            return ("optional", None)
        if name in ("value", "orValue") and isinstance(target, tuple) and target[0] == "optional":
            return target[1]
        return None

    def replace(self, expr: Any, function: str, operand_type: DeclType) -> None:
        """Turn the operator call into `function(lhs, rhs, <type number>)`."""
        call = expr.call_expr
        call.function = function
        number = call.args.add()
        if self.next_id is None:
            self.next_id = _max_id(self.checked.expr) + 1
        number.id = self.next_id
        self.next_id += 1
        number.const_expr.int64_value = _type_number(operand_type)
        for entry in self.checked.reference_map:
            if entry.key == expr.id:
                del entry.value.overload_id[:]
                entry.value.overload_id.extend(_overload_ids(function))
        self.changed = True


def _member(operand: _Typ, name: str) -> _Typ:
    if not isinstance(operand, DeclType):
        return None
    if operand.kind == "object":
        f = operand.fields.get(name)
        return f.type if f is not None else None
    if operand.kind == "map":
        return operand.elem_type
    return None


def _same(a: _Typ, b: _Typ) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a[0] == b[0] and _same(a[1], b[1])
    return a is b


def _either(a: _Typ, b: _Typ) -> _Typ:
    """The type of `c ? a : b`: theirs when both agree (an empty optional agrees with any optional)."""
    if _same(a, b):
        return a
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "optional":
        if a[1] is None:
            return b
        if b[1] is None:
            return a
    return None


def _max_id(message: Any) -> int:
    """The largest expression id in a message and everything under it."""
    highest = message.id if message.DESCRIPTOR.name == "Expr" else 0
    for field, value in message.ListFields():
        if field.message_type is not None:
            for item in value if field.is_repeated else [value]:
                highest = max(highest, _max_id(item))
    return highest


def _type_number(t: DeclType) -> int:
    """The number a rewritten call passes for `t`: from 1, as proto3 does not write a constant 0."""
    number = _type_ids.get(id(t))
    if number is None:
        _types.append(t)
        number = _type_ids[id(t)] = len(_types)
    return number


# --- run time: the unstructured values' Equal and Add -------------------------------------------------


def equals(t: DeclType, a: Any, b: Any) -> bool:
    """`a == b` where `a` is a value of schema type `t` (cel-go's UnstructuredToVal(a, t).Equal(b))."""
    if t.kind == "list" and isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return False
        list_type = _list_type(t)
        if list_type == "set":
            members = {_set_key(e) for e in a}
            return all(_set_key(e) in members for e in b)
        if list_type == "map":
            keys = _map_keys(t)
            by_key = {_map_key(keys, e): e for e in a}
            for item in b:
                mine = by_key.get(_map_key(keys, item), _MISSING)
                if mine is _MISSING or not equals(t.elem_type, mine, item):
                    return False
            return True
        return all(equals(t.elem_type, x, y) for x, y in zip(a, b, strict=True))
    if t.kind in ("object", "map") and isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        for key, value in a.items():
            if key not in b:
                return False
            sub = t.elem_type if t.kind == "map" else (t.fields[key].type if key in t.fields else None)
            if not (equals(sub, value, b[key]) if sub is not None else cel_equals(value, b[key])):
                return False
        return True
    return cel_equals(a, b)


def add(t: DeclType, a: list, b: list) -> list:
    """`a + b` where `a` is a set list (a union) or a map list (a merge by key)."""
    if _list_type(t) == "set":
        out = list(a)
        members = {_set_key(e) for e in a}
        for item in b:
            key = _set_key(item)
            if key not in members:
                members.add(key)
                out.append(item)
        return out
    keys = _map_keys(t)
    out = list(a)
    positions = {_map_key(keys, e): i for i, e in enumerate(a)}
    for item in b:
        at = positions.get(_map_key(keys, item))
        if at is None:
            out.append(item)
        else:
            out[at] = item
    return out


def cel_equals(a: Any, b: Any) -> bool:
    """CEL's equality on plain values: numbers across int and double, never bool against a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(cel_equals(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(cel_equals(v, b[k]) for k, v in a.items())
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


_MISSING = object()


def _set_key(value: Any) -> Any:
    """A hashable stand-in for a set element: Go keys its set by the element's value and Go type."""
    if isinstance(value, (str, bool, int, float, bytes, datetime.datetime, datetime.timedelta)) or value is None:
        return (type(value).__name__, value)
    return ("other", repr(value))


def _map_keys(t: DeclType) -> tuple[str, ...]:
    names = t.schema.x_list_map_keys if t.schema is not None else None
    return tuple(escape(k) or k for k in names or ())


def _map_key(keys: tuple[str, ...], item: Any) -> tuple:
    if not isinstance(item, dict):
        return ("not an object", repr(item))
    return tuple(_set_key(item.get(k)) for k in keys)


# --- declarations -------------------------------------------------------------------------------------


def declarations() -> list[cel.FunctionDecl]:
    """The run-time functions the rewritten expressions call (one overload per operand kinds)."""
    def kind(name: str) -> cel.Type:
        return cel.Type.List(cel.Type.DYN) if name == "list" else cel.Type.Map(cel.Type.DYN, cel.Type.DYN)

    def overloads(function: str, result: cel.Type, impl: Callable) -> cel.FunctionDecl:
        prefix, kinds = _OVERLOADS[function]
        return cel.FunctionDecl(function, [
            cel.Overload(f"{prefix}_{left}_{right}", result, [kind(left), kind(right), cel.Type.INT], False, impl)
            for left in kinds for right in kinds])

    return [
        overloads(_EQUALS, cel.Type.BOOL, lambda a, b, n: equals(_types[n - 1], a, b)),
        overloads(_NOT_EQUALS, cel.Type.BOOL, lambda a, b, n: not equals(_types[n - 1], a, b)),
        overloads(_ADD, cel.Type.List(cel.Type.DYN), lambda a, b, n: add(_types[n - 1], a, b)),
    ]
