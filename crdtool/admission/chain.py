"""The admission chain: kube-apiserver 1.36's admission plugins, run in its order on one request.

What the apiserver does (k8s.io/apiserver pkg/admission: chain.go, reinvocation.go; the plugin
order of kubernetes pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins): every mutating
plugin in order (MutatingAdmissionPolicy, then MutatingAdmissionWebhook), the first refusal ending
the request; if a plugin asked for it (a later mutation changed what an IfNeeded webhook or policy
saw), the mutating plugins once more, as a reinvocation; later, after the strategy's validation,
every validating plugin in order (ValidatingAdmissionPolicy, then ValidatingAdmissionWebhook), the
first refusal ending the request. Warnings and audit annotations of every plugin are kept.

How a plugin plugs in:

* Write a module of `crdtool.admission` with a builder `build(inputs: Inputs) -> list[Stage]`:
  from the admission documents and options of the run (`Inputs`), the stages it adds (none when
  nothing among the inputs configures it). A stage is a `MutatingStage` (its `admit(attributes)`
  may replace `attributes.object`, and says so in `Verdict.changed`) or a `ValidatingStage`
  (`validate(attributes)`); both answer a `Verdict`: the refusal as the apiserver's `Status`, the
  warnings, audit annotations, and crdtool's own notes (what it could not check, always shown).
* Add its line to `PLUGINS` at its place in the apiserver's order.
* A mutating stage that honours reinvocation keeps its own state in
  `attributes.reinvocation.values[plugin name]`, reads `attributes.reinvocation.is_reinvoke`, and
  calls `attributes.reinvocation.request()` when its mutation must make earlier stages run again.
* A mutated object is read back with `attributes.decode(value)` (the kind's codec: a custom
  resource's unstructured decoding, a built-in kind's Go type, DecodeError when it refuses it;
  `strict=True` for a serializer that refuses unknown fields, as a mutating policy's JSONPatch has), then
  `attributes.default(object)`: the apiserver's object defaulter for the kind (a custom resource's
  structural defaults, a built-in kind's SetObjectDefaults), as the webhook dispatcher does.
* The object in another served version (matchPolicy Equivalent) is `attributes.convert(object,
  version)`: the kind's converter (a CRD's None strategy or conversion webhook); ConversionError
  when the apiserver's conversion fails, None when crdtool cannot convert.

Engine side: `build_chain(inputs)` once per run; `Chain.admit` after decoding and defaulting, then the
schema validation, then `Chain.validate` (engine.run places it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal, Protocol

from crdtool.admission import configures_admission
from crdtool.load.document import Document

__all__ = ["PLUGINS", "Attributes", "Chain", "ConversionError", "DecodeError", "Inputs", "MutatingStage",
           "ObjectDecoder",
           "Reinvocation", "Status", "ValidatingStage", "Verdict", "build_chain", "decode_unstructured"]

#: The admission plugins crdtool reproduces, in kube-apiserver 1.36's order (AllOrderedPlugins), each
#: with its builder as "module:function".
PLUGINS: tuple[tuple[str, str], ...] = (
    ("MutatingAdmissionPolicy", "crdtool.admission.policy.mutating:build_mutating"),
    ("MutatingAdmissionWebhook", "crdtool.admission.webhooks:build_mutating"),
    ("ValidatingAdmissionPolicy", "crdtool.admission.policy.stage:build_validating"),
    ("ValidatingAdmissionWebhook", "crdtool.admission.webhooks:build_validating"),
)

Operation = Literal["CREATE", "UPDATE", "DELETE", "CONNECT"]
#: A decoded JSON object.
JSONObject = dict[str, Any]


class DecodeError(Exception):
    """The codec refused a mutated object: the text is the decoder's error."""


class ConversionError(Exception):
    """The object's conversion to another version failed in the apiserver: the text is the converter's error."""


class ObjectDecoder(Protocol):
    """The kind's decoding of a mutated object: the object, or DecodeError with the decoder's error."""

    def __call__(self, value: Any, strict: bool = False) -> JSONObject: ...


