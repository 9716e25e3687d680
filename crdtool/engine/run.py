"""One run of `validate`, `prune` or `default`: every document of the inputs through the engine.

The one entry the command line and the conformance tests share: documents already read go in (a
RunRequest), the apiserver's answers come out (a RunOutcome). On the way: documents of the settings'
skip-kinds are passed over (with their reasons), the CRDs are deduplicated and linted once into a
registry, each object is paired with its stored object (`--old`), custom resources go through the
registry's CRDs and built-in objects through their kinds' handlers (apis), and the objects of both are
shared out over worker processes (engine.parallel) when asked; results come back in input order, as
one process gives them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from crdtool.engine.skipped import SkipKinds, Skipped
from crdtool.engine.validate import Operation, Request
from crdtool.load.document import Document
from crdtool.model.record import FrozenRecord, Record

if TYPE_CHECKING:
    from crdtool.admission.chain import Chain, Inputs
    from crdtool.cache import Cache
    from crdtool.engine.parallel import Task
    from crdtool.engine.registry import Registry
    from crdtool.engine.results import Result
    from crdtool.model.discovery import KindLookup

__all__ = ["Progress", "RunOutcome", "RunRequest", "run"]


class Progress(Protocol):
    """Told how many objects a run checks, then of each batch checked (a progress bar)."""

    def start(self, total: int) -> None: ...

    def advance(self, done: int) -> None: ...


class RunRequest(FrozenRecord):
    """What to run: the inputs' documents, the CRDs named with -c, the stored objects of an update,
    and the request's options as the command line's flags give them."""

    __slots__ = ("documents", "crds", "olds", "version", "namespace", "field_validation", "skip_unknown_kinds", "op",
                 "jobs", "skip_kinds", "stored", "edits", "progress", "registry", "admission", "cache", "render")

    documents: Sequence[Document]
    crds: Sequence[Document]
    olds: Sequence[Document]
    version: str | None
    namespace: str | None
    field_validation: str
    skip_unknown_kinds: bool
    op: Operation
    jobs: int
    skip_kinds: SkipKinds
    #: `default` only: the objects as the apiserver stores them (decoded, i.e. pruned, then defaulted)
    #: instead of the defaulting step alone.
    stored: bool
    #: `prune` and `default`: compute each result's file edit (Result.edit) for the diff and --write.
    edits: bool
    progress: Progress | None
    #: The CRDs already in a registry (built once for many runs, as the conformance tests do):
    #: used instead of `crds` and the inputs' CRDs, in this process.
    registry: Registry | None
    #: `validate`: admission's documents named apart (`--admission`) and options; the inputs'
    #: configurations are used with or without it.
    admission: Inputs | None
    #: The persistent cache of CRD verdicts (crdtool.cache); None: none.
    cache: Cache | None
    #: The output format's rendering of one object's result (report.registry.per_result), applied where
    #: the result is made (Result.rendered): with `jobs`, the workers render in parallel what the
    #: parent would otherwise render alone at the end. None: the format renders every result itself.
    render: Callable[[Result], Any] | None

    def __init__(self, documents: Sequence[Document], crds: Sequence[Document] = (), olds: Sequence[Document] = (),
                 version: str | None = None, namespace: str | None = None, field_validation: str = "Strict",
                 skip_unknown_kinds: bool = False, op: Operation = "validate", jobs: int = 1,
                 skip_kinds: SkipKinds = SkipKinds(),  # noqa: B008 (one shared immutable default, as before)
                 stored: bool = False, edits: bool = False, progress: Progress | None = None,
                 registry: Registry | None = None, admission: Inputs | None = None, cache: Cache | None = None,
                 render: Callable[[Result], Any] | None = None) -> None:
        self.documents = documents
        self.crds = crds
        self.olds = olds
        self.version = version
        self.namespace = namespace
        self.field_validation = field_validation
        self.skip_unknown_kinds = skip_unknown_kinds
        self.op = op
        self.jobs = jobs
        self.skip_kinds = skip_kinds
        self.stored = stored
        self.edits = edits
        self.progress = progress
        self.registry = registry
        self.admission = admission
        self.cache = cache
        self.render = render


class RunOutcome(Record):
    """The results of a run: CRD lint results, object results, and what was not checked."""

    __slots__ = ("crd_results", "results", "skipped", "refused_crds", "crd_notes", "admission_notes")

    #: The CRDs among the inputs (linted).
    crd_results: list[Result]
    #: The objects' results, in input order.
    results: list[Result]
    #: Documents not checked, each with its reason (engine.skipped).
    skipped: list[Skipped]
    #: CRDs named with -c (not among the inputs) that the apiserver would refuse.
    refused_crds: list[Result]
    #: What crdtool could not check in the CRDs named with -c (rules it cannot evaluate), always shown.
    crd_notes: list[str]
    #: What admission could not do as the apiserver would (each once), always shown.
    admission_notes: list[str]

    def __init__(self, crd_results: list[Result], results: list[Result], skipped: list[Skipped] | None = None,
                 refused_crds: list[Result] | None = None, crd_notes: list[str] | None = None,
                 admission_notes: list[str] | None = None) -> None:
        self.crd_results = crd_results
        self.results = results
        self.skipped = [] if skipped is None else skipped
        self.refused_crds = [] if refused_crds is None else refused_crds
        self.crd_notes = [] if crd_notes is None else crd_notes
        self.admission_notes = [] if admission_notes is None else admission_notes

    @property
    def notes(self) -> list[str]:
        """What --verbose says: which documents were skipped and why."""
        return [s.note() for s in self.skipped]


def run(request: RunRequest) -> RunOutcome:
    """Every custom resource of the inputs through the engine's `request.op`."""
    from crdtool.engine.registry import unique_crds

    docs = list(request.documents)
    _check_olds(request.olds)
    crds = unique_crds(list(request.crds), docs)
    chain, configurations, unused = _admission_chain(docs, request, crds)
    objects, skipped, builtins = _sort_documents(docs, request, chain, configurations)
    if request.progress is not None:
        request.progress.start(len(objects))
    if request.registry is not None:
        outputs = [_check_object(item, request.registry, request, chain) for item in objects]
        lint_results = request.registry.lint_results
    elif request.jobs > 1 and len(objects) > 1:
        outputs, lint_results = _check_in_parallel(crds, objects, request, chain)
    else:
        outputs, lint_results = _check_here(crds, objects, request, chain)
    results = list(builtins)  # answers made already: no kind match, an undecodable List, admission configurations
    for result, passed in outputs:
        if passed is not None:
            skipped.append(passed)
        if result is not None:
            results.append(result)
    order = {id(d): n for n, d in enumerate(docs)}
    results.sort(key=lambda r: order.get(id(r.document), 0))
    skipped.sort(key=lambda s: (s.source, s.index))
    outcome = _outcome(docs, lint_results, results, skipped, request.field_validation)
    outcome.admission_notes.extend(unused)
    for result in results:
        outcome.admission_notes.extend(n for n in result.admission_notes if n not in outcome.admission_notes)
    return outcome


