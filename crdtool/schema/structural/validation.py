"""The rules a structural schema must follow (`ValidateStructural` of the apiserver's
schema package) and the list-type/map-type rules CRD validation checks on every schema node.

ValidateStructural returns its errors sorted by their text, as the apiserver does (it sorts
to hide Go's random map order), so its output order is the apiserver's exactly.
"""

from __future__ import annotations

from enum import Enum

from crdtool.model.errors import FieldError, TypedString
from crdtool.model.gofmt import GoStruct
from crdtool.model.goregexp import go_regexp_error
from crdtool.model.path import Path, Trail, trail_path
from crdtool.schema.crd.gostruct import schema_props
from crdtool.schema.structural.structural import NestedValueValidation, Structural, ValueValidation


class Level(Enum):
    """Where a node sits: the root, an array's items, or an object's field (it decides the messages)."""

    ROOT = 0
    ITEM = 1
    FIELD = 2


_EMPTY_TYPE_DETAIL = {
    Level.ROOT: "must not be empty at the root",
    Level.ITEM: "must not be empty for specified array items",
    Level.FIELD: "must not be empty for specified object fields",
}


def validate_structural(path: Path, s: Structural) -> list[FieldError]:
    """ValidateStructural: the invariants of a structural schema and its completeness, sorted by text."""
    errs: list[FieldError] = []
    _invariants(s, Level.ROOT, path, errs)
    if s.value_validation is not None:
        _value_validation_completeness(s.value_validation, s, path, path, errs)
    errs.sort(key=str)
    return errs


def is_structural(s: Structural) -> bool:
    """Whether s passes ValidateStructural (used to derive update options from a stored CRD)."""
    return not validate_structural(Path(), s)


# ------------------------------------------------------------------ invariants
def _invariants(s: Structural | None, lvl: Level, at: Trail, errs: list[FieldError]) -> None:
    if s is None:
        return
    if s.type == "array" and s.items is None:
        errs.append(FieldError.required(trail_path(at).child("items"), "must be specified"))
    if s.items is not None:
        _invariants(s.items, Level.ITEM, (at, "f", "items"), errs)
    if s.properties:
        props_at = (at, "f", "properties")
        for name, prop in s.properties.items():
            _invariants(prop, Level.FIELD, (props_at, "k", name), errs)
    if s.additional_properties is not None:
        if lvl is Level.ROOT:
            errs.append(FieldError.forbidden(trail_path(at).child("additionalProperties"),
                                             "must not be used at the root"))
        if isinstance(s.additional_properties, Structural):
            _invariants(s.additional_properties, Level.FIELD, (at, "f", "additionalProperties"), errs)

    if s.x_int_or_string and s.x_preserve_unknown_fields:
        errs.append(FieldError.invalid(trail_path(at).child("x-kubernetes-preserve-unknown-fields"), True,
                                       "must be false if x-kubernetes-int-or-string is true"))
    if s.x_int_or_string and s.x_embedded_resource:
        errs.append(FieldError.invalid(trail_path(at).child("x-kubernetes-embedded-resource"), True,
                                       "must be false if x-kubernetes-int-or-string is true"))

    vv = s.value_validation
    if vv is not None:
        _value_validation(vv, _is_int_or_string_any_of(vv), _is_int_or_string_all_of(vv), at, errs)

    check_metadata = lvl is Level.ROOT or s.x_embedded_resource
    if s.x_embedded_resource and s.type != "object":
        detail = "must be object if x-kubernetes-embedded-resource is true"
        if not s.type:
            errs.append(FieldError.required(trail_path(at).child("type"), detail))
        else:
            errs.append(FieldError.invalid(trail_path(at).child("type"), s.type, detail))
    elif not s.type and not s.x_int_or_string and not s.x_preserve_unknown_fields:
        errs.append(FieldError.required(trail_path(at).child("type"), _EMPTY_TYPE_DETAIL[lvl]))
    if s.x_embedded_resource and s.additional_properties is not None:
        errs.append(FieldError.forbidden(trail_path(at).child("additionalProperties"),
                                         "must not be used if x-kubernetes-embedded-resource is set"))
    if lvl is Level.ROOT and s.type and s.type != "object":
        errs.append(FieldError.invalid(trail_path(at).child("type"), s.type, "must be object at the root"))

    if check_metadata:
        for name in ("kind", "apiVersion"):
            prop = s.properties.get(name)
            if prop is not None and prop.type != "string":
                errs.append(FieldError.invalid(trail_path(at).child("properties").key(name).child("type"), prop.type,
                                               "must be string"))
    metadata = s.properties.get("metadata")
    if metadata is not None:
        _metadata_invariants(metadata, check_metadata, lvl, trail_path(at).child("properties").key("metadata"), errs)

    if s.x_embedded_resource and not s.x_preserve_unknown_fields and not s.properties:
        errs.append(FieldError.required(trail_path(at).child("properties"),
                                        "must not be empty if x-kubernetes-embedded-resource "
                                        "is true without x-kubernetes-preserve-unknown-fields"))


