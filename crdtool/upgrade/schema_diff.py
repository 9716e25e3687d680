"""Walk the old and the new openAPIV3Schema of one CRD version in parallel, and yield each change that
may break the objects already stored or the clients already written (the rules of `rules.RULES`).

Only nodes present on both sides are compared: a field that is new has no stored values and no
clients yet, so only its being required matters (checked on its parent). Where a node's type
changed, nothing under it is compared: every difference below would restate the same break.
Descriptions, titles and examples never matter. allOf/anyOf/oneOf/not are compared as a whole
(conservatively: any change that is not a removal is reported, without proving it stricter).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from crdtool.model.path import Path
from crdtool.schema.values.formats import format_checker
from crdtool.upgrade.rules import Change

_MISSING = object()
_DOC_KEYS = frozenset({"description", "title", "example", "externalDocs"})
_OLD_SELF = re.compile(r"\boldSelf\b")

#: (keyword, whether it is a lower bound) for the size limits whose absence means "no limit".
_SIZE_LIMITS = (("minLength", True), ("maxLength", False), ("minItems", True), ("maxItems", False),
                ("minProperties", True), ("maxProperties", False))
#: Type changes that accept every old value (only clients typed for the old one may break).
_WIDENINGS = frozenset({("string", "int-or-string"), ("integer", "int-or-string"), ("integer", "number")})


def _normal(value: Any) -> Any:
    """A JSON value as the apiserver compares it: 1 and 1.0 are one number, key order does not matter."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def canonical(value: Any) -> str:
    """One text per JSON value (sorted keys, integral floats as integers), for equality and display."""
    return json.dumps(_normal(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def show(value: Any, limit: int = 80) -> str:
    """A value as JSON, shortened for a one-line message."""
    text = canonical(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _without_docs(schema: Any) -> Any:
    """A schema without the keys that only document it, to tell real changes from reworded ones."""
    if isinstance(schema, dict):
        return {k: _without_docs(v) for k, v in schema.items() if k not in _DOC_KEYS}
    if isinstance(schema, list):
        return [_without_docs(v) for v in schema]
    return schema


def same_schema(a: Any, b: Any) -> bool:
    """Whether two schemas validate, prune and default alike (they may differ in descriptions)."""
    return canonical(_without_docs(a)) == canonical(_without_docs(b))


def rule_key(text: Any) -> Any:
    """A CEL rule's text without the whitespace outside its string literals: a rule only re-wrapped or
    re-indented (as generators and YAML folding do) is the same rule."""
    if not isinstance(text, str):
        return text
    out: list[str] = []
    quote = ""
    escaped = False
    for ch in text:
        if quote:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif not ch.isspace():
            out.append(ch)
    return "".join(out)


def _number(value: Any) -> float | int | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _type_name(schema: dict[str, Any]) -> str:
    """The type a client sees: `int-or-string` for x-kubernetes-int-or-string, `any` for an untyped node."""
    if schema.get("x-kubernetes-int-or-string") is True:
        return "int-or-string"
    return schema.get("type") or "any"


def _divides(new: Any, old: Any) -> bool:
    """Whether every multiple of `old` is a multiple of `new` (so multipleOf `new` is no stricter)."""
    try:
        ratio = Fraction(str(old)) / Fraction(str(new))
    except (ValueError, ZeroDivisionError):
        return False
    return ratio.denominator == 1


def diff_schemas(old: Any, new: Any, path: Path, version: str) -> Iterator[Change]:
    """Every change from `old` to `new` (two openAPIV3Schema nodes) at `path` of the new document."""
    if isinstance(old, dict) and isinstance(new, dict):
        yield from _SchemaWalk(version).node(old, new, path)


class _SchemaWalk:
    """One parallel walk; keeps the version name that every change reports."""

    def __init__(self, version: str) -> None:
        self.version = version

    def change(self, code: str, path: Path, what: str, why: str | None = None,
               severity: str | None = None) -> Change:
        return Change(code, path, what, self.version, why, severity)

    def node(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        type_changes = list(self.types(old, new, path))
        yield from type_changes
        if type_changes:
            return
        yield from self.preserve_unknown(old, new, path)
        yield from self.format(old, new, path)
        yield from self.merge_strategy(old, new, path)
        yield from self.enum(old, new, path)
        yield from self.limits(old, new, path)
        yield from self.junctors(old, new, path)
        yield from self.default(old, new, path)
        yield from self.rules(old, new, path)
        yield from self.required(old, new, path)
        yield from self.properties(old, new, path)
        for key in ("items", "additionalProperties"):
            old_sub, new_sub = old.get(key), new.get(key)
            if isinstance(old_sub, dict) and isinstance(new_sub, dict):
                yield from self.node(old_sub, new_sub, path.child(key))
        if old.get("additionalProperties") not in (None, False) and new.get("additionalProperties") in (None, False) \
                and new.get("x-kubernetes-preserve-unknown-fields") is not True:
            yield self.change("field-removed", path.child("additionalProperties"), "additionalProperties removed",
                              "the map's stored entries are pruned when objects are read")

    def types(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        old_type, new_type = _type_name(old), _type_name(new)
        if old_type != new_type:
            at = path.child("type") if "type" in new else path
            if (old_type, new_type) in _WIDENINGS:
                yield self.change("type-changed", at, f"type widened from {old_type} to {new_type}",
                                  f"stored values still validate, but clients built for {old_type} may fail to "
                                  f"decode the new values", "warning")
            else:
                yield self.change("type-changed", at, f"type changed from {old_type} to {new_type}")
        old_embedded = old.get("x-kubernetes-embedded-resource") is True
        if old_embedded != (new.get("x-kubernetes-embedded-resource") is True):
            yield self.change("type-changed", path.child("x-kubernetes-embedded-resource"),
                              f"x-kubernetes-embedded-resource {'removed' if old_embedded else 'added'}")

    def preserve_unknown(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        if old.get("x-kubernetes-preserve-unknown-fields") is True \
                and new.get("x-kubernetes-preserve-unknown-fields") is not True:
            yield self.change("preserve-unknown-fields-removed", path.child("x-kubernetes-preserve-unknown-fields"),
                              "x-kubernetes-preserve-unknown-fields removed")

    def format(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        old_format, new_format = old.get("format") or "", new.get("format") or ""
        if not new_format or old_format == new_format:
            return
        what = (f"format changed from {show(old_format)} to {show(new_format)}" if old_format
                else f"format {show(new_format)} added")
        if format_checker(new_format) is None:
            yield self.change("format-changed", path.child("format"), what,
                              "the apiserver does not check this format, but clients generated from the schema "
                              "may change the field's type", "info")
        else:
            yield self.change("format-changed", path.child("format"), what)

    def merge_strategy(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        for key, absent in (("x-kubernetes-list-type", "atomic"), ("x-kubernetes-map-type", "granular")):
            old_value, new_value = old.get(key) or absent, new.get(key) or absent
            if old_value != new_value:
                yield self.change("list-type-changed", path.child(key),
                                  f"{key} changed from {show(old_value)} to {show(new_value)}")
        old_keys, new_keys = old.get("x-kubernetes-list-map-keys"), new.get("x-kubernetes-list-map-keys")
        if old.get("x-kubernetes-list-type") == new.get("x-kubernetes-list-type") == "map" \
                and canonical(old_keys or []) != canonical(new_keys or []):
            yield self.change("list-type-changed", path.child("x-kubernetes-list-map-keys"),
                              f"x-kubernetes-list-map-keys changed from {show(old_keys or [])} to "
                              f"{show(new_keys or [])}")

    def enum(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        old_enum, new_enum = old.get("enum"), new.get("enum")
        if not isinstance(new_enum, list):
            return
        if not isinstance(old_enum, list):
            yield self.change("enum-added", path.child("enum"),
                              f"enum added (allowed: {', '.join(show(v, 40) for v in new_enum)})")
            return
        kept = {canonical(v) for v in new_enum}
        removed = [v for v in old_enum if canonical(v) not in kept]
        if removed:
            noun = "value" if len(removed) == 1 else "values"
            yield self.change("enum-value-removed", path.child("enum"),
                              f"enum {noun} {', '.join(show(v, 40) for v in removed)} removed")

    def limits(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        yield from self.bound(old, new, path, "minimum", "exclusiveMinimum", lower=True)
        yield from self.bound(old, new, path, "maximum", "exclusiveMaximum", lower=False)
        for key, lower in _SIZE_LIMITS:
            old_value, new_value = _number(old.get(key)), _number(new.get(key))
            if new_value is None or (lower and new_value <= 0):
                continue
            if old_value is None:
                yield self.change("limit-tightened", path.child(key), f"{key} {new_value} added")
            elif (new_value > old_value) if lower else (new_value < old_value):
                yield self.change("limit-tightened", path.child(key),
                                  f"{key} tightened from {old_value} to {new_value}")
        old_pattern, new_pattern = old.get("pattern") or "", new.get("pattern") or ""
        if new_pattern and new_pattern != old_pattern:
            what = (f"pattern changed from {show(old_pattern)} to {show(new_pattern)}" if old_pattern
                    else f"pattern {show(new_pattern)} added")
            yield self.change("limit-tightened", path.child("pattern"), what)
        old_multiple, new_multiple = _number(old.get("multipleOf")), _number(new.get("multipleOf"))
        if new_multiple is not None and (old_multiple is None or not _divides(new_multiple, old_multiple)):
            what = (f"multipleOf changed from {old_multiple} to {new_multiple}" if old_multiple is not None
                    else f"multipleOf {new_multiple} added")
            yield self.change("limit-tightened", path.child("multipleOf"), what)
        if old.get("nullable") is True and new.get("nullable") is not True:
            yield self.change("limit-tightened", path.child("nullable"), "nullable removed",
                              "null values are refused when written (or replaced by the default, if any); "
                              "existing values are kept while unchanged (validation ratcheting)")

    def bound(self, old: dict[str, Any], new: dict[str, Any], path: Path, key: str, exclusive: str,
              lower: bool) -> Iterator[Change]:
        """minimum/maximum with their draft-4 boolean exclusive flags."""
        old_value, new_value = _number(old.get(key)), _number(new.get(key))
        if new_value is None or (isinstance(new_value, float) and math.isnan(new_value)):
            return
        old_exclusive, new_exclusive = old.get(exclusive) is True, new.get(exclusive) is True
        bound = f"{key} {'(exclusive) ' if new_exclusive else ''}{new_value}"
        if old_value is None:
            yield self.change("limit-tightened", path.child(key), f"{bound} added")
        elif (new_value > old_value) if lower else (new_value < old_value):
            yield self.change("limit-tightened", path.child(key), f"{key} tightened from {old_value} to {new_value}")
        elif new_value == old_value and new_exclusive and not old_exclusive:
            yield self.change("limit-tightened", path.child(exclusive), f"{exclusive} added ({key} {new_value})")

    def junctors(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        for key in ("allOf", "anyOf", "oneOf", "not"):
            new_value = new.get(key)
            if new_value is None:
                continue
            old_value = old.get(key)
            if old_value is None:
                yield self.change("limit-tightened", path.child(key), f"{key} added",
                                  "values that do not satisfy it are refused when written (crdtool does not "
                                  "analyse allOf/anyOf/oneOf/not further)")
            elif not same_schema(old_value, new_value):
                yield self.change("limit-tightened", path.child(key), f"{key} changed",
                                  "values that no longer satisfy it are refused when written (crdtool does not "
                                  "analyse allOf/anyOf/oneOf/not further)")

    def default(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        old_default, new_default = old.get("default", _MISSING), new.get("default", _MISSING)
        if old_default is _MISSING and new_default is _MISSING:
            return
        at = path.child("default")
        if old_default is _MISSING:
            yield self.change("default-added", at, f"default {show(new_default)} added")
        elif new_default is _MISSING:
            yield self.change("default-removed", at, f"default {show(old_default)} removed")
        elif canonical(old_default) != canonical(new_default):
            yield self.change("default-changed", at,
                              f"default changed from {show(old_default)} to {show(new_default)}")

    def rules(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        new_rules = new.get("x-kubernetes-validations")
        if not isinstance(new_rules, list):
            return
        old_rules = [r for r in old.get("x-kubernetes-validations") or () if isinstance(r, dict)]
        old_texts = {rule_key(r.get("rule")) for r in old_rules}
        old_messages = {(r.get("message"), r.get("messageExpression")) for r in old_rules}
        for i, rule in enumerate(new_rules):
            if not isinstance(rule, dict) or rule_key(rule.get("rule")) in old_texts:
                continue
            text = rule.get("rule") or ""
            at = path.child("x-kubernetes-validations").index(i)
            kind = "transition rule" if _OLD_SELF.search(text) else "rule"
            # A rule keeping its message is the old rule rewritten: say so, it is what a reviewer looks for.
            rewritten = (rule.get("message"), rule.get("messageExpression")) in old_messages \
                and (rule.get("message") or rule.get("messageExpression"))
            what = f"{kind} changed to {show(text)}" if rewritten else f"new {kind} {show(text)}"
            if kind == "transition rule":
                yield self.change("cel-rule-added", at, what, "updates that change the field must satisfy it"
                                  + (", and so must creates" if rule.get("optionalOldSelf") is True else ""))
            else:
                yield self.change("cel-rule-added", at, what)

    def required(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        new_required = new.get("required")
        if not isinstance(new_required, list):
            return
        old_required = set(old.get("required") or ())
        properties = v if isinstance(v := new.get("properties"), dict) else {}
        for i, name in enumerate(new_required):
            if name in old_required:
                continue
            sub = properties.get(name)
            at = path.child("properties").key(name) if sub is not None else path.child("required").index(i)
            if isinstance(sub, dict) and "default" in sub:
                yield self.change("required-field-added", at, f"field {show(name)} became required",
                                  f"it has a default ({show(sub['default'])}), so objects that omit it get the "
                                  f"default and no request fails for omitting it", "info")
            else:
                yield self.change("required-field-added", at, f"field {show(name)} became required")

    def properties(self, old: dict[str, Any], new: dict[str, Any], path: Path) -> Iterator[Change]:
        old_props = old.get("properties")
        if not isinstance(old_props, dict):
            return
        new_props = v if isinstance(v := new.get("properties"), dict) else {}
        added = [name for name in new_props if name not in old_props]
        preserved = new.get("x-kubernetes-preserve-unknown-fields") is True
        for name, old_sub in old_props.items():
            at = path.child("properties").key(name)
            if name in new_props:
                if isinstance(old_sub, dict) and isinstance(new_props[name], dict):
                    yield from self.node(old_sub, new_props[name], at)
                continue
            twins = [n for n in added if same_schema(new_props[n], old_sub)]
            what = f"field {show(name)} removed"
            if len(twins) == 1:
                what += f" (renamed to {show(twins[0])}? a new field with the same schema was added)"
            if preserved:
                yield self.change("field-removed", at, what,
                                  "stored values are kept (x-kubernetes-preserve-unknown-fields) but no longer "
                                  "validated or defaulted", "warning")
            else:
                yield self.change("field-removed", at, what)
