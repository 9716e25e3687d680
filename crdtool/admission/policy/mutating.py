"""MutatingAdmissionPolicy (admissionregistration.k8s.io/v1), served by default in kube-apiserver 1.36
(feature gate MutatingAdmissionPolicy GA and on, k8s.io/apiserver pkg/features/kube_features.go), as a
stage of the admission chain: k8s.io/apiserver pkg/admission/plugin/policy/mutating (plugin.go,
dispatcher.go, reinvocationcontext.go) over generic/policy_dispatcher.go.

For a CREATE, UPDATE or CONNECT (a DELETE has no object to mutate), every policy with a binding, in
the order of the inputs: matchConstraints, then each binding's matchResources, its params
(paramKind/paramRef as the validating plugin collects them), the matchConditions, and the
mutations in order, each result defaulted again (the dispatcher's ObjectDefaulter). A policy that
changed the object makes the chain run once more; on that round only the IfNeeded policies invoked
before run again, and only when the object changed since. A mutation that fails is a policy error:
under failurePolicy Fail the request is refused with the first one (`policy 'P' with binding 'B'
denied request: ...`), under Ignore it is dropped.

A JSONPatch is applied to the object as the JSON serializer writes it and read back by a strict
serializer (patch/json_patch.go: `jsonSerializer.Decode` with `Strict: true`): `attributes.decode(...,
strict=True)`, a built-in object decoded into its Go type by apis.codec as a webhook's patch is, but
with an unknown field refused too. A decoding error is apierrors.NewInternalError, a StatusError the
dispatcher answers at once whatever the failurePolicy (`Internal error occurred: json: cannot
unmarshal ...`, `Internal error occurred: strict decoding error: unknown field "data.x"`).

An ApplyConfiguration is merged by the kind's published types (patch/typeconverter.go reads
/openapi/v3 for every kind): a custom resource's from its CRD version's structural schema, a built-in
kind's from its Go types' list, map and struct types (crdtool.admission.policy.smd). A built-in
object's merged result is converted back into its Go type before it is defaulted (dispatchOne's
ConvertToVersion of the Unstructured); a custom resource's stays unstructured.

What crdtool cannot apply (an ApplyConfiguration of a kind it has no types for, such as a custom
resource without a structural schema; a merged built-in object its Go type does not take back; the
mutations of a policy matching another version of the resource; an expression its CEL rewrite
cannot reproduce) is a note: the object checked afterwards is the object without that mutation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.admission import CONFIGURATION_GROUP
from crdtool.admission.chain import Attributes, DecodeError, Inputs, Status, Verdict, forbidden_details
from crdtool.admission.policy.dispatcher import PolicySet, _activation, _exempt, _namespace_labels
from crdtool.admission.policy.matching import NamespaceUnknown, SelectorError, match_resources
from crdtool.admission.policy.model import Binding, Policy, default_binding, default_policy
from crdtool.admission.policy.patchers import MutationError, Mutator, Unsupported, compile_mutator
from crdtool.admission.policy.smd import Types, types_for_builtin, types_for_custom_resource
from crdtool.admission.policy.stage import policy_set
from crdtool.model.gofmt import go_quote
from crdtool.model.jsonvalue import deep_equal, json_copy

__all__ = ["PLUGIN", "MutatingPolicyStage", "build_mutating"]

PLUGIN = "MutatingAdmissionPolicy"
_V1 = f"{CONFIGURATION_GROUP}/v1"
_OPERATIONS = ("CREATE", "UPDATE", "CONNECT")


@dataclass
class _Reinvocation:
    """policyReinvokeContext: the object after this plugin last ran, the IfNeeded invocations run so
    far, and those to run again on the second round."""

    last_output: Any = None
    previously_invoked: set[tuple[str, str, str, str]] = field(default_factory=set)
    reinvoke: set[tuple[str, str, str, str]] = field(default_factory=set)

    def require_reinvoking(self) -> None:
        self.reinvoke |= self.previously_invoked
        self.previously_invoked = set()


class _Refused(Exception):
    """A StatusError of one mutation (a patched object the serializer refuses): the dispatcher answers
    it at once, whatever the policy's failurePolicy."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.message)
        self.status = status


@dataclass
class _PolicyError:
    policy: Policy
    binding: Binding | None
    message: str
    reason: str = ""


