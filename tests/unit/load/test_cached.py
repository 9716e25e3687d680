"""CRD files read through the persistent cache: the same documents, with the same positions, and a
file whose stamp is unchanged not read until a value or a position is asked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import crdtool.load.cached as cached
from crdtool.cache import Cache, text_digest
from crdtool.errors import InputError
from crdtool.load import Document, read_source
from crdtool.load.cached import StoredDocument, cached_reader
from crdtool.load.sources import documents_of, read_parts
from crdtool.model.record import replace

TEXT = """apiVersion: v1
kind: List
items:
- kind: A
  spec: {x: 1, x: 2}
---
# a comment
kind: B
spec:
  nested:
    - name: one
"""


def view(docs):
    return [(d.source, d.index, d.item, d.data, d.duplicate_keys, d.text, d.locate(("spec",)),
             d.locate(("spec", "nested", 0, "name"))) for d in docs]


def test_documents_read_back_are_the_read_ones(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    store = Cache(tmp_path / "cache", "a" * 16)
    want = view(read_source(str(path)))
    assert view(cached_reader(store)(str(path))) == want  # cold: read, then stored
    monkeypatch.setattr(cached, "read_source", lambda *a: (_ for _ in ()).throw(AssertionError("parsed")))
    assert view(cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))) == want  # warm: not parsed


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    store = Cache(tmp_path / "cache", "a" * 16)
    cached_reader(store)(str(path))
    path.write_text(TEXT.replace("kind: B", "kind: C"))
    assert [d.kind for d in cached_reader(store)(str(path))] == ["A", "C"]


def test_json_and_a_cache_that_is_off_read_as_always(tmp_path: Path) -> None:
    path = tmp_path / "crd.json"
    path.write_text('{"kind": "A", "spec": {"x": 1}}')
    store = Cache(tmp_path / "cache", "a" * 16)
    assert view(cached_reader(store)(str(path))) == view(read_source(str(path)))
    assert not (tmp_path / "cache").exists()
    assert cached_reader(Cache(None)) is read_source


@pytest.fixture
def settled(monkeypatch) -> None:
    """Files count as settled as soon as they are written (in a run, only seconds after)."""
    monkeypatch.setattr(cached, "SETTLED_NS", 0)


def refuse_reading(monkeypatch) -> None:
    def refused(*_args: object) -> str:
        raise AssertionError("the file was read")

    monkeypatch.setattr(cached, "read_text", refused)
    monkeypatch.setattr(cached, "read_source", refused)


def test_a_file_known_by_its_stamp_is_not_read_until_a_value_is_asked(tmp_path: Path, monkeypatch,
                                                                       settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    want = view(read_source(str(path)))
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    with monkeypatch.context() as patched:
        refuse_reading(patched)
        docs = cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
        assert all(isinstance(d, StoredDocument) for d in docs)
        assert [(d.index, d.item, d.kind, d.api_version, d.name, d.duplicate_keys) for d in docs] == [
            (0, 0, "A", None, None, read_source(str(path))[0].duplicate_keys), (1, None, "B", None, None, [])]
        assert [d.data for d in docs] == [w[3] for w in want]  # values from the cache: still not read
    assert view(docs) == want  # the text, for positions, when asked


def test_a_change_that_keeps_the_size_and_the_modification_time_is_seen(tmp_path: Path, settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    before = os.stat(path)
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    path.write_text(TEXT.replace("kind: B", "kind: C"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    assert [d.kind for d in cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))] == ["A", "C"]


def test_a_file_changed_moments_ago_gets_no_stamp(tmp_path: Path) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    docs = cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    assert not any(isinstance(d, StoredDocument) for d in docs)


def test_values_removed_from_the_cache_are_read_from_the_text(tmp_path: Path, settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    store = Cache(tmp_path / "cache", "a" * 16)
    want = view(read_source(str(path)))
    cached_reader(store)(str(path))
    os.unlink(store._path("documents", text_digest(TEXT)))
    docs = cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    assert all(isinstance(d, StoredDocument) for d in docs)
    assert view(docs) == want


def test_a_file_changed_after_its_stamp_was_taken_is_an_input_error(tmp_path: Path, settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    docs = cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    path.write_text(TEXT.replace("kind: B", "kind: C"))
    with pytest.raises(InputError, match="changed while crdtool was reading it"):
        docs[1].locate(("spec",))


def test_a_changed_copy_of_a_stored_document_is_a_document(tmp_path: Path, settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    stored = cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))[1]
    changed = replace(stored, data={"kind": "C"})
    assert type(changed) is Document
    assert (changed.kind, changed.text, changed.locate(("spec",))) == ("C", TEXT, stored.locate(("spec",)))
    assert changed.content_digest() == stored.content_digest() == text_digest(TEXT)


def test_where_the_change_time_does_not_tell_changes_no_stamp_is_stored(tmp_path: Path, monkeypatch,
                                                                         settled: None) -> None:
    monkeypatch.setattr(cached, "STAMPS_TELL_CHANGES", False)  # Windows: st_ctime is the creation time
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path))
    assert not any(isinstance(d, StoredDocument) for d in cached_reader(Cache(tmp_path / "cache", "a" * 16))(str(path)))


def test_a_file_read_by_a_worker_is_stamped_with_the_stat_taken_before_its_reading(tmp_path: Path,
                                                                                  settled: None) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(TEXT)
    known = cached.CachedFiles(Cache(tmp_path / "cache", "a" * 16))
    assert known.documents(str(path)) is None  # not held: a worker reads it
    parts = read_parts(str(path))
    known.learn(parts, documents_of(parts))
    docs = cached.CachedFiles(Cache(tmp_path / "cache", "a" * 16)).documents(str(path))
    assert docs is not None and all(isinstance(d, StoredDocument) for d in docs)
    assert view(docs) == view(read_source(str(path)))
