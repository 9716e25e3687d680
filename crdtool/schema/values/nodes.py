"""Compiled schema nodes: kube-openapi's SchemaValidator, one node per JSONSchemaProps, built once and reused.

`Node.validate` runs the validators kube-openapi runs for one value, in its order, and returns the
MatchCount of the result (anyOf/oneOf report the failing branch with the highest count). Errors are
appended as small tuples `(kind, loc, bad value, message template, args)`; `values.py` renders the few
that survive into field errors, so the cost of a valid value is only the checks themselves.

With an `old` value (an update), children whose old value correlates are validated through
`values_ratchet.ratchet`, as the apiserver's ratcheting validator does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2

from crdtool.model.gofmt import go_quote, go_value
from crdtool.schema.values.gosemantics import (
    INT64_MAX,
    INT64_MIN,
    RE2_OPTIONS,
    deep_equal,
    enum_matches,
    enum_text,
    go_int64,
    go_regexp_error,
    is_json_integer,
    range_error,
    range_ok,
)
from crdtool.schema.values.ratcheting import Correlation, ratchet

# error kinds: how kubeOpenAPIResultToFieldErrors turns each kube-openapi error into a field.Error;
# PLAIN is an error that is no errors.Validation (it lands on the caller's path)
TYPE, REQUIRED, ENUM, TOO_LONG, TOO_MANY, INVALID, PLAIN = range(7)

# a location is None (the validated value itself) or (parent, step, key): step "p" a property (kube-openapi
# names it without a dot at the root), "d" a map entry or required field (always `parent.key`), "i" an index
Loc = tuple | None

_SCHEMA_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}
#: The Python types of values each schema type takes outright (an integral float's `integer` is decided by
#: _type_ok).
_TAKES = {"object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,), "integer": (int,),
          "number": (int, float)}
_TYPE_FAIL = "%s in body must be of type %s: %s"


class Name:
    """A location's kube-openapi name inside a message that does not start with it (rendered late)."""

    __slots__ = ("loc",)

    def __init__(self, loc: Loc) -> None:
        self.loc = loc

    def __str__(self) -> str:
        return name_of(self.loc, {})


class QuotedName(Name):
    """The name as %q prints it (the junctor messages)."""

    __slots__ = ()

    def __str__(self) -> str:
        return go_quote(name_of(self.loc, {}))


def name_of(loc: Loc, cache: dict[int, str]) -> str:
    """kube-openapi's path string for a location (`spec.a[0].b`; `.key` and `[0]` at the root)."""
    if loc is None:
        return ""
    got = cache.get(id(loc))
    if got is None:
        parent, step, key = loc
        parent_name = name_of(parent, cache)
        if step == "i":
            got = f"{parent_name}[{key}]"
        elif step == "p" and parent_name == "":
            got = key
        else:
            got = parent_name + "." + key
        cache[id(loc)] = got
    return got


_PATTERNS: dict[str, tuple[Any, str]] = {}


def _compile_pattern(pattern: str) -> tuple[Any, str]:
    """The compiled RE2 pattern (shared by every node with the same text), or Go's error text for a bad one."""
    got = _PATTERNS.get(pattern)
    if got is None:
        try:
            got = (re2.compile(pattern, RE2_OPTIONS), "")
        except re2.error as e:
            got = (None, f"{pattern}, but pattern is invalid: {go_regexp_error(e)}")
        _PATTERNS[pattern] = got
    return got


