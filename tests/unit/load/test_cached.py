"""CRD files read through the persistent cache: the same documents, with the same positions."""

from __future__ import annotations

from pathlib import Path

import crdtool.load.cached as cached
from crdtool.cache import Cache
from crdtool.load import read_source
from crdtool.load.cached import cached_reader

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
