"""`kubectl explain` for custom resources and built-in kinds, without a cluster.

kubectl explain asks discovery which resource and version an argument names (resolve: the
built-in resources of kube-apiserver 1.36 first, then the served CRDs), fetches that group
version's OpenAPI v3 document, in which apiextensions-apiserver publishes the CRD's schema with
ObjectMeta and TypeMeta added (schema), or kube-apiserver its built-in types (builtin), and
renders it with its plaintext template (render). Each step is reproduced here from the CRD files
and the vendored 1.36 types alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from crdtool.load.document import Document


@dataclass(frozen=True)
class Explanation:
    """What kubectl prints: stdout, stderr and its exit code."""

    stdout: str
    stderr: str = ""
    exit_code: int = 0


def explain(documents: Iterable[Document], argument: str, api_version: str | None = None,
            recursive: bool = False) -> Explanation:
    """`kubectl explain ARGUMENT [--api-version=...] [--recursive]` against the built-in kinds and the
    CRDs among the documents."""
    from crdtool.explain.render import GroupVersionKind, render
    from crdtool.explain.resolve import Catalog, ExplainError, Mapper
    from crdtool.explain.schema import openapi_document

    mapper = Mapper(Catalog(documents))
    try:
        target = mapper.explain_target(argument, api_version)
    except ExplainError as err:
        return _failure("", f"error: {err}")
    served = mapper.group_version(target.group, target.version, target.crd.plural)
    if not served:
        if not mapper.group_version(target.group, target.version):
            return _failure("", f'error: couldn\'t find resource for "{target.gvr}"')
        return _failure("", f"error: GVR ({target.gvr}) not found in OpenAPI schema")
    crd = served[0]
    if crd.builtin:
        from crdtool.explain.builtin import openapi_document as builtin_document

        document = builtin_document(crd.group, target.version, crd.kind) or {}
    else:
        document = openapi_document(crd.group, target.version, crd.kind, crd.versions[target.version])
    stdout, error = render(document, GroupVersionKind(crd.group, target.version, crd.kind),
                           target.field_path, recursive)
    return Explanation(stdout) if error is None else _failure(stdout, error)


def _failure(stdout: str, message: str) -> Explanation:
    return Explanation(stdout, message + "\n", 1)
