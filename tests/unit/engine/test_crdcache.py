"""A CRD's verdict through the persistent cache: the same Result, carried by this run's document."""

from __future__ import annotations

from pathlib import Path

import crdtool.engine.lint as lint
from crdtool.cache import Cache
from crdtool.engine.crdcache import cached_lint, checked_crd, document_key
from crdtool.load import read_source

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def read(path: Path, text: str | None = None):
    [doc] = read_source(str(path), text)
    return doc


def test_the_key_is_the_document_as_read() -> None:
    crd = FIXTURES / "crontab" / "crd.yaml"
    text = crd.read_text()
    assert document_key(read(crd), "create") == document_key(read(Path("elsewhere.yaml"), text), "create")
    assert document_key(read(crd), "create") != document_key(read(crd), "lint")
    assert document_key(read(crd, text + "\n# changed\n"), "create") != document_key(read(crd), "create")
    doc = read(crd)
    doc.text = ""  # built in memory: nothing to key it by
    assert document_key(doc) is None


def test_a_cached_verdict_is_the_computed_one_on_this_runs_document(tmp_path: Path, monkeypatch) -> None:
    crd = FIXTURES / "broken" / "non-structural.yaml"
    store = Cache(tmp_path, "a" * 16)
    computed, names = checked_crd(read(crd), store)
    assert computed.status and computed.errors
    monkeypatch.setattr(lint, "lint_document", lambda *a, **k: (_ for _ in ()).throw(AssertionError("linted")))
    doc = read(crd)
    cached, cached_names = checked_crd(doc, Cache(tmp_path, "a" * 16))
    assert cached.document is doc and cached_names == names
    assert (cached.status, [str(e) for e in cached.errors], cached.warnings) == \
        (computed.status, [str(e) for e in computed.errors], computed.warnings)
    assert [cached.position(e) for e in cached.errors] == [computed.position(e) for e in computed.errors]


def test_lint_and_registration_entries_are_apart(tmp_path: Path) -> None:
    crd = FIXTURES / "crontab-cel" / "crd.yaml"
    store = Cache(tmp_path, "a" * 16)
    plain = cached_lint(read(crd), store)
    costed = cached_lint(read(crd), store, costs=True)
    assert plain.rule_costs is None and costed.rule_costs
    assert cached_lint(read(crd), Cache(tmp_path, "a" * 16), costs=True).rule_costs == costed.rule_costs
