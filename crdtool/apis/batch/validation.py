"""batch/v1 validation (kubernetes pkg/apis/batch/validation/validation.go, 1.36, with the Job
strategy's selector generation from pkg/registry/batch/job/strategy.go): Job and CronJob.

Objects arrive decoded and defaulted as JSON values; a field absent from the JSON is Go's zero value.
A new Job's selector and template labels are generated from its uid, which the apiserver makes up
at random: crdtool uses the fixed `GENERATED_UID`, so a text that shows the uid shows that one.
"""

from __future__ import annotations

import re
from typing import Any

from crdtool.apis.batch.cron import CronError, load_location_error, parse_standard
from crdtool.apis.core.validation import validate_pod_template_spec
from crdtool.apis.validation import KindValidation
from crdtool.model.errors import OMIT, FieldError, TypedString
from crdtool.model.gofmt import go_quote
from crdtool.model.jsonvalue import deep_equal, json_copy
from crdtool.model.path import Path
from crdtool.model.strconv import atoi
from crdtool.schema.apimachinery import labelselector as ls
from crdtool.schema.apimachinery.generic import validate_nonnegative_field as nonnegative
from crdtool.schema.apimachinery.names import byte_len, is_dns1123_label, is_dns1123_subdomain, is_qualified_name
from crdtool.schema.apimachinery.names import regex_error as _regex_error
from crdtool.schema.apimachinery.objectmeta import FIELD_IMMUTABLE

#: The uid crdtool gives a new Job (the apiserver's is random).
GENERATED_UID = "00000000-0000-4000-8000-000000000000"
_SPEC = Path.root("spec")
_META = Path.root("metadata")
_LEGACY_JOB_NAME, _JOB_NAME = "job-name", "batch.kubernetes.io/job-name"
_LEGACY_CONTROLLER_UID, _CONTROLLER_UID = "controller-uid", "batch.kubernetes.io/controller-uid"
_MAX_PARALLELISM_INDEXED = 100000
_MAX_FAILED_INDEXES = 100_000
_COMPLETIONS_SOFT_LIMIT = 100_000
_PARALLELISM_HIGH_COMPLETIONS = 10_000
_MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000
_MAX_POD_FAILURE_RULES = 20
_MAX_EXIT_CODE_VALUES = 255
_MAX_CONDITION_PATTERNS = 20
_MAX_MANAGED_BY = 63
_MAX_SUCCEEDED_INDEXES = 64 * 1024
_MAX_SUCCESS_RULES = 20
_ACTIONS = ("Count", "FailIndex", "FailJob", "Ignore")
_EXIT_CODE_OPERATORS = ("In", "NotIn")
_CONDITION_STATUSES = ("False", "True", "Unknown")
_REPLACEMENT_POLICIES = ("Failed", "TerminatingOrFailed")
_HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
_HTTP_PATH_RE = re.compile(_HTTP_PATH_FMT)
_TIME_ZONE_PART = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")


def _valid_values(values: tuple[str, ...]) -> str:
    """`fmt.Sprintf("valid values: %q", list)`."""
    return "valid values: [" + " ".join(go_quote(v) for v in values) + "]"


# ---------------------------------------------------------------- JobSpec

