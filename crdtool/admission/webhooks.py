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
  A condition crdtool cannot evaluate (the authorizer) leaves the match undecided: unless another
  is false, the webhook is not called and a note says it was not checked, as for a policy.
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
  Validating webhooks run in parallel in the apiserver, all of them, and the first refusal to arrive
  is the answer; crdtool calls them in parallel too and answers the first refusal in the
  configurations' order (ValidatingWebhooks).
* matchPolicy Equivalent: the object (and old object) converted to the matched version with the
  kind's converter (admission.VersionedAttributes, `_Versions`); a mutating webhook's patch is
  applied there, decoded by the kind's codec and defaulted in that version, and the object goes back
  to the request's version before another version is needed and at the end.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crdtool.admission import CONFIGURATION_GROUP, jsonpatch, selectors
from crdtool.admission import review as admission_review
from crdtool.admission.chain import (
    Attributes,
    ConversionError,
    DecodeError,
    Inputs,
    JSONObject,
    Resource,
    Status,
    Verdict,
    forbidden_details,
)
from crdtool.admission.rules import is_exempt_admission_configuration
from crdtool.admission.rules import rule_matches as matches_rule
from crdtool.model.gofmt import go_quote
from crdtool.model.groupversion import try_parse_group_version
from crdtool.model.jsonvalue import deep_equal, json_copy

__all__ = ["Endpoint", "MutatingWebhooks", "ValidatingWebhooks", "build_mutating", "build_validating", "parse_service",
           "service_endpoint"]

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
        if doc.kind == kind and gv == (CONFIGURATION_GROUP, "v1") and isinstance(doc.data, dict):
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


def _selected(hook: Webhook, attributes: Attributes, current: JSONObject | None, notes: list[str]) -> bool:
    """The namespace and object selectors (MatchNamespaceSelector, MatchObjectSelector)."""
    selector = hook.spec.get("namespaceSelector")
    if (attributes.namespace or attributes.resource.resource == "namespaces") and selector \
            and not selectors.matches(selector, _namespace_labels(attributes, notes, hook)):
        return False
    selector = hook.spec.get("objectSelector")
    if not selector:
        return True
    return any(obj is not None and selectors.matches(selector, selectors.object_labels(obj))
               for obj in (current, attributes.old_object))


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


class _CannotConvert(Exception):
    """crdtool cannot convert the object to the version a webhook matched (the text says which)."""


