"""MutatingAdmissionWebhook and ValidatingAdmissionWebhook as kube-apiserver 1.36 runs them.

What the apiserver does (k8s.io/apiserver pkg/admission/plugin/webhook: generic/webhook.go
ShouldCallHook, predicates/{namespace,object,rules}, mutating/dispatcher.go,
mutating/reinvocationcontext.go, validating/dispatcher.go, errors/statuserror.go; pkg/util/webhook
client.go and error.go; configuration/*_webhook_manager.go):

* The configurations, sorted by name, each one's webhooks in order.
* A webhook is called when the request's namespace and object match its selectors, one of its rules
  matches the request (operation, group, version, resource/subresource with `*`, scope), or with
  matchPolicy Equivalent (the default) one of them matches another served version of the resource
  (the webhook then gets the object in that version), and its matchConditions (CEL) are all true.
* Dry run: a webhook whose sideEffects is not None or NoneOnDryRun is not called: the request fails
  with `admission webhook "X" does not support dry run`.
* The call: an AdmissionReview (the first of admissionReviewVersions the apiserver knows) POSTed by
  the webhook client (crdtool.convert.webhook) within timeoutSeconds (default 10, the `?timeout=`
  the webhook is told). A call that fails or an answer VerifyAdmissionResponse refuses is
  `failed calling webhook "X": ...`: with failurePolicy Fail (the default) the request's 500
  `Internal error occurred: ...`, with Ignore the webhook is skipped (crdtool says so).
* A refusal is the webhook's status with `admission webhook "X" denied the request: ...`; its
  warnings and audit annotations are kept either way.
* Mutating webhooks run one after the other; a JSONPatch is applied to the object as the apiserver
  applies it (crdtool.admission.jsonpatch) and the kind's defaults applied again; a webhook with
  reinvocationPolicy IfNeeded is called again once when a later mutation changed the object.
  Validating webhooks run in parallel in the apiserver and the first refusal to arrive is the
  answer; crdtool calls them in order and answers the first refusal in that order.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crdtool.admission import jsonpatch, selectors
from crdtool.admission import review as admission_review
from crdtool.admission.chain import Attributes, Inputs, JSONObject, Resource, Status, Verdict
from crdtool.admission.rules import rule_matches as matches_rule
from crdtool.model.gofmt import go_json, go_quote
from crdtool.model.groupversion import try_parse_group_version
from crdtool.model.jsonvalue import deep_equal, json_copy

__all__ = ["MutatingWebhooks", "ValidatingWebhooks", "build_mutating", "build_validating", "parse_service"]

GROUP = "admissionregistration.k8s.io"
MUTATING_PLUGIN = "MutatingAdmissionWebhook"
DEFAULT_TIMEOUT_SECONDS = 10
_NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"


class _CallingError(Exception):
    """webhookutil.ErrCallingWebhook: the text is its reason (after `failed calling webhook "X": `)."""


class _Refusal(Exception):
    """A request error that is not a call failure (failurePolicy does not apply): the status."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.message)
        self.status = status


def internal_error(message: str) -> Status:
    """apierrors.NewInternalError."""
    return Status(f"Internal error occurred: {message}", "InternalError", 500)


@dataclass(frozen=True)
class Webhook:
    """One webhook of a configuration, with the apiserver's defaults for what it leaves out."""

    name: str
    configuration: str
    index: int
    spec: JSONObject
    source: str

    @property
    def uid(self) -> str:
        return f"{self.configuration}/{self.name}/{self.index}"

    @property
    def failure_policy(self) -> str:
        return str(self.spec.get("failurePolicy") or "Fail")

    @property
    def match_policy(self) -> str:
        return str(self.spec.get("matchPolicy") or "Equivalent")

    @property
    def timeout_seconds(self) -> int:
        value = self.spec.get("timeoutSeconds")
        return value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_TIMEOUT_SECONDS

    @property
    def reinvoke_if_needed(self) -> bool:
        return self.spec.get("reinvocationPolicy") == "IfNeeded"

    @property
    def rules(self) -> list[JSONObject]:
        return [r for r in self.spec.get("rules") or [] if isinstance(r, dict)]


