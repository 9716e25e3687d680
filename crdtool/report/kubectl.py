"""`--format kubectl`: exactly what kubectl 1.36 prints for the apiserver's answer.

An Invalid (422) answer is printed from the status causes, deduplicated, one per
`* ` line (a single cause stays on the first line); any other refusal is
`Error from server (Reason): error when creating "FILE": MESSAGE`.
"""

from __future__ import annotations

from crdtool.engine.results import Result
from crdtool.model.gofmt import go_quote
from crdtool.report.context import RenderContext


def invalid_text(result: Result) -> str:
    """kubectl's text for a 422 Invalid status, from its causes."""
    head = f"The {result.status_kind} {go_quote(result.name or '')} is invalid"
    return _multiline(head, list(dict.fromkeys(f"{e.field}: {e.body()}" for e in result.errors)))


def _multiline(head: str, causes: list[str]) -> str:
    """cmdutil.MultilineError: one cause on the head's line, several as `* ` lines."""
    if not causes:
        return head + "\n"
    if len(causes) == 1:
        return f"{head}: {causes[0]}\n"
    return f"{head}: \n" + "".join(f"* {c}\n" for c in causes)


def _admission_invalid_text(details: dict | None) -> str:
    """kubectl's text for an Invalid status that admission gave (a policy's or a webhook's denial):
    its details' kind (admission.NewForbidden puts the resource there) and name, and each cause as
    `field: message`, deduplicated (statusCausesToAggrError)."""
    if details is None:
        return "The request is invalid\n"
    kind, name = details.get("kind") or "", details.get("name") or ""
    head = f"The {kind} {go_quote(str(name))} is invalid" if kind or name else "The request is invalid"
    causes: list[str] = []
    for cause in details.get("causes") or []:
        if isinstance(cause, dict):
            text = f"{cause.get('field') or ''}: {cause.get('message') or ''}"
            if text not in causes:
                causes.append(text)
    return _multiline(head, causes)


def error_text(result: Result) -> str:
    """What kubectl writes to stderr for a refused document ('' when accepted): kubectl create's words,
    or kubectl replace's for an update (`--old`), the request crdtool's update is."""
    if result.valid:
        return ""
    verb = "replacing" if result.replaces else "creating"
    source = result.document.source
    if result.client_error is not None:
        return f"error: unable to decode {go_quote(source)}: {result.client_error}\n"
    strict = result.strict_status
    if strict is not None:
        return f"Error from server (BadRequest): error when {verb} {go_quote(source)}: {strict}\n"
    if result.sent_status is not None:
        return f"Error from server (BadRequest): error when {verb} {go_quote(source)}: {result.sent_status}\n"
    if result.reason == "Invalid" and result.code is not None:
        return _admission_invalid_text(result.status_details)
    if result.reason == "Invalid":
        return invalid_text(result)
    if result.reason == "NotFound":
        from crdtool.model.discovery import mapping_not_found_message, no_kind_match_message
        from crdtool.model.groupversion import from_api_version_and_kind

        gvk = from_api_version_and_kind(result.api_version, result.kind)
        no_match = no_kind_match_message(gvk.kind, gvk.group, gvk.version)
        return "error: " + mapping_not_found_message(_text(result.name), _namespace(result.document.data),
                                                     source, no_match) + "\n"
    # kubectl names the status's reason, when it has one (an admission webhook's denial may have none)
    server = f"Error from server ({result.reason})" if result.reason else "Error from server"
    return f"{server}: error when {verb} {go_quote(source)}: {result.status}\n"


def _text(value: object) -> str:
    """A metadata string as the object accessor reads it ("" when absent or not a string)."""
    return value if isinstance(value, str) else ""


def _namespace(data: object) -> str:
    """The document's own metadata.namespace, which kubectl's mapping error quotes."""
    meta = data.get("metadata") if isinstance(data, dict) else None
    return _text(meta.get("namespace")) if isinstance(meta, dict) else ""


def warnings_text(result: Result) -> str:
    """The server's warnings as kubectl's warning handler prints them."""
    return "".join(f"Warning: {w}\n" for w in result.server_warnings)


def success_text(result: Result) -> str:
    """What kubectl writes to stdout for an accepted document (`crontab.stable.example.com/x created ...`)."""
    from crdtool.model.discovery import printed_kind

    done = "replaced" if result.replaces else "created"
    return f"{printed_kind(result.api_version, result.kind)}/{result.name} {done} (server dry run)\n"


def render(results: list[Result], context: RenderContext) -> None:
    """`--format kubectl`: each document's warnings and refusal on stderr, its success line on stdout,
    as kubectl writes them."""
    for r in results:
        context.stderr.write(warnings_text(r))
        if r.valid:
            context.stdout.write(success_text(r))
        else:
            context.stderr.write(error_text(r))