def decode_unstructured(value: Any, strict: bool = False) -> JSONObject:
    """A mutated custom resource as the apiserver's JSON serializer decodes it into an Unstructured: an
    object with a kind (runtime.NewMissingKindErr otherwise). Strict decoding of an Unstructured
    refuses only repeated keys, which decoded data cannot have."""
    from crdtool.model.gofmt import go_json

    if not isinstance(value, dict) or not isinstance(value.get("kind"), str) or not value["kind"]:
        raise DecodeError(f"Object 'Kind' is missing in '{go_json(value)}'")
    return value


@dataclass(frozen=True)
class Status:
    """A refusal as the apiserver's metav1.Status: its message, reason ("" when the plugin gave none:
    kubectl then prints `Error from server: ...`) and HTTP code."""

    message: str
    reason: str
    code: int
    #: metav1.StatusDetails as JSON (name, group, kind, causes), which kubectl prints for an Invalid
    #: answer instead of the message; None when the status has none.
    details: dict[str, Any] | None = None


def forbidden_details(attributes: Attributes, name: str, message: str | None = None) -> dict[str, Any]:
    """admission.NewForbidden's details: the resource (not the kind) as `kind`, and the one cause a
    ValidatingAdmissionPolicy's denial appends (its message, no field)."""
    details: dict[str, Any] = {"name": name, "group": attributes.resource.group, "kind": attributes.resource.resource}
    if message is not None:
        details["causes"] = [{"message": message}]
    return details


@dataclass
class Reinvocation:
    """admission.ReinvocationContext: whether this is the second round, whether one is wanted, and
    each plugin's own state by plugin name."""

    is_reinvoke: bool = False
    should_reinvoke: bool = False
    values: dict[str, Any] = field(default_factory=dict)

    def request(self) -> None:
        """A mutation that plugins run earlier must see: run the mutating chain once more."""
        self.should_reinvoke = True


@dataclass(frozen=True)
class Resource:
    """The request's kind and resource as admission sees them (GroupVersionKind/Resource)."""

    group: str
    version: str
    kind: str
    resource: str
    subresource: str = ""
    namespaced: bool = True


@dataclass
class Attributes:
    """admission.Attributes of one request: a create (or an update over `old_object`), always a dry run.

    `object` is the object as admission sees it (decoded, defaulted; a built-in object as json.Marshal
    writes its Go type, as webhooks and CEL get it); mutating stages replace it. `equivalents` are the
    other served versions of the same resource (matchPolicy Equivalent): the stage gets the object
    converted to one of them with `convert(object, version)`.
    """

    operation: Operation
    object: JSONObject
    old_object: JSONObject | None
    resource: Resource
    name: str
    namespace: str
    user_info: JSONObject = field(default_factory=lambda: {"username": "crdtool",
                                                     "groups": ["system:authenticated"]})
    dry_run: bool = True
    #: The Namespace object of `namespace` when the inputs have it (namespaceSelector, CEL's namespaceObject).
    namespace_object: JSONObject | None = None
    #: The other versions the resource is served in: (version, kind) pairs.
    equivalents: tuple[tuple[str, str], ...] = ()
    #: The object's kind's defaulter (runtime.ObjectDefaulter), applied in place after a mutation.
    default: Callable[[JSONObject], None] = lambda obj: None
    #: The kind's decoding of a mutated object (the webhook dispatcher's jsonSerializer.Decode): the
    #: object admission goes on with, or DecodeError.
    decode: ObjectDecoder = decode_unstructured
    #: The object in another served version (the CRD's conversion), or None when crdtool cannot convert;
    #: ConversionError when the apiserver's conversion fails.
    convert: Callable[[JSONObject, str], JSONObject | None] = lambda obj, version: None
    reinvocation: Reinvocation = field(default_factory=Reinvocation)
    #: The structural schema of a custom resource's version (None for other kinds): what a mutating
    #: policy's patched object is decoded and merged by.
    schema: Any = None


@dataclass
class Verdict:
    """A stage's (or the chain's) answer: the refusal (None: admitted), the warnings, the audit
    annotations, whether the object changed, and crdtool's own notes on what it could not check."""

    status: Status | None = None
    warnings: list[str] = field(default_factory=list)
    audit_annotations: dict[str, str] = field(default_factory=dict)
    changed: bool = False
    notes: list[str] = field(default_factory=list)

    def add(self, other: Verdict) -> None:
        """`other`'s findings after this one's (its refusal, if this has none yet)."""
        self.status = self.status or other.status
        self.warnings.extend(other.warnings)
        self.audit_annotations.update(other.audit_annotations)
        self.changed = self.changed or other.changed
        self.notes.extend(n for n in other.notes if n not in self.notes)