def _configurations(inputs: Inputs, kind: str) -> list[Webhook]:
    """The webhooks of every `kind` configuration among the inputs, configurations sorted by name."""
    found: list[tuple[str, int, Any]] = []
    for n, doc in enumerate(inputs.documents):
        gv = try_parse_group_version(doc.api_version) if isinstance(doc.api_version, str) else None
        if doc.kind == kind and gv == (GROUP, "v1") and isinstance(doc.data, dict):
            found.append((doc.name or "", n, doc))
    hooks = []
    for name, _, doc in sorted(found, key=lambda f: (f[0], f[1])):
        for i, spec in enumerate(doc.data.get("webhooks") or []):
            if isinstance(spec, dict):
                hooks.append(Webhook(str(spec.get("name") or ""), name, i, spec, doc.source))
    return hooks


# ---------------------------------------------------------------- matching (ShouldCallHook)

def rule_matches(rule: JSONObject, attributes: Attributes, resource: Resource) -> bool:
    """rules.Matcher.Matches for the request with `resource` (its own or an equivalent one)."""
    return matches_rule(rule, attributes.operation, attributes.namespace, resource.group, resource.version,
                        resource.resource, resource.subresource)


def _namespace_labels(attributes: Attributes, notes: list[str], hook: Webhook) -> dict[str, str]:
    """The namespace matcher's labels: a Namespace's own on its create or update, else its namespace's."""
    if attributes.resource.resource == "namespaces" and not attributes.resource.subresource \
            and attributes.operation in ("CREATE", "UPDATE"):
        return selectors.object_labels(attributes.object)
    if attributes.namespace_object is not None:
        return selectors.object_labels(attributes.namespace_object)
    notes.append(f"{hook.source}: webhook {go_quote(hook.name)} has a namespaceSelector, and the labels of "
                 f"namespace {go_quote(attributes.namespace)} are unknown (no Namespace object among the inputs, "
                 f"no --namespace-labels): taken as only {_NAMESPACE_NAME_LABEL}={attributes.namespace}")
    return {_NAMESPACE_NAME_LABEL: attributes.namespace}


def _selected(hook: Webhook, attributes: Attributes, notes: list[str]) -> bool:
    """The namespace and object selectors (MatchNamespaceSelector, MatchObjectSelector)."""
    selector = hook.spec.get("namespaceSelector")
    if (attributes.namespace or attributes.resource.resource == "namespaces") and selector \
            and not selectors.matches(selector, _namespace_labels(attributes, notes, hook)):
        return False
    selector = hook.spec.get("objectSelector")
    if not selector:
        return True
    return any(obj is not None and selectors.matches(selector, selectors.object_labels(obj))
               for obj in (attributes.object, attributes.old_object))


def _invocation(hook: Webhook, attributes: Attributes) -> Resource | None:
    """The kind and resource the webhook is called with, when a rule matches (Equivalent: in another version)."""
    own = attributes.resource
    if any(rule_matches(rule, attributes, own) for rule in hook.rules):
        return own
    if hook.match_policy != "Equivalent":
        return None
    for rule in hook.rules:
        for version, kind in attributes.equivalents:
            if version == own.version:
                continue
            other = Resource(own.group, version, kind, own.resource, own.subresource, own.namespaced)
            if rule_matches(rule, attributes, other):
                return other
    return None


def _in_version(obj: JSONObject | None, invoked: Resource, attributes: Attributes) -> JSONObject | None:
    """The object as the webhook gets it: in the version it matched."""
    if obj is None or invoked.version == attributes.resource.version:
        return obj
    converted = attributes.convert(obj, invoked.version)
    if converted is None:  # checked before the call (_should_call)
        raise _Refusal(internal_error(f"crdtool cannot convert the object to {invoked.group}/{invoked.version}"))
    return converted


# ---------------------------------------------------------------- the call

def parse_service(text: str) -> tuple[tuple[str, str, int | None, str | None], str]:
    """`--webhook-service NAMESPACE/NAME[:PORT][/PATH]=URL`: the service reference and the URL, or ValueError."""
    reference, sep, url = text.partition("=")
    namespace, slash, rest = reference.partition("/")
    if not sep or not slash or not namespace or not url.startswith("https://"):
        raise ValueError(f"{text!r} is not NAMESPACE/NAME[:PORT][/PATH]=https://HOST:PORT")
    name_port, slash, path = rest.partition("/")
    name, colon, port = name_port.partition(":")
    if not name or (colon and not port.isdigit()):
        raise ValueError(f"{text!r} is not NAMESPACE/NAME[:PORT][/PATH]=https://HOST:PORT")
    return (namespace, name, int(port) if colon else None, "/" + path if slash else None), url