def _metadata_invariants(m: Structural, check_metadata: bool, lvl: Level, path: Path,
                         errs: list[FieldError]) -> None:
    """metadata must be an object; at the root it may only restrict name and generateName."""
    if check_metadata and m.type != "object":
        errs.append(FieldError.invalid(path.child("type"), m.type, "must be object"))
    if lvl is Level.ROOT and not _only_name_restrictions(m):
        errs.append(FieldError.forbidden(path, "must not specify anything other than name and generateName, "
                                               "but metadata is implicitly specified"))


def _only_name_restrictions(m: Structural) -> bool:
    """Whether the root metadata schema specifies nothing but its type, a default and name/generateName."""
    names = set(m.properties)
    if names and names not in ({"name"}, {"generateName"}, {"name", "generateName"}):
        return False
    return (not m.description and not m.title and not m.nullable and m.items is None
            and m.additional_properties is None and not m.x_preserve_unknown_fields
            and not m.x_embedded_resource and not m.x_int_or_string and m.x_list_map_keys is None
            and m.x_list_type is None and m.x_map_type is None and m.x_validations is None
            and (m.value_validation is None or m.value_validation.is_empty()))


def _is_int_or_string_any_of(v: ValueValidation) -> bool:
    """`anyOf: [{type: integer}, {type: string}]`, the first IntOrString exception."""
    return len(v.any_of) == 2 and v.any_of[0].only_type("integer") and v.any_of[1].only_type("string")


def _is_int_or_string_all_of(v: ValueValidation) -> bool:
    """`allOf: [{anyOf: [{type: integer}, {type: string}]}, ...]`, the second IntOrString exception."""
    return len(v.all_of) >= 1 and _is_int_or_string_any_of(v.all_of[0])


def _value_validation(v: ValueValidation, skip_any_of: bool, skip_first_all_of_any_of: bool, at: Trail,
                      errs: list[FieldError]) -> None:
    if not skip_any_of:
        for i, clause in enumerate(v.any_of):
            _nested(clause, False, trail_path(at).child("anyOf").index(i), errs)
    for i, clause in enumerate(v.all_of):
        _nested(clause, skip_first_all_of_any_of and i == 0, trail_path(at).child("allOf").index(i), errs)
    for i, clause in enumerate(v.one_of):
        _nested(clause, False, trail_path(at).child("oneOf").index(i), errs)
    if v.not_ is not None:
        _nested(v.not_, False, trail_path(at).child("not"), errs)
    if v.pattern:
        problem = go_regexp_error(v.pattern)
        if problem is not None:
            errs.append(FieldError.invalid(trail_path(at).child("pattern"), v.pattern,
                                           f"must be a valid regular expression, but isn't: {problem}"))


_EMPTY = "must be empty to be structural"
_UNDEFINED = "must be undefined to be structural"
_FALSE = "must be false to be structural"
# What a junctor clause must leave unset, in the apiserver's order: (field, is it set?, detail).
_NESTED_FORBIDDEN = (
    ("type", lambda v: bool(v.type), _EMPTY),
    ("additionalProperties", lambda v: v.additional_properties is not None, _UNDEFINED),
    ("default", lambda v: v.default is not None, _UNDEFINED),
    ("title", lambda v: bool(v.title), _EMPTY),
    ("description", lambda v: bool(v.description), _EMPTY),
    ("nullable", lambda v: v.nullable, _FALSE),
    ("x-kubernetes-preserve-unknown-fields", lambda v: v.x_preserve_unknown_fields, _FALSE),
    ("x-kubernetes-embedded-resource", lambda v: v.x_embedded_resource, _FALSE),
    ("x-kubernetes-int-or-string", lambda v: v.x_int_or_string, _FALSE),
    ("x-kubernetes-list-map-keys", lambda v: bool(v.x_list_map_keys), _EMPTY),
    ("x-kubernetes-list-type", lambda v: v.x_list_type is not None, _UNDEFINED),
    ("x-kubernetes-map-type", lambda v: v.x_map_type is not None, _UNDEFINED),
    ("x-kubernetes-validations", lambda v: bool(v.x_validations), _EMPTY),
)


