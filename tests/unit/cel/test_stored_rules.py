"""Compiled rules kept in the persistent cache: read back, they compile, fail and evaluate exactly as
freshly compiled ones, and their evaluation programs are not compiled again."""

from __future__ import annotations

from pathlib import Path as FsPath

import crdtool.cel.compiler as compiler
import crdtool.cel.protos as protos
from crdtool.cache import Cache
from crdtool.cel.evaluate import validate
from crdtool.model.path import Path
from crdtool.schema.structural.structural import new_structural

RULES = [
    {"rule": "self.replicas <= 10", "messageExpression": "'too many: ' + string(self.replicas)"},
    {"rule": "self.name.startsWith(1)"},  # does not compile: reported on every object
    {"rule": "self.items.all(i, i != 'x')", "fieldPath": ".items"},
    {"rule": "self.replicas >= oldSelf.replicas"},  # a transition rule
]


def schema():
    return new_structural({"type": "object", "x-kubernetes-validations": RULES, "properties": {
        "replicas": {"type": "integer"}, "name": {"type": "string"},
        "items": {"type": "array", "maxItems": 5, "items": {"type": "string"}}}})


def forget() -> None:
    """Drop what this process compiled, as a new process starts."""
    compiler._cache.clear()
    compiler._by_fingerprint.clear()


def outcome(store: Cache | None, obj: dict, old: dict | None = None) -> tuple[list[str], list]:
    errs, warnings = validate(schema(), False, obj, old, Path.root("spec"), ratcheting=False, store=store)
    return [str(e) for e in errs], warnings


def test_rules_read_back_answer_as_freshly_compiled_ones(tmp_path: FsPath, monkeypatch) -> None:
    objects = [({"replicas": 11, "name": "a", "items": ["x"]}, {"replicas": 12}), ({"replicas": 1}, None)]
    forget()
    fresh = [outcome(None, obj, old) for obj, old in objects]
    assert any("too many: 11" in e for e in fresh[0][0]) and any("rule compile error" in e for e in fresh[1][0])
    forget()
    store = Cache(tmp_path, "a" * 16)
    assert [outcome(store, obj, old) for obj, old in objects] == fresh  # cold: compiled, then stored
    forget()
    compiled: list[str] = []
    real = compiler._eval_program
    monkeypatch.setattr(compiler, "_eval_program", lambda text, *a: compiled.append(text) or real(text, *a))
    monkeypatch.setattr(protos, "build_schema_types", lambda *a: (_ for _ in ()).throw(AssertionError("compiled")))
    assert [outcome(Cache(tmp_path, "a" * 16), obj, old) for obj, old in objects] == fresh  # warm
    # Only the messageExpression of the failing rule is compiled: the rules' programs were stored.
    assert compiled == ["'too many: ' + string(self.replicas)"]


def test_without_a_store_nothing_is_written(tmp_path: FsPath) -> None:
    forget()
    outcome(Cache(None), {"replicas": 1})
    assert not any(tmp_path.iterdir())


def set_list_errors(rule: str, store: Cache | None, value: list[str]) -> list[str]:
    """The errors of `rule` on a set list holding `value`."""
    schema = new_structural({"type": "object", "properties": {"v": {
        "type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": {"type": "string", "maxLength": 8},
        "x-kubernetes-validations": [{"rule": rule}]}}})
    errs, _ = validate(schema, False, {"v": value}, None, Path.root("spec"), ratcheting=False, store=store)
    return [str(e) for e in errs]


def test_a_rule_over_a_set_list_is_read_back_rewritten_not_compiled_again(tmp_path: FsPath, monkeypatch) -> None:
    """A set list's `+` is a union: the stored program is the one before that rewrite, and reading it
    back rewrites it again, as compiling it does."""
    rule, values = "size(self + ['a']) == size(self)", [["a", "x"], ["x"]]
    forget()
    fresh = [set_list_errors(rule, None, v) for v in values]
    assert fresh[0] == [] and fresh[1]  # a union: [a, x] + [a] is [a, x]; [x] + [a] is [x, a]
    forget()
    assert [set_list_errors(rule, Cache(tmp_path, "a" * 16), v) for v in values] == fresh  # cold: compiled, stored
    forget()
    monkeypatch.setattr(compiler, "_eval_program", lambda *a: (_ for _ in ()).throw(AssertionError("compiled")))
    assert [set_list_errors(rule, Cache(tmp_path, "a" * 16), v) for v in values] == fresh  # warm


def test_a_rule_the_set_list_rewrite_leaves_as_it_is_is_read_back_without_looking_again(tmp_path: FsPath,
                                                                                         monkeypatch) -> None:
    """Most rules over a type with set or map lists use neither `==` nor `+` on them: the stored program
    is final, and a warm run does not walk it again."""
    import crdtool.cel.list_semantics as list_semantics

    rule, values = "size(self) < 3", [["a", "x"], ["a", "b", "c"]]
    forget()
    fresh = [set_list_errors(rule, Cache(tmp_path, "a" * 16), v) for v in values]  # cold: compiled, then stored
    assert fresh[0] == [] and fresh[1]
    forget()
    monkeypatch.setattr(list_semantics, "rewrite", lambda *a: (_ for _ in ()).throw(AssertionError("walked")))
    monkeypatch.setattr(compiler, "_eval_program", lambda *a: (_ for _ in ()).throw(AssertionError("compiled")))
    assert [set_list_errors(rule, Cache(tmp_path, "a" * 16), v) for v in values] == fresh  # warm