def _check_olds(olds: Sequence[Document]) -> None:
    """The stored objects must be readable as kubectl reads them: a List whose items are not a list
    is an InputError (kubectl's `unable to decode` text), not a stored object."""
    from crdtool.errors import InputError
    from crdtool.load.sources import list_items_error, refuse_unsupported_values
    from crdtool.model.gofmt import go_quote

    for old in olds:
        refuse_unsupported_values(old)
        error = list_items_error(old.data)
        if error is not None:
            raise InputError(old.source, f"unable to decode {go_quote(old.source)}: {error}",
                             *(old.locate(("items",)) or ()))


def _admission_chain(docs: list[Document], request: RunRequest, crds: list[Document]
                     ) -> tuple[Chain | None, dict[int, Result], list[str]]:
    """`validate`: the admission plugins the inputs and `--admission` configure (None when none), the
    results of the admission configurations among the inputs (by document id), and a note for each
    configuration that is not used (when the inputs have an object it could have admitted).

    A stored ValidatingAdmissionPolicy is type-checked against the built-in kinds and `crds`, as its
    status controller checks it: among the inputs, its result holds the warnings; named with
    --admission, each is a note (as is what crdtool could not check of it).

    Only a configuration the apiserver would store takes part: one it refuses (a webhook's
    timeoutSeconds 0, a policy that does not compile) does not exist after the folder is applied, so
    it admits and refuses nothing. Configurations are exempt from admission (no webhook or policy
    sees them), so their own results need no chain and are kept for the run's answer."""
    from crdtool.admission import configures_admission

    if request.op != "validate" or not configures_admission(
            [*docs, *(request.admission.documents if request.admission else ())]):
        return None, {}, []  # no plugin has anything to do
    from dataclasses import replace

    from crdtool.admission.chain import Inputs, build_chain
    from crdtool.engine.lint_admission import PolicyCluster

    inputs = request.admission or Inputs()
    results: dict[int, Result] = {}
    unused: list[str] = []
    type_checking: list[str] = []
    cluster = PolicyCluster(crds)

    def stored(doc: Document, named_apart: bool) -> bool:
        found = _configuration_kind(doc)
        if found is None:
            return True
        result = _check_builtin(doc, found, request)
        cluster.type_check(result)
        if not named_apart:
            results[id(doc)] = result
        else:
            type_checking.extend(_type_checking_notes(doc, result))
        if not result.valid:
            unused.append(_unused_configuration(doc, result, named_apart))
        return result.valid

    documents = [d for d in inputs.documents if stored(d, True)] + [d for d in docs if stored(d, False)]
    chain = build_chain(replace(inputs, documents=documents))
    from crdtool.engine.lint import is_crd

    admitted = any(not is_crd(d) and _configuration_kind(d) is None for d in docs)
    return chain if chain else None, results, [*type_checking, *(unused if admitted else [])]


