"""Evaluating x-kubernetes-validations rules on an object, as the apiserver's CEL validator does.

The schema and the object are walked together; at every node with rules each rule runs once per
value there (each list item, each map value), with `self` the value and, on update, `oldSelf` the
correlated old value (object properties and granular map entries by name, items of map lists by
key). Transition rules run only where an old value exists (or always, with optionalOldSelf). On
update, an error at a node whose value did not change is ratcheted: it becomes a warning, unless the
rule is a transition rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crdtool.cel import environment
from crdtool.cel.compiler import CompiledRule, compile_node
from crdtool.cel.sized import PER_CALL_LIMIT, RUNTIME_BUDGET, sized_cost
from crdtool.cel.unbounded import metered
from crdtool.cel.values import to_cel
from crdtool.model.errors import OMIT, FieldError
from crdtool.model.gofmt import go_trim_space
from crdtool.model.jsonvalue import deep_equal
from crdtool.model.notes import Note
from crdtool.model.path import Path, child_of, index_of, key_of
from crdtool.schema.structural.structural import Structural

if TYPE_CHECKING:
    from crdtool.cache import Cache

__all__ = ["rule_validator", "validate", "validate_default"]

MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024


BUDGET_UNKNOWN = (
    "not checked: the worst-case cost of this object's rules ({cost:,}) exceeds the apiserver's runtime budget "
    f"of {RUNTIME_BUDGET:,} per object; crdtool cannot count their actual cost, so whether the apiserver would stop "
    "with 'validation failed due to running out of cost budget' is unknown")


CALL_UNKNOWN = (
    "not checked: the rule '{rule}' ran past 10,000 iterations on this value; its worst-case cost here ({cost:,}) "
    f"exceeds the apiserver's per-call limit of {PER_CALL_LIMIT:,}, and the cost it certainly had does not: crdtool "
    "cannot count its actual cost, so whether the apiserver would stop it with 'operation cancelled: actual cost "
    "limit exceeded' is unknown (its outcome here is crdtool's)")


NOT_EVALUATED = "not checked: the rule '{rule}' {why}; the apiserver evaluates it"
MESSAGE_NOT_EVALUATED = ("the messageExpression '{expression}' {why}: the apiserver's message is that expression's, "
                         "not the rule's message shown here")


def rule_validator(root: Structural, store: Cache | None = None):
    """The validation seam (resource_validation.RuleValidator) for a version's root schema; rules are
    compiled when a value first reaches their node (or read from `store`, the persistent cache)."""
    def run(obj: dict, old: dict | None) -> tuple[list[FieldError], list[str]]:
        return validate(root, True, obj, old, None, ratcheting=old is not None, store=store)
    return run


def validate_default(schema: Structural, is_resource_root: bool, value: Any, path: Path) -> list[FieldError]:
    """ValidateDefaults' CEL step: the default as self and oldSelf, then (if that passes) as a create."""
    errs, _ = validate(schema, is_resource_root, value, value, path, ratcheting=False)
    if errs:
        return errs
    errs, _ = validate(schema, is_resource_root, value, None, path, ratcheting=False)
    return errs


def validate(schema: Structural, is_resource_root: bool, obj: Any, old: Any, path: Path | None,
             ratcheting: bool, store: Cache | None = None) -> tuple[list[FieldError], list[str]]:
    """The rule errors and (ratcheted) warnings of `obj` under `schema`, in document order."""
    walker = _Walker(store)
    anchor = _Anchor(obj, old, None, schema=schema) if ratcheting else None
    walker.walk(schema, is_resource_root, obj, old, path, anchor)
    bound = walker.cost_bound()
    if bound > RUNTIME_BUDGET:
        walker.warnings.append(Note(path or Path.root(), BUDGET_UNKNOWN.format(cost=bound)))
    return walker.errs, walker.warnings