def _nested(v: NestedValueValidation, skip_any_of: bool, path: Path, errs: list[FieldError]) -> None:
    """validateNestedValueValidation: under a junctor, nothing structural may be specified."""
    _value_validation(v, skip_any_of, False, path, errs)
    if v.items is not None:
        _nested(v.items, False, path.child("items"), errs)
    if v.properties:
        for name, prop in v.properties.items():
            _nested(prop, False, path.child("properties").key(name), errs)
    for name, is_set, detail in _NESTED_FORBIDDEN:
        if is_set(v):
            errs.append(FieldError.forbidden(path.child(name), detail))
    if v.properties and "metadata" in v.properties:
        errs.append(FieldError.forbidden(path.child("properties").key("metadata"),
                                         "must not be specified in a nested context"))


# ------------------------------------------------------------------ completeness
def _missing(s_path: Path, v_path: Path) -> FieldError:
    return FieldError.required(s_path, f"because it is defined in {v_path}")


def _value_validation_completeness(v: ValueValidation, s: Structural, s_path: Path, v_path: Path,
                                   errs: list[FieldError]) -> None:
    """Every field or array a junctor speaks about must also be specified structurally."""
    if v.not_ is not None:
        _nested_completeness(v.not_, s, s_path, v_path.child("not"), errs)
    for key, clauses in (("allOf", v.all_of), ("anyOf", v.any_of), ("oneOf", v.one_of)):
        for i, clause in enumerate(clauses):
            _nested_completeness(clause, s, s_path, v_path.child(key).index(i), errs)


def _nested_completeness(v: NestedValueValidation, s: Structural | None, s_path: Path, v_path: Path,
                         errs: list[FieldError]) -> None:
    if s is None:
        errs.append(_missing(s_path, v_path))
        return
    _value_validation_completeness(v, s, s_path, v_path, errs)
    if v.items is not None:
        _nested_completeness(v.items, s.items, s_path.child("items"), v_path.child("items"), errs)
    if v.properties:
        for name, sub in v.properties.items():
            prop = s.properties.get(name)
            if prop is None:
                errs.append(_missing(s_path.child("properties").key(name), v_path.child("properties").key(name)))
            else:
                _nested_completeness(sub, prop, s_path.child("properties").key(name),
                                     v_path.child("properties").key(name), errs)


# ------------------------------------------------------------------ list and map types (on JSONSchemaProps)
def list_and_map_type_errors(schema: dict, at: Trail, require_atomic_set_type: bool,
                             require_map_list_keys_map_set: bool) -> list[FieldError]:
    """The x-kubernetes-map-type, -list-type and -list-map-keys rules of one schema node (at `at`), in the
    apiserver's order. (Many nodes set these, few wrongly: the node's path is made only for a finding.)"""
    get = schema.get
    if get("x-kubernetes-list-type") is None and get("x-kubernetes-map-type") is None \
            and not get("x-kubernetes-list-map-keys"):
        return []
    if not isinstance(at, Path) and not _list_and_map_type_errors(schema, _NOWHERE, require_atomic_set_type,
                                                                  require_map_list_keys_map_set):
        return []
    return _list_and_map_type_errors(schema, trail_path(at), require_atomic_set_type, require_map_list_keys_map_set)


#: The path findings are first looked for at, before the node's own is made for them.
_NOWHERE = Path()


def _list_and_map_type_errors(schema: dict, path: Path, require_atomic_set_type: bool,
                              require_map_list_keys_map_set: bool) -> list[FieldError]:
    get = schema.get
    errs: list[FieldError] = []
    type_ = get("type") or ""
    map_type = get("x-kubernetes-map-type")
    list_type = get("x-kubernetes-list-type")
    map_keys = get("x-kubernetes-list-map-keys")
    items = get("items")
    item = items if isinstance(items, dict) else None

    if map_type is not None and type_ != "object":
        detail = "must be object if x-kubernetes-map-type is specified"
        errs.append(FieldError.required(path.child("type"), detail) if not type_
                    else FieldError.invalid(path.child("type"), type_, detail))
    if map_type is not None and map_type not in ("atomic", "granular"):
        errs.append(FieldError.not_supported(path.child("x-kubernetes-map-type"), map_type, ["atomic", "granular"]))

    if list_type is not None and type_ != "array":
        detail = "must be array if x-kubernetes-list-type is specified"
        errs.append(FieldError.required(path.child("type"), detail) if not type_
                    else FieldError.invalid(path.child("type"), type_, detail))
    elif require_atomic_set_type and list_type == "set" and item is not None:
        errs.extend(_set_item_errors(item, path))
    if list_type is not None and list_type not in ("atomic", "set", "map"):
        errs.append(FieldError.not_supported(path.child("x-kubernetes-list-type"), list_type,
                                             ["atomic", "set", "map"]))

    if map_keys:
        if list_type is None:
            errs.append(FieldError.required(path.child("x-kubernetes-list-type"),
                                            "must be map if x-kubernetes-list-map-keys is non-empty"))
        elif list_type != "map":
            errs.append(FieldError.invalid(path.child("x-kubernetes-list-type"), list_type,
                                           "must be map if x-kubernetes-list-map-keys is non-empty"))
    if list_type == "map":
        errs.extend(_map_list_errors(schema, items, item, map_keys, path))
    if require_map_list_keys_map_set:
        errs.extend(map_list_keys_map_set_errors(schema, path))
    return errs