def _type_checking_notes(doc: Document, result: Result) -> list[str]:
    """A policy named with --admission: its status.typeChecking warnings and what crdtool could not
    check of it, as the run's notes (its result is not shown)."""
    from crdtool.model.gofmt import go_quote

    head = f"{doc.source}: {doc.kind} {go_quote(doc.name or '')}"
    return ([f"{head}: status.typeChecking: {w.field_ref}: {w.warning.rstrip()}" for w in result.type_checking or ()]
            + [f"{head}: {n.path}: {n.message}" for n in result.notes])


def _configuration_kind(doc: Document) -> KindLookup | None:
    """The served kind of a document that configures admission (a webhook configuration, a policy or
    its binding), None for any other document."""
    from crdtool.admission.rules import is_exempt_admission_configuration
    from crdtool.engine.builtin import builtin_lookup

    found = builtin_lookup(doc)
    if found is None or found.builtin is None or found.no_match:
        return None
    return found if is_exempt_admission_configuration(found.builtin.group, found.builtin.kind) else None


def _unused_configuration(doc: Document, result: Result, named_apart: bool) -> str:
    """The note of a configuration the apiserver refuses: that it is not used, and why (the answer
    itself for one named with --admission, whose result the run does not show)."""
    from crdtool.model.gofmt import go_quote

    why = f"({result.strict_status or result.status})" if named_apart else "(its errors are among the results)"
    return (f"{doc.source}: {doc.kind} {go_quote(doc.name or '')} is not used: the apiserver refuses it {why}, "
            "so it does not exist to admit or refuse anything")


#: An object to check: its document, and the built-in kind it is of (None: a custom resource).
ToCheck = tuple[Document, "KindLookup | None"]