class _Walker:
    def __init__(self, store: Cache | None = None) -> None:
        self.store = store
        self.stopped = False  # a rule ran out of budget: no further rules run
        self.errs: list[FieldError] = []
        self.warnings: list[str] = []
        # The apiserver charges every rule's actual cost to the object's budget, which cel-expr-python
        # does not count. Static estimates bound it: the rules run here, with their estimates.
        self.static_cost = 0
        self.runs: list[tuple[CompiledRule, Structural, bool, list]] = []

    def cost_bound(self) -> int:
        """An upper bound of what the apiserver charged for the rules run: their static estimates, or, when
        those exceed the budget, their estimates with this object's own sizes."""
        bound = self.static_cost
        # The costliest runs first: usually a few of them re-estimated bring the bound within the budget.
        for compiled, s, is_root, values in sorted(self.runs, key=lambda run: -run[0].compilation.max_cost):
            if bound <= RUNTIME_BUDGET:
                break
            if compiled.ast is not None:
                bound -= compiled.compilation.max_cost - min(compiled.compilation.max_cost,
                                                             sized_cost(compiled.ast, s, is_root, values))
        return bound

    def walk(self, s: Structural, is_root: bool, obj: Any, old: Any, path: Path | None,
             anchor: _Anchor | None = None) -> None:
        """Validate `obj` (correlated with `old` for oldSelf); `anchor` is the nearest node correlated for
        ratcheting (itself, when it is), whose equality to its old value ratchets this node's errors."""
        if obj is None or self.stopped:
            return
        if s.x_validations:
            self.run_rules(s, is_root, obj, old, path, anchor)
        if isinstance(obj, list):
            self.walk_list(s, obj, old, path, anchor)
        elif isinstance(obj, dict):
            self.walk_map(s, obj, old, path, anchor)

    def walk_list(self, s: Structural, obj: list, old: Any, path: Path | None, anchor: _Anchor | None) -> None:
        items = s.items
        if items is None:
            return
        old_by_key = _map_list_index(s, old)
        for i, item in enumerate(obj):
            old_item = old_by_key.get(_map_key(s, item)) if old_by_key else None
            child_anchor = anchor
            if anchor is not None and anchor.correlated:
                child_anchor = _Anchor(item, old_item, anchor, schema=items) if old_item is not None \
                    else _Anchor.deferring_to(anchor)
            self.walk(items, items.x_embedded_resource, item, old_item, index_of(path, i), child_anchor)

    def walk_map(self, s: Structural, obj: dict, old: Any, path: Path | None, anchor: _Anchor | None) -> None:
        old = old if isinstance(old, dict) else None
        additional = s.additional_properties_schema
        if additional is not None:
            correlatable = s.x_map_type != "atomic"
            for k, v in obj.items():
                old_v = old.get(k) if old is not None and correlatable else None
                self.walk(additional, additional.x_embedded_resource, v, old_v, key_of(path, k),
                          _field_anchor(anchor, k, v, old, additional))
        if s.properties:
            for k, v in obj.items():
                sub = s.properties.get(k)
                if sub is not None:
                    old_v = old.get(k) if old is not None else None
                    if path is None and k in ("apiVersion", "kind"):
                        child_anchor = None
                    else:
                        child_anchor = _field_anchor(anchor, k, v, old, sub)
                    self.walk(sub, sub.x_embedded_resource, v, old_v, child_of(path, k), child_anchor)

    def run_rules(self, s: Structural, is_root: bool, obj: Any, old: Any, path: Path | None,
                  anchor: _Anchor | None) -> None:
        node = compile_node(s, is_root, self.store)
        self_value = to_cel(obj, node.decl_type)
        old_value = to_cel(old, node.decl_type) if old is not None else None
        activation = {"self": self_value}
        if old is not None:
            activation["oldSelf"] = old_value
        ratchet = anchor is not None and anchor.unchanged()
        node_path = path if path is not None else "<nil>"
        for compiled in node.rules:
            if compiled.compilation.error_type is not None:
                self.errs.append(FieldError.invalid(node_path, s.type,
                                                    f"rule compile error: {compiled.compilation.error_detail}"))
                continue
            if compiled.program is None:
                continue
            if compiled.compilation.uses_old_self and old is None and not compiled.optional_old_self:
                continue
            self.static_cost += compiled.compilation.max_cost
            self.runs.append((compiled, s, is_root, [obj] if old is None else [obj, old]))
            data = activation
            if compiled.optional_old_self:
                data = {"self": self_value, environment.OLD_SELF_PRESENT: old is not None,
                        environment.OLD_SELF_VALUE: old_value}
            try:
                outcome, undecided = _evaluate(compiled, data, s, is_root, [obj] if old is None else [obj, old])
            except RuntimeError as err:  # the runtime's own iteration budget: a runaway rule
                if self.noted_not_evaluable(compiled, path, str(err)):
                    continue
                from crdtool.cel.errors import go_runtime_error  # cel-go's texts: only for rules that fail

                self.errs.append(FieldError.invalid(node_path, s.type, (
                    f"'operation cancelled: actual cost limit exceeded': no further validation rules will be run "
                    f"due to call cost exceeds limit for rule: {_rule_error_string(compiled.rule)}")
                    if "budget" in str(err) else f"{go_runtime_error(str(err))} evaluating rule: "
                                                 f"{_rule_error_string(compiled.rule)}"))
                self.stopped = True
                return
            if undecided is not None:
                note = CALL_UNKNOWN.format(rule=_rule_error_string(compiled.rule), cost=undecided)
                self.warnings.append(Note(path or Path.root(), note))
            kind = outcome.type().name()
            if kind == "ERROR":
                text = str(outcome.plain_value())
                if not self.noted_not_evaluable(compiled, path, text):
                    self.runtime_error(compiled, s, node_path, text)
                continue
            if kind == "BOOL" and outcome.plain_value() is True:
                continue
            error = self.failure(compiled, s, obj, path, activation)
            if ratchet and not compiled.compilation.uses_old_self:
                self.warnings.append(str(error))
            else:
                self.errs.append(error)

    def noted_not_evaluable(self, compiled: CompiledRule, path: Path | None, error: str) -> bool:
        """Whether the engine's error is a function its runtime lacks (crdtool's limit, not the rule's
        answer): then the rule is noted as not checked, and the object is not refused for it."""
        from crdtool.cel.errors import not_evaluable

        why = not_evaluable(error)
        if why is None:
            return False
        self.warnings.append(Note(path or Path.root(), NOT_EVALUATED.format(rule=_rule_error_string(compiled.rule),
                                                                            why=why)))
        return True

    def runtime_error(self, compiled: CompiledRule, s: Structural, path: Path | str, text: str) -> None:
        from crdtool.cel.errors import go_runtime_error

        err = go_runtime_error(text)
        rule_text = _rule_error_string(compiled.rule)
        if err.startswith("no such overload"):
            detail = (f"'{err}': call arguments did not match a supported operator, function or macro signature "
                      f"for rule: {rule_text}")
        else:
            detail = f"{err} evaluating rule: {rule_text}"
        self.errs.append(FieldError.invalid(path, s.type, detail))

    def failure(self, compiled: CompiledRule, s: Structural, obj: Any, path: Path | None,
                activation: dict) -> FieldError:
        """The field error of a rule that evaluated to false."""
        rule = compiled.rule
        if compiled.field_path:
            error_path: Path | str = Path.root(compiled.field_path) if path is None else \
                path.child(compiled.field_path)
        else:
            error_path = path if path is not None else "<nil>"
        detail = _message_or_default(rule)
        if compiled.message_program is not None:
            self.static_cost += compiled.compilation.message_expression_max_cost
            message, why = self.message_expression(compiled, activation)
            detail = message or detail
            if why is not None:
                self.warnings.append(Note(path or Path.root(), MESSAGE_NOT_EVALUATED.format(
                    expression=compiled.rule.get("messageExpression"), why=why)))
        value = obj if isinstance(obj, (str, int, float, bool)) else OMIT
        reason = rule.get("reason")
        if reason == "FieldValueForbidden":
            return FieldError.forbidden(error_path, detail)
        if reason == "FieldValueRequired":
            return FieldError.required(error_path, detail)
        if reason == "FieldValueDuplicate":
            return FieldError.duplicate(error_path, value)
        return FieldError.invalid(error_path, value, detail)

    @staticmethod
    def message_expression(compiled: CompiledRule, activation: dict) -> tuple[str | None, str | None]:
        """The messageExpression's message, or None when it fails (the rule's message is used then), and
        why crdtool could not evaluate it (cel.errors.not_evaluable), if that is why it failed. Past the
        engine's cap of 10,000 iterations it runs again loop by loop, as rules do (the apiserver has no
        such cap)."""
        from crdtool.cel.errors import not_evaluable

        program = compiled.message_program
        assert program is not None, "called for rules with a messageExpression"
        try:
            try:
                outcome = program.eval(data=activation)
            except RuntimeError as err:
                if "budget" not in str(err):
                    raise
                outcome = compiled.unbounded(program).eval(data=activation)
        except RuntimeError as err:
            return None, not_evaluable(str(err))
        kind = outcome.type().name()
        if kind == "ERROR":
            return None, not_evaluable(str(outcome.plain_value()))
        if kind != "STRING":
            return None, None
        message = go_trim_space(outcome.plain_value())
        if not message or len(message.encode()) > MAX_MESSAGE_EXPRESSION_BYTES or "\n" in message \
                or "\r" in message:
            return None, None
        return message, None


