"""Structured merge of an apply configuration into an object: what a MutatingAdmissionPolicy's
ApplyConfiguration mutation does (k8s.io/apiserver pkg/admission/plugin/policy/mutating/patch/smd.go,
ApplyStructuredMergeDiff, over sigs.k8s.io/structured-merge-diff/v6 typed/ and schema/).

The types come from the kind's OpenAPI v3 document as the apiserver publishes it (the plugin's
TypeConverterManager has no static types and reads /openapi/v3 for every kind, built-in ones too):
for a custom resource the CRD version's schema with TypeMeta and ObjectMeta (crdtool.explain.schema),
for a built-in kind its Go types' definitions with their list, map and struct types
(crdtool.explain.builtin), converted as kube-openapi pkg/schemaconv does:
an object is a map, granular unless `x-kubernetes-map-type: atomic`, whose unknown keys are
refused unless it has no properties, `additionalProperties`, or `x-kubernetes-preserve-unknown-fields`
above it; a list is atomic unless `x-kubernetes-list-type` is `set` or `map` (keyed by its
`x-kubernetes-list-map-keys`); a schema without a type (int-or-string, preserve-unknown-fields) is
untyped, its lists atomic and its maps granular.

The apply configuration must conform (unknown fields, scalar types, list keys, duplicates), may set
no atomic list, map or struct, the object must conform too (duplicates allowed), and then the two
merge: maps key by key, associative lists item by item in the merged order smd computes, anything
atomic or scalar replaced by the configuration's value. Go iterates maps in random order; where that
order shows (the first of several unknown fields, the order of the atomic paths), keys are taken
sorted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from crdtool.model.gofmt import go_float_g, go_quote, go_type_name, go_value
from crdtool.model.memo import IdentityMemo

__all__ = ["ApplyError", "Types", "apply", "types_for_builtin", "types_for_custom_resource"]

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension"
UNTYPED = "__untyped_atomic_"
DEDUCED = "__untyped_deduced_"
ATOMIC, SEPARABLE, ASSOCIATIVE = "atomic", "separable", "associative"


class ApplyError(Exception):
    """ApplyStructuredMergeDiff's error text (without smd.go's `error applying patch: `)."""


class _Absent:
    """A value that is not there (Go's nil value.Value), unlike JSON null."""


ABSENT: Any = _Absent()


@dataclass(eq=False)
class TypeRef:
    """schema.TypeRef: a named type or an inlined atom, with a field's map-type override."""

    named: str | None = None
    inlined: Atom | None = None
    relationship: str | None = None


@dataclass(eq=False)
class Field:
    type: TypeRef
    default: Any = None


@dataclass(eq=False)
class MapType:
    """schema.Map: declared fields, the element type of other keys (None: not allowed)."""

    fields: dict[str, Field]
    element: TypeRef | None
    relationship: str = ""


@dataclass(eq=False)
class ListType:
    relationship: str
    keys: list[str]
    element: TypeRef


@dataclass(eq=False)
class Atom:
    scalar: str | None = None
    list: ListType | None = None
    map: MapType | None = None

    def same(self, other: Atom) -> bool:
        return self.scalar == other.scalar and self.list is other.list and self.map is other.map


_UNTYPED_ATOM = Atom("untyped", ListType(ATOMIC, [], TypeRef(UNTYPED)), MapType({}, TypeRef(UNTYPED), ATOMIC))
_DEDUCED_ATOM = Atom("untyped", ListType(ATOMIC, [], TypeRef(UNTYPED)), MapType({}, TypeRef(DEDUCED), SEPARABLE))


@dataclass
class Types:
    """A schema.Schema: named atoms, and the root type of the kind."""

    atoms: dict[str, Atom]
    root: TypeRef
    _resolved: dict[int, Atom] = field(default_factory=dict)

    def resolve(self, ref: TypeRef) -> Atom | None:
        """Schema.Resolve: the named or inlined atom, with a map or list relationship override."""
        atom = self.atoms.get(ref.named) if ref.named is not None else (ref.inlined or Atom())
        if atom is None or ref.relationship is None:
            return atom
        found = self._resolved.get(id(ref))
        if found is None:
            if atom.map is not None:
                found = Atom(map=MapType(atom.map.fields, atom.map.element, ref.relationship))
            elif atom.list is not None:
                found = Atom(list=ListType(ref.relationship, atom.list.keys, atom.list.element))
            else:
                return None
            self._resolved[id(ref)] = found
        return found


# ---- kube-openapi schemaconv


def from_openapi(models: dict[str, Any], root: str) -> Types:
    """ToSchemaFromOpenAPI(models, preserveUnknownFields=false), rooted at definition `root`."""
    atoms: dict[str, Atom] = {}
    for name, spec in models.items():
        if not isinstance(spec, dict) or spec.get("$ref"):
            continue
        if name == QUANTITY:
            atoms[name] = Atom("untyped")
        elif name == RAW_EXTENSION:
            atoms[name] = _UNTYPED_ATOM
        else:
            atoms[name] = _visit(spec, False)
    atoms[UNTYPED], atoms[DEDUCED] = _UNTYPED_ATOM, _DEDUCED_ATOM
    return Types(atoms, TypeRef(root))


def _visit(spec: dict[str, Any], preserve: bool) -> Atom:
    """visitSpec: a schema opting into preserve-unknown-fields opts in its descendants too."""
    if spec.get("x-kubernetes-preserve-unknown-fields") is True:
        preserve = True
    kind = spec.get("type")
    kind = (kind[0] if kind else "") if isinstance(kind, list) else (kind or "")
    if kind == "":
        return Atom("untyped", _list(spec, preserve), _object(spec, preserve))
    if kind == "object":
        return Atom(map=_object(spec, preserve))
    if kind == "array":
        return Atom(list=_list(spec, preserve))
    if kind in ("integer", "number"):
        return Atom("numeric")
    if kind == "boolean":
        return Atom("boolean")
    if kind == "string" and spec.get("format", "") in ("", "byte"):
        return Atom("string")
    return Atom("untyped")


def _ref(spec: dict[str, Any], preserve: bool) -> TypeRef:
    """makeOpenAPIRef: a `$ref` (or one `allOf` of a `$ref`) by name, else the schema inlined."""
    ref = spec.get("$ref")
    all_of = spec.get("allOf")
    if not ref and isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        ref = all_of[0].get("$ref")
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1]:
        return TypeRef(ref.rsplit("/", 1)[-1], relationship=_map_relationship(spec) or None)
    return TypeRef(inlined=_visit(spec, preserve))