def _sort_documents(docs: list[Document], request: RunRequest, chain: Chain | None = None,
                    checked: dict[int, Result] | None = None) -> tuple[list[ToCheck], list[Skipped], list]:
    """The objects to check (custom resources, and built-in objects of served kinds), the documents
    passed over, and the answers already known: those `checked` holds, and kubectl's no-matches
    answers for built-in groups' kinds 1.36 does not serve (CRDs are neither: the registry's)."""
    from crdtool.engine.builtin import builtin_lookup, no_kind_match
    from crdtool.engine.lint import is_crd
    from crdtool.engine.results import Result
    from crdtool.load.sources import list_items_error, refuse_unsupported_values

    objects: list[ToCheck] = []
    skipped: list[Skipped] = []
    builtins: list[Result] = []
    for doc in docs:
        if is_crd(doc):
            continue
        refuse_unsupported_values(doc)
        undecodable = list_items_error(doc.data)
        if undecodable is not None:  # kubectl's decoder stops here, before any request
            builtins.append(Result(document=doc, kind=doc.kind, name=doc.name, api_version=doc.api_version,
                                   status_kind=doc.kind, checks="none", status=undecodable, reason="BadRequest",
                                   client_error=undecodable))
            continue
        builtin = builtin_lookup(doc)
        passed = request.skip_kinds.skipped(doc)
        if passed is not None:
            skipped.append(passed)
        elif builtin is None:
            objects.append((doc, None))
        elif builtin.no_match:
            builtins.append(no_kind_match(doc, builtin))
        elif checked and id(doc) in checked:
            builtins.append(checked[id(doc)])
        else:
            objects.append((doc, builtin))
    return objects, skipped, builtins


def _check_builtin(doc: Document, found: KindLookup, request: RunRequest, chain: Chain | None = None) -> Result:
    """A served built-in kind's object through its handler (apis.check), with admission around it when
    the run has an admission chain."""
    from crdtool.apis import check

    assert found.builtin is not None, "served kinds carry their BuiltinKind"
    admission = None
    if chain is not None:
        from crdtool.engine.admit import BuiltinAdmission

        admission = BuiltinAdmission(chain, found.builtin)
    old = _matching_old(request.olds, doc)
    return _replacing(check(doc, found.builtin, _step(request), old, _op(request), admission), old)


def _step(request: RunRequest) -> Request:
    """What one object's check needs of the run's request."""
    return Request(version=request.version, namespace=request.namespace, field_validation=request.field_validation)


def _op(request: RunRequest) -> Operation:
    """The engine's step: `default -o yaml|json` decodes (prunes) first, then defaults what is stored."""
    return "prune" if request.stored and request.op == "default" else request.op


def _check_object(item: ToCheck, registry: Registry, request: RunRequest, chain: Chain | None = None
                  ) -> tuple[Any, Any]:
    """One object's result, rendered when the request asks for it, or (None, Skipped) when it is skipped."""
    result, passed = _object_outcome(item, registry, request, chain)
    if result is not None and request.render is not None:
        result.rendered = request.render(result)
    return result, passed


def _object_outcome(item: ToCheck, registry: Registry, request: RunRequest, chain: Chain | None
                    ) -> tuple[Any, Any]:
    """One object's result, or (None, Skipped) when it is skipped."""
    from crdtool.engine.validate import find_version, process, unknown_kind

    doc, builtin = item
    if builtin is not None:
        result = _check_builtin(doc, builtin, request, chain)
        _finish_changes(result, request)
        return result, None
    step = _step(request)
    served = find_version(registry, doc, step)
    if served is not None:
        old = _matching_old(request.olds, doc)
        result = process(doc, served, step, old=old, op=_op(request), chain=chain, registry=registry)
        _finish_changes(result, request)
        return _replacing(result, old), None
    if request.skip_unknown_kinds:
        if doc.kind:
            why = Skipped(doc.source, doc.index, doc.api_version, doc.kind, "unknown-kind",
                          "no CustomResourceDefinition")
        else:
            why = Skipped(doc.source, doc.index, doc.api_version, doc.kind, "not-an-object",
                          "not a Kubernetes object (no kind)")
        return None, why
    return unknown_kind(doc, registry), None


def _check_here(crds: list[Document], objects: list[ToCheck], request: RunRequest, chain: Chain | None
                ) -> tuple[list, list]:
    """The objects' outputs and the CRDs' lint results, in this process."""
    from crdtool.engine.registry import registry_of

    registry = registry_of(crds, store=request.cache)
    outputs = []
    for item in objects:
        outputs.append(_check_object(item, registry, request, chain))
        if request.progress is not None:
            request.progress.advance(1)
    return outputs, registry.lint_results


