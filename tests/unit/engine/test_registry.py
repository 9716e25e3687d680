"""A registry's served versions: their schemas as the apiserver stored them, the same whether decided
now or read from the persistent cache."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

import pytest

import crdtool.load.cached as cached
import crdtool.schema.crd.decode as decode
from crdtool.cache import Cache
from crdtool.engine.registry import Registry, registry_of
from crdtool.load import read_source
from crdtool.load.cached import cached_reader

#: Two versions: v1's schema holds a null list element (decoded: Go's zero value, an empty name), v2's
#: is used as written.
CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        required: [null]
        properties:
          spec: {type: object}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object}
"""


def schemas(path: Path, store: Cache) -> dict[str, dict | None]:
    registry = registry_of(read_source(str(path)), store=store)
    return {key[1]: served.schema for key, served in registry.versions.items()}


@pytest.mark.parametrize("cached", [False, True])
def test_a_schema_is_decoded_only_where_decoding_changes_it(tmp_path: Path, cached: bool) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD)
    store = Cache(tmp_path / "cache", "a" * 16) if cached else Cache(None)
    found = schemas(crd, store)
    assert found["v1"] is not None and found["v1"]["required"] == [""]
    assert found["v2"] == {"type": "object", "properties": {"spec": {"type": "object"}}}


def test_the_answer_is_read_back_per_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD)
    first = schemas(crd, Cache(tmp_path / "cache", "a" * 16))
    monkeypatch.setattr(decode, "decodes_as_written", lambda schema: pytest.fail("asked again"))
    assert schemas(crd, Cache(tmp_path / "cache", "a" * 16)) == first


def test_a_changed_document_is_asked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD)
    schemas(crd, Cache(tmp_path / "cache", "a" * 16))
    crd.write_text(CRD.replace("required: [null]", "required: [spec]"))
    asked = []
    real = decode.decodes_as_written
    monkeypatch.setattr(decode, "decodes_as_written", lambda schema: asked.append(1) or real(schema))
    assert schemas(crd, Cache(tmp_path / "cache", "a" * 16))["v1"]["required"] == ["spec"]
    assert asked


def test_only_the_documents_of_the_kinds_used_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CRD files known by their stamps: a CRD whose kind is not asked for is registered from its
    cached verdict and heads, its file's values never unpickled nor its text read."""
    monkeypatch.setattr(cached, "SETTLED_NS", 0)
    folder = tmp_path / "crds"
    folder.mkdir()
    (folder / "widgets.yaml").write_text(CRD)
    (folder / "gadgets.yaml").write_text(CRD.replace("widget", "gadget").replace("Widget", "Gadget"))
    paths = [str(folder / "gadgets.yaml"), str(folder / "widgets.yaml")]

    def registry() -> Registry:
        store = Cache(tmp_path / "cache", "a" * 16)
        return registry_of([d for p in paths for d in cached_reader(store)(p)], store=store)

    cold = registry()
    loaded: list[str] = []
    real = cached.StoredFile.values.func

    def values(file: cached.StoredFile) -> list:
        loaded.append(os.path.basename(file.path))
        return real(file)

    monkeypatch.setattr(cached.StoredFile, "values", cached_property(values))
    cached.StoredFile.values.__set_name__(cached.StoredFile, "values")
    monkeypatch.setattr(cached.StoredFile, "text", property(lambda file: pytest.fail("a file was read")))
    warm = registry()
    assert sorted(warm.versions) == sorted(cold.versions)
    assert [r.name for r in warm.lint_results] == ["gadgets.example.com", "widgets.example.com"]
    assert loaded == []
    served = warm.lookup("example.com/v2", "Widget")
    assert served is not None and served.schema == cold.lookup("example.com/v2", "Widget").schema
    assert loaded == ["widgets.yaml"]