class Node:
    """One schema node with everything kube-openapi's validators need, precomputed.

    Children (items, properties, additionalProperties) are compiled on first use: a value usually touches
    a small part of a large schema, and a CRD's defaults are validated against many overlapping subtrees.
    """

    __slots__ = ("types", "nullable", "fmt", "fmt_check", "check_type", "taken", "types_text", "has_integer",
                 "has_number", "range_type", "num", "checked_error", "multiple_of", "multiple_native", "minimum",
                 "min_native", "exclusive_min", "maximum", "max_native", "exclusive_max", "max_length", "min_length",
                 "pattern", "pattern_text", "pattern_error", "enum", "enum_texts", "items", "min_items", "max_items",
                 "unique_items", "list_type", "map_keys", "is_array", "properties", "additional", "forbid_additional",
                 "required", "min_properties", "max_properties", "all_of", "any_of", "one_of", "not_", "has_junctors")

    def __init__(self, s: dict) -> None:
        if s.get("x-kubernetes-int-or-string"):
            self.types: tuple[str, ...] = ("integer", "string")
        else:
            self.types = (s["type"],) if s.get("type") else ()
        self.nullable = bool(s.get("nullable"))
        self.fmt: str = s.get("format") or ""
        self.fmt_check: Callable[[str], bool] | None = None
        if self.fmt:
            from crdtool.schema.values.formats import format_checker  # with its parsers: only where a format is

            self.fmt_check = format_checker(self.fmt)
        self.check_type = bool(self.types or self.fmt)
        #: The Python types whose values pass the type check without asking _type_ok (none with a format).
        self.taken = frozenset() if self.fmt else frozenset(t for name in self.types for t in _TAKES.get(name, ()))
        self.types_text = ",".join(self.types)
        self.has_integer = "integer" in self.types
        self.has_number = "number" in self.types
        self.range_type = self.types_text  # "integer,string" (int-or-string) gets no integer range check
        self._compile_number(s)
        self.max_length = s.get("maxLength")
        self.min_length = s.get("minLength")
        self.pattern_text: str = s.get("pattern") or ""
        self.pattern, self.pattern_error = _compile_pattern(self.pattern_text) if self.pattern_text else (None, "")
        enum = s.get("enum")
        self.enum = list(enum) if enum else None
        self.enum_texts = [enum_text(a) for a in self.enum] if self.enum else []
        items = s.get("items")
        self.items: Node | dict | None = items if isinstance(items, dict) else None
        self.min_items = s.get("minItems")
        self.max_items = s.get("maxItems")
        self.unique_items = bool(s.get("uniqueItems"))
        self.list_type = s.get("x-kubernetes-list-type")
        self.map_keys = list(s.get("x-kubernetes-list-map-keys") or ())
        self.is_array = s.get("type") == "array"
        self.properties: dict[str, Node | dict] = dict(s.get("properties") or {})
        additional = s.get("additionalProperties")
        self.additional: Node | dict | None = additional if isinstance(additional, dict) else None
        self.forbid_additional = additional is False
        self.required = list(s.get("required") or ())
        self.min_properties = s.get("minProperties")
        self.max_properties = s.get("maxProperties")
        self.all_of = [Node(x) for x in s.get("allOf") or ()]
        self.any_of = [Node(x) for x in s.get("anyOf") or ()]
        self.one_of = [Node(x) for x in s.get("oneOf") or ()]
        self.not_ = Node(s["not"]) if isinstance(s.get("not"), dict) else None
        self.has_junctors = bool(self.all_of or self.any_of or self.one_of or self.not_)

    def _compile_number(self, s: dict) -> None:
        rt, fmt = self.range_type, self.fmt
        self.checked_error = range_error("Checked", rt, fmt)
        self.multiple_of = s.get("multipleOf")
        self.minimum = s.get("minimum")
        self.maximum = s.get("maximum")
        self.exclusive_min = bool(s.get("exclusiveMinimum"))
        self.exclusive_max = bool(s.get("exclusiveMaximum"))
        self.multiple_native = self.multiple_of is None or range_ok(float(self.multiple_of), rt, fmt)
        self.min_native = self.minimum is None or range_ok(float(self.minimum), rt, fmt)
        self.max_native = self.maximum is None or range_ok(float(self.maximum), rt, fmt)
        self.num = self.multiple_of is not None or self.minimum is not None or self.maximum is not None

    # -------------------------------------------------------- lazily compiled children
    def item_node(self) -> Node | None:
        items = self.items
        if type(items) is dict:
            items = self.items = Node(items)
        return items

    def additional_node(self) -> Node | None:
        additional = self.additional
        if type(additional) is dict:
            additional = self.additional = Node(additional)
        return additional

    def property_node(self, key: str) -> Node | None:
        node = self.properties.get(key)
        if type(node) is dict:
            node = self.properties[key] = Node(node)
        return node

    # -------------------------------------------------------- SchemaValidator.Validate
    def validate(self, v: Any, loc: Loc, errs: list, old: Any = None) -> int:
        """Append this value's errors to `errs`; return kube-openapi's MatchCount of the result.

        `old` is the correlated old value on an update (None when there is none): it lets the children
        of objects and map lists correlate, and so ratchet.
        """
        if v is None:
            count = 1
            if self.types and "null" not in self.types and not self.nullable:
                errs.append((TYPE, loc, "null", _TYPE_FAIL, (self.types_text, '"null"')))
                count = 0
            if self.enum:
                errs.append((ENUM, loc, None, "%s in body should be one of %s", (self.enum_texts,)))
            return count
        t = type(v)
        if t is int and not INT64_MIN <= v <= INT64_MAX:  # JSON decodes such integers as float64
            v, t = float(v), float
        count = 3  # schemaProps (its own Inc + 1), common (0 + 1), and the final Inc
        if self.check_type:
            count += 2 if t in self.taken or self._type_ok(v, t, loc, errs) else 1
        if self.has_junctors:
            count += self._junctors(v, loc, errs)
        if t is str:
            self._string(v, loc, errs)
            count += 1
            if self.fmt_check is not None:
                if not self.fmt_check(v):
                    errs.append((TYPE, loc, v, _TYPE_FAIL, (self.fmt, go_quote(v))))
                count += 1
        elif t is int or t is float:
            self._number(v, t is int, loc, errs)
            count += 2
        elif t is list:
            count += self._array(v, loc, errs, old) + 1
        if self.enum and not any(enum_matches(v, a) for a in self.enum):
            errs.append((ENUM, loc, v, "%s in body should be one of %s", (self.enum_texts,)))
        if t is dict:
            count += self._object(v, loc, errs, old) + 1
        return count

    def _type_ok(self, v: Any, t: type, loc: Loc, errs: list) -> bool:
        """typeValidator: the JSON type; a format speaks for non-strings and silences strings and arrays."""
        sch = _SCHEMA_TYPES.get(t, "")
        float_int = t is float and self.has_integer and is_json_integer(v)
        int_float = t is int and self.has_number
        if self.fmt and t is not str and t is not list:
            go_fmt = "int64" if t is int else "float64" if t is float else ""
            if not (sch in self.types or go_fmt == self.fmt or float_int or int_float):
                errs.append((TYPE, loc, go_fmt, _TYPE_FAIL, (self.fmt, go_quote(go_fmt))))
                return False
        elif self.fmt and not (self.has_integer or self.has_number):
            return True
        if not (sch in self.types or float_int or int_float):
            errs.append((TYPE, loc, sch, _TYPE_FAIL, (self.types_text, go_quote(sch))))
            return False
        return True

    def _junctors(self, v: Any, loc: Loc, errs: list) -> int:
        """schemaPropsValidator: anyOf, oneOf, allOf, not (branches see no old value). Returns merged MatchCount."""
        count = 0
        if self.any_of:
            best, best_count, success = None, -1, None
            for sub in self.any_of:
                tmp: list = []
                c = sub.validate(v, loc, tmp)
                if not tmp:
                    success = c
                    break
                if best is None or c > best_count:
                    best, best_count = tmp, c
            if success is None:
                errs.append((PLAIN, loc, None, "%s must validate at least one schema (anyOf)", (QuotedName(loc),)))
                errs.extend(best)
                count += best_count
            else:
                count += success
        if self.one_of:
            validated, best, best_count, first = 0, None, -1, 0
            for sub in self.one_of:
                tmp = []
                c = sub.validate(v, loc, tmp)
                if not tmp:
                    validated += 1
                    best = None
                    if validated == 1:
                        first = c
                elif validated == 0 and (best is None or c > best_count):
                    best, best_count = tmp, c
            if validated != 1:
                extra = "Found none valid" if validated == 0 else f"Found {validated} valid alternatives"
                errs.append((PLAIN, loc, None, "%s must validate one and only one schema (oneOf). %s",
                             (QuotedName(loc), extra)))
                if best is not None:
                    errs.extend(best)
                    count += best_count
            else:
                count += first
        if self.all_of:
            validated = 0
            for sub in self.all_of:
                before = len(errs)
                count += sub.validate(v, loc, errs)
                validated += len(errs) == before
            if validated != len(self.all_of):
                extra = ". None validated" if validated == 0 else ""
                errs.append((PLAIN, loc, None, "%s must validate all the schemas (allOf)%s",
                             (QuotedName(loc), extra)))
        if self.not_ is not None:
            tmp = []
            self.not_.validate(v, loc, tmp)
            if not tmp:
                errs.append((PLAIN, loc, None, "%s must not validate the schema (not)", (QuotedName(loc),)))
        return count

    def _string(self, v: str, loc: Loc, errs: list) -> None:
        """stringValidator: lengths in runes, then the RE2 pattern (unanchored); only the first failure."""
        if self.max_length is not None and len(v) > self.max_length:
            errs.append((TOO_LONG, loc, v, "%s in body should be at most %d chars long", (self.max_length,)))
        elif self.min_length is not None and len(v) < self.min_length:
            errs.append((INVALID, loc, v, "%s in body should be at least %d chars long", (self.min_length,)))
        elif self.pattern is not None:
            if self.pattern.search(v) is None:
                errs.append((INVALID, loc, v, "%s in body should match '%s'", (self.pattern_text,)))
        elif self.pattern_error:
            errs.append((INVALID, loc, v, "%s in body should match '%s'", (self.pattern_error,)))

    def _number(self, v: int | float, is_int: bool, loc: Loc, errs: list) -> None:
        """numberValidator: the type/format range check, then multipleOf, minimum, maximum. A bound that fits
        the type compares natively (int64 against int64(bound)); otherwise as float64, after its own error."""
        if not range_ok(v, self.range_type, self.fmt):
            errs.append((PLAIN, loc, None, self.checked_error, (Name(loc),)))
        if not self.num:
            return
        rt, fmt = self.range_type, self.fmt
        data = float(v)
        if self.multiple_of is not None:
            factor = float(self.multiple_of)
            if self.multiple_native and is_int:
                whole = go_int64(factor)
                if whole < 0:
                    errs.append((INVALID, loc, whole, "factor MultipleOf declared for %s must be positive: %s",
                                 (whole,)))
                elif whole and v % whole:
                    errs.append((INVALID, loc, v, "%s in body should be a multiple of %s", (whole,)))
            else:
                if not self.multiple_native:
                    errs.append((PLAIN, loc, None, range_error("MultipleOf", rt, fmt), (Name(loc),)))
                if factor < 0:
                    errs.append((INVALID, loc, factor, "factor MultipleOf declared for %s must be positive: %s",
                                 (go_value(factor),)))
                elif not is_json_integer(1 / factor * data if factor < 1 else data / factor):
                    errs.append((INVALID, loc, data, "%s in body should be a multiple of %s", (go_value(factor),)))
        if self.minimum is not None:
            self._bound(v, is_int, data, self.minimum, self.exclusive_min, self.min_native, False, loc, errs)
        if self.maximum is not None:
            self._bound(v, is_int, data, self.maximum, self.exclusive_max, self.max_native, True, loc, errs)

    def _bound(self, v: int | float, is_int: bool, data: float, bound: float, exclusive: bool, native: bool,
               upper: bool, loc: Loc, errs: list) -> None:
        if upper:
            template = "%s in body should be less than %s" if exclusive else \
                "%s in body should be less than or equal to %s"
        else:
            template = "%s in body should be greater than %s" if exclusive else \
                "%s in body should be greater than or equal to %s"
        if native and is_int:
            limit = go_int64(float(bound))
            if (v > limit if upper else v < limit) or (exclusive and v == limit):
                errs.append((INVALID, loc, v, template, (limit,)))
            return
        if not native:
            prefix = "Maximum boundary" if upper else "Minimum boundary"
            errs.append((PLAIN, loc, None, range_error(prefix, self.range_type, self.fmt), (Name(loc),)))
        limit = float(bound)
        if (data > limit if upper else data < limit) or (exclusive and data == limit):
            errs.append((INVALID, loc, data, template, (go_value(limit),)))

    def _array(self, v: list, loc: Loc, errs: list, old: Any) -> int:
        """schemaSliceValidator: items first, then minItems, maxItems, uniqueItems. Returns its MatchCount."""
        count = 1
        items = self.item_node()
        if items is not None:
            if type(old) is list and self.list_type == "map":
                correlate = Correlation(self, old)
                for i, item in enumerate(v):
                    old_item = correlate(item)
                    if old_item is None:
                        count += items.validate(item, (loc, "i", i), errs)
                    else:
                        count += ratchet(items, item, (loc, "i", i), errs, old_item)
            else:
                for i, item in enumerate(v):
                    count += items.validate(item, (loc, "i", i), errs)
        size = len(v)
        if self.min_items is not None and size < self.min_items:
            errs.append((INVALID, loc, size, "%s in body should have at least %d items", (self.min_items,)))
        if self.max_items is not None and size > self.max_items:
            errs.append((TOO_MANY, loc, size, "%s in body should have at most %d items", (self.max_items,)))
        if self.unique_items and _has_duplicates(v):
            errs.append((INVALID, loc, "", "%s in body shouldn't contain duplicates", ()))
        return count

    def _object(self, v: dict, loc: Loc, errs: list, old: Any) -> int:
        """objectValidator: property counts, unknown keys, properties, required. Returns its MatchCount."""
        count = 0
        size = len(v)
        if self.min_properties is not None and size < self.min_properties:
            errs.append((INVALID, loc, size, "%s in body should have at least %d properties", (self.min_properties,)))
        if self.max_properties is not None and size > self.max_properties:
            errs.append((TOO_MANY, loc, size, "%s in body should have at most %d properties", (self.max_properties,)))
        properties = self.properties
        additional = self.additional_node()
        old_map = old if type(old) is dict else None
        for key, value in v.items():
            node = properties.get(key)
            if node is not None:
                if type(node) is dict:
                    node = self.property_node(key)
                step = "p"
            elif additional is not None:
                node, step = additional, "d"
            else:
                if self.forbid_additional:
                    errs.append((INVALID, loc, key, "%s.%s in body is a forbidden property", (key,)))
                continue
            if old_map is not None and key in old_map:
                count += ratchet(node, value, (loc, step, key), errs, old_map[key])
            else:
                count += node.validate(value, (loc, step, key), errs)
        for key in self.required:
            if key not in v:
                errs.append((REQUIRED, (loc, "d", key), None, "%s in body is required", ()))
        return count


def _has_duplicates(items: list) -> bool:
    seen: list = []
    for x in items:
        if any(deep_equal(x, y) for y in seen):
            return True
        seen.append(x)
    return False