@dataclass
class _Endpoint:
    url: str
    server_name: str | None = None
    dial: tuple[str, int] | None = None


def _endpoint(hook: Webhook, inputs: Inputs, notes: list[str]) -> _Endpoint:
    """Where the webhook is called: its url, or its service reference (mapped by --webhook-service)."""
    config = hook.spec.get("clientConfig") or {}
    service = config.get("service") if isinstance(config, dict) else None
    if not isinstance(service, dict):
        url = config.get("url") if isinstance(config, dict) else None
        if not isinstance(url, str) or not url:
            raise _CallingError("could not get REST client: webhook configuration must have either service or URL")
        return _Endpoint(url)
    namespace, name = str(service.get("namespace") or ""), str(service.get("name") or "")
    port = service.get("port") if isinstance(service.get("port"), int) else 443
    path = str(service.get("path") or "")
    server_name = f"{name}.{namespace}.svc"
    url = f"https://{server_name}:{port}{path}"
    for (ns, svc, want_port, want_path), target in inputs.webhook_services.items():
        if (ns, svc) == (namespace, name) and want_port in (None, port) and want_path in (None, path or "/"):
            from urllib.parse import urlsplit

            parts = urlsplit(target)
            return _Endpoint(url, server_name, (parts.hostname or "", parts.port or 443))
    notes.append(f"{hook.source}: webhook {go_quote(hook.name)} calls service {namespace}/{name}:{port}, which no "
                 f"--webhook-service maps to a local address: crdtool called {server_name}:{port} itself")
    return _Endpoint(url, server_name)


def _ca_bundle(hook: Webhook, inputs: Inputs) -> bytes | None:
    if inputs.ca_bundle is not None:
        return inputs.ca_bundle
    config = hook.spec.get("clientConfig") or {}
    bundle = config.get("caBundle") if isinstance(config, dict) else None
    if not isinstance(bundle, str) or not bundle:
        return None
    try:
        return base64.b64decode(bundle, validate=True)
    except (binascii.Error, ValueError):
        raise _CallingError("could not get REST client: the caBundle is not base64") from None


def _call(hook: Webhook, inputs: Inputs, attributes: Attributes, invoked: Resource, mutating: bool,
          notes: list[str]) -> admission_review.Response:
    """One call: the verified response, or _CallingError / _Refusal as the apiserver fails it."""
    from crdtool.convert.webhook import WebhookClient, into_review

    if attributes.dry_run and hook.spec.get("sideEffects") not in ("None", "NoneOnDryRun"):
        if hook.spec.get("sideEffects") is None:
            raise _CallingError("Webhook SideEffects is nil")
        raise _Refusal(Status(f"admission webhook {go_quote(hook.name)} does not support dry run", "BadRequest", 400))
    versions = hook.spec.get("admissionReviewVersions")
    try:
        version = admission_review.review_version(versions if isinstance(versions, list) else [])
    except admission_review.CallError as err:
        raise _CallingError(str(err)) from None
    uid = admission_review.new_uid()
    body = admission_review.request_body(version, uid, attributes, invoked,
                                         _in_version(attributes.object, invoked, attributes) or {},
                                         _in_version(attributes.old_object, invoked, attributes))
    endpoint = _endpoint(hook, inputs, notes)
    try:
        client = WebhookClient(endpoint.url, ca_pem=_ca_bundle(hook, inputs), server_name=endpoint.server_name,
                               request_timeout_ns=hook.timeout_seconds * 10**9, dial=endpoint.dial)
    except ValueError as err:
        raise _CallingError(f"could not get REST client: {err}") from None
    try:
        answer = into_review(client.post(body), version, admission_review.ADMISSION_REVIEW)
    except admission_review.CallError as err:
        raise _CallingError(f"failed to call webhook: {err}") from None
    try:
        return admission_review.verify(answer, version, uid, mutating)
    except admission_review.CallError as err:
        raise _CallingError(f"received invalid webhook response: {err}") from None