def _map_relationship(spec: dict[str, Any]) -> str:
    return {"atomic": ATOMIC, "granular": SEPARABLE}.get(str(spec.get("x-kubernetes-map-type")), "")


def _object(spec: dict[str, Any], preserve: bool) -> MapType:
    found = spec.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    fields = {name: Field(_ref(member, preserve), member.get("default"))
              for name, member in properties.items() if isinstance(member, dict)}
    extra = spec.get("additionalProperties")
    element: TypeRef | None
    if extra is None:
        element = TypeRef(DEDUCED) if preserve or not properties else None
    elif isinstance(extra, dict):
        element = _ref(extra, preserve)
    else:
        element = TypeRef(DEDUCED) if extra else None
    return MapType(fields, element, _map_relationship(spec))


def _list(spec: dict[str, Any], preserve: bool) -> ListType:
    list_type = spec.get("x-kubernetes-list-type")
    relationship, keys = ATOMIC, []
    if list_type in ("set", "map"):
        relationship = ASSOCIATIVE
        keys = [str(k) for k in spec.get("x-kubernetes-list-map-keys") or []] if list_type == "map" else []
    elif list_type is None and spec.get("x-kubernetes-patch-strategy") in ("merge", "merge,retainKeys"):
        relationship = ASSOCIATIVE
        key = spec.get("x-kubernetes-patch-merge-key")
        keys = [key] if isinstance(key, str) else []
    items = spec.get("items")
    element = _ref(items, preserve) if isinstance(items, dict) else TypeRef(UNTYPED)
    return ListType(relationship, keys, element)


