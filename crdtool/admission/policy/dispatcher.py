"""The ValidatingAdmissionPolicy plugin's answer to one request: k8s.io/apiserver
pkg/admission/plugin/policy/validating/dispatcher.go (Dispatch), generic/policy_matcher.go
(DefinitionMatches, BindingMatches), generic/policy_dispatcher.go (CollectParams) and
generic/policy_source.go (a paramKind the apiserver cannot map).

Every policy that matches, then every binding of it that matches, is evaluated once per param; a
denial under a binding's Deny action refuses the request with the first denial's message
(`ValidatingAdmissionPolicy 'P' with binding 'B' denied request: MESSAGE`, as admission.NewForbidden
words it, with the decision's reason and its HTTP code), Warn adds a warning, Audit an audit
annotation. Configuration errors (a binding whose params cannot be found with parameterNotFoundAction
Deny, a paramRef that does not fit the paramKind's scope) deny under failurePolicy Fail.

crdtool never passes a request silently where it could not decide: params it was not given, an
expression reading the authorizer, a namespace whose labels it does not know, a paramKind it does
not know are each a note.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.admission.chain import ConversionError, Resource
from crdtool.admission.policy.matching import Match, NamespaceUnknown, SelectorError, labels_match, match_resources
from crdtool.admission.policy.model import Binding, Policy
from crdtool.admission.policy.validator import CompiledPolicy, Decision, compile_policy
from crdtool.admission.request import admission_request
from crdtool.model.gofmt import GoStruct, go_json, go_quote
from crdtool.model.groupversion import parse_group_version

__all__ = ["Outcome", "PolicySet", "Refusal", "ScopeOf", "reason_code"]

MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024
MAX_VALIDATION_FAILURES = 50

#: A param kind's scope, as the apiserver's REST mapper gives it: "Namespaced", "Cluster", "" when the
#: apiserver does not serve it (a built-in group's unknown kind), or None when crdtool does not know the kind.
ScopeOf = Callable[[str, str], str | None]


@dataclass(frozen=True)
class Refusal:
    """The request refused: the status message, reason and HTTP code."""

    message: str
    reason: str
    code: int
    #: The status details (see chain.Status.details).
    details: dict[str, Any] | None = None


@dataclass
class Outcome:
    """The plugin's answer: a refusal or none, warnings, audit annotations, and what crdtool could not check."""

    refusal: Refusal | None = None
    warnings: list[str] = field(default_factory=list)
    audit_annotations: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def reason_code(reason: str) -> int:
    """dispatcher.go's reasonToCode: the HTTP code of a denial's reason (422 for anything but these)."""
    return {"Forbidden": 403, "Unauthorized": 401, "RequestEntityTooLarge": 413}.get(reason, 422)


@dataclass
class _Denied:
    policy: Policy
    binding: Binding | None
    message: str
    reason: str = ""