def denial(name: str, result: JSONObject | None) -> Status:
    """webhookerrors.ToStatusErr: the refusal as the request's status."""
    result = result or {}
    code = result.get("code")
    code = code if isinstance(code, int) else 0
    message, reason = str(result.get("message") or ""), str(result.get("reason") or "")
    denied = f"admission webhook {go_quote(name)} denied the request"
    if message:
        text = f"{denied}: {message}"
    elif reason:
        text = f"{denied}: {reason}"
    else:
        text = f"{denied} without explanation"
    return Status(text, reason, max(code, 400))


def _called(hook: Webhook, response: admission_review.Response, verdict: Verdict) -> None:
    """The answer's warnings and audit annotations (prefixed with the webhook's name), kept either way."""
    verdict.warnings.extend(response.warnings)
    for key, value in response.audit_annotations.items():
        verdict.audit_annotations[f"{hook.name}/{key}"] = value


def _failed_open(hook: Webhook, error: _CallingError, verdict: Verdict, key: str) -> None:
    verdict.audit_annotations[key] = hook.name
    verdict.notes.append(f"{hook.source}: webhook {go_quote(hook.name)} failed and has failurePolicy Ignore, so "
                         f"the request went on without it: failed calling webhook {go_quote(hook.name)}: {error}")


def _calling_status(hook: Webhook, error: _CallingError) -> Status:
    return internal_error(f"failed calling webhook {go_quote(hook.name)}: {error}")


def _should_call(hook: Webhook, attributes: Attributes, verdict: Verdict) -> Resource | None:
    """ShouldCallHook: the invocation, or None; a _Refusal when matching itself fails."""
    try:
        if not _selected(hook, attributes, verdict.notes):
            return None
    except selectors.SelectorError as err:
        raise _Refusal(internal_error(str(err))) from None
    invoked = _invocation(hook, attributes)
    if invoked is None:
        return None
    other = invoked.version != attributes.resource.version
    if other and attributes.convert(attributes.object, invoked.version) is None:
        verdict.notes.append(
            f"{hook.source}: webhook {go_quote(hook.name)} matches {attributes.resource.resource} only in "
            f"{invoked.group}/{invoked.version} (matchPolicy Equivalent): crdtool cannot convert the object to that "
            "version, so it did not call the webhook")
        return None
    conditions = hook.spec.get("matchConditions")
    if conditions:
        from crdtool.admission.conditions import evaluate

        problem, matched = evaluate(conditions, attributes, invoked,
                                    _in_version(attributes.object, invoked, attributes),
                                    _in_version(attributes.old_object, invoked, attributes), hook.failure_policy)
        if problem is not None:
            group = attributes.resource.group
            qualified = attributes.resource.resource + (f".{group}" if group else "")
            raise _Refusal(Status(f"{qualified} {go_quote(attributes.name)} is forbidden: {problem}",
                                  "Forbidden", 403))
        if not matched:
            return None
    return invoked


# ---------------------------------------------------------------- the two plugins

@dataclass
class _Reinvocation:
    """webhookReinvokeContext."""

    last_output: JSONObject | None = None
    previously_invoked: set[str] = field(default_factory=set)
    reinvoke: set[str] = field(default_factory=set)

    def require_reinvoking(self) -> None:
        self.reinvoke |= self.previously_invoked
        self.previously_invoked = set()


