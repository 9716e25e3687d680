"""What the apiserver refuses when a ValidatingWebhookConfiguration or MutatingWebhookConfiguration is
created or updated: kubernetes pkg/apis/admissionregistration/validation/validation.go
(ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration and their Update
variants), with k8s.io/apiserver pkg/util/webhook's URL and service checks, apimachinery's
IsFullyQualifiedName and ValidateLabelSelector.

The configuration arrives decoded and defaulted (apis.admissionregistration.defaults: failurePolicy,
matchPolicy, both selectors, timeoutSeconds, reinvocationPolicy, rule scope, service port), and its
metadata is checked by the built-in kinds' handler, so what is left is each webhook in order, then
its admissionReviewVersions, then whether its name repeats an earlier one.

An update is checked with what the stored configuration already allowed (the apiserver's
ratcheting): side effects other than None/NoneOnDryRun when one of the stored webhooks had them,
admissionReviewVersions of which none is known when a stored webhook had such, repeated webhook
names when the stored ones repeated, label values a selector may not hold when a stored selector
held one; matchConditions are not compiled again when no webhook's changed.

matchConditions compile in the environment the webhook's matcher uses at run time
(crdtool.admission.conditions: the typed admission environment, no params), with
validateMatchConditions' checks (crdtool.admission.policy.validation). The apiserver compiles an
unchanged expression of an update in its stored-expressions environment, which may know library
functions newer than the one for new expressions; crdtool has the one environment for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdtool.apis.validation import KindValidation
from crdtool.model.errors import FieldError, TypedString
from crdtool.model.path import Path
from crdtool.schema.apimachinery.labelselector import validate_label_selector
from crdtool.schema.apimachinery.names import is_dns1035_label, is_dns1123_subdomain
from crdtool.schema.crd.conversion import validate_webhook_service, validate_webhook_url

__all__ = ["VALIDATORS", "validate_configuration", "validate_configuration_update"]

#: AcceptedAdmissionReviewVersions: what the previous apiserver release understands.
ACCEPTED_ADMISSION_REVIEW_VERSIONS = ("v1", "v1beta1")
#: The sets' List() orders (sorted), as NotSupported and the Required texts print them.
_FAILURE_POLICIES = ("Fail", "Ignore")
_MATCH_POLICIES = ("Equivalent", "Exact")
_NO_SIDE_EFFECTS = ("None", "NoneOnDryRun")
_SIDE_EFFECTS = ("None", "NoneOnDryRun", "Some", "Unknown")
_REINVOCATION_POLICIES = ("IfNeeded", "Never")
MAX_TIMEOUT_SECONDS = 30
MUTATING = "MutatingWebhookConfiguration"


@dataclass(frozen=True)
class Options:
    """validationOptions of a webhook configuration: as created, everything is required; an update
    keeps what the stored configuration already had (see the module's docstring)."""

    ignore_match_conditions: bool = False
    side_effects: tuple[str, ...] = _NO_SIDE_EFFECTS
    recognized_versions: bool = True
    unique_names: bool = True
    invalid_label_values: bool = False

    @classmethod
    def for_update(cls, new: dict[str, Any], old: dict[str, Any]) -> Options:
        """Validate{Validating,Mutating}WebhookConfigurationUpdate's options."""
        old_hooks, new_hooks = _webhooks(old), _webhooks(new)
        names = [str(h.get("name") or "") for h in old_hooks]
        return cls(
            ignore_match_conditions=len(old_hooks) == len(new_hooks) and all(
                _same(n.get("matchConditions"), o.get("matchConditions"))
                for n, o in zip(new_hooks, old_hooks, strict=True)),
            side_effects=_NO_SIDE_EFFECTS if all(h.get("sideEffects") in _NO_SIDE_EFFECTS for h in old_hooks)
            else _SIDE_EFFECTS,
            recognized_versions=all(_has_accepted_version(h) for h in old_hooks),
            unique_names=len(set(names)) == len(names),
            invalid_label_values=any(validate_label_selector(h.get(key), Path.root(key))
                                     for h in old_hooks for key in ("namespaceSelector", "objectSelector")))


def validate_configuration(obj: dict[str, Any], kind: str, opts: Options = Options()) -> list[FieldError]:
    """validate{Validating,Mutating}WebhookConfiguration beyond the metadata: each webhook, its
    admissionReviewVersions, and unique names."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, hook in enumerate(_webhooks(obj)):
        at = Path.root("webhooks").index(i)
        errs += _webhook(hook, kind == MUTATING, opts, at)
        errs += _admission_review_versions(hook.get("admissionReviewVersions"), opts.recognized_versions,
                                           at.child("admissionReviewVersions"))
        name = str(hook.get("name") or "")
        if opts.unique_names and name:
            if name in seen:
                errs.append(FieldError.duplicate(at.child("name"), name))
            seen.add(name)
    return errs


def validate_configuration_update(new: dict[str, Any], old: dict[str, Any], kind: str) -> list[FieldError]:
    """Validate{Validating,Mutating}WebhookConfigurationUpdate beyond ValidateObjectMetaUpdate."""
    return validate_configuration(new, kind, Options.for_update(new, old))


def _webhooks(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The configuration's webhooks (a null entry decodes to Go's zero webhook)."""
    hooks = obj.get("webhooks")
    return [h if isinstance(h, dict) else {} for h in hooks] if isinstance(hooks, list) else []


def _same(a: Any, b: Any) -> bool:
    """reflect.DeepEqual of two decoded values (a nil list is not an empty one)."""
    from crdtool.model.jsonvalue import deep_equal

    return (a is None) == (b is None) and deep_equal(a, b)


def _has_accepted_version(hook: dict[str, Any]) -> bool:
    """{mutating,validating}HasAcceptedAdmissionReviewVersions for one webhook: none listed, or one known."""
    versions = _strings(hook.get("admissionReviewVersions"))
    return not versions or any(v in ACCEPTED_ADMISSION_REVIEW_VERSIONS for v in versions)


def _strings(value: Any) -> list[str]:
    return [str(v) if v is not None else "" for v in value] if isinstance(value, list) else []


def _webhook(hook: dict[str, Any], mutating: bool, opts: Options, path: Path) -> list[FieldError]:
    """validate{Validating,Mutating}Webhook, in its order."""
    from crdtool.admission.policy.validation import validate_rule_with_operations

    errs = _fully_qualified_name(str(hook.get("name") or ""), path.child("name"))
    for i, rule in enumerate(hook.get("rules") or []):
        errs += validate_rule_with_operations(rule if isinstance(rule, dict) else {}, path.child("rules").index(i))
    errs += _one_of(hook, "failurePolicy", _FAILURE_POLICIES, path)
    errs += _one_of(hook, "matchPolicy", _MATCH_POLICIES, path)
    side_effects = hook.get("sideEffects")
    if side_effects is None:
        errs.append(FieldError.required(path.child("sideEffects"),
                                        "must specify one of " + ", ".join(opts.side_effects)))
    else:
        errs += _one_of(hook, "sideEffects", opts.side_effects, path)
    timeout = hook.get("timeoutSeconds")
    if isinstance(timeout, int) and not 1 <= timeout <= MAX_TIMEOUT_SECONDS:
        errs.append(FieldError.invalid(path.child("timeoutSeconds"), timeout,
                                       f"the timeout value must be between 1 and {MAX_TIMEOUT_SECONDS} seconds"))
    for key in ("namespaceSelector", "objectSelector"):
        errs += validate_label_selector(hook.get(key), path.child(key), opts.invalid_label_values)
    if mutating:
        errs += _one_of(hook, "reinvocationPolicy", _REINVOCATION_POLICIES, path)
    errs += _client_config(hook.get("clientConfig") or {}, path.child("clientConfig"))
    if not opts.ignore_match_conditions:
        errs += _match_conditions(hook.get("matchConditions"), path.child("matchConditions"))
    return errs


def _fully_qualified_name(name: str, path: Path) -> list[FieldError]:
    """utilvalidation.IsFullyQualifiedName: a DNS-1123 subdomain of at least three labels."""
    if not name:
        return [FieldError.required(path)]
    messages = is_dns1123_subdomain(name)
    if messages:
        return [FieldError.invalid(path, name, ",".join(messages))]
    if len(name.split(".")) < 3:
        return [FieldError.invalid(path, name, "should be a domain with at least three segments separated by dots")]
    return []


def _one_of(hook: dict[str, Any], key: str, supported: tuple[str, ...], path: Path) -> list[FieldError]:
    """A set enum field (a named string type: its bad value printed as JSON) not among `supported`."""
    value = hook.get(key)
    if value is None or value in supported:
        return []
    return [FieldError.not_supported(path.child(key), TypedString(str(value)), supported)]


def _client_config(config: dict[str, Any], path: Path) -> list[FieldError]:
    """Exactly one of url (https, a host, no user, fragment or query) and service. The apiserver hands
    the service's name to ValidateWebhookService as its namespace and the namespace as its name, so a
    missing name is reported on `service.namespace` and a missing namespace on `service.name`."""
    url, service = config.get("url"), config.get("service")
    if (url is None) == (service is None):
        return [FieldError.required(path, "exactly one of url or service is required")]
    if not isinstance(service, dict):
        return validate_webhook_url(path.child("url"), str(url), force_https=True)
    port = service.get("port")
    return validate_webhook_service(path.child("service"), str(service.get("name") or ""),
                                    str(service.get("namespace") or ""), service.get("path"),
                                    443 if port is None else port)


def _match_conditions(conditions: Any, path: Path) -> list[FieldError]:
    """validateMatchConditions with the compiler webhooks' matchConditions run with."""
    from crdtool.admission.conditions import compile_condition
    from crdtool.admission.policy.validation import validate_match_conditions

    if not isinstance(conditions, list):
        return []
    return validate_match_conditions([c if isinstance(c, dict) else {} for c in conditions], compile_condition, path)


def _admission_review_versions(versions: Any, require_recognized: bool, path: Path) -> list[FieldError]:
    """validateAdmissionReviewVersions: at least one, no duplicates, DNS-1035 labels, and (unless the
    stored configuration had none) one the apiserver knows."""
    listed = _strings(versions)
    accepted = ", ".join(ACCEPTED_ADMISSION_REVIEW_VERSIONS)
    if not listed:
        return [FieldError.required(path, f"must specify one of {accepted}")]
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, version in enumerate(listed):
        if version in seen:
            errs.append(FieldError.invalid(path.index(i), version, "duplicate version"))
            continue
        seen.add(version)
        errs += [FieldError.invalid(path.index(i), version, m) for m in is_dns1035_label(version)]
    if require_recognized and not any(v in ACCEPTED_ADMISSION_REVIEW_VERSIONS for v in listed):
        errs.append(FieldError.invalid(path, listed, f"must include at least one of {accepted}"))
    return errs


def _kind_validation(kind: str) -> KindValidation:
    return KindValidation(lambda obj: validate_configuration(obj, kind),
                          lambda new, old: validate_configuration_update(new, old, kind))


VALIDATORS = {kind: _kind_validation(kind) for kind in ("ValidatingWebhookConfiguration", MUTATING)}