class MutatingPolicyStage:
    """admission.MutationInterface of the MutatingAdmissionPolicy plugin."""

    def __init__(self, policies: list[Policy], bindings: list[Binding], params: PolicySet) -> None:
        self.policies, self.bindings, self.params = policies, bindings, params
        self._compiled: dict[int, Mutator] = {}

    def mutator(self, policy: Policy) -> Mutator:
        found = self._compiled.get(id(policy))
        if found is None:
            found = self._compiled[id(policy)] = compile_mutator(policy)
        return found

    def admit(self, attributes: Attributes) -> Verdict:
        verdict = Verdict()
        if attributes.operation not in _OPERATIONS or _exempt(attributes):
            return verdict
        state = attributes.reinvocation.values.setdefault(PLUGIN, _Reinvocation())
        assert isinstance(state, _Reinvocation)
        if attributes.reinvocation.is_reinvoke and not deep_equal(state.last_output, attributes.object):
            state.require_reinvoking()
        errors: list[_PolicyError] = []
        labels = _namespace_labels(attributes)
        try:
            for policy in self.policies:
                bindings = [b for b in self.bindings if b.policy_name == policy.name]
                if bindings:
                    self._policy(policy, bindings, attributes, labels, state, verdict, errors)
        except _Refused as refused:
            verdict.status = refused.status
            return verdict
        state.last_output = json_copy(attributes.object)
        kept = [e for e in errors if e.policy.failure_policy != "Ignore"]
        if kept:
            verdict.status = _status(kept, attributes)
        return verdict

    def _policy(self, policy: Policy, bindings: list[Binding], attributes: Attributes,
                labels: dict[str, Any] | None, state: _Reinvocation, verdict: Verdict,
                errors: list[_PolicyError]) -> None:
        """DefinitionMatches, then every binding that matches, with its params."""
        try:
            match = match_resources(policy.spec.get("matchConstraints") or {}, attributes, labels)
        except NamespaceUnknown as err:
            verdict.notes.append(_note(policy, None, _namespace_unknown(str(err))))
            return
        except SelectorError as err:
            errors.append(_PolicyError(policy, None, f"failed to configure policy: {err}"))
            return
        if match is None:
            return
        config_error, unknown = self.params._configuration_error(policy)
        if unknown:
            verdict.notes.append(_note(policy, None, unknown.split(": ", 2)[-1]))
            return
        if config_error:
            errors.append(_PolicyError(policy, None, f"failed to configure policy: {config_error}"))
            return
        for binding in bindings:
            resources = binding.spec.get("matchResources")
            try:
                if isinstance(resources, dict) and match_resources(resources, attributes, labels) is None:
                    continue
            except NamespaceUnknown as err:
                verdict.notes.append(_note(policy, binding, _namespace_unknown(str(err))))
                continue
            except SelectorError as err:
                errors.append(_PolicyError(policy, binding, f"failed to configure binding: {err}"))
                continue
            try:
                params = self.params._collect_params(policy, binding, attributes.namespace)
            except ValueError as err:
                errors.append(_PolicyError(policy, binding, f"failed to configure binding: {err}"))
                continue
            if not params:
                verdict.notes.append(_note(policy, binding, "no params among the inputs match its paramRef "
                                                            "(parameterNotFoundAction Allow: the apiserver mutates "
                                                            "nothing without params; give the params to check it)"))
            if match.version != attributes.resource.version:
                if params:
                    verdict.notes.append(_note(policy, binding, f"it matches the request as version {match.version}, "
                                                                "to which crdtool does not convert the object"))
                continue
            for param in params:
                self._invoke(policy, binding, match, param, attributes, state, verdict, errors)

    def _invoke(self, policy: Policy, binding: Binding, match: Any, param: dict[str, Any] | None,
                attributes: Attributes, state: _Reinvocation, verdict: Verdict, errors: list[_PolicyError]) -> None:
        """One policy, binding and param: the matchConditions, then the mutations in order."""
        mutator = self.mutator(policy)
        activation = _activation(attributes, match, (attributes.object, attributes.old_object), param)
        notes: list[str] = []
        decision, matches = mutator.matches(activation, notes)
        verdict.notes.extend(_note(policy, binding, n) for n in notes)
        if decision is not None and decision.unsupported:
            verdict.notes.append(_note(policy, binding, decision.unsupported))
            return
        if decision is not None:
            errors.append(_PolicyError(policy, binding, decision.message, "Invalid"))
            return
        if not matches:
            return
        key = (policy.name, binding.name, *_param_key(param))
        if attributes.reinvocation.is_reinvoke and key not in state.reinvoke:
            return
        before = attributes.object
        for index in range(len(mutator.mutations)):
            patch_type = mutator.mutations[index].patch_type
            types = _types(attributes) if patch_type == "ApplyConfiguration" else None
            if patch_type == "ApplyConfiguration" and types is None:
                verdict.notes.append(_note(policy, binding, f"its mutation {index} is an ApplyConfiguration, which "
                                           "crdtool merges by a built-in kind's types or a custom resource's "
                                           "structural schema, and it has neither for this kind"))
                continue
            activation = _activation(attributes, match, (attributes.object, attributes.old_object), param)
            notes = []
            try:
                patched = mutator.apply(index, attributes.object, activation, notes, types)
                if patched is not attributes.object and patch_type == "ApplyConfiguration" \
                        and attributes.schema is None:
                    patched = _convert_back(patched, attributes)
            except Unsupported as err:
                notes.append(str(err))
                continue
            except MutationError as err:
                errors.append(_PolicyError(policy, binding, str(err), "Invalid"))
                continue
            finally:
                verdict.notes.extend(_note(policy, binding, n) for n in notes)
            if patched is not attributes.object:
                if patch_type == "JSONPatch":
                    patched = _decode(patched, attributes)
                attributes.default(patched)
                attributes.object = patched
        if not deep_equal(before, attributes.object):
            state.require_reinvoking()
            attributes.reinvocation.request()
            verdict.changed = True
        if policy.spec.get("reinvocationPolicy") == "IfNeeded":
            state.previously_invoked.add(key)