class _Versions:
    """The dispatchers' versionedAttributeAccessor (admission.VersionedAttributes): the object and old
    object in the version a webhook matched, converted when first needed.

    The validating dispatcher keeps one conversion per version; the mutating one keeps a single
    versioned object, converted from version to version (ConvertVersionedAttributes): one a patch
    changed (`dirty`) goes back to the request's version first, and so it does at the end of the
    dispatch (`finish`). A conversion the apiserver fails is an internal error (the mutating
    accessor wraps it once more, as its VersionedAttribute does); one crdtool cannot make is
    _CannotConvert."""

    def __init__(self, attributes: Attributes, mutating: bool) -> None:
        self.attributes = attributes
        self.mutating = mutating
        self.version: str | None = None
        self.object: JSONObject | None = None
        self.old: JSONObject | None = None
        self.dirty = False
        self._kept: dict[str, tuple[JSONObject | None, JSONObject | None]] = {}

    def _to(self, obj: JSONObject | None, version: str) -> JSONObject | None:
        """ConvertToGVK between the request's version and `version` (ConversionError, _CannotConvert)."""
        if obj is None or version == _version_of(obj, self.attributes.resource.version):
            return obj
        converted = self.attributes.convert(obj, version)
        if converted is None:
            raise _CannotConvert(f"{self.attributes.resource.group}/{version}")
        return converted

    def get(self, version: str) -> tuple[JSONObject | None, JSONObject | None]:
        """VersionedAttribute: the object and old object in `version`."""
        try:
            return self._get(version)
        except ConversionError as err:
            status = internal_error(str(err))
            raise _Refusal(internal_error(status.message) if self.mutating else status) from None

    def _get(self, version: str) -> tuple[JSONObject | None, JSONObject | None]:
        if not self.mutating:
            if version not in self._kept:
                self._kept[version] = (self._to(self.attributes.object, version),
                                       self._to(self.attributes.old_object, version))
            return self._kept[version]
        if self.version != version:
            if self.dirty:
                self._back()
            self.object = self._to(self.attributes.object, version)
            self.old = self._to(self.attributes.old_object, version)
            self.version, self.dirty = version, False
        return self.object, self.old

    def patched(self, obj: JSONObject) -> None:
        """A patch's result replaces the versioned object."""
        self.object, self.dirty = obj, True

    def current(self) -> JSONObject | None:
        """What the next webhook's selectors see (the versioned object once there is one)."""
        return self.object if self.version is not None else self.attributes.object

    def _back(self) -> None:
        """The changed versioned object into the request's version: the attributes' object."""
        assert self.object is not None, "only an object a patch changed is dirty"
        self.attributes.object = self._to(self.object, self.attributes.resource.version) or self.object
        self.dirty = False

    def finish(self) -> None:
        """The end of the mutating dispatch: a changed versioned object goes back into the attributes;
        a conversion that fails here is the converter's error as it is (a 500 without a reason)."""
        if not self.dirty:
            return
        try:
            self._back()
        except ConversionError as err:
            raise _Refusal(Status(str(err), "", 500)) from None


def _version_of(obj: JSONObject, default: str) -> str:
    """The version an object is in (its apiVersion's), `default` when it names none."""
    api_version = obj.get("apiVersion")
    gv = try_parse_group_version(api_version) if isinstance(api_version, str) else None
    return gv[1] if gv is not None and gv[1] else default


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
class Endpoint:
    """Where a webhook is called: the URL it is told, the TLS server name, and the address dialled
    instead of the URL's host (a service reference mapped by --webhook-service)."""

    url: str
    server_name: str | None = None
    dial: tuple[str, int] | None = None
    mapped: bool = True


def service_endpoint(service: dict[str, Any], inputs: Inputs) -> Endpoint:
    """A service reference's endpoint (`mapped` False when no --webhook-service maps it: the service's
    own name is then dialled), for admission webhooks and a CRD's conversion webhook alike."""
    namespace, name = str(service.get("namespace") or ""), str(service.get("name") or "")
    port = service.get("port") if isinstance(service.get("port"), int) else 443
    path = str(service.get("path") or "")
    server_name = f"{name}.{namespace}.svc"
    url = f"https://{server_name}:{port}{path}"
    for (ns, svc, want_port, want_path), target in inputs.webhook_services.items():
        if (ns, svc) == (namespace, name) and want_port in (None, port) and want_path in (None, path or "/"):
            from urllib.parse import urlsplit

            parts = urlsplit(target)
            return Endpoint(url, server_name, (parts.hostname or "", parts.port or 443))
    return Endpoint(url, server_name, mapped=False)


def _endpoint(hook: Webhook, inputs: Inputs, notes: list[str]) -> Endpoint:
    """Where the webhook is called: its url, or its service reference (mapped by --webhook-service)."""
    config = hook.spec.get("clientConfig") or {}
    service = config.get("service") if isinstance(config, dict) else None
    if not isinstance(service, dict):
        url = config.get("url") if isinstance(config, dict) else None
        if not isinstance(url, str) or not url:
            raise _CallingError("could not get REST client: webhook configuration must have either service or URL")
        return Endpoint(url)
    endpoint = service_endpoint(service, inputs)
    if not endpoint.mapped:
        where = endpoint.url.removeprefix("https://").split("/")[0]
        namespace, name = str(service.get("namespace") or ""), str(service.get("name") or "")
        notes.append(f"{hook.source}: webhook {go_quote(hook.name)} calls service {namespace}/{name}:"
                     f"{where.rpartition(':')[2]}, which no --webhook-service maps to a local address: crdtool "
                     f"called {where} itself")
    return endpoint


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