def _set_item_errors(item: dict, path: Path) -> list[FieldError]:
    """Items of a set must be atomic (nested lists atomic, objects x-kubernetes-map-type=atomic)."""
    item_type = item.get("type")
    item_list_type = item.get("x-kubernetes-list-type")  # a *string: rendered by json.Marshal
    if isinstance(item_list_type, str):
        item_list_type = TypedString(item_list_type)
    if item_type == "array" and item_list_type is not None and item_list_type != "atomic":
        return [FieldError.invalid(path.child("items", "x-kubernetes-list-type"), item_list_type,
                                   "must be atomic as item of a list with x-kubernetes-list-type=set")]
    if item_type == "object" and item.get("x-kubernetes-map-type") != "atomic":
        # the apiserver reports the item's list type here, which is usually unset (null)
        return [FieldError.invalid(path.child("items", "x-kubernetes-map-type"), item_list_type,
                                   "must be atomic as item of a list with x-kubernetes-list-type=set")]
    return []


def _map_list_errors(schema: dict, items, item: dict | None, map_keys: list | None, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    if not map_keys:
        errs.append(FieldError.required(path.child("x-kubernetes-list-map-keys"),
                                        "must not be empty if x-kubernetes-list-type is map"))
    if items is None:
        errs.append(FieldError.required(path.child("items"), "must have a schema if x-kubernetes-list-type is map"))
    elif item is None:
        as_go = GoStruct(Schema=None, JSONSchemas=[schema_props(x) for x in items])
        errs.append(FieldError.invalid(path.child("items"), as_go,
                                       "must only have a single schema if x-kubernetes-list-type is map"))
    if item is None:
        return errs
    item_type = item.get("type") or ""
    if item_type != "object":
        errs.append(FieldError.invalid(path.child("items", "type"), item_type,
                                       "must be object if parent array's x-kubernetes-list-type is map"))
        return errs
    item_props = item.get("properties") or {}
    seen: set[str] = set()
    for k in map_keys or ():
        prop = item_props.get(k)
        if prop is not None:
            if (prop.get("type") or "") in ("array", "object"):
                errs.append(FieldError.invalid(path.child("items", "properties").key(k).child("type"), item_type,
                                               "must be a scalar type if parent array's x-kubernetes-list-type is map"))
        else:
            errs.append(FieldError.invalid(path.child("x-kubernetes-list-map-keys"), map_keys,
                                           "entries must all be names of item properties"))
        if k in seen:
            errs.append(FieldError.invalid(path.child("x-kubernetes-list-map-keys"), map_keys,
                                           "must not contain duplicate entries"))
        seen.add(k)
    return errs


def map_list_keys_map_set_errors(schema: dict, path: Path) -> list[FieldError]:
    """validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted."""
    items = schema.get("items")
    list_type = schema.get("x-kubernetes-list-type")
    if not isinstance(items, dict) or list_type not in ("set", "map"):
        return []
    errs: list[FieldError] = []
    if items.get("nullable"):
        errs.append(FieldError.forbidden(path.child("items", "nullable"),
                                         "cannot be nullable when x-kubernetes-list-type is " + list_type))
    if list_type == "map":
        required = set(items.get("required") or ())
        props = items.get("properties") or {}
        for k in schema.get("x-kubernetes-list-map-keys") or ():
            prop = props.get(k)
            if prop is None:
                continue
            key_path = path.child("items", "properties").key(k)
            if k not in required and prop.get("default") is None:
                errs.append(FieldError.required(key_path.child("default"), "this property is in "
                                                "x-kubernetes-list-map-keys, so it must have a default or be a "
                                                "required property"))
            if prop.get("nullable"):
                errs.append(FieldError.forbidden(key_path.child("nullable"),
                                                 "this property is in x-kubernetes-list-map-keys, so it cannot be "
                                                 "nullable"))
    return errs