def _check_in_parallel(crds: list[Document], objects: list[ToCheck], request: RunRequest, chain: Chain | None
                       ) -> tuple[list, list]:
    """The objects' outputs and the CRDs' lint results, as one process would give them, from `jobs`."""
    from crdtool.engine.parallel import plan_tasks, run_tasks
    from crdtool.engine.registry import registry_of

    registries: dict[tuple[int, ...], Registry] = {}  # per worker: a group's registry serves its next slice

    def work(task: Task) -> tuple[list, list]:
        registry = registries.get(task.crds)
        if registry is None:
            registry = registries[task.crds] = registry_of([crds[i] for i in task.crds], store=request.cache)
        outputs = [_check_object(objects[i], registry, request, chain) for i in task.objects]
        for result, _ in outputs:
            if result is not None:
                result.document = None  # put back by the parent: it has the documents
                result.crd_version = None  # a compiled schema the parent does not use (changes are finished)
                if result.rendered is not None:
                    result.object = None  # in the rendered line already: the largest part of a result to send
        lints = list(registry.lint_results)
        for result in lints:
            result.document = None  # type: ignore[assignment]  # (as above)
        return outputs, lints

    tasks = plan_tasks(crds, [doc for doc, _ in objects])
    outputs: list = [None] * len(objects)
    lint_results: list = [None] * len(crds)
    advance = request.progress.advance if request.progress is not None else None
    for task, (task_outputs, lints) in zip(tasks, run_tasks(tasks, work, request.jobs, advance), strict=True):
        for i, output in zip(task.objects, task_outputs, strict=True):
            if output[0] is not None:
                output[0].document = objects[i][0]
            outputs[i] = output
        for i, result in zip(task.crds, lints, strict=True):
            result.document = crds[i]
            lint_results[i] = result
    return outputs, lint_results


def _finish_changes(result: Result, request: RunRequest) -> None:
    """`prune` and `default`: the object as stored, and the file edit, when asked (where the result
    is made: a worker process sends back neither the document nor the CRD version they need)."""
    if request.op == "validate":
        return
    from crdtool.engine.edits import default_stored, file_edit

    if request.stored and request.op == "default":
        default_stored(result)
    if request.edits:
        result.edit = file_edit(result, request.op, defaulted_as_given=_op(request) == "default")


def _outcome(docs: list[Document], lint_results: list[Result], results: list[Result], skipped: list[Skipped],
             field_validation: str) -> RunOutcome:
    """The CRD results split into those among the inputs and those named with -c."""
    from crdtool.engine.lint import is_crd

    # A CRD's file is among the inputs only if an input file holds CRDs: only those are resolved.
    inputs = {os.path.realpath(source) for source in {d.source for d in docs if is_crd(d)}}
    crd_results = [r for r in lint_results if os.path.realpath(r.document.source) in inputs]
    # A CRD named with -c that the apiserver would refuse: shown too, to say why.
    refused = [r for r in lint_results if not r.valid and r not in crd_results]
    for r in [*crd_results, *refused]:
        r.field_validation = field_validation
    crd_notes = [_note_text(r, n) for r in lint_results if r not in crd_results for n in r.notes]
    return RunOutcome(crd_results, results, skipped, refused, crd_notes)


def _note_text(result: Result, note: Any) -> str:
    position = result.position(note)
    where = f"{result.document.source}:{position[0]}:{position[1]}" if position else result.document.source
    return f"{where}: {note.path}: {note.message}"


def _replacing(result: Result, old: Document | None) -> Result:
    """The result of an update (`--old`): the request replaced a stored object."""
    result.replaces = old is not None
    return result


def _matching_old(olds: Sequence[Document], doc: Document) -> Document | None:
    """The stored object an update replaces: same kind and name (or the only one, when it is of the
    same kind: an object of another kind is never its stored object)."""
    same = [o for o in olds if o.kind == doc.kind and o.name == doc.name]
    if same:
        return same[0]
    return olds[0] if len(olds) == 1 and olds[0].kind == doc.kind else None
