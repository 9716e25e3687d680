"""batch/v1 defaulting (kubernetes pkg/apis/batch/v1/defaults.go, 1.36): Job and CronJob. A CronJob's
job template is a JobSpec, not a Job: SetDefaults_Job does not run on it (only its pod template's
defaults do)."""

from __future__ import annotations

from typing import Any

from crdtool.apis.defaults import Defaulted, register

BATCH = "io.k8s.api.batch.v1."
_MAX_INT32 = 2**31 - 1


@register(BATCH + "Job")
def job(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_Job: completions and parallelism 1 when both are unset (else parallelism 1);
    backoffLimit 6 (MaxInt32 with backoffLimitPerIndex); the job's labels from its template's when it
    has none; completionMode NonIndexed; suspend false; podReplacementPolicy Failed with a pod failure
    policy, else TerminatingOrFailed (feature JobPodReplacementPolicy, on); manualSelector false."""
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    if spec.get("completions") is None and spec.get("parallelism") is None:
        d.set(spec, "completions", 1, s_at)
        d.set(spec, "parallelism", 1, s_at)
    if spec.get("parallelism") is None:
        d.set(spec, "parallelism", 1, s_at)
    if spec.get("backoffLimit") is None:
        d.set(spec, "backoffLimit", _MAX_INT32 if spec.get("backoffLimitPerIndex") is not None else 6, s_at)
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
    meta = obj.get("metadata") or {}
    if labels is not None and not meta.get("labels"):
        obj["metadata"] = meta
        d.set(meta, "labels", dict(labels), f"{at}.metadata" if at else "metadata")
    if spec.get("completionMode") is None:
        d.set(spec, "completionMode", "NonIndexed", s_at)
    if spec.get("suspend") is None:
        d.set(spec, "suspend", False, s_at)
    if spec.get("podReplacementPolicy") is None:
        d.set(spec, "podReplacementPolicy",
              "Failed" if spec.get("podFailurePolicy") is not None else "TerminatingOrFailed", s_at)
    if spec.get("manualSelector") is None:
        d.set(spec, "manualSelector", False, s_at)


@register(BATCH + "CronJob")
def cron_job(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_CronJob: concurrencyPolicy Allow, suspend false, successfulJobsHistoryLimit 3,
    failedJobsHistoryLimit 1."""
    spec = obj.setdefault("spec", {})
    s_at = f"{at}.spec" if at else "spec"
    d.empty(spec, "concurrencyPolicy", "Allow", s_at)
    for key, value in (("suspend", False), ("successfulJobsHistoryLimit", 3), ("failedJobsHistoryLimit", 1)):
        if spec.get(key) is None:
            d.set(spec, key, value, s_at)


@register(BATCH + "PodFailurePolicyOnPodConditionsPattern")
def condition_pattern(obj: dict[str, Any], d: Defaulted, at: str) -> None:
    """SetDefaults_PodFailurePolicyOnPodConditionsPattern: status True."""
    d.empty(obj, "status", "True", at)