class _Anchor:
    """A node correlated with its old value for ratcheting (CorrelatedObject), or a stand-in for an
    uncorrelatable node that defers to its nearest correlated ancestor."""

    __slots__ = ("new", "old", "parent", "correlated", "schema", "_equal")

    def __init__(self, new: Any, old: Any, parent: _Anchor | None, correlated: bool = True,
                 schema: Structural | None = None) -> None:
        self.new, self.old, self.parent, self.correlated, self.schema = new, old, parent, correlated, schema
        self._equal: bool | None = None

    @classmethod
    def deferring_to(cls, anchor: _Anchor) -> _Anchor:
        return cls(None, None, anchor, correlated=False)

    def unchanged(self) -> bool:
        """Whether errors here are ratcheted: this node (or its nearest correlated ancestor) is unchanged."""
        if not self.correlated:
            return self.parent is not None and self.parent.unchanged()
        if self._equal is None:
            self._equal = _correlated_equal(self.schema, self.new, self.old)
        return self._equal


def _correlated_equal(schema: Structural | None, new: Any, old: Any) -> bool:
    """CachedDeepEqual: items of a map list compare with the old item of the same key."""
    if schema is None or schema.x_list_type != "map" or not isinstance(new, list) or not isinstance(old, list):
        return deep_equal(new, old)
    if len(new) != len(old):
        return False
    index = _map_list_index(schema, old) or {}
    return all(deep_equal(item, index.get(_map_key(schema, item))) for item in new)