class MutatingWebhooks:
    """MutatingAdmissionWebhook over the inputs' MutatingWebhookConfigurations."""

    def __init__(self, hooks: list[Webhook], inputs: Inputs) -> None:
        self.hooks, self.inputs = hooks, inputs

    def admit(self, attributes: Attributes) -> Verdict:
        state = attributes.reinvocation.values.setdefault(MUTATING_PLUGIN, _Reinvocation())
        assert isinstance(state, _Reinvocation)
        reinvoke = attributes.reinvocation.is_reinvoke
        if reinvoke and not deep_equal(state.last_output, attributes.object):
            state.require_reinvoking()
        verdict = Verdict()
        try:
            self._dispatch(attributes, state, verdict)
        except _Refusal as refusal:
            verdict.status = refusal.status
        state.last_output = json_copy(attributes.object)
        return verdict

    def _dispatch(self, attributes: Attributes, state: _Reinvocation, verdict: Verdict) -> None:
        round_ = 1 if attributes.reinvocation.is_reinvoke else 0
        for i, hook in enumerate(self.hooks):
            invoked = _should_call(hook, attributes, verdict)
            if invoked is None or (round_ and hook.uid not in state.reinvoke):
                continue
            changed, error = False, None
            try:
                changed = self._call(hook, attributes, invoked, verdict)
            except _CallingError as err:
                error = err
            if changed:
                state.require_reinvoking()
                attributes.reinvocation.request()
                verdict.changed = True
            if hook.reinvoke_if_needed:
                state.previously_invoked.add(hook.uid)
            if error is None:
                continue
            if hook.failure_policy == "Ignore":
                _failed_open(hook, error, verdict,
                             f"failed-open.mutation.webhook.admission.k8s.io/round_{round_}_index_{i}")
                continue
            raise _Refusal(_calling_status(hook, error))

    def _call(self, hook: Webhook, attributes: Attributes, invoked: Resource, verdict: Verdict) -> bool:
        """callAttrMutatingHook: whether the webhook's patch changed the object."""
        response = _call(hook, self.inputs, attributes, invoked, True, verdict.notes)
        _called(hook, response, verdict)
        if not response.allowed:
            raise _Refusal(denial(hook.name, response.result))
        if not response.patch:
            return False
        try:
            operations = jsonpatch.decode(response.patch)
        except jsonpatch.PatchError as err:
            raise _CallingError(f"received undecodable patch in webhook response: {err}") from None
        if not operations:
            return False
        if response.patch_type != "JSONPatch":
            raise _CallingError(f'unsupported patch type "{response.patch_type}"')
        current = _in_version(attributes.object, invoked, attributes)
        try:
            patched = jsonpatch.apply(operations, current)
        except jsonpatch.PatchError as err:
            raise _Refusal(internal_error(str(err))) from None
        if not isinstance(patched, dict) or not isinstance(patched.get("kind"), str) or not patched["kind"]:
            raise _Refusal(internal_error(f"Object 'Kind' is missing in '{go_json(patched)}'"))
        if invoked.version != attributes.resource.version:
            back = attributes.convert(patched, attributes.resource.version)
            if back is None:
                raise _Refusal(internal_error("crdtool cannot convert the patched object back to "
                                              f"{attributes.resource.group}/{attributes.resource.version}"))
            patched = back
        changed = not deep_equal(attributes.object, patched)
        attributes.object = patched
        attributes.default(attributes.object)
        return changed


class ValidatingWebhooks:
    """ValidatingAdmissionWebhook over the inputs' ValidatingWebhookConfigurations."""

    def __init__(self, hooks: list[Webhook], inputs: Inputs) -> None:
        self.hooks, self.inputs = hooks, inputs

    def validate(self, attributes: Attributes) -> Verdict:
        verdict = Verdict()
        try:
            invocations = [(i, hook, invoked) for i, hook in enumerate(self.hooks)
                           if (invoked := _should_call(hook, attributes, verdict)) is not None]
            for i, hook, invoked in invocations:
                self._call(i, hook, attributes, invoked, verdict)
                if verdict.status is not None:
                    break
        except _Refusal as refusal:
            verdict.status = refusal.status
        return verdict

    def _call(self, i: int, hook: Webhook, attributes: Attributes, invoked: Resource, verdict: Verdict) -> None:
        try:
            response = _call(hook, self.inputs, attributes, invoked, False, verdict.notes)
        except _CallingError as err:
            if hook.failure_policy == "Ignore":
                _failed_open(hook, err, verdict, f"failed-open.validating.webhook.admission.k8s.io/round_0_index_{i}")
            else:
                verdict.status = _calling_status(hook, err)
            return
        _called(hook, response, verdict)
        if not response.allowed:
            verdict.status = denial(hook.name, response.result)


def _build(inputs: Inputs, kind: str, stage: Callable[[list[Webhook], Inputs], Any]) -> list[Any]:
    hooks = _configurations(inputs, kind)
    return [stage(hooks, inputs)] if hooks else []


def build_mutating(inputs: Inputs) -> list[Any]:
    """The MutatingAdmissionWebhook stage, when the inputs have MutatingWebhookConfigurations."""
    return _build(inputs, "MutatingWebhookConfiguration", MutatingWebhooks)


def build_validating(inputs: Inputs) -> list[Any]:
    """The ValidatingAdmissionWebhook stage, when the inputs have ValidatingWebhookConfigurations."""
    return _build(inputs, "ValidatingWebhookConfiguration", ValidatingWebhooks)