class PolicySet:
    """The policies and bindings among the inputs, compiled once, with the documents params come from."""

    def __init__(self, policies: Sequence[Policy], bindings: Sequence[Binding], params: Sequence[dict[str, Any]],
                 scope_of: ScopeOf) -> None:
        self.policies = list(policies)
        self.bindings = list(bindings)
        self.params = list(params)
        self.scope_of = scope_of
        self._compiled: dict[int, CompiledPolicy] = {}

    def compiled(self, policy: Policy) -> CompiledPolicy:
        found = self._compiled.get(id(policy))
        if found is None:
            found = self._compiled[id(policy)] = compile_policy(policy)
        return found

    def dispatch(self, request: Any) -> Outcome:
        """Dispatch: every policy with a binding (in the order of the inputs) on `request`."""
        outcome = Outcome()
        denied: list[_Denied] = []
        failures: list[GoStruct] = []
        if _exempt(request):
            return outcome
        namespace_labels = _namespace_labels(request)
        for policy in self.policies:
            bindings = [b for b in self.bindings if b.policy_name == policy.name]
            if not bindings:
                continue
            try:
                match = match_resources(policy.spec.get("matchConstraints") or {}, request, namespace_labels)
            except NamespaceUnknown as err:
                outcome.notes.append(_namespace_note(policy, str(err)))
                continue
            except SelectorError as err:
                _config_error(denied, policy, None, f"Internal error occurred: {err}")
                continue
            if match is None:
                continue
            config_error, unknown = self._configuration_error(policy)
            if unknown:
                outcome.notes.append(unknown)
                continue
            if config_error:
                _config_error(denied, policy, None, config_error)
                continue
            annotations: dict[str, list[str]] = {}
            for binding in bindings:
                self._bind(policy, binding, match, request, namespace_labels, outcome, denied, failures, annotations)
            for key, values in annotations.items():
                outcome.audit_annotations[f"{policy.name}/{key}"] = ", ".join(values)
        if failures:
            outcome.audit_annotations["validation.policy.admission.k8s.io/validation_failure"] = go_json(
                failures[:MAX_VALIDATION_FAILURES])
        if denied:
            outcome.refusal = _refusal(denied[0], request)
        return outcome

    def _configuration_error(self, policy: Policy) -> tuple[str, str]:
        """policy_source.go's ConfigurationError of a paramKind, and crdtool's note when it cannot tell
        whether the kind is served (neither built in nor a CRD among the inputs)."""
        kind = policy.param_kind
        if kind is None:
            return "", ""
        api_version, name = str(kind.get("apiVersion") or ""), str(kind.get("kind") or "")
        try:
            group, version = parse_group_version(api_version)
        except ValueError as err:
            return f"failed to parse paramKind APIVersion: {err}", ""
        scope = self.scope_of(api_version, name)
        if scope == "":
            return f"failed to find resource referenced by paramKind: '{group}/{version}, Kind={name}'", ""
        if scope is None:
            return "", (f"not checked: ValidatingAdmissionPolicy '{policy.name}': its paramKind {name} "
                        f"({api_version}) is neither a built-in kind nor defined by a CRD among the inputs")
        return "", ""

    def _bind(self, policy: Policy, binding: Binding, match: Match, request: Any,
              namespace_labels: dict[str, Any] | None, outcome: Outcome, denied: list[_Denied],
              failures: list[GoStruct], annotations: dict[str, list[str]]) -> None:
        """One binding of a matching policy: its match, its params, and each param's decisions."""
        binding_match = binding.spec.get("matchResources")
        if isinstance(binding_match, dict):
            try:
                if match_resources(binding_match, request, namespace_labels) is None:
                    return
            except NamespaceUnknown as err:
                outcome.notes.append(_namespace_note(policy, str(err), binding))
                return
            except SelectorError as err:
                _config_error(denied, policy, binding, f"Internal error occurred: {err}")
                return
        try:
            params = self._collect_params(policy, binding, request.namespace)
        except ValueError as err:
            _config_error(denied, policy, binding, str(err))
            return
        if not params:
            outcome.notes.append(
                f"not checked: ValidatingAdmissionPolicy '{policy.name}' with binding '{binding.name}': no params "
                f"among the inputs match its paramRef (parameterNotFoundAction Allow: the apiserver evaluates "
                f"nothing without params; give the params to check it)")
            return
        try:
            converted = _versioned(request, match)
        except ConversionError as err:  # NewVersionedAttributes failed
            _config_error(denied, policy, binding, f"failed to convert object version: {err}")
            return
        if converted is None:
            outcome.notes.append(
                f"not checked: ValidatingAdmissionPolicy '{policy.name}': it matches the request as version "
                f"{match.version}, to which crdtool cannot convert the object")
            return
        compiled = self.compiled(policy)
        for param in params:
            activation = _activation(request, match, converted, param)
            decisions, audit, cost_notes = compiled.validate(activation)
            outcome.notes.extend(f"not checked: ValidatingAdmissionPolicy '{policy.name}' with binding "
                                 f"'{binding.name}': {note}" for note in cost_notes)
            for decision in decisions:
                self._act(policy, binding, decision, outcome, denied, failures)
            for annotation in audit:
                if annotation.action == "publish":
                    values = annotations.setdefault(annotation.key, [])
                    value = annotation.value[:MAX_AUDIT_ANNOTATION_VALUE_LENGTH]
                    if value not in values:
                        values.append(value)
                elif annotation.action == "error":
                    denied.append(_Denied(policy, binding, annotation.error))

    @staticmethod
    def _act(policy: Policy, binding: Binding, decision: Decision, outcome: Outcome, denied: list[_Denied],
             failures: list[GoStruct]) -> None:
        """A decision under the binding's validationActions."""
        if decision.unsupported:
            outcome.notes.append(f"not checked: ValidatingAdmissionPolicy '{policy.name}' with binding "
                                 f"'{binding.name}': {decision.unsupported}")
            return
        if decision.action != "deny":
            return
        for action in binding.actions:
            if action == "Deny":
                denied.append(_Denied(policy, binding, decision.message, decision.reason))
            elif action == "Audit":
                failures.append(GoStruct(message=decision.message, policy=binding.policy_name,
                                         binding=binding.name, expressionIndex=decision.index,
                                         validationActions=binding.actions))
            elif action == "Warn":
                outcome.warnings.append(f"Validation failed for ValidatingAdmissionPolicy '{policy.name}' with "
                                        f"binding '{binding.name}': {decision.message}")

    def _collect_params(self, policy: Policy, binding: Binding, namespace: str) -> list[dict[str, Any] | None]:
        """CollectParams: [None] without paramKind or paramRef, else the params the paramRef selects
        (none found: an error under parameterNotFoundAction Deny). Raises ValueError with the apiserver's text."""
        kind = policy.param_kind
        ref = binding.spec.get("paramRef")
        if kind is None or not isinstance(ref, dict):
            return [None]
        api_version, kind_name = str(kind.get("apiVersion") or ""), str(kind.get("kind") or "")
        scope = self.scope_of(api_version, kind_name)
        ref_namespace = str(ref.get("namespace") or "")
        params_namespace = ""
        if scope == "Namespaced":
            params_namespace = ref_namespace or namespace
            if not params_namespace:
                raise ValueError("cannot use namespaced paramRef in policy binding that matches cluster-scoped "
                                 "resources")
        elif ref_namespace:
            raise ValueError("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
        candidates = [p for p in self.params if p.get("apiVersion") == api_version and p.get("kind") == kind_name
                      and _namespace_of(p) == params_namespace]
        name, selector = ref.get("name"), ref.get("selector")
        if name:
            if selector is not None:
                raise ValueError("paramRef.name and paramRef.selector are mutually exclusive")
            found = [p for p in candidates if (p.get("metadata") or {}).get("name") == name][:1]
        elif selector is not None:
            try:
                found = [p for p in candidates if labels_match(selector, (p.get("metadata") or {}).get("labels"))]
            except SelectorError as err:
                raise ValueError(str(err)) from None
        else:
            raise ValueError("one of name or selector must be provided")
        if not found and ref.get("parameterNotFoundAction") == "Deny":
            raise ValueError("no params found for policy binding with `Deny` parameterNotFoundAction")
        return list(found)


def _namespace_of(obj: dict[str, Any]) -> str:
    meta = obj.get("metadata")
    return str(meta.get("namespace") or "") if isinstance(meta, dict) else ""


def _exempt(request: Any) -> bool:
    """IsExemptAdmissionConfigurationResource: policies never apply to admission configurations."""
    from crdtool.admission.rules import is_exempt_admission_configuration

    return is_exempt_admission_configuration(request.resource.group, request.resource.kind)


def _namespace_labels(request: Any) -> dict[str, Any] | None:
    ns = getattr(request, "namespace_object", None)
    if not isinstance(ns, dict):
        return None
    labels = (ns.get("metadata") or {}).get("labels")
    return labels if isinstance(labels, dict) else {}


def _namespace_note(policy: Policy, namespace: str, binding: Binding | None = None) -> str:
    which = f"ValidatingAdmissionPolicy '{policy.name}'" + (f" with binding '{binding.name}'" if binding else "")
    return (f"not checked: {which}: its namespaceSelector needs the labels of namespace {go_quote(namespace)}, "
            f"which is not among the inputs")


def _config_error(denied: list[_Denied], policy: Policy, binding: Binding | None, error: str) -> None:
    """addConfigError: a deny under failurePolicy Fail (the default), nothing under Ignore."""
    failure = policy.failure_policy
    if failure == "Ignore":
        return
    if failure == "Fail":
        prefix = "failed to configure policy: " if binding is None else "failed to configure binding: "
        denied.append(_Denied(policy, binding, prefix + error))
    else:
        denied.append(_Denied(policy, binding, f"unrecognized failure policy: '{failure}'"))


def _refusal(denial: _Denied, request: Any) -> Refusal:
    """The first denial as admission.NewForbidden words it, with the denial's reason and code."""
    if denial.binding is not None:
        message = (f"ValidatingAdmissionPolicy '{denial.policy.name}' with binding '{denial.binding.name}' "
                   f"denied request: {denial.message}")
    else:
        message = f"ValidatingAdmissionPolicy '{denial.policy.name}' denied request: {denial.message}"
    res = request.resource
    resource = f"{res.resource}.{res.group}" if res.group else res.resource
    reason = denial.reason or "Invalid"
    name = _resource_name(request)
    details = {"name": name, "group": res.group, "kind": res.resource, "causes": [{"message": message}]}
    return Refusal(f"{resource} {go_quote(name)} is forbidden: {message}", reason, reason_code(reason), details)


def _resource_name(request: Any) -> str:
    """extractResourceName: the request's name, else the object's name or generateName, else Unknown."""
    if request.name:
        return str(request.name)
    meta = (request.object or {}).get("metadata") if isinstance(request.object, dict) else None
    if isinstance(meta, dict):
        return str(meta.get("name") or meta.get("generateName") or "Unknown")
    return "Unknown"


def _versioned(request: Any, match: Match) -> tuple[Any, Any] | None:
    """The object and old object in the matched version (NewVersionedAttributes), or None when they
    cannot be converted here."""
    if match.version == request.resource.version:
        return request.object, request.old_object
    convert = getattr(request, "convert", None)
    if convert is None:
        return None
    obj = convert(request.object, match.version) if request.object is not None else None
    old = convert(request.old_object, match.version) if request.old_object is not None else None
    if (request.object is not None and obj is None) or (request.old_object is not None and old is None):
        return None
    return obj, old


def _activation(request: Any, match: Match, versioned: tuple[Any, Any], param: dict[str, Any] | None
                ) -> dict[str, Any]:
    """The CEL variables of one evaluation (activation.go): object, oldObject, request, namespaceObject, params."""
    obj, old = versioned
    return {"object": obj, "oldObject": old, "request": _matched_request(request, match),
            "namespaceObject": _namespace_object(request), "params": param}


def _matched_request(request: Any, match: Match) -> dict[str, Any]:
    """CreateAdmissionRequest with the kind and resource the policy matched (crdtool.admission.request)."""
    res = request.resource
    matched = Resource(res.group, match.version, match.kind, res.resource, res.subresource, res.namespaced)
    return admission_request(request, matched, matched)


def _namespace_object(request: Any) -> dict[str, Any] | None:
    """CreateNamespaceObject: the request's Namespace (its metadata, spec and status), None for a
    cluster-scoped request or a Namespace itself."""
    res = request.resource
    if not request.namespace or (res.group == "" and res.version == "v1" and res.kind == "Namespace"):
        return None
    ns = getattr(request, "namespace_object", None)
    if not isinstance(ns, dict):
        ns = {"metadata": {"name": request.namespace, "labels": {"kubernetes.io/metadata.name": request.namespace}}}
    meta = ns.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    kept = ("name", "generateName", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
            "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers")
    return {"metadata": {k: meta[k] for k in kept if k in meta},
            "spec": ns.get("spec") or {"finalizers": ["kubernetes"]},
            "status": ns.get("status") or {"phase": "Active"}}
