"""Built-in kinds as kube-apiserver 1.36 handles them (named after kubernetes' pkg/apis).

- `check(doc, kind, request, old, op)`: one built-in object's Result (decoding, defaulting, metadata);
- `set_defaults(obj, api_version, kind)`: the apiserver's defaulting of a decoded object, in place.

Per-group code lives in `crdtool/apis/<group>/` (defaults.py now; validation.py to come). Nothing
here is imported, and no data is read, in a run without built-in objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crdtool.engine.admit import BuiltinAdmission
    from crdtool.engine.results import Result
    from crdtool.engine.validate import Request
    from crdtool.load.document import Document
    from crdtool.model.discovery import BuiltinKind


def check(doc: Document, kind: BuiltinKind, request: Request, old: Document | None = None, op: str = "validate",
          admission: BuiltinAdmission | None = None) -> Result:
    """The apiserver's answer for one object of a served built-in kind (see apis.handler)."""
    from crdtool.apis.handler import check as run

    return run(doc, kind, request, old, op, admission)


def set_defaults(obj: dict[str, Any], kind: BuiltinKind) -> list[str]:
    """SetObjectDefaults_<Kind> of an object of a served built-in kind, in place; the paths set."""
    from crdtool.apis import openapi
    from crdtool.apis.defaults import set_object_defaults

    return set_object_defaults(obj, openapi.kind_definition(kind))