class MutatingStage(Protocol):
    """A mutating admission plugin (admission.MutationInterface)."""

    def admit(self, attributes: Attributes) -> Verdict: ...


class ValidatingStage(Protocol):
    """A validating admission plugin (admission.ValidationInterface)."""

    def validate(self, attributes: Attributes) -> Verdict: ...


@dataclass(frozen=True)
class Inputs:
    """What a run gives admission: the documents that may configure it (the inputs' and
    `--admission`'s: configurations, policies, bindings, params, Namespaces), and the options."""

    documents: Sequence[Document] = ()
    #: `--webhook-service`: (namespace, name, port, path) of a service reference -> the local URL.
    #: A port or path left out (None) matches any.
    webhook_services: dict[tuple[str, str, int | None, str | None], str] = field(default_factory=dict)
    #: `--ca-bundle`: the PEM that verifies every webhook's certificate instead of its caBundle.
    ca_bundle: bytes | None = None
    #: `--namespace-labels`: a namespace's labels when no Namespace object among the inputs gives them.
    namespace_labels: dict[str, dict[str, str]] = field(default_factory=dict)

    def namespace_object(self, name: str) -> JSONObject | None:
        """The Namespace `name` as the apiserver would have it: the inputs' Namespace object, else one
        with the --namespace-labels (and the label the apiserver sets on every namespace), else None."""
        for doc in self.documents:
            if doc.kind == "Namespace" and doc.api_version == "v1" and doc.name == name and isinstance(doc.data, dict):
                return doc.data
        if name not in self.namespace_labels:
            return None
        labels = {"kubernetes.io/metadata.name": name, **self.namespace_labels[name]}
        return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


@dataclass
class Chain:
    """The run's admission plugins, mutating and validating, in the apiserver's order."""

    mutating: list[MutatingStage] = field(default_factory=list)
    validating: list[ValidatingStage] = field(default_factory=list)
    #: What the stages were built from (the namespaces a request's attributes name are found there).
    inputs: Inputs = field(default_factory=Inputs)
    #: The kinds' converters (matchPolicy Equivalent), made once per run when first needed, by CRD name.
    converters: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.mutating or self.validating)

    def admit(self, attributes: Attributes) -> Verdict:
        """The mutating plugins, and a second round when one asked for it (admission's reinvoker)."""
        verdict = self._admit_once(attributes)
        if verdict.status is None and attributes.reinvocation.should_reinvoke:
            attributes.reinvocation.is_reinvoke = True
            verdict.add(self._admit_once(attributes))
        return verdict

    def _admit_once(self, attributes: Attributes) -> Verdict:
        verdict = Verdict()
        for stage in self.mutating:
            verdict.add(stage.admit(attributes))
            if verdict.status is not None:
                break
        return verdict

    def validate(self, attributes: Attributes) -> Verdict:
        """The validating plugins, until the first refusal."""
        verdict = Verdict()
        for stage in self.validating:
            verdict.add(stage.validate(attributes))
            if verdict.status is not None:
                break
        return verdict


#: The plugins that do nothing unless the inputs configure admission (admission.configures_admission:
#: their policies, bindings, configurations): without any, their modules (the CEL admission library
#: among them) are not imported.
CONFIGURED_PLUGINS = frozenset({"MutatingAdmissionPolicy", "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy",
                                "ValidatingAdmissionWebhook"})


def build_chain(inputs: Inputs) -> Chain:
    """Every plugin's stages from the run's inputs, in the apiserver's order."""
    chain = Chain(inputs=inputs)
    configured = configures_admission(inputs.documents)
    for name, target in PLUGINS:
        if name in CONFIGURED_PLUGINS and not configured:
            continue
        module, _, function = target.partition(":")
        builder: Callable[[Inputs], list[Any]] = getattr(import_module(module), function)
        for stage in builder(inputs):
            if hasattr(stage, "admit"):
                chain.mutating.append(stage)
            else:
                chain.validating.append(stage)
    return chain