def _call(hook: Webhook, inputs: Inputs, attributes: Attributes, invoked: Resource,
          versioned: tuple[JSONObject | None, JSONObject | None], mutating: bool,
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
    body = admission_review.request_body(version, uid, attributes, invoked, versioned[0] or {}, versioned[1])
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
    details = result.get("details")
    return Status(text, reason, max(code, 400), details if isinstance(details, dict) else None)


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


def _exempt(attributes: Attributes) -> bool:
    """Webhook.Dispatch: no webhook configured through the API sees an admission configuration."""
    return is_exempt_admission_configuration(attributes.resource.group, attributes.resource.kind)


def _cannot_convert(hook: Webhook, attributes: Attributes, target: str) -> str:
    return (f"{hook.source}: webhook {go_quote(hook.name)} matches {attributes.resource.resource} only in "
            f"{target} (matchPolicy Equivalent): crdtool cannot convert the object to that version, so it did not "
            "call the webhook")


def _should_call(hook: Webhook, attributes: Attributes, verdict: Verdict, versions: _Versions) -> Resource | None:
    """ShouldCallHook: the invocation, or None; a _Refusal when matching itself fails (the selectors see
    the versioned object once there is one, the matchConditions the object in the matched version)."""
    try:
        if not _selected(hook, attributes, versions.current(), verdict.notes):
            return None
    except selectors.SelectorError as err:
        raise _Refusal(internal_error(str(err))) from None
    invoked = _invocation(hook, attributes)
    if invoked is None:
        return None
    conditions = hook.spec.get("matchConditions")
    if conditions:
        from crdtool.admission.conditions import evaluate

        try:
            obj, old = versions.get(invoked.version)
        except _CannotConvert as err:
            verdict.notes.append(_cannot_convert(hook, attributes, str(err)))
            return None
        problem, matched, undecided = evaluate(conditions, attributes, invoked, obj, old, hook.failure_policy,
                                               verdict.notes, f"{hook.source}: webhook {go_quote(hook.name)}")
        if undecided:
            verdict.notes.append(f"{hook.source}: not checked: webhook {go_quote(hook.name)}: {undecided}, so "
                                 "crdtool did not call it")
        if problem is not None:
            group = attributes.resource.group
            qualified = attributes.resource.resource + (f".{group}" if group else "")
            raise _Refusal(Status(f"{qualified} {go_quote(attributes.name)} is forbidden: {problem}",
                                  "Forbidden", 403, forbidden_details(attributes, attributes.name)))
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
        if _exempt(attributes):
            return Verdict()
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
        versions = _Versions(attributes, mutating=True)
        for i, hook in enumerate(self.hooks):
            invoked = _should_call(hook, attributes, verdict, versions)
            if invoked is None or (round_ and hook.uid not in state.reinvoke):
                continue
            try:
                versioned = versions.get(invoked.version)
            except _CannotConvert as err:
                verdict.notes.append(_cannot_convert(hook, attributes, str(err)))
                continue
            changed, error = False, None
            try:
                changed = self._call(hook, attributes, invoked, versioned, versions, verdict)
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
        try:
            versions.finish()
        except _CannotConvert as err:
            raise _Refusal(internal_error(f"crdtool cannot convert the patched object back to {err}")) from None

    def _call(self, hook: Webhook, attributes: Attributes, invoked: Resource,
              versioned: tuple[JSONObject | None, JSONObject | None], versions: _Versions, verdict: Verdict) -> bool:
        """callAttrMutatingHook: whether the webhook's patch changed the (versioned) object."""
        response = _call(hook, self.inputs, attributes, invoked, versioned, True, verdict.notes)
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
        current = versioned[0]
        try:
            patched = jsonpatch.apply(operations, current)
        except jsonpatch.PatchError as err:
            raise _Refusal(internal_error(str(err))) from None
        try:
            decoded = attributes.decode(patched)
        except DecodeError as err:
            raise _Refusal(internal_error(str(err))) from None
        changed = not deep_equal(current, decoded)
        versions.patched(decoded)
        attributes.default(decoded)
        return changed


@dataclass
class _Called:
    """One validating webhook's call, made apart from the others: its findings, and its refusal or call failure."""

    verdict: Verdict = field(default_factory=Verdict)
    error: _CallingError | None = None


class ValidatingWebhooks:
    """ValidatingAdmissionWebhook over the inputs' ValidatingWebhookConfigurations.

    The apiserver calls the matching webhooks in parallel, waits for all of them, and answers the
    first refusal to arrive (validating/dispatcher.go: the errors in the order they reach its
    channel): which of several refusals that is depends on timing. crdtool calls them in parallel
    too, waits for all, and answers the first refusal in the configurations' order, one of the
    answers the apiserver can give, and always the same one; every webhook's warnings and audit
    annotations are kept in that order."""

    def __init__(self, hooks: list[Webhook], inputs: Inputs) -> None:
        self.hooks, self.inputs = hooks, inputs

    def validate(self, attributes: Attributes) -> Verdict:
        verdict = Verdict()
        if _exempt(attributes):
            return verdict
        versions = _Versions(attributes, mutating=False)
        invocations = []
        try:
            for i, hook in enumerate(self.hooks):
                invoked = _should_call(hook, attributes, verdict, versions)
                if invoked is None:
                    continue
                try:
                    invocations.append((i, hook, invoked, versions.get(invoked.version)))
                except _CannotConvert as err:
                    verdict.notes.append(_cannot_convert(hook, attributes, str(err)))
        except _Refusal as refusal:
            verdict.status = refusal.status
            return verdict
        if len(invocations) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=len(invocations)) as pool:
                called = list(pool.map(lambda c: self._call(c[1], c[2], c[3], attributes), invocations))
        else:
            called = [self._call(hook, invoked, versioned, attributes) for _, hook, invoked, versioned in invocations]
        for (i, hook, _, _), call in zip(invocations, called, strict=True):
            if call.error is not None:
                if hook.failure_policy == "Ignore":
                    _failed_open(hook, call.error, call.verdict,
                                 f"failed-open.validating.webhook.admission.k8s.io/round_0_index_{i}")
                else:
                    call.verdict.status = _calling_status(hook, call.error)
            verdict.add(call.verdict)
        return verdict

    def _call(self, hook: Webhook, invoked: Resource, versioned: tuple[JSONObject | None, JSONObject | None],
              attributes: Attributes) -> _Called:
        call = _Called()
        try:
            response = _call(hook, self.inputs, attributes, invoked, versioned, False, call.verdict.notes)
        except _CallingError as err:
            call.error = err
            return call
        except _Refusal as refusal:
            call.verdict.status = refusal.status
            return call
        _called(hook, response, call.verdict)
        if not response.allowed:
            call.verdict.status = denial(hook.name, response.result)
        return call


def _build(inputs: Inputs, kind: str, stage: Callable[[list[Webhook], Inputs], Any]) -> list[Any]:
    hooks = _configurations(inputs, kind)
    return [stage(hooks, inputs)] if hooks else []


def build_mutating(inputs: Inputs) -> list[Any]:
    """The MutatingAdmissionWebhook stage, when the inputs have MutatingWebhookConfigurations."""
    return _build(inputs, "MutatingWebhookConfiguration", MutatingWebhooks)


def build_validating(inputs: Inputs) -> list[Any]:
    """The ValidatingAdmissionWebhook stage, when the inputs have ValidatingWebhookConfigurations."""
    return _build(inputs, "ValidatingWebhookConfiguration", ValidatingWebhooks)
