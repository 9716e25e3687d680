"""A registry's served versions: their schemas as the apiserver stored them, the same whether decided
now or read from the persistent cache."""

from __future__ import annotations

from pathlib import Path

import pytest

import crdtool.schema.crd.decode as decode
from crdtool.cache import Cache
from crdtool.engine.registry import registry_of
from crdtool.load import read_source

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
