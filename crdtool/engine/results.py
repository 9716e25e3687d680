"""One document's outcome, the unit every renderer works on."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from crdtool.load.document import Document
from crdtool.model.errors import FieldError
from crdtool.model.findings import Finding
from crdtool.model.groupversion import from_api_version_and_kind
from crdtool.model.notes import Note
from crdtool.model.path import Path
from crdtool.model.record import Record

_UNKNOWN_FIELD = re.compile(r'unknown field "(.*)"\Z', re.S)
_PATH_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def unknown_field_segments(message: str) -> tuple | None:
    """The document path named by an `unknown field "a.b[0].c"` finding (None for other findings)."""
    m = _UNKNOWN_FIELD.match(message)
    if m is None:
        return None
    return tuple(int(i) if i else name for i, name in _PATH_STEP.findall(m.group(1)))


class Result(Record):
    """What the apiserver would answer for one document.

    `status` is the apiserver's error message (None when accepted); `reason` is the
    Status reason ("Invalid" for 422 with `errors`, "BadRequest" for a 400 the server
    answers before validating). `source_path` maps an error's path to the document's
    own path when the apiserver validated a transformed object (a CRD's internal form).
    """

    __slots__ = ("document", "kind", "name", "api_version", "namespace", "version", "errors", "status", "reason",
                 "warnings", "strict_decoding_errors", "field_validation_warnings", "object", "pruned", "defaulted",
                 "source_path", "status_kind", "crd_version", "client_error", "notes", "findings", "rule_costs",
                 "field_validation", "sent_status", "edit", "checks", "replaces", "code", "status_details",
                 "admission_notes", "audit_annotations", "type_checking", "rendered")

    document: Document
    kind: str | None
    name: str | None
    api_version: str | None
    namespace: str | None
    version: str | None
    errors: list[FieldError]
    status: str | None
    reason: str | None
    warnings: list[str]
    strict_decoding_errors: list[str]
    field_validation_warnings: list[str]
    object: Any
    pruned: list[str]
    defaulted: list[str]
    source_path: Callable[[tuple], tuple] | None
    #: The kind as the apiserver's status details name it (`CustomResourceDefinition`, `CronTab`).
    status_kind: str | None
    #: The CRD version whose schema decoded the object (engine.registry.ServedVersion): its apiVersion's, if any.
    crd_version: Any
    #: An error kubectl itself raises before sending the object (metadata it cannot decode).
    client_error: str | None
    #: crdtool's own notes on what it could not check (never the apiserver's findings).
    notes: list[Note]
    #: crdtool's own findings with rule codes (e.g. upgrade safety with `lint --against`).
    findings: list[Finding]
    #: With `lint --costs`: each CEL rule's estimated cost (engine.costs.RuleCost), in schema order.
    rule_costs: list | None
    #: The request's fieldValidation: Strict (kubectl's default) refuses unknown and duplicate fields.
    field_validation: str
    #: The apiserver's 400 to the request kubectl sends, where it differs from its answer to the
    #: object (`status`): see engine.validate.sent_status.
    sent_status: str | None
    #: `prune` and `default`: the document's new value as the diff and --write change it (only the
    #: step's change, to the document as written), None when unchanged (engine.edits.file_edit).
    edit: Any
    #: How far crdtool reproduces the apiserver for this document (the JSON output's `checks`):
    #: "validation" (everything), "decoding,defaulting,metadata" (built-in kinds), "none" (not mapped).
    checks: str
    #: Whether the request was an update of a stored object (`--old`: a PUT, kubectl replace's
    #: `replaced` and `error when replacing`), not a create.
    replaces: bool
    #: The answer's HTTP code where admission decided it (a webhook's denial keeps its own code).
    code: int | None
    #: The status details of admission's refusal (metav1.StatusDetails as JSON), which kubectl prints
    #: for an Invalid answer.
    status_details: dict[str, Any] | None
    #: What admission could not do as the apiserver would (a webhook it could not reach, ...): always shown.
    admission_notes: list[str]
    #: The audit annotations admission added (a webhook's, prefixed with its name; failed-open ones).
    audit_annotations: dict[str, str]
    #: A ValidatingAdmissionPolicy the apiserver stores: the status.typeChecking.expressionWarnings its
    #: status controller writes afterwards (admission.policy.typecheck.ExpressionWarning); None otherwise.
    type_checking: list[Any] | None
    #: This result as the run's format renders it (engine.run.RunRequest.render), made where the result is
    #: made: with --jobs in the worker process, so that the parent only joins the pieces. None: not yet.
    rendered: Any

    def __init__(self, document: Document, kind: str | None, name: str | None, api_version: str | None = None,
                 namespace: str | None = None, version: str | None = None, errors: list[FieldError] | None = None,
                 status: str | None = None, reason: str | None = None, warnings: list[str] | None = None,
                 strict_decoding_errors: list[str] | None = None, field_validation_warnings: list[str] | None = None,
                 object: Any = None, pruned: list[str] | None = None, defaulted: list[str] | None = None,
                 source_path: Callable[[tuple], tuple] | None = None, status_kind: str | None = None,
                 crd_version: Any = None, client_error: str | None = None, notes: list[Note] | None = None,
                 findings: list[Finding] | None = None, rule_costs: list | None = None,
                 field_validation: str = "Strict", sent_status: str | None = None, edit: Any = None,
                 checks: str = "validation", replaces: bool = False, code: int | None = None,
                 status_details: dict[str, Any] | None = None, admission_notes: list[str] | None = None,
                 audit_annotations: dict[str, str] | None = None, type_checking: list[Any] | None = None,
                 rendered: Any = None) -> None:
        self.document = document
        self.kind = kind
        self.name = name
        self.api_version = api_version
        self.namespace = namespace
        self.version = version
        self.errors = [] if errors is None else errors
        self.status = status
        self.reason = reason
        self.warnings = [] if warnings is None else warnings
        self.strict_decoding_errors = [] if strict_decoding_errors is None else strict_decoding_errors
        self.field_validation_warnings = [] if field_validation_warnings is None else field_validation_warnings
        self.object = object
        self.pruned = [] if pruned is None else pruned
        self.defaulted = [] if defaulted is None else defaulted
        self.source_path = source_path
        self.status_kind = status_kind
        self.crd_version = crd_version
        self.client_error = client_error
        self.notes = [] if notes is None else notes
        self.findings = [] if findings is None else findings
        self.rule_costs = rule_costs
        self.field_validation = field_validation
        self.sent_status = sent_status
        self.edit = edit
        self.checks = checks
        self.replaces = replaces
        self.code = code
        self.status_details = status_details
        self.admission_notes = [] if admission_notes is None else admission_notes
        self.audit_annotations = {} if audit_annotations is None else audit_annotations
        self.type_checking = type_checking
        self.rendered = rendered

    @property
    def partly_checked(self) -> bool:
        """Whether crdtool checked this document short of the apiserver's whole validation (a built-in
        kind whose own validation is not reproduced): every summary says so, never a silent pass."""
        return self.checks not in ("validation", "none")

    @property
    def strict_findings(self) -> list[str]:
        """The duplicate and unknown fields, each once, that the request's fieldValidation reports
        (as errors under Strict, warnings under Warn; none under Ignore)."""
        if self.field_validation == "Ignore":
            return []
        dups = self.strict_decoding_errors
        return [*dups, *(w for w in self.field_validation_warnings if w not in dups)]

    @property
    def server_warnings(self) -> list[str]:
        """The warnings the apiserver returns: under fieldValidation=Warn the strict decoding
        findings first (the decoder reports them before the strategy runs), then the strategy's."""
        if self.field_validation == "Warn":
            return [*self.strict_findings, *self.warnings]
        return list(self.warnings)

    @property
    def strict_status(self) -> str | None:
        """The 400 answer to strict decoding findings under fieldValidation=Strict, else None."""
        findings = self.strict_findings
        if self.field_validation != "Strict" or not findings or self.reason == "BadRequest":
            return None
        version = from_api_version_and_kind(self.api_version, "").version
        return (f'{self.status_kind} in version "{version}" cannot be handled as a {self.status_kind}: '
                f"strict decoding error: " + ", ".join(findings))

    @property
    def valid(self) -> bool:
        """Whether the apiserver would accept the request as sent."""
        return self.status is None and self.strict_status is None

    def strict_position(self, message: str) -> tuple[int, int] | None:
        """Where a strict-decoding finding points: the repeated key, the unknown field's node, else the document."""
        duplicate = self.document.strict_position(message)
        if duplicate is not None:
            return duplicate
        segments = unknown_field_segments(message)
        return self.document.locate(segments if segments is not None else ())

    def position(self, error: FieldError | Note | Finding) -> tuple[int, int] | None:
        """1-based (line, column) of the node an error (or note) is about, or of its nearest existing ancestor."""
        path = error.path
        segments = path.segments if isinstance(path, Path) else ()
        if self.source_path is not None:
            segments = self.source_path(segments)
        return self.document.locate(segments)