_CACHE: IdentityMemo[Types] = IdentityMemo()


def types_for_custom_resource(group: str, version: str, kind: str, structural: Any) -> Types:
    """The types of a custom resource's version as its published OpenAPI document gives them."""
    found = _CACHE.get(structural)
    if found is not None:
        return found
    from crdtool.explain.schema import definition_name, openapi_document

    document = openapi_document(group, version, kind, getattr(structural, "raw", None))
    types = from_openapi(document["components"]["schemas"], definition_name(group, version, kind))
    return _CACHE.put(structural, types)


_BUILTIN: dict[tuple[str, str, str], Types | None] = {}


def types_for_builtin(group: str, version: str, kind: str) -> Types | None:
    """The types of a built-in kind as its group version's published OpenAPI document gives them
    (None for a kind the vendored types do not have)."""
    key = (group, version, kind)
    if key not in _BUILTIN:
        from crdtool.apis.openapi import definition_name
        from crdtool.explain.builtin import openapi_document

        document = openapi_document(group, version, kind)
        root = definition_name(group, version, kind)
        _BUILTIN[key] = None if document is None or root is None else \
            from_openapi(document["components"]["schemas"], root)
    return _BUILTIN[key]


# ---- values: Go's formatting of smd's unstructured values


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _to_string(v: Any) -> str:
    """value.ToString."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_float_g(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return go_quote(v)
    if isinstance(v, list):
        return "[" + ",".join(_to_string(x) for x in v) + "]"
    return "".join(f"{k}={_to_string(v[k])}" for k in sorted(v))


def _go_syntax(v: Any) -> str:
    """%#v of an interface{} holding a decoded JSON value."""
    if isinstance(v, str):
        return go_quote(v)
    if isinstance(v, dict):
        return "map[string]interface {}{" + ", ".join(f"{go_quote(k)}:{_go_syntax(v[k])}" for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[]interface {}{" + ", ".join(_go_syntax(x) for x in v) + "}"
    return "interface {}(nil)" if v is None else go_value(v)


def _value_v(v: Any) -> str:
    """%v of a *valueUnstructured."""
    return "&{" + go_value(v) + "}"


def _value_sharp_v(v: Any) -> str:
    """%#v of a *valueUnstructured."""
    return "&value.valueUnstructured{Value:" + _go_syntax(v) + "}"


def _canonical(v: Any) -> Any:
    """A hashable form equal where smd's value.Equals is (an int equals the float of its value)."""
    if isinstance(v, bool):
        return ("b", v)
    if _is_number(v):
        return ("n", v)
    if isinstance(v, str):
        return ("s", v)
    if isinstance(v, list):
        return ("l", tuple(_canonical(x) for x in v))
    if isinstance(v, dict):
        return ("m", tuple(sorted((k, _canonical(x)) for k, x in v.items())))
    return ("z",)


@dataclass(frozen=True)
class _Item:
    """A list item's fieldpath.PathElement: its keys, its value (a set), or its index."""

    key: Any
    text: str


# ---- typed/validate.go


Errors = list[tuple[str, str]]


def _prefixed(errors: Errors, prefix: str) -> Errors:
    return [(prefix + path, message) for path, message in errors]


def _text(errors: Errors) -> str:
    """ValidationErrors.Error."""
    lines = [f"{path}: {message}" if path else message for path, message in errors]
    return lines[0] if len(lines) == 1 else "\n".join(["errors:", *("  " + line for line in lines)])


def _deduce(atom: Atom, value: Any) -> Atom:
    """deduceAtom: the one form of an untyped atom that the value has."""
    if value is ABSENT or value is None:
        return atom
    if isinstance(value, (bool, int, float, str)) and atom.scalar is not None:
        return Atom(atom.scalar)
    if isinstance(value, list) and atom.list is not None:
        return Atom(list=atom.list)
    if isinstance(value, dict) and atom.map is not None:
        return Atom(map=atom.map)
    return atom


def _scalar_errors(kind: str, value: Any, prefix: str) -> Errors:
    """validateScalar."""
    if value is ABSENT or value is None:
        return []
    if kind == "numeric" and not _is_number(value):
        return [("", f"{prefix}expected numeric (int or float), got {go_type_name(value)}")]
    if kind == "string" and not isinstance(value, str):
        return [("", f"{prefix}expected string, got {_value_sharp_v(value)}")]
    if kind == "boolean" and not isinstance(value, bool):
        return [("", f"{prefix}expected boolean, got {_value_v(value)}")]
    if kind == "untyped" and not isinstance(value, (bool, int, float, str)):
        return [("", f"{prefix}expected any scalar, got {_value_v(value)}")]
    return []


def _invalid_atom(ref: TypeRef) -> Errors:
    return [("", "schema error: invalid atom: " + (f"named type: {ref.named}" if ref.named else "inlined"))]


def validate(types: Types, ref: TypeRef, value: Any, allow_duplicates: bool) -> Errors:
    """TypedValue.Validate: every place the value does not conform to the type."""
    atom = types.resolve(ref)
    if atom is None:
        return [("", f"schema error: no type found matching: {ref.named or 'inlined type'}")]
    atom = _deduce(atom, value)
    if atom.map is not None:
        if value is None:
            return []
        if not isinstance(value, dict):
            return [("", f"expected map, got {_value_v(value)}")]
        errors: Errors = []
        for key in sorted(value):
            declared = atom.map.fields.get(key)
            child = declared.type if declared is not None else atom.map.element
            if child is None:
                return errors + [(f".{key}", "field not declared in schema")]
            errors += _prefixed(validate(types, child, value[key], allow_duplicates), f".{key}")
        return errors
    if atom.scalar is not None:
        return _scalar_errors(atom.scalar, value, "")
    if atom.list is not None:
        if value is None:
            return []
        if not isinstance(value, list):
            return [("", f"expected list, got {_value_v(value)}")]
        return _validate_items(types, atom.list, value, allow_duplicates)
    return _invalid_atom(ref)


def _validate_items(types: Types, t: ListType, items: list[Any], allow_duplicates: bool) -> Errors:
    errors: Errors = []
    seen: set[Any] = set()
    for i, child in enumerate(items):
        if t.relationship != ASSOCIATIVE:
            item = _Item(i, f"[{i}]")
        else:
            try:
                item = _item(types, t, child)
            except ValueError as err:
                return errors + [("", f"element {i}: {err}")]
            if item.key in seen and not allow_duplicates:
                errors.append(("", f"duplicate entries for key {item.text}"))
            seen.add(item.key)
        errors += _prefixed(validate(types, t.element, child, allow_duplicates), item.text)
    return errors


def _item(types: Types, t: ListType, child: Any) -> _Item:
    """listItemToPathElement. Raises ValueError with smd's text."""
    if t.relationship != ASSOCIATIVE:
        raise ValueError("invalid indexing of non-associative list")
    if not t.keys:
        if isinstance(child, dict):
            raise ValueError("associative list without keys has an element that's a map type")
        if isinstance(child, list):
            raise ValueError("not supported: associative list with lists as elements")
        if child is None:
            raise ValueError("associative list without keys has an element that's an explicit null")
        return _Item(("=", _canonical(child)), f"[={_to_string(child)}]")
    if child is None:
        raise ValueError("associative list with keys may not have a null element")
    if not isinstance(child, dict):
        raise ValueError("associative list with keys may not have non-map elements")
    keys: list[tuple[str, Any]] = []
    for name in t.keys:
        if name in child:
            keys.append((name, child[name]))
            continue
        default = _key_default(types, t, name)
        if default is not None:
            keys.append((name, default))
    if not keys:
        quoted = "[" + " ".join(go_quote(k) for k in t.keys) + "]"
        raise ValueError(f"associative list with keys has an element that omits all key fields {quoted} "
                         "(and doesn't have default values for any key fields)")
    keys.sort(key=lambda kv: kv[0])
    return _Item(tuple((k, _canonical(v)) for k, v in keys), "[" + ",".join(f"{k}={_to_string(v)}" for k, v in keys)
                 + "]")


def _key_default(types: Types, t: ListType, name: str) -> Any:
    atom = types.resolve(t.element)
    if atom is None:
        raise ValueError(f"couldn't find default value for {name}: invalid elementType for list")
    if atom.map is None:
        raise ValueError(f"couldn't find default value for {name}: associative list may not have non-map types")
    declared = atom.map.fields.get(name)
    return declared.default if declared is not None else None


def find_atomics(types: Types, ref: TypeRef, value: Any, path: str = "") -> list[str]:
    """findAtomics: the paths of the atomic lists, maps and structs the value sets."""
    atom = types.resolve(ref)
    if atom is None:
        return []
    found: list[str] = []
    if isinstance(value, dict) and atom.map is not None:
        if atom.map.relationship == ATOMIC:
            found.append(path)
        for key in sorted(value):
            declared = atom.map.fields.get(key)
            if declared is not None:
                found += find_atomics(types, declared.type, value[key], f"{path}.{key}")
    if isinstance(value, list) and atom.list is not None:
        if atom.list.relationship == ATOMIC:
            found.append(path)
        for i, item in enumerate(value):
            found += find_atomics(types, atom.list.element, item, f"{path}[{i}]")
    return found


# ---- typed/merge.go (ruleKeepRHS)


def merge(types: Types, ref: TypeRef, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
    """mergingWalker.merge: the merged value (ABSENT for none) and the errors."""
    atom = types.resolve(ref)
    if atom is None:
        return ABSENT, [("", f"schema error: no type found matching: {ref.named}")]
    left, right = _deduce(atom, lhs), _deduce(atom, rhs)
    if rhs is ABSENT:
        return _handle(types, ref, left, lhs, rhs)
    if lhs is ABSENT or left.same(right):
        return _handle(types, ref, right, lhs, rhs)
    _, errors = _handle(types, ref, left, lhs, rhs)
    out, more = _handle(types, ref, right, lhs, rhs)
    return out, errors + more


def _leaf(lhs: Any, rhs: Any) -> Any:
    return rhs if rhs is not ABSENT else lhs


def _handle(types: Types, ref: TypeRef, atom: Atom, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
    if atom.map is not None:
        return _merge_map(types, atom.map, lhs, rhs)
    if atom.scalar is not None:
        left, right = _scalar_errors(atom.scalar, lhs, "lhs: "), _scalar_errors(atom.scalar, rhs, "rhs: ")
        if left and right:
            return ABSENT, left + right
        return _leaf(lhs, rhs), []
    if atom.list is not None:
        return _merge_list(types, atom.list, lhs, rhs)
    return ABSENT, _invalid_atom(ref)


def _merge_map(types: Types, t: MapType, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
    left = lhs if isinstance(lhs, dict) else None
    right = rhs if isinstance(rhs, dict) else None
    if t.relationship == ATOMIC or (not left and not right):
        return _leaf(lhs, rhs), []
    out: dict[str, Any] = {}
    errors: Errors = []
    for key in _keys(left, right):
        declared = t.fields.get(key)
        child = declared.type if declared is not None else t.element
        if child is None:
            errors += _prefixed(_invalid_atom(TypeRef()), f".{key}")
            continue
        value, more = merge(types, child, (left or {}).get(key, ABSENT), (right or {}).get(key, ABSENT))
        errors += _prefixed(more, f".{key}")
        if value is not ABSENT:
            out[key] = value
    return (out if out else ABSENT), errors


def _keys(left: dict[str, Any] | None, right: dict[str, Any] | None) -> Iterator[str]:
    yield from left or {}
    yield from (k for k in right or {} if k not in (left or {}))


def _merge_list(types: Types, t: ListType, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
    left = lhs if isinstance(lhs, list) else None
    right = rhs if isinstance(rhs, list) else None
    if t.relationship == ATOMIC or (not left and not right):
        return _leaf(lhs, rhs), []
    return _merge_items(types, t, left or [], right or [])


def _index(types: Types, t: ListType, items: list[Any], allow_duplicates: bool
           ) -> tuple[list[_Item], dict[Any, Any], Errors]:
    """indexListPathElements: each item's path element, and the item of each (null when duplicated)."""
    errors: Errors = []
    observed: dict[Any, Any] = {}
    elements: list[_Item] = []
    for i, child in enumerate(items):
        try:
            item = _item(types, t, child)
        except ValueError as err:
            errors.append(("", f"element {i}: {err}"))
            continue
        if item.key in observed and not allow_duplicates:
            errors.append(("", f"duplicate entries for key {item.text}"))
            continue
        observed[item.key] = None if item.key in observed else child
        elements.append(item)
    return elements, observed, errors


def _merge_items(types: Types, t: ListType, lhs: list[Any], rhs: list[Any]) -> tuple[Any, Errors]:
    """visitListItems: the right side's items in its order, the left side's other items kept where
    they stood relative to the items both sides share. The items' own merge errors are dropped
    (smd's `errs` is shadowed there)."""
    right_items, observed_right, errors = _index(types, t, rhs, False)
    left_items, observed_left, more = _index(types, t, lhs, True)
    if errors or more:
        return ABSENT, errors + more
    shared = [item for item in right_items if item.key in observed_left]
    next_shared = shared.pop(0) if shared else None
    merged: set[Any] = set()
    out: list[Any] = []

    def add(left: Any, right: Any) -> None:
        value, _ = merge(types, t.element, left, right)
        if value is not ABSENT:
            out.append(value)

    li = ri = 0
    while li < len(left_items) or ri < len(right_items):
        if li < len(left_items) and ri < len(right_items):
            item = left_items[li]
            if item.key == right_items[ri].key:
                merged.add(item.key)
                add(observed_left.get(item.key, ABSENT), observed_right[item.key])
                li, ri = li + 1, ri + 1
                next_shared = shared.pop(0) if shared else None
                continue
            if item.key in observed_right and next_shared is not None and next_shared.key != item.key:
                li += 1
                continue
        if li < len(left_items):
            item = left_items[li]
            if item.key not in observed_right:
                add(lhs[li], ABSENT)
                li += 1
                continue
            if item.key in merged:
                li += 1
        if ri < len(right_items):
            item = right_items[ri]
            merged.add(item.key)
            add(observed_left.get(item.key, ABSENT), observed_right[item.key])
            ri += 1
            if next_shared is not None and next_shared.key == item.key:
                next_shared = shared.pop(0) if shared else None
    return (out if out else ABSENT), []


# ---- smd.go


def apply(types: Types, obj: dict[str, Any], configuration: dict[str, Any]) -> dict[str, Any]:
    """ApplyStructuredMergeDiff: `configuration` (given the object's apiVersion and kind) merged into
    `obj`; a new object. Raises ApplyError."""
    patch = {**configuration, "apiVersion": obj.get("apiVersion"), "kind": obj.get("kind")}
    errors = validate(types, types.root, patch, False)
    if errors:
        raise ApplyError(f"failed to convert patch object to typed object: {_text(errors)}")
    atomics = find_atomics(types, types.root, patch)
    if atomics:
        raise ApplyError(f"invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: "
                         f"{', '.join(atomics)}")
    errors = validate(types, types.root, obj, True)
    if errors:
        raise ApplyError(f"failed to convert original object to typed object: {_text(errors)}")
    merged, errors = merge(types, types.root, obj, patch)
    if errors:
        raise ApplyError(f"failed to merge patch: {_text(errors)}")
    return merged if isinstance(merged, dict) else {}