def _types(attributes: Attributes) -> Types | None:
    """The types an ApplyConfiguration of the request's kind merges by (None: crdtool has none)."""
    resource = attributes.resource
    if attributes.schema is not None:
        return types_for_custom_resource(resource.group, resource.version, resource.kind, attributes.schema)
    return types_for_builtin(resource.group, resource.version, resource.kind)


def _convert_back(merged: Any, attributes: Attributes) -> Any:
    """A built-in object's merged Unstructured in its Go type: the scheme's ConvertToVersion, whose
    runtime.DefaultUnstructuredConverter fills the type by reflection, where the JSON decoder reads the
    same values into the same object. A value a type's own UnmarshalJSON refuses (a malformed quantity
    or time) fails both with that method's error, which the scheme wraps (unstructuredToTyped): a
    MutationError. A number the field's Go type does not hold fails the two differently (the converter
    says `cannot convert float64 to int32` of a fraction and wraps an integer too large), which crdtool
    does not reproduce: Unsupported."""
    try:
        return attributes.decode(merged, strict=False)
    except DecodeError as err:
        if str(err).startswith("json: "):
            raise Unsupported(f"the object its ApplyConfiguration merged does not convert back to its Go type "
                              f"(the JSON decoder says: {err}), whose error crdtool does not reproduce") from None
        resource = attributes.resource
        group_version = f"{resource.group}/{resource.version}"
        raise MutationError(f"unable to convert unstructured object to {group_version}, Kind={resource.kind}: "
                            f"{err}") from None


def _decode(patched: Any, attributes: Attributes) -> Any:
    """The patched JSON read back by json_patch.go's strict serializer; its error is the 500."""
    from crdtool.admission.webhooks import internal_error

    try:
        return attributes.decode(patched, strict=True)
    except DecodeError as err:
        raise _Refused(internal_error(str(err))) from None


def _param_key(param: dict[str, Any] | None) -> tuple[str, str]:
    meta = param.get("metadata") if isinstance(param, dict) else None
    if not isinstance(meta, dict):
        return "", ""
    return str(meta.get("name") or ""), str(meta.get("namespace") or "")


def _namespace_unknown(namespace: str) -> str:
    return f"its namespaceSelector needs the labels of namespace {go_quote(namespace)}, which is not among the inputs"


def _note(policy: Policy, binding: Binding | None, why: str) -> str:
    which = f"MutatingAdmissionPolicy '{policy.name}'" + (f" with binding '{binding.name}'" if binding else "")
    return f"not checked: {which}: {why}"


def _status(errors: list[_PolicyError], attributes: Attributes) -> Status:
    """policy_dispatcher.go's refusal: admission.NewForbidden with the first error's PolicyError text
    as the whole message, its reason when it has one, and every error's text as a cause (what
    kubectl prints for an Invalid reason)."""
    messages = [_error_text(e) for e in errors]
    name = attributes.name or _object_name(attributes.object)
    details = forbidden_details(attributes, name)
    details["causes"] = [{"message": m} for m in messages]
    return Status(messages[0], errors[0].reason or "Forbidden", 403, details)


def _error_text(error: _PolicyError) -> str:
    if error.binding is not None:
        return f"policy '{error.policy.name}' with binding '{error.binding.name}' denied request: {error.message}"
    return f"policy {go_quote(error.policy.name)} denied request: {error.message}"


def _object_name(obj: Any) -> str:
    """extractResourceName's fallbacks: the object's name or generateName, else Unknown."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict):
        return str(meta.get("name") or meta.get("generateName") or "Unknown")
    return "Unknown"


def build_mutating(inputs: Inputs) -> list[MutatingPolicyStage]:
    """The stage when the inputs bind a MutatingAdmissionPolicy (none otherwise)."""
    documents = list(inputs.documents)
    policies = [default_policy(d.data, d.source) for d in documents
                if d.api_version == _V1 and d.kind == "MutatingAdmissionPolicy" and isinstance(d.data, dict)]
    bindings = [default_binding(d.data, d.source) for d in documents
                if d.api_version == _V1 and d.kind == "MutatingAdmissionPolicyBinding" and isinstance(d.data, dict)]
    if not any(b.policy_name == p.name for p in policies for b in bindings):
        return []
    return [MutatingPolicyStage(policies, bindings, policy_set(documents))]
