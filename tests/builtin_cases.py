"""Running a built-in object through the apiserver's handler for the case tables of
tests/unit/apis/<group>/test_validation.py, and checking its field errors.

A case names the kubernetes test it comes from, the object, and the errors expected: each a prefix
of one field error's text (`spec.rules[0].host: Invalid value`, or the whole text where the Go test
states it), as many as the apiserver reports; [] means the object is accepted.
"""

from __future__ import annotations

from types import SimpleNamespace

from crdtool.apis import check
from crdtool.engine.results import Result
from crdtool.load.document import Document
from crdtool.model.discovery import lookup_kind

REQUEST = SimpleNamespace(namespace=None, field_validation="Strict")


def deployment_yaml(metadata: str = "", container: str = "") -> str:
    """A small Deployment `web` (one nginx container) as a file holds it; `metadata` and `container`
    are more lines of its metadata and of its container, indented as there."""
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" + metadata
            + "spec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
            "      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n"
            + container)


def run(obj: dict, old: dict | None = None) -> Result:
    """The handler's Result for `obj` (an update of `old` when given)."""
    kind = lookup_kind(obj["apiVersion"], obj["kind"]).builtin
    assert kind is not None, obj["kind"]
    stored = None if old is None else Document(source="old.yaml", index=0, data=old)
    return check(Document(source="new.yaml", index=0, data=obj), kind, REQUEST, stored)


def errors(obj: dict, old: dict | None = None) -> list[str]:
    """The field errors' texts, in the apiserver's order."""
    return [str(e) for e in run(obj, old).errors]


def assert_errors(obj: dict, expected: list[str], old: dict | None = None) -> None:
    """Exactly the expected errors, each matched by its prefix, in order."""
    got = errors(obj, old)
    assert len(got) == len(expected), got
    for text, want in zip(got, expected, strict=True):
        assert text.startswith(want), (text, want)