def _field_anchor(anchor: _Anchor | None, key: str, value: Any, old: dict | None,
                  schema: Structural) -> _Anchor | None:
    """The ratcheting correlation of a property or map entry: by name, when the old object has it."""
    if anchor is None or not anchor.correlated:
        return anchor
    if old is not None and key in old:
        return _Anchor(value, old[key], anchor, schema=schema)
    return _Anchor.deferring_to(anchor)


def _evaluate(compiled: CompiledRule, data: dict, s: Structural, is_root: bool, values: list) -> tuple[Any, int | None]:
    """The rule's outcome, and (when it is undecided) the upper bound of its cost. Past the engine's cap of
    10,000 iterations the rule runs again loop by loop, its loops metered: the apiserver's cancellation is
    raised (as the cap's RuntimeError) only when the cost the loops certainly had passes the per-call
    limit; when the rule completes within that but its worst case on these values is past the limit,
    whether the apiserver would have cancelled it is unknown, and the bound is returned for the note."""
    try:
        return compiled.program.eval(data=data), None
    except RuntimeError as err:
        if "budget" not in str(err) or compiled.ast is None:
            raise
        budget_error = err
    upper = sized_cost(compiled.ast, s, is_root, values)
    program = compiled.unbounded(compiled.program)
    if upper <= PER_CALL_LIMIT:
        return program.eval(data=data), None
    with metered(PER_CALL_LIMIT) as meter:
        outcome = program.eval(data=data)
    if meter.exceeded:
        raise budget_error
    return outcome, upper


def _rule_error_string(rule: dict) -> str:
    message = rule.get("message") or ""
    if message:
        return go_trim_space(message)
    return go_trim_space(rule.get("rule") or "")


def _message_or_default(rule: dict) -> str:
    message = rule.get("message") or ""
    if message:
        return go_trim_space(message)
    return "failed rule: " + _rule_error_string(rule)


def _map_list_index(s: Structural, old: Any) -> dict | None:
    """The old items of a map list by their keys (only map lists correlate items)."""
    if s.x_list_type != "map" or not isinstance(old, list) or not s.x_list_map_keys:
        return None
    index = {}
    for item in old:
        key = _map_key(s, item)
        if key is not None and key not in index:
            index[key] = item  # the first item of a duplicated key wins, as in the apiserver's map of the list
    return index


def _map_key(s: Structural, item: Any):
    if not isinstance(item, dict) or not s.x_list_map_keys:
        return None
    return tuple(repr(item.get(k)) for k in s.x_list_map_keys)