def _domain_prefixed_path(value: str, path: Path) -> list[FieldError]:
    """validation.IsDomainPrefixedPath."""
    if not value:
        return [FieldError.required(path)]
    segments = value.split("/", 1)
    if len(segments) != 2 or not segments[0] or not segments[1]:
        return [FieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    host, rest = segments
    errs = [FieldError.invalid(path, host, m) for m in is_dns1123_subdomain(host)]
    if not _HTTP_PATH_RE.fullmatch(rest):
        errs.append(FieldError.invalid(path, rest, _regex_error("Invalid path", _HTTP_PATH_FMT)))
    return errs


def _index_interval(text: str, completions: int) -> tuple[int, int]:
    """parseIndexInterval: `x` or `x-y`, below completions, increasing."""
    limits = text.split("-")
    if len(limits) > 2:
        raise ValueError(f"the fragment {go_quote(text)} violates the requirement that an index interval can have "
                         "at most two parts separated by '-'")
    bounds = []
    for part in limits:
        try:
            n = atoi(part)
        except ValueError:
            raise ValueError(f"cannot convert string to integer for index: {go_quote(part)}") from None
        if n >= completions:
            raise ValueError(f"too large index: {go_quote(part)}")
        bounds.append(n)
    if len(bounds) == 2 and bounds[0] >= bounds[1]:
        raise ValueError(f"non-increasing order, previous: {bounds[0]}, current: {bounds[1]}")
    return bounds[0], bounds[-1]


def _indexes_total(text: str, completions: int) -> int:
    """validateIndexesFormat: the number of indexes of a `1,3-5` list, ValueError with Go's text."""
    if not text:
        return 0
    last, total = None, 0
    for interval in text.split(","):
        x, y = _index_interval(interval, completions)
        if last is not None and last >= x:
            raise ValueError(f"non-increasing order, previous: {last}, current: {x}")
        total += y - x + 1
        last = y
    return total


def _exit_codes(req: dict[str, Any], path: Path, containers: set[str]) -> list[FieldError]:
    """validatePodFailurePolicyRuleOnExitCodes."""
    errs: list[FieldError] = []
    operator = req.get("operator") or ""
    if not operator:
        errs.append(FieldError.required(path.child("operator"), _valid_values(_EXIT_CODE_OPERATORS)))
    elif operator not in _EXIT_CODE_OPERATORS:
        errs.append(FieldError.not_supported(path.child("operator"), TypedString(operator), _EXIT_CODE_OPERATORS))
    name = req.get("containerName")
    if name is not None and name not in containers:
        errs.append(FieldError.invalid(path.child("containerName"), name,
                                       "must be one of the container or initContainer names in the pod template"))
    values = req.get("values") or []
    v_path = path.child("values")
    if not values:
        errs.append(FieldError.invalid(v_path, req.get("values"), "at least one value is required"))
    elif len(values) > _MAX_EXIT_CODE_VALUES:
        errs.append(FieldError.too_many(v_path, len(values), _MAX_EXIT_CODE_VALUES))
    seen: set[int] = set()
    for j, value in enumerate(values):
        if operator == "In" and value == 0:
            errs.append(FieldError.invalid(v_path.index(j), value, "must not be 0 for the In operator"))
        if value in seen:
            errs.append(FieldError.duplicate(v_path.index(j), value))
        seen.add(value)
    if any(a > b for a, b in zip(values, values[1:], strict=False)):
        errs.append(FieldError.invalid(v_path, values, "must be ordered"))
    return errs


def _pod_conditions(patterns: list[Any], path: Path) -> list[FieldError]:
    """validatePodFailurePolicyRuleOnPodConditions."""
    errs: list[FieldError] = []
    if len(patterns) > _MAX_CONDITION_PATTERNS:
        errs.append(FieldError.too_many(path, len(patterns), _MAX_CONDITION_PATTERNS))
    for j, pattern in enumerate(patterns):
        pattern = pattern or {}
        p_path = path.index(j)
        kind = pattern.get("type") or ""
        errs += [FieldError.invalid(p_path.child("type"), kind, m) for m in is_qualified_name(kind)]
        status = pattern.get("status") or ""
        if not status:
            errs.append(FieldError.required(p_path.child("status"), _valid_values(_CONDITION_STATUSES)))
        elif status not in _CONDITION_STATUSES:
            errs.append(FieldError.not_supported(p_path.child("status"), TypedString(status), _CONDITION_STATUSES))
    return errs


def _pod_failure_policy(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePodFailurePolicy and validatePodFailurePolicyRule."""
    rules = (spec.get("podFailurePolicy") or {}).get("rules") or []
    r_path = path.child("rules")
    errs: list[FieldError] = []
    if len(rules) > _MAX_POD_FAILURE_RULES:
        errs.append(FieldError.too_many(r_path, len(rules), _MAX_POD_FAILURE_RULES))
    pod = (spec.get("template") or {}).get("spec") or {}
    containers = {(c or {}).get("name") or "" for c in [*(pod.get("containers") or []),
                                                         *(pod.get("initContainers") or [])]}
    for i, rule in enumerate(rules):
        rule = rule or {}
        path_i = r_path.index(i)
        action = rule.get("action") or ""
        if not action:
            errs.append(FieldError.required(path_i.child("action"), _valid_values(_ACTIONS)))
        elif action == "FailIndex":
            if spec.get("backoffLimitPerIndex") is None:
                errs.append(FieldError.invalid(path_i.child("action"), TypedString(action),
                                               "requires the backoffLimitPerIndex to be set"))
        elif action not in _ACTIONS:
            errs.append(FieldError.not_supported(path_i.child("action"), TypedString(action), _ACTIONS))
        on_exit, on_conditions = rule.get("onExitCodes"), rule.get("onPodConditions") or []
        if on_exit is not None:
            errs += _exit_codes(on_exit, path_i.child("onExitCodes"), containers)
        if on_conditions:
            errs += _pod_conditions(on_conditions, path_i.child("onPodConditions"))
        if on_exit is not None and on_conditions:
            errs.append(FieldError.invalid(path_i, OMIT,
                                           "specifying both OnExitCodes and OnPodConditions is not supported"))
        if on_exit is None and not on_conditions:
            errs.append(FieldError.invalid(path_i, OMIT,
                                           "specifying one of OnExitCodes and OnPodConditions is required"))
    return errs


def _success_policy(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateSuccessPolicy and validateSuccessPolicyRule (an Indexed Job's). Go dereferences
    completions here; without completions (already refused) the rules' bounds are not checked."""
    rules = (spec.get("successPolicy") or {}).get("rules") or []
    r_path = path.child("rules")
    errs: list[FieldError] = []
    if not rules:
        errs.append(FieldError.required(r_path,
                                        "at least one rules must be specified when the successPolicy is specified"))
    if len(rules) > _MAX_SUCCESS_RULES:
        errs.append(FieldError.too_many(r_path, len(rules), _MAX_SUCCESS_RULES))
    completions = spec.get("completions")
    for i, rule in enumerate(rules):
        rule = rule or {}
        path_i = r_path.index(i)
        count, indexes = rule.get("succeededCount"), rule.get("succeededIndexes")
        if count is None and indexes is None:
            errs.append(FieldError.required(path_i,
                                            "at least one of succeededCount or succeededIndexes must be specified"))
        if completions is None:
            continue
        total = 0
        if indexes is not None:
            idx_path = path_i.child("succeededIndexes")
            if byte_len(indexes) > _MAX_SUCCEEDED_INDEXES:
                errs.append(FieldError.too_long(idx_path, _MAX_SUCCEEDED_INDEXES))
            try:
                total = _indexes_total(indexes, completions)
            except ValueError as e:
                errs.append(FieldError.invalid(idx_path, indexes, f"error parsing succeededIndexes: {e}"))
        if count is not None:
            c_path = path_i.child("succeededCount")
            errs += nonnegative(count, c_path)
            if count > completions:
                errs.append(FieldError.invalid(c_path, count, f"must be less than or equal to {completions} "
                                                              "(the number of specified completions)"))
            if indexes is not None and count > total:
                errs.append(FieldError.invalid(c_path, count, f"must be less than or equal to {total} (the number "
                                                              "of indexes in the specified succeededIndexes field)"))
    return errs


def _indexed(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateJobSpec's completionMode rules."""
    errs: list[FieldError] = []
    mode = spec.get("completionMode")
    completions, parallelism = spec.get("completions"), spec.get("parallelism")
    max_failed, per_index = spec.get("maxFailedIndexes"), spec.get("backoffLimitPerIndex")
    if mode is not None:
        if mode not in ("NonIndexed", "Indexed"):
            errs.append(FieldError.not_supported(path.child("completionMode"), TypedString(mode),
                                                 ["NonIndexed", "Indexed"]))
        if mode == "Indexed":
            if completions is None:
                errs.append(FieldError.required(path.child("completions"), "when completion mode is Indexed"))
            if parallelism is not None and parallelism > _MAX_PARALLELISM_INDEXED:
                errs.append(FieldError.invalid(path.child("parallelism"), parallelism,
                                               f"must be less than or equal to {_MAX_PARALLELISM_INDEXED} when "
                                               "completion mode is Indexed"))
            if completions is not None and max_failed is not None and max_failed > completions:
                errs.append(FieldError.invalid(path.child("maxFailedIndexes"), max_failed,
                                               "must be less than or equal to completions"))
            if max_failed is not None and max_failed > _MAX_FAILED_INDEXES:
                errs.append(FieldError.invalid(path.child("maxFailedIndexes"), max_failed,
                                               f"must be less than or equal to {_MAX_FAILED_INDEXES}"))
            if completions is not None and completions > _COMPLETIONS_SOFT_LIMIT and per_index is not None:
                high = f"when completions are above {_COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
                if max_failed is None:
                    errs.append(FieldError.required(path.child("maxFailedIndexes"),
                                                    f"must be specified when completions is above "
                                                    f"{_COMPLETIONS_SOFT_LIMIT}"))
                if parallelism is not None and parallelism > _PARALLELISM_HIGH_COMPLETIONS:
                    errs.append(FieldError.invalid(path.child("parallelism"), parallelism,
                                                   f"must be less than or equal to {_PARALLELISM_HIGH_COMPLETIONS} "
                                                   + high))
                if max_failed is not None and max_failed > _MAX_FAILED_INDEXES_HIGH_COMPLETIONS:
                    errs.append(FieldError.invalid(path.child("maxFailedIndexes"), max_failed,
                                                   f"must be less than or equal to "
                                                   f"{_MAX_FAILED_INDEXES_HIGH_COMPLETIONS} " + high))
    if mode is None or mode == "NonIndexed":
        if per_index is not None:
            errs.append(FieldError.invalid(path.child("backoffLimitPerIndex"), per_index,
                                           "requires indexed completion mode"))
        if max_failed is not None:
            errs.append(FieldError.invalid(path.child("maxFailedIndexes"), max_failed,
                                           "requires indexed completion mode"))
    return errs


def _pod_replacement_policy(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validatePodReplacementPolicy."""
    policy = spec.get("podReplacementPolicy")
    if policy is None:
        return []
    if spec.get("podFailurePolicy") is not None:
        if policy != "Failed":
            return [FieldError.not_supported(path, TypedString(policy), ["Failed"])]
        return []
    if policy not in _REPLACEMENT_POLICIES:
        return [FieldError.not_supported(path, TypedString(policy), _REPLACEMENT_POLICIES)]
    return []


def validate_job_spec_fields(spec: dict[str, Any], path: Path) -> list[FieldError]:
    """validateJobSpec: what a Job and a CronJob's job template share."""
    errs: list[FieldError] = []
    for name in ("parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished",
                 "backoffLimitPerIndex"):
        errs += nonnegative(spec.get(name), path.child(name))
    if spec.get("maxFailedIndexes") is not None:
        errs += nonnegative(spec["maxFailedIndexes"], path.child("maxFailedIndexes"))
        if spec.get("backoffLimitPerIndex") is None:
            errs.append(FieldError.required(path.child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
    managed_by = spec.get("managedBy")
    if managed_by is not None:
        errs += _domain_prefixed_path(managed_by, path.child("managedBy"))
        if byte_len(managed_by) > _MAX_MANAGED_BY:
            errs.append(FieldError.too_long(path.child("managedBy"), _MAX_MANAGED_BY))
    errs += _indexed(spec, path)
    if spec.get("podFailurePolicy") is not None:
        errs += _pod_failure_policy(spec, path.child("podFailurePolicy"))
    if spec.get("successPolicy") is not None:
        if spec.get("completionMode") != "Indexed":
            errs.append(FieldError.invalid(path.child("successPolicy"), spec["successPolicy"],
                                           "requires indexed completion mode"))
        else:
            errs += _success_policy(spec, path.child("successPolicy"))
    errs += _pod_replacement_policy(spec, path.child("podReplacementPolicy"))
    template = spec.get("template") or {}
    errs += validate_pod_template_spec(template, path.child("template"))
    policy = (template.get("spec") or {}).get("restartPolicy") or ""
    p_path = path.child("template", "spec", "restartPolicy")
    if policy in ("Always", ""):
        errs.append(FieldError.required(p_path, 'valid values: "OnFailure", "Never"'))
    elif policy not in ("OnFailure", "Never"):
        errs.append(FieldError.not_supported(p_path, TypedString(policy), ["OnFailure", "Never"]))
    elif spec.get("podFailurePolicy") is not None and policy != "Never":
        errs.append(FieldError.invalid(p_path, TypedString(policy),
                                       'only "Never" is supported when podFailurePolicy is specified'))
    return errs


# ---------------------------------------------------------------- Job

def _template_labels(spec: dict[str, Any]) -> dict[str, Any]:
    return ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}


def generate_selector(job: dict[str, Any]) -> dict[str, Any]:
    """The create strategy's generateSelectorIfNeeded, on a copy: without manualSelector, the job-name and
    controller-uid labels (legacy and prefixed) on the template where absent, and the prefixed
    controller-uid in the selector."""
    job = json_copy(job)
    spec = job.setdefault("spec", {})
    if spec.get("manualSelector"):
        return job
    name = (job.get("metadata") or {}).get("name") or ""
    template = spec.setdefault("template", {})
    meta = template.get("metadata") or {}
    template["metadata"] = meta
    labels = meta.get("labels") or {}
    meta["labels"] = labels
    for key, value in ((_LEGACY_JOB_NAME, name), (_JOB_NAME, name), (_LEGACY_CONTROLLER_UID, GENERATED_UID),
                       (_CONTROLLER_UID, GENERATED_UID)):
        labels.setdefault(key, value)
    selector = spec.get("selector") or {}
    spec["selector"] = selector
    match = selector.get("matchLabels") or {}
    selector["matchLabels"] = match
    match.setdefault(_CONTROLLER_UID, GENERATED_UID)
    return job


def _has_label(labels: dict[str, Any], key: str, expected: str, path: Path) -> list[FieldError]:
    """ValidateHasLabel (core/validation)."""
    if key not in labels:
        return [FieldError.required(path.child("labels").key(key), f"must be '{expected}'")]
    if (labels[key] or "") != expected:
        return [FieldError.invalid(path.child("labels").key(key), labels, f"must be '{expected}'")]
    return []


def _generated_selector(job: dict[str, Any], uid: str, require_prefixed: bool) -> list[FieldError]:
    """validateGeneratedSelector: a generated selector and the template's generated labels must be the
    job's own."""
    spec = job.get("spec") or {}
    if spec.get("manualSelector") or spec.get("selector") is None:
        return []
    name = (job.get("metadata") or {}).get("name") or ""
    labels = _template_labels(spec)
    t_path = _SPEC.child("template", "metadata")
    errs = [] if uid else [FieldError.required(_META.child("uid"))]
    errs += _has_label(labels, _LEGACY_CONTROLLER_UID, uid, t_path)
    errs += _has_label(labels, _LEGACY_JOB_NAME, name, t_path)
    expected = {_LEGACY_CONTROLLER_UID: uid, _LEGACY_JOB_NAME: name}
    if require_prefixed:
        errs += _has_label(labels, _CONTROLLER_UID, uid, t_path)
        errs += _has_label(labels, _JOB_NAME, name, t_path)
        expected |= {_CONTROLLER_UID: uid, _JOB_NAME: name}
    selector = spec["selector"]
    if ls.converts(selector) and not ls.matches(selector, expected):
        errs.append(FieldError.invalid(_SPEC.child("selector"), ls.selector_struct(selector),
                                       "`selector` not auto-generated"))
    return errs


def validate_job_spec(spec: dict[str, Any], path: Path, allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidateJobSpec: the shared fields, a required selector, and the template's labels matching it."""
    errs = validate_job_spec_fields(spec, path)
    selector = spec.get("selector")
    if selector is None:
        errs.append(FieldError.required(path.child("selector")))
    else:
        errs += ls.validate_label_selector(selector, path.child("selector"), allow_invalid_label_value)
    if ls.converts(selector) and not ls.matches(selector, _template_labels(spec)):
        labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
        errs.append(FieldError.invalid(path.child("template", "metadata", "labels"), labels,
                                       "`selector` does not match template `labels`"))
    return errs


def _validate_job(job: dict[str, Any], uid: str, require_prefixed: bool,
                  allow_invalid_label_value: bool) -> list[FieldError]:
    """ValidateJob beyond ObjectMeta."""
    errs = _generated_selector(job, uid, require_prefixed)
    spec = job.get("spec") or {}
    errs += validate_job_spec(spec, _SPEC, allow_invalid_label_value)
    completions = spec.get("completions")
    if spec.get("completionMode") == "Indexed" and completions is not None and completions > 0:
        name = (job.get("metadata") or {}).get("name") or ""
        hostname = f"{name}-{completions - 1}"
        if is_dns1123_label(hostname):
            errs.append(FieldError.invalid(_META.child("name"), name,
                                           f"will not able to create pod with invalid DNS label: {hostname}"))
    return errs


def validate_job(obj: dict[str, Any]) -> list[FieldError]:
    """The Job create strategy: the selector generated (PrepareForCreate), then ValidateJob."""
    return _validate_job(generate_selector(obj), GENERATED_UID, True, False)


def _with_generated_fields(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """The new object as `kubectl apply` sends it over the live one: the server-generated selector and
    template labels the manifest does not state are kept from the live object."""
    spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    if spec.get("selector") is not None or old_spec.get("selector") is None:
        return new
    new = json_copy(new)
    spec = new["spec"]
    spec["selector"] = json_copy(old_spec["selector"])
    old_labels = _template_labels(old_spec)
    template = spec.setdefault("template", {})
    meta = template.get("metadata") or {}
    template["metadata"] = meta
    labels = meta.get("labels") or {}
    meta["labels"] = labels
    for key in (_LEGACY_JOB_NAME, _JOB_NAME, _LEGACY_CONTROLLER_UID, _CONTROLLER_UID):
        if key in old_labels:
            labels.setdefault(key, old_labels[key])
    return new


def _template_update(spec: dict[str, Any], old_spec: dict[str, Any], old_status: dict[str, Any]) -> list[FieldError]:
    """validatePodTemplateUpdate: the template is immutable, except its scheduling directives (node
    affinity, node selector, tolerations, labels, annotations, scheduling gates) while the job is
    suspended and never started."""
    template, old_template = spec.get("template") or {}, json_copy(old_spec.get("template") or {})
    if old_spec.get("suspend") and old_status.get("startTime") is None:
        new_pod, old_pod = template.get("spec") or {}, old_template.setdefault("spec", {})
        affinity, old_affinity = new_pod.get("affinity"), old_pod.get("affinity")
        if affinity is None and old_affinity is not None:
            old_affinity = {k: v for k, v in old_affinity.items() if k != "nodeAffinity"}
            old_pod["affinity"] = old_affinity or None
        elif affinity is not None:
            old_pod["affinity"] = {**(old_affinity or {}), "nodeAffinity": affinity.get("nodeAffinity")}
        for key in ("nodeSelector", "tolerations", "schedulingGates"):
            old_pod[key] = new_pod.get(key)
        old_meta = old_template.setdefault("metadata", {})
        new_meta = template.get("metadata") or {}
        for key in ("labels", "annotations"):
            old_meta[key] = new_meta.get(key)
    if _same(template, old_template):
        return []
    return [FieldError.invalid(_SPEC.child("template"), template, FIELD_IMMUTABLE)]


def _same(a: Any, b: Any) -> bool:
    """apiequality.Semantic.DeepEqual of decoded JSON: null, absent and empty values are equal."""
    def clean(v: Any) -> Any:
        if isinstance(v, dict):
            out = {k: clean(x) for k, x in v.items()}
            return {k: x for k, x in out.items() if x not in (None, "", [], {})}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v
    return deep_equal(clean(a), clean(b))


def validate_job_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """The Job update strategy: ValidateJob on the new object (the uid and prefixed labels as the live
    object has them), then ValidateJobSpecUpdate's immutable fields."""
    new = _with_generated_fields(new, old)
    spec, old_spec = new.get("spec") or {}, old.get("spec") or {}
    old_labels = _template_labels(old_spec)
    uid = (new.get("metadata") or {}).get("uid") or (old.get("metadata") or {}).get("uid") or ""
    allow_invalid = _has_invalid_label_value(old_spec.get("selector"))
    require_prefixed = _JOB_NAME in old_labels and _CONTROLLER_UID in old_labels
    errs = _validate_job(new, uid, require_prefixed, allow_invalid)
    errs += validate_job_spec(spec, _SPEC, allow_invalid)
    errs += _completions_update(spec, old_spec)
    errs += _immutable(spec, old_spec, "selector", ls.selector_struct)
    errs += _template_update(spec, old_spec, old.get("status") or {})
    for name in ("completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"):
        errs += _immutable(spec, old_spec, name)
    return errs


def _has_invalid_label_value(selector: dict[str, Any] | None) -> bool:
    """LabelSelectorHasInvalidLabelValue."""
    from crdtool.schema.apimachinery.names import is_valid_label_value

    return any(is_valid_label_value(v or "") for e in (selector or {}).get("matchExpressions") or []
               for v in (e or {}).get("values") or [])


def _immutable(spec: dict[str, Any], old_spec: dict[str, Any], name: str, render: Any = None) -> list[FieldError]:
    value, old_value = spec.get(name), old_spec.get(name)
    if _same(value, old_value):
        return []
    shown = render(value) if render else (TypedString(value) if isinstance(value, str) else value)
    return [FieldError.invalid(_SPEC.child(name), shown, FIELD_IMMUTABLE)]


def _completions_update(spec: dict[str, Any], old_spec: dict[str, Any]) -> list[FieldError]:
    """validateCompletions (ElasticIndexedJob, GA): immutable, except an Indexed Job's, which may change
    together with parallelism."""
    completions, old = spec.get("completions"), old_spec.get("completions")
    if spec.get("completionMode") != "Indexed":
        return _immutable(spec, old_spec, "completions")
    if completions == old or completions is None:
        return []
    if completions != spec.get("parallelism"):
        return [FieldError.invalid(_SPEC.child("completions"), completions,
                                   "can only be modified in tandem with spec.parallelism")]
    return []


# ---------------------------------------------------------------- CronJob

def validate_time_zone(zone: str | None, path: Path) -> list[FieldError]:
    """validateTimeZone: nil, or an IANA name (each part of a legal shape, not Local) that loads."""
    if zone is None:
        return []
    shown = TypedString(zone)
    if not zone:
        return [FieldError.invalid(path, shown, "timeZone must be nil or non-empty string")]
    for part in zone.split("/"):
        if part in (".", "..") or part.startswith("-") or not _TIME_ZONE_PART.fullmatch(part):
            return [FieldError.invalid(path, shown, f"unknown time zone {zone}")]
    errs = []
    if zone.lower() == "local":
        errs.append(FieldError.invalid(path, shown,
                                       "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
    err = load_location_error(zone)
    if err is not None:
        errs.append(FieldError.invalid(path, shown, err))
    return errs


def validate_schedule(schedule: str, allow_tz: bool, time_zone: str | None, path: Path) -> list[FieldError]:
    """validateScheduleFormat: the cron parser's error, and no TZ in the schedule (unless the live
    object's schedule already had one, and then not together with timeZone)."""
    errs = []
    try:
        parse_standard(schedule)
    except CronError as e:
        errs.append(FieldError.invalid(path, schedule, str(e)))
    if allow_tz and "TZ" in schedule and time_zone is not None:
        errs.append(FieldError.invalid(path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
    elif not allow_tz and "TZ" in schedule:
        errs.append(FieldError.invalid(path, schedule,
                                       "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
    return errs


def validate_job_template_spec(template: dict[str, Any], path: Path) -> list[FieldError]:
    """ValidateJobTemplateSpec: the job spec's shared fields; the selector is the controller's to make."""
    spec = template.get("spec") or {}
    errs = validate_job_spec_fields(spec, path.child("spec"))
    if spec.get("selector") is not None:
        errs.append(FieldError.invalid(path.child("spec", "selector"), ls.selector_struct(spec["selector"]),
                                       "`selector` will be auto-generated"))
    if spec.get("manualSelector"):
        errs.append(FieldError.not_supported(path.child("spec", "manualSelector"), True, ["nil", "false"]))
    return errs


def _cron_job_spec(spec: dict[str, Any], old_spec: dict[str, Any] | None) -> list[FieldError]:
    """validateCronJobSpec."""
    errs: list[FieldError] = []
    schedule = spec.get("schedule") or ""
    if not schedule:
        errs.append(FieldError.required(_SPEC.child("schedule")))
    else:
        allow_tz = old_spec is not None and "TZ" in (old_spec.get("schedule") or "")
        errs += validate_schedule(schedule, allow_tz, spec.get("timeZone"), _SPEC.child("schedule"))
    errs += nonnegative(spec.get("startingDeadlineSeconds"), _SPEC.child("startingDeadlineSeconds"))
    if old_spec is None or old_spec.get("timeZone") != spec.get("timeZone"):
        errs += validate_time_zone(spec.get("timeZone"), _SPEC.child("timeZone"))
    policy = spec.get("concurrencyPolicy") or ""
    if not policy:
        errs.append(FieldError.required(_SPEC.child("concurrencyPolicy")))
    elif policy not in ("Allow", "Forbid", "Replace"):
        errs.append(FieldError.not_supported(_SPEC.child("concurrencyPolicy"), TypedString(policy),
                                             ["Allow", "Forbid", "Replace"]))
    errs += validate_job_template_spec(spec.get("jobTemplate") or {}, _SPEC.child("jobTemplate"))
    errs += nonnegative(spec.get("successfulJobsHistoryLimit"), _SPEC.child("successfulJobsHistoryLimit"))
    errs += nonnegative(spec.get("failedJobsHistoryLimit"), _SPEC.child("failedJobsHistoryLimit"))
    return errs


def validate_cron_job(obj: dict[str, Any]) -> list[FieldError]:
    """ValidateCronJobCreate beyond ObjectMeta: the spec, and a name short enough for its jobs' names
    (63 - 11 bytes for the `-<timestamp>` suffix)."""
    errs = _cron_job_spec(obj.get("spec") or {}, None)
    name = (obj.get("metadata") or {}).get("name") or ""
    if byte_len(name) > 52:
        errs.append(FieldError.invalid(_META.child("name"), name, "must be no more than 52 characters"))
    return errs


def validate_cron_job_update(new: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateCronJobUpdate beyond ObjectMetaUpdate (no name length rule on update)."""
    return _cron_job_spec(new.get("spec") or {}, old.get("spec") or {})


VALIDATORS: dict[str, KindValidation] = {
    "Job": KindValidation(validate_job, validate_job_update),
    "CronJob": KindValidation(validate_cron_job, validate_cron_job_update),
}
