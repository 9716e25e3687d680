"""`lint --against`: the apiserver's answer to updating each old CRD to its new version (the update
validation of `lint --old`), plus crdtool's upgrade-safety findings for what the apiserver accepts
but users feel.

Each new CRD is paired with the old CRD of the same metadata.name; a new CRD without one is linted as
a create and has no upgrade findings, and so has a CRD the apiserver cannot even decode (its 400 is
the answer). The old CRD stands for the one installed in the cluster, so, unlike `lint --old`, which
takes a file as it is, it is taken as established unless its status says otherwise: an installed
CRD's scope and kind are immutable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from crdtool.engine.crdcache import cached_comparison, cached_lint
from crdtool.engine.lint import decode_old, is_crd, lint_document
from crdtool.engine.results import Result
from crdtool.load import Document
from crdtool.load.sources import without_cyclic_gc
from crdtool.model.findings import Finding
from crdtool.model.record import replace
from crdtool.upgrade.crd_diff import diff_crds
from crdtool.upgrade.pairing import index_by_name
from crdtool.upgrade.rules import to_finding

if TYPE_CHECKING:
    from crdtool.cache import Cache


def upgrade_findings(old: Document, result: Result) -> list[Finding]:
    """The upgrade-safety findings of replacing `old` by the result's document, in document order."""
    found = [to_finding(change) for change in diff_crds(old.data, result.document.data)]
    far = (1 << 62, 0)
    return sorted(found, key=lambda f: result.position(f) or far)


def compare(doc: Document, old: Document, costs: bool = False) -> Result:
    """The apiserver's answer to updating `old` (as installed) to `doc`, with the upgrade findings when
    the new CRD decodes."""
    result = lint_document(doc, old, costs)
    if result.reason not in ("BadRequest", "NotFound"):
        result.findings = upgrade_findings(old, result)
    return result


def installed(old: Document) -> Document:
    """The old CRD as the cluster stores it: established (the apiserver marks a CRD Established once its
    names are accepted), which makes its scope and kind immutable. A status that names the Established
    condition is kept as it is, as is everything else of the document."""
    data = old.data
    status = v if isinstance(v := data.get("status"), dict) else {}
    conditions = v if isinstance(v := status.get("conditions"), list) else []
    if any(isinstance(c, dict) and c.get("type") == "Established" for c in conditions):
        return old
    status = {**status, "conditions": [*conditions, {"type": "Established", "status": "True"}]}
    return replace(old, data={**data, "status": status})


@dataclass(slots=True)
class Comparison:
    """What `lint --against` found: a Result per new CRD (with `findings`), the names of the CRDs
    compared with an old one, and the old CRDs that no new CRD replaces (not compared)."""

    results: list[Result] = field(default_factory=list)
    compared: list[str] = field(default_factory=list)
    unmatched: list[Document] = field(default_factory=list)


def lint_against(docs: Iterable[Document], old_docs: Iterable[Document], costs: bool = False,
                 store: Cache | None = None) -> Comparison:
    """Lint every new CRD as an update over the old CRD of the same name (a create when there is none).
    A comparison comes from `store` (the persistent cache) when it holds it; a create is the plain
    lint's verdict, and cached as that is."""
    olds = index_by_name(old_docs)
    cache = store if store is not None and store.enabled else None
    out = Comparison()
    with without_cyclic_gc():  # as engine.lint.lint: the trees linting builds hold no cycles
        for doc in docs:
            if not is_crd(doc):
                continue
            old = olds.get(doc.name) if isinstance(doc.name, str) else None
            if old is not None:
                old = installed(old)
                if isinstance(doc.name, str) and doc.name not in out.compared:
                    decode_old(old)  # an old CRD that cannot be decoded stops the run, even if the new one is broken
                    out.compared.append(doc.name)
            if old is None:
                result = lint_document(doc, None, costs) if cache is None else cached_lint(doc, cache, costs)
            elif cache is None:
                result = compare(doc, old, costs)
            else:
                result = cached_comparison(doc, old, cache, costs, partial(compare, doc, old, costs))
            out.results.append(result)
    out.unmatched = [old for name, old in olds.items() if name not in out.compared]
    return out
