"""apps and batch validation (crdtool/apis/apps/validation.py, crdtool/apis/batch/validation.py)
through the engine, as the apiserver runs it: decoded, defaulted, then validated.

Each case names its source: `apps_test:` is kubernetes pkg/apis/apps/validation/validation_test.go,
`batch_test:` pkg/apis/batch/validation/validation_test.go (the test function and the case's key);
`apps.go:`/`batch.go:` is the Go function of validation.go whose error the case reaches, for rules
whose tests state no text. Expected: the field path, the error type, and the whole message where
the Go test (or function) states it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml

from crdtool.engine.run import RunRequest, run
from crdtool.load import read_source

POD = {"containers": [{"name": "c", "image": "busybox"}]}
LABELS = {"name": "abc"}


def deployment() -> dict:
    """apps_test validDeployment, in apps/v1 form."""
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "abc"},
            "spec": {"selector": {"matchLabels": dict(LABELS)},
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}},
                     "template": {"metadata": {"labels": dict(LABELS)}, "spec": copy.deepcopy(POD)}}}


def replica_set() -> dict:
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "abc"},
            "spec": {"selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": copy.deepcopy(POD)}}}


def daemon_set() -> dict:
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "abc"},
            "spec": {"selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": copy.deepcopy(POD)}}}


def stateful_set() -> dict:
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "abc"},
            "spec": {"selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": copy.deepcopy(POD)}}}


def job() -> dict:
    """batch_test getValidPodTemplateSpecForGenerated: the selector is generated."""
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "myjob"},
            "spec": {"template": {"spec": {**copy.deepcopy(POD), "restartPolicy": "OnFailure"}}}}


def indexed_job() -> dict:
    obj = job()
    obj["spec"].update(completionMode="Indexed", completions=5, parallelism=5)
    obj["spec"]["template"]["spec"]["restartPolicy"] = "Never"
    return obj


def cron_job() -> dict:
    """batch_test TestValidateCronJob's valid case."""
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "mycronjob"},
            "spec": {"schedule": "* * * * ?", "concurrencyPolicy": "Allow",
                     "jobTemplate": {"spec": {"template": {"spec": {**copy.deepcopy(POD),
                                                                     "restartPolicy": "OnFailure"}}}}}}


def put(obj: dict, dotted: str, value: Any) -> dict:
    """Set `a.b.c` (a value of DELETE removes it)."""
    *parents, last = dotted.split(".")
    node = obj
    for key in parents:
        node = node.setdefault(key, {})
    if value is DELETE:
        node.pop(last, None)
    else:
        node[last] = value
    return obj


DELETE = object()


def results(obj: dict, old: dict | None = None):
    docs = read_source("in.yaml", yaml.safe_dump(obj))
    olds = read_source("old.yaml", yaml.safe_dump(old)) if old is not None else ()
    outcome = run(RunRequest(documents=docs, olds=olds))
    assert len(outcome.results) == 1
    return outcome.results[0]


def errors(obj: dict, old: dict | None = None) -> list[tuple[str, str, str]]:
    return [(e.field, e.type.code, str(e)) for e in results(obj, old).errors]


# (source, base object, tweaks, field, error type, message or None where the source states none)
CASES: list[tuple[str, Any, dict[str, Any], str, str, str | None]] = [
    # ---------------------------------------------------------------- Deployment
    ("apps_test: TestValidateDeployment `selector` does not match template `labels`", deployment,
     {"spec.selector": {"matchLabels": {"name": "def"}}}, "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"name":"abc"}: `selector` does not match template `labels`'),
    ("apps_test: TestValidateDeployment Unsupported value: \"Never\"", deployment,
     {"spec.template.spec.restartPolicy": "Never"}, "spec.template.spec.restartPolicy", "FieldValueNotSupported",
     'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'),
    ("apps_test: TestValidateDeployment supported values: \"Recreate\", \"RollingUpdate\"", deployment,
     {"spec.strategy.type": "randomType"}, "spec.strategy", "FieldValueNotSupported",
     'spec.strategy: Unsupported value: {"Type":"randomType","RollingUpdate":{"MaxUnavailable":1,"MaxSurge":1}}: '
     'supported values: "Recreate", "RollingUpdate"'),
    ("apps_test: TestValidateDeployment may not be specified when strategy `type` is 'Recreate'", deployment,
     {"spec.strategy": {"type": "Recreate", "rollingUpdate": {}}}, "spec.strategy.rollingUpdate",
     "FieldValueForbidden",
     "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"),
    ("apps_test: TestValidateDeployment a valid percent string must be", deployment,
     {"spec.strategy.rollingUpdate": {"maxSurge": "20Percent"}}, "spec.strategy.rollingUpdate.maxSurge",
     "FieldValueInvalid",
     'spec.strategy.rollingUpdate.maxSurge: Invalid value: "20Percent": a valid percent string must be a numeric '
     "string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"),
    ("apps_test: TestValidateDeployment may not be 0 when `maxSurge` is 0", deployment,
     {"spec.strategy.rollingUpdate": {"maxSurge": "0%", "maxUnavailable": 0}},
     "spec.strategy.rollingUpdate.maxUnavailable", "FieldValueInvalid",
     "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"),
    ("apps_test: TestValidateDeployment must not be greater than 100%", deployment,
     {"spec.strategy.rollingUpdate": {"maxUnavailable": "110%"}}, "spec.strategy.rollingUpdate.maxUnavailable",
     "FieldValueInvalid",
     'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%'),
    ("apps_test: TestValidateDeployment must be greater than minReadySeconds", deployment,
     {"spec.progressDeadlineSeconds": 600, "spec.minReadySeconds": 600}, "spec.progressDeadlineSeconds",
     "FieldValueInvalid", "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"),
    ("apps_test: TestValidateDeploymentUpdate negative replicas", deployment, {"spec.replicas": -3},
     "spec.replicas", "FieldValueInvalid", "spec.replicas: Invalid value: -3: must be greater than or equal to 0"),
    ("apps.go: ValidateDeploymentSpec minReadySeconds", deployment, {"spec.minReadySeconds": -1},
     "spec.minReadySeconds", "FieldValueInvalid",
     "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("apps.go: ValidateDeploymentSpec revisionHistoryLimit", deployment, {"spec.revisionHistoryLimit": -1},
     "spec.revisionHistoryLimit", "FieldValueInvalid",
     "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
    ("apps.go: ValidateDeploymentSpec progressDeadlineSeconds < 0", deployment,
     {"spec.progressDeadlineSeconds": -1}, "spec.progressDeadlineSeconds", "FieldValueInvalid",
     "spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("apps.go: ValidateDeploymentSpec selector required", deployment, {"spec.selector": DELETE},
     "spec.selector", "FieldValueRequired", "spec.selector: Required value"),
    ("apps.go: ValidateDeploymentSpec empty selector", deployment, {"spec.selector": {}},
     "spec.selector", "FieldValueInvalid",
     "spec.selector: Invalid value: {}: empty selector is invalid for deployment"),
    ("apps_test: TestValidateDeploymentUpdate invalid selector (label key)", deployment,
     {"spec.selector": {"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "b"}}},
     "spec.selector.matchLabels", "FieldValueInvalid", None),
    ("apps.go: ValidateDeploymentSpec invalid label selector", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "a", "operator": "Bad"}]}}, "spec.selector",
     "FieldValueInvalid",
     'spec.selector: Invalid value: {"matchExpressions":[{"key":"a","operator":"Bad"}]}: invalid label selector'),
    ("apps.go: ValidatePositiveIntOrPercent negative maxSurge", deployment,
     {"spec.strategy.rollingUpdate": {"maxSurge": -1, "maxUnavailable": 1}},
     "spec.strategy.rollingUpdate.maxSurge", "FieldValueInvalid",
     "spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0"),
    ("apps.go: ValidatePodTemplateSpecForReplicaSet activeDeadlineSeconds", deployment,
     {"spec.template.spec.activeDeadlineSeconds": 5}, "spec.template.spec.activeDeadlineSeconds",
     "FieldValueForbidden",
     "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"),
    # ---------------------------------------------------------------- label selectors (metav1 validation)
    ("apps.go: ValidateLabelSelector In without values", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "In"}]}},
     "spec.selector.matchExpressions[0].values", "FieldValueRequired",
     "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("apps.go: ValidateLabelSelector Exists with values", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "Exists", "values": ["x"]}]}},
     "spec.selector.matchExpressions[0].values", "FieldValueForbidden",
     "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or "
     "'DoesNotExist'"),
    ("apps.go: ValidateLabelSelector unknown operator", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "Near"}]}},
     "spec.selector.matchExpressions[0].operator", "FieldValueInvalid",
     'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'),
    ("apps.go: ValidateLabelSelector invalid value", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "In", "values": ["a b"]}]}},
     "spec.selector.matchExpressions[0].values[0]", "FieldValueInvalid", None),
    ("apps.go: NotIn excluding the template's label", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "NotIn", "values": ["abc"]}]}},
     "spec.template.metadata.labels", "FieldValueInvalid", None),
    ("apps.go: DoesNotExist of the template's label", deployment,
     {"spec.selector": {"matchExpressions": [{"key": "name", "operator": "DoesNotExist"}]}},
     "spec.template.metadata.labels", "FieldValueInvalid", None),
    # ---------------------------------------------------------------- ReplicaSet
    ("apps_test: TestValidateReplicaSet missing-namespace... selector_doesnt_match", replica_set,
     {"spec.selector": {"matchLabels": {"foo": "bar"}}}, "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'),
    ("apps_test: TestValidateReplicaSet negative_replicas", replica_set, {"spec.replicas": -1},
     "spec.replicas", "FieldValueInvalid", "spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
    ("apps_test: TestValidateReplicaSet invalid_restart_policy_1", replica_set,
     {"spec.template.spec.restartPolicy": "OnFailure"}, "spec.template.spec.restartPolicy",
     "FieldValueNotSupported",
     'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'),
    ("apps_test: TestValidateReplicaSet invalid_restart_policy_2", replica_set,
     {"spec.template.spec.restartPolicy": "Never"}, "spec.template.spec.restartPolicy", "FieldValueNotSupported",
     'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'),
    ("apps_test: TestValidateReplicaSet empty selector", replica_set, {"spec.selector": {}},
     "spec.selector", "FieldValueInvalid",
     "spec.selector: Invalid value: {}: empty selector is invalid for deployment"),
    ("apps_test: TestValidateReplicaSet invalid_label (selector)", replica_set,
     {"spec.selector": {"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}}},
     "spec.selector.matchLabels", "FieldValueInvalid", None),
    ("apps.go: ValidateReplicaSetSpec minReadySeconds", replica_set, {"spec.minReadySeconds": -2},
     "spec.minReadySeconds", "FieldValueInvalid",
     "spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0"),
    ("apps.go: ValidateReplicaSetSpec nil selector", replica_set, {"spec.selector": DELETE},
     "spec.selector", "FieldValueRequired", "spec.selector: Required value"),
    ("apps_test: TestValidateReplicaSet activeDeadlineSeconds", replica_set,
     {"spec.template.spec.activeDeadlineSeconds": 10}, "spec.template.spec.activeDeadlineSeconds",
     "FieldValueForbidden",
     "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"),
    # ---------------------------------------------------------------- DaemonSet
    ("apps_test: TestValidateDaemonSet nil selector", daemon_set, {"spec.selector": DELETE},
     "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'),
    ("apps_test: TestValidateDaemonSet empty selector", daemon_set, {"spec.selector": {}},
     "spec.selector", "FieldValueInvalid", "spec.selector: Invalid value: {}: empty selector is invalid for daemonset"),
    ("apps_test: TestValidateDaemonSet selector_doesnt_match", daemon_set,
     {"spec.selector": {"matchLabels": {"foo": "bar"}}}, "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'),
    ("apps_test: TestValidateDaemonSet invalid restart policy", daemon_set,
     {"spec.template.spec.restartPolicy": "OnFailure"}, "spec.template.spec.restartPolicy",
     "FieldValueNotSupported",
     'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'),
    ("apps_test: TestValidateDaemonSet template may not contain activeDeadlineSeconds", daemon_set,
     {"spec.template.spec.activeDeadlineSeconds": 3}, "spec.template.spec.activeDeadlineSeconds",
     "FieldValueForbidden",
     "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"),
    ("apps_test: TestValidateDaemonSet invalid update strategy type", daemon_set,
     {"spec.updateStrategy": {"type": "Bogus"}}, "spec.updateStrategy", "FieldValueNotSupported",
     'spec.updateStrategy: Unsupported value: {"Type":"Bogus","RollingUpdate":null}: supported values: '
     '"RollingUpdate", "OnDelete"'),
    ("apps_test: TestValidateRollingUpdateDaemonSet both zero", daemon_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueRequired",
     "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"),
    ("apps_test: TestValidateRollingUpdateDaemonSet both non-zero", daemon_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": "10%"}}},
     "spec.updateStrategy.rollingUpdate.maxSurge", "FieldValueInvalid",
     'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is '
     "non-zero"),
    ("apps_test: TestValidateRollingUpdateDaemonSet Surge 101%", daemon_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "101%"}}},
     "spec.updateStrategy.rollingUpdate.maxSurge", "FieldValueInvalid",
     'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "101%": must not be greater than 100%'),
    ("apps_test: TestValidateRollingUpdateDaemonSet Unavailable negative", daemon_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": -1}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueInvalid",
     "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"),
    ("apps_test: TestValidateRollingUpdateDaemonSet Unavailable 1.1", daemon_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "1.1"}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueInvalid", None),
    ("apps.go: ValidateDaemonSetSpec minReadySeconds", daemon_set, {"spec.minReadySeconds": -1},
     "spec.minReadySeconds", "FieldValueInvalid",
     "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("apps.go: ValidateDaemonSetSpec revisionHistoryLimit", daemon_set, {"spec.revisionHistoryLimit": -5},
     "spec.revisionHistoryLimit", "FieldValueInvalid",
     "spec.revisionHistoryLimit: Invalid value: -5: must be greater than or equal to 0"),
    # ---------------------------------------------------------------- StatefulSet
    ("apps_test: TestValidateStatefulSet empty selector", stateful_set, {"spec.selector": {}},
     "spec.selector", "FieldValueInvalid",
     "spec.selector: Invalid value: {}: empty selector is invalid for statefulset"),
    ("apps_test: TestValidateStatefulSet selector_doesnt_match", stateful_set,
     {"spec.selector": {"matchLabels": {"foo": "bar"}}}, "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'),
    ("apps_test: TestValidateStatefulSet negative_replicas", stateful_set, {"spec.replicas": -1},
     "spec.replicas", "FieldValueInvalid", "spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
    ("apps_test: TestValidateStatefulSet invalid restart policy", stateful_set,
     {"spec.template.spec.restartPolicy": "OnFailure"}, "spec.template.spec.restartPolicy",
     "FieldValueNotSupported",
     'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'),
    ("apps_test: TestValidateStatefulSet invalid pod management policy", stateful_set,
     {"spec.podManagementPolicy": "foo"}, "spec.podManagementPolicy", "FieldValueInvalid",
     "spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'"),
    ("apps_test: TestValidateStatefulSet invalid update strategy", stateful_set,
     {"spec.updateStrategy": {"type": "foo"}}, "spec.updateStrategy", "FieldValueInvalid",
     'spec.updateStrategy: Invalid value: {"Type":"foo","RollingUpdate":null}: '
     "must be 'RollingUpdate' or 'OnDelete'"),
    ("apps_test: TestValidateStatefulSet OnDelete with rollingUpdate", stateful_set,
     {"spec.updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}},
     "spec.updateStrategy.rollingUpdate", "FieldValueInvalid",
     'spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":null}: '
     "only allowed for updateStrategy 'RollingUpdate'"),
    ("apps_test: TestValidateStatefulSet negative partition", stateful_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": -1}}},
     "spec.updateStrategy.rollingUpdate.partition", "FieldValueInvalid",
     "spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"),
    ("apps_test: TestValidateStatefulSet zero maxUnavailable", stateful_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueInvalid",
     "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"),
    ("apps_test: TestValidateStatefulSet zero percent maxUnavailable", stateful_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "0%"}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueInvalid",
     'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0%": cannot be 0'),
    ("apps_test: TestValidateStatefulSet greater than 100 percent maxUnavailable", stateful_set,
     {"spec.updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "101%"}}},
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "FieldValueInvalid",
     'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%'),
    ("apps_test: TestValidateStatefulSet invalid PersistentVolumeClaimRetentionPolicy", stateful_set,
     {"spec.persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Invalid", "whenScaled": "Retain"}},
     "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "FieldValueNotSupported",
     'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Invalid": supported values: '
     '"Retain", "Delete"'),
    ("apps_test: TestValidateStatefulSet invalid ordinals.start", stateful_set, {"spec.ordinals": {"start": -2}},
     "spec.ordinals.start", "FieldValueInvalid",
     "spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0"),
    ("apps_test: TestValidateStatefulSet negative minReadySeconds", stateful_set, {"spec.minReadySeconds": -1},
     "spec.minReadySeconds", "FieldValueInvalid",
     "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("apps_test: TestValidateStatefulSet activeDeadlineSeconds", stateful_set,
     {"spec.template.spec.activeDeadlineSeconds": 1}, "spec.template.spec.activeDeadlineSeconds",
     "FieldValueForbidden",
     "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported"),
    ("apps_test: TestValidateStatefulSet invalid_label (template)", stateful_set,
     {"spec.template.metadata.labels": {"a": "b", "NoUppercaseOrSpecialCharsLike=Equals": "bar"}},
     "spec.template.labels", "FieldValueInvalid", None),
    ("apps.go: ValidateStatefulSetSpec nil selector", stateful_set, {"spec.selector": DELETE},
     "spec.selector", "FieldValueRequired", "spec.selector: Required value"),
    # ---------------------------------------------------------------- Job
    ("batch_test: TestValidateJob negative parallelism", job, {"spec.parallelism": -1},
     "spec.parallelism", "FieldValueInvalid",
     "spec.parallelism: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob negative completions", job, {"spec.completions": -1},
     "spec.completions", "FieldValueInvalid",
     "spec.completions: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob negative activeDeadlineSeconds", job, {"spec.activeDeadlineSeconds": -1},
     "spec.activeDeadlineSeconds", "FieldValueInvalid",
     "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob negative backoffLimit", job, {"spec.backoffLimit": -1},
     "spec.backoffLimit", "FieldValueInvalid",
     "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob negative ttlSecondsAfterFinished", job, {"spec.ttlSecondsAfterFinished": -1},
     "spec.ttlSecondsAfterFinished", "FieldValueInvalid",
     "spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob spec.template.spec.restartPolicy: Required value", job,
     {"spec.template.spec.restartPolicy": "Always"}, "spec.template.spec.restartPolicy", "FieldValueRequired",
     'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'),
    ("batch_test: TestValidateJob restartPolicy defaulted to Always", job,
     {"spec.template.spec.restartPolicy": DELETE}, "spec.template.spec.restartPolicy", "FieldValueRequired",
     'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'),
    ("batch_test: TestValidateJob spec.completions: Required value (Indexed)", indexed_job,
     {"spec.completions": DELETE}, "spec.completions", "FieldValueRequired",
     "spec.completions: Required value: when completion mode is Indexed"),
    ("batch_test: TestValidateJob spec.completionMode: Unsupported value", job, {"spec.completionMode": "Unknown"},
     "spec.completionMode", "FieldValueNotSupported",
     'spec.completionMode: Unsupported value: "Unknown": supported values: "NonIndexed", "Indexed"'),
    ("batch_test: TestValidateJob spec.parallelism: must be less than or equal to 100000", indexed_job,
     {"spec.parallelism": 100001, "spec.completions": 100001}, "spec.parallelism", "FieldValueInvalid",
     "spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed"),
    ("batch_test: TestValidateJob spec.backoffLimitPerIndex: requires indexed completion mode", job,
     {"spec.backoffLimitPerIndex": 1}, "spec.backoffLimitPerIndex", "FieldValueInvalid",
     "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"),
    ("batch_test: TestValidateJob spec.maxFailedIndexes: requires indexed completion mode", job,
     {"spec.maxFailedIndexes": 1, "spec.backoffLimitPerIndex": 1}, "spec.maxFailedIndexes", "FieldValueInvalid",
     "spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode"),
    ("batch_test: TestValidateJob spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
     indexed_job, {"spec.maxFailedIndexes": 1}, "spec.backoffLimitPerIndex", "FieldValueRequired",
     "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"),
    ("batch_test: TestValidateJob spec.maxFailedIndexes: must be less than or equal to completions", indexed_job,
     {"spec.maxFailedIndexes": 6, "spec.backoffLimitPerIndex": 1}, "spec.maxFailedIndexes", "FieldValueInvalid",
     "spec.maxFailedIndexes: Invalid value: 6: must be less than or equal to completions"),
    ("batch_test: TestValidateJob negative backoffLimitPerIndex", indexed_job, {"spec.backoffLimitPerIndex": -1},
     "spec.backoffLimitPerIndex", "FieldValueInvalid",
     "spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateJob managedBy: a domain-prefixed path", job,
     {"spec.managedBy": "invalid custom controller"},
     "spec.managedBy", "FieldValueInvalid",
     'spec.managedBy: Invalid value: "invalid custom controller": must be a domain-prefixed path '
     '(such as "acme.io/foo")'),
    ("batch_test: TestValidateJob managedBy: too long", job, {"spec.managedBy": "example.com/" + "a" * 60},
     "spec.managedBy", "FieldValueTooLong", "spec.managedBy: Too long: may not be more than 63 bytes"),
    ("batch_test: TestValidateJob spec.template.metadata.labels: `selector` does not match", job,
     {"spec.manualSelector": True, "spec.selector": {"matchLabels": {"a": "b"}},
      "spec.template.metadata.labels": {"a": "c"}}, "spec.template.metadata.labels", "FieldValueInvalid",
     'spec.template.metadata.labels: Invalid value: {"a":"c"}: `selector` does not match template `labels`'),
    ("batch_test: TestValidateJob spec.selector: Required value (manual)", job, {"spec.manualSelector": True},
     "spec.selector", "FieldValueRequired", "spec.selector: Required value"),
    ("batch_test: TestValidateJob spec.selector: `selector` not auto-generated", job,
     {"spec.selector": {"matchLabels": {"a": "b"}}, "spec.template.metadata.labels": {"a": "b"}},
     "spec.selector", "FieldValueInvalid",
     'spec.selector: Invalid value: {"matchLabels":{"a":"b","batch.kubernetes.io/controller-uid":'
     '"00000000-0000-4000-8000-000000000000"}}: `selector` not auto-generated'),
    ("batch_test: TestValidateJob generated label with a wrong value", job,
     {"spec.template.metadata.labels": {"job-name": "other"}}, "spec.template.metadata.labels[job-name]",
     "FieldValueInvalid", None),
    ("batch_test: TestValidateJob metadata.name: will not able to create pod with invalid DNS label", indexed_job,
     {"metadata.name": "a" * 62}, "metadata.name", "FieldValueInvalid",
     f'metadata.name: Invalid value: "{"a" * 62}": will not able to create pod with invalid DNS label: '
     f'{"a" * 62}-4'),
    ("batch_test: TestValidateJob spec.successPolicy: requires indexed completion mode", job,
     {"spec.successPolicy": {"rules": [{"succeededCount": 1}]}}, "spec.successPolicy", "FieldValueInvalid", None),
    ("batch_test: TestValidateJob successPolicy: rules is empty", indexed_job, {"spec.successPolicy": {"rules": []}},
     "spec.successPolicy.rules", "FieldValueRequired",
     "spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is "
     "specified"),
    ("batch_test: TestValidateJob successPolicy: neither field", indexed_job, {"spec.successPolicy": {"rules": [{}]}},
     "spec.successPolicy.rules[0]", "FieldValueRequired",
     "spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be "
     "specified"),
    ("batch_test: TestValidateJob successPolicy: succeededCount > completions", indexed_job,
     {"spec.successPolicy": {"rules": [{"succeededCount": 6}]}}, "spec.successPolicy.rules[0].succeededCount",
     "FieldValueInvalid",
     "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of "
     "specified completions)"),
    ("batch_test: TestValidateJob successPolicy: succeededCount > indexes", indexed_job,
     {"spec.successPolicy": {"rules": [{"succeededIndexes": "0-1", "succeededCount": 3}]}},
     "spec.successPolicy.rules[0].succeededCount", "FieldValueInvalid",
     "spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of "
     "indexes in the specified succeededIndexes field)"),
    ("batch_test: TestValidateJob successPolicy: too large index", indexed_job,
     {"spec.successPolicy": {"rules": [{"succeededIndexes": "0-5"}]}},
     "spec.successPolicy.rules[0].succeededIndexes", "FieldValueInvalid",
     'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-5": error parsing succeededIndexes: too large '
     'index: "5"'),
    ("batch_test: TestValidateJob successPolicy: non-increasing order", indexed_job,
     {"spec.successPolicy": {"rules": [{"succeededIndexes": "3,1"}]}},
     "spec.successPolicy.rules[0].succeededIndexes", "FieldValueInvalid",
     'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: '
     "non-increasing order, previous: 3, current: 1"),
    ("batch_test: TestValidateJob successPolicy: not an integer", indexed_job,
     {"spec.successPolicy": {"rules": [{"succeededIndexes": "one"}]}},
     "spec.successPolicy.rules[0].succeededIndexes", "FieldValueInvalid",
     'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "one": error parsing succeededIndexes: cannot '
     'convert string to integer for index: "one"'),
    # pod failure policy (restartPolicy Never)
    ("batch_test: TestValidateJob pod failure policy with restartPolicy OnFailure", job,
     {"spec.podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}},
     "spec.template.spec.restartPolicy", "FieldValueInvalid",
     'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy '
     "is specified"),
    ("batch_test: TestValidateJob pod failure policy: no action", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"onExitCodes": {"operator": "In", "values": [1]}}]}},
     "spec.podFailurePolicy.rules[0].action", "FieldValueRequired",
     'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'),
    ("batch_test: TestValidateJob pod failure policy: unknown action", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "UnknownAction",
                                           "onExitCodes": {"operator": "In", "values": [1]}}]}},
     "spec.podFailurePolicy.rules[0].action", "FieldValueNotSupported",
     'spec.podFailurePolicy.rules[0].action: Unsupported value: "UnknownAction": supported values: "Count", '
     '"FailIndex", "FailJob", "Ignore"'),
    ("batch_test: TestValidateJob pod failure policy: FailIndex without backoffLimitPerIndex", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailIndex",
                                           "onExitCodes": {"operator": "In", "values": [1]}}]}},
     "spec.podFailurePolicy.rules[0].action", "FieldValueInvalid",
     'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set'),
    ("batch_test: TestValidateJob pod failure policy: exit code 0 with In", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [0]}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.values[0]", "FieldValueInvalid",
     "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator"),
    ("batch_test: TestValidateJob pod failure policy: duplicated exit codes", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob",
                                           "onExitCodes": {"operator": "NotIn", "values": [11, 11]}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.values[1]", "FieldValueDuplicate",
     "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11"),
    ("batch_test: TestValidateJob pod failure policy: unordered exit codes", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob",
                                           "onExitCodes": {"operator": "In", "values": [2, 1]}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.values", "FieldValueInvalid",
     "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [2,1]: must be ordered"),
    ("batch_test: TestValidateJob pod failure policy: empty exit codes", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": []}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.values", "FieldValueInvalid",
     "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required"),
    ("batch_test: TestValidateJob pod failure policy: unknown container", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {
          "containerName": "xyz", "operator": "In", "values": [1]}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.containerName", "FieldValueInvalid",
     'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "xyz": must be one of the container '
     "or initContainer names in the pod template"),
    ("batch_test: TestValidateJob pod failure policy: unknown operator", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob",
                                           "onExitCodes": {"operator": "UnknownOperator", "values": [1]}}]}},
     "spec.podFailurePolicy.rules[0].onExitCodes.operator", "FieldValueNotSupported",
     'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "UnknownOperator": supported values: '
     '"In", "NotIn"'),
    ("batch_test: TestValidateJob pod failure policy: both OnExitCodes and OnPodConditions", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]},
                                           "onPodConditions": [{"type": "DisruptionTarget"}]}]}},
     "spec.podFailurePolicy.rules[0]", "FieldValueInvalid",
     "spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not "
     "supported"),
    ("batch_test: TestValidateJob pod failure policy: neither OnExitCodes nor OnPodConditions", job,
     {"spec.template.spec.restartPolicy": "Never", "spec.podFailurePolicy": {"rules": [{"action": "FailJob"}]}},
     "spec.podFailurePolicy.rules[0]", "FieldValueInvalid",
     "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"),
    ("batch_test: TestValidateJob pod failure policy: unknown condition status", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [
          {"type": "DisruptionTarget", "status": "UnknownStatus"}]}]}},
     "spec.podFailurePolicy.rules[0].onPodConditions[0].status", "FieldValueNotSupported",
     'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "UnknownStatus": supported '
     'values: "False", "True", "Unknown"'),
    ("batch_test: TestValidateJob pod failure policy: invalid condition type", job,
     {"spec.template.spec.restartPolicy": "Never",
      "spec.podFailurePolicy": {"rules": [{"action": "Ignore",
                                           "onPodConditions": [{"type": "Invalid Condition Type"}]}]}},
     "spec.podFailurePolicy.rules[0].onPodConditions[0].type", "FieldValueInvalid", None),
    ("batch_test: TestValidateJob podReplacementPolicy with podFailurePolicy", job,
     {"spec.template.spec.restartPolicy": "Never", "spec.podReplacementPolicy": "TerminatingOrFailed",
      "spec.podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}},
     "spec.podReplacementPolicy", "FieldValueNotSupported",
     'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'),
    ("batch_test: TestValidateJob podReplacementPolicy unknown", job, {"spec.podReplacementPolicy": "Unknown"},
     "spec.podReplacementPolicy", "FieldValueNotSupported",
     'spec.podReplacementPolicy: Unsupported value: "Unknown": supported values: "Failed", "TerminatingOrFailed"'),
    # ---------------------------------------------------------------- CronJob
    ("batch_test: TestValidateCronJob spec.schedule: Invalid value", cron_job, {"spec.schedule": "error"},
     "spec.schedule", "FieldValueInvalid",
     'spec.schedule: Invalid value: "error": expected exactly 5 fields, found 1: [error]'),
    ("batch_test: TestValidateCronJob spec.schedule: Required value", cron_job, {"spec.schedule": ""},
     "spec.schedule", "FieldValueRequired", "spec.schedule: Required value"),
    ("batch_test: TestValidateCronJob spec.schedule: TZ in schedule", cron_job,
     {"spec.schedule": "TZ=UTC 0 * * * *"}, "spec.schedule", "FieldValueInvalid",
     'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field '
     "instead"),
    ("batch_test: TestValidateCronJob spec.schedule: CRON_TZ in schedule", cron_job,
     {"spec.schedule": "CRON_TZ=UTC 0 * * * *"}, "spec.schedule", "FieldValueInvalid",
     'spec.schedule: Invalid value: "CRON_TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone '
     "field instead"),
    ("batch_test: TestValidateCronJob spec.timeZone: timeZone must be nil or non-empty string", cron_job,
     {"spec.timeZone": ""}, "spec.timeZone", "FieldValueInvalid",
     'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'),
    ("batch_test: TestValidateCronJob spec.timeZone: timeZone must be an explicit time zone", cron_job,
     {"spec.timeZone": "Local"}, "spec.timeZone", "FieldValueInvalid",
     'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in '
     "https://www.iana.org/time-zones"),
    ("batch_test: TestValidateCronJob spec.timeZone: Invalid value: \" Continent/Zone\"", cron_job,
     {"spec.timeZone": " Continent/Zone"}, "spec.timeZone", "FieldValueInvalid",
     'spec.timeZone: Invalid value: " Continent/Zone": unknown time zone  Continent/Zone'),
    ("batch_test: TestValidateCronJob spec.timeZone: Invalid value: \"Continent/InvalidZone\"", cron_job,
     {"spec.timeZone": "Continent/InvalidZone"}, "spec.timeZone", "FieldValueInvalid",
     'spec.timeZone: Invalid value: "Continent/InvalidZone": unknown time zone Continent/InvalidZone'),
    ("batch_test: TestValidateCronJob spec.timeZone: Invalid value: \"Continent/Zone \"", cron_job,
     {"spec.timeZone": "Continent/Zone "}, "spec.timeZone", "FieldValueInvalid",
     'spec.timeZone: Invalid value: "Continent/Zone ": unknown time zone Continent/Zone '),
    ("batch_test: TestValidateCronJob spec.timeZone: ../", cron_job, {"spec.timeZone": "../Etc/UTC"},
     "spec.timeZone", "FieldValueInvalid", 'spec.timeZone: Invalid value: "../Etc/UTC": unknown time zone ../Etc/UTC'),
    ("batch_test: TestValidateCronJob spec.startingDeadlineSeconds:must be greater than or equal to 0", cron_job,
     {"spec.startingDeadlineSeconds": -1}, "spec.startingDeadlineSeconds", "FieldValueInvalid",
     "spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.successfulJobsHistoryLimit: must be greater than or equal to 0", cron_job,
     {"spec.successfulJobsHistoryLimit": -1}, "spec.successfulJobsHistoryLimit", "FieldValueInvalid",
     "spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.failedJobsHistoryLimit: must be greater than or equal to 0", cron_job,
     {"spec.failedJobsHistoryLimit": -1}, "spec.failedJobsHistoryLimit", "FieldValueInvalid",
     "spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.concurrencyPolicy: Unsupported value", cron_job,
     {"spec.concurrencyPolicy": "Sometimes"}, "spec.concurrencyPolicy", "FieldValueNotSupported",
     'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.parallelism:must be greater than or equal to 0", cron_job,
     {"spec.jobTemplate.spec.parallelism": -1}, "spec.jobTemplate.spec.parallelism", "FieldValueInvalid",
     "spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.completions:must be greater than or equal to 0",
     cron_job, {"spec.jobTemplate.spec.completions": -1}, "spec.jobTemplate.spec.completions", "FieldValueInvalid",
     "spec.jobTemplate.spec.completions: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.activeDeadlineSeconds:must be greater than or equal to 0",
     cron_job, {"spec.jobTemplate.spec.activeDeadlineSeconds": -1}, "spec.jobTemplate.spec.activeDeadlineSeconds",
     "FieldValueInvalid",
     "spec.jobTemplate.spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.selector: Invalid value: {matchLabels:{a:b}}", cron_job,
     {"spec.jobTemplate.spec.selector": {"matchLabels": {"a": "b"}}}, "spec.jobTemplate.spec.selector",
     "FieldValueInvalid",
     'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated'),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.manualSelector: Unsupported value", cron_job,
     {"spec.jobTemplate.spec.manualSelector": True}, "spec.jobTemplate.spec.manualSelector",
     "FieldValueNotSupported",
     'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"'),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.template.spec.restartPolicy: Required value", cron_job,
     {"spec.jobTemplate.spec.template.spec.restartPolicy": "Always"},
     "spec.jobTemplate.spec.template.spec.restartPolicy", "FieldValueRequired",
     'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'),
    ("batch_test: TestValidateCronJob spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value", cron_job,
     {"spec.jobTemplate.spec.template.spec.restartPolicy": "Sometimes"},
     "spec.jobTemplate.spec.template.spec.restartPolicy", "FieldValueNotSupported", None),
    ("batch_test: TestValidateCronJob metadata.name: must be no more than 52 characters", cron_job,
     {"metadata.name": "10000000002000000000300000000040000000005000000000123"}, "metadata.name",
     "FieldValueInvalid",
     'metadata.name: Invalid value: "10000000002000000000300000000040000000005000000000123": must be no more than '
     "52 characters"),
]

# robfig/cron v3.0.1 ParseStandard's errors as spec.schedule reports them (parser.go).
SCHEDULES = [
    ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
    ("60 * * * *", "end of range (60) above maximum (59): 60"),
    ("* 24 * * *", "end of range (24) above maximum (23): 24"),
    ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
    ("* * * 13 *", "end of range (13) above maximum (12): 13"),
    ("* * * * 7", "end of range (7) above maximum (6): 7"),
    ("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
    ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
    ("*/1/2 * * * *", "too many slashes: */1/2"),
    ("*/0 * * * *", "step of range should be a positive number: */0"),
    ("a * * * *", 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'),
    ("-1 * * * *", 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'),
    ("99999999999999999999 * * * *",
     'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range'),
    ("* * * foo *", 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'),
    ("@every 5d", 'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'),
    ("@every 5", 'failed to parse duration @every 5: time: missing unit in duration "5"'),
    ("@every x", 'failed to parse duration @every x: time: invalid duration "x"'),
    ("@often", "unrecognized descriptor: @often"),
]
VALID_SCHEDULES = ["*/5 * * * *", "0 0 * * MON-FRI", "0 12 1 jan,jul *", "@hourly", "@every 1h30m", "0-59/15 * ? * *",
                   "30 4 1,15 * 5", "0 0 1 * *"]


@pytest.mark.parametrize(("source", "base", "tweaks", "field", "error_type", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_case_table(source, base, tweaks, field, error_type, message) -> None:
    obj = base()
    for dotted, value in tweaks.items():
        put(obj, dotted, value)
    got = errors(obj)
    matching = [g for g in got if g[0] == field and g[1] == error_type]
    assert matching, f"{source}: {field} {error_type} not among {got}"
    if message is not None:
        assert message in [g[2] for g in matching], got


@pytest.mark.parametrize("base", [deployment, replica_set, daemon_set, stateful_set, job, indexed_job, cron_job])
def test_valid_objects_pass(base) -> None:
    """The Go tests' successCases bases: no error, and the JSON output says the kind's validation ran."""
    result = results(base())
    assert result.errors == [] and result.valid and result.checks == "validation"


@pytest.mark.parametrize(("schedule", "message"), SCHEDULES)
def test_schedule_errors(schedule: str, message: str) -> None:
    obj = put(cron_job(), "spec.schedule", schedule)
    assert ("spec.schedule", "FieldValueInvalid", f"spec.schedule: Invalid value: {json.dumps(schedule)}: {message}") \
        in errors(obj)


@pytest.mark.parametrize("schedule", VALID_SCHEDULES)
def test_valid_schedules(schedule: str) -> None:
    assert errors(put(cron_job(), "spec.schedule", schedule)) == []


@pytest.mark.parametrize("zone", ["America/New_York", "UTC", "Etc/GMT+8", "Europe/Kyiv"])
def test_known_time_zones(zone: str) -> None:
    assert errors(put(cron_job(), "spec.timeZone", zone)) == []


# ---------------------------------------------------------------- updates (--old)

def test_deployment_selector_is_immutable() -> None:
    """The apps/v1 Deployment update strategy: ValidateImmutableField on spec.selector."""
    old = deployment()
    new = put(put(deployment(), "spec.selector", {"matchLabels": {"name": "abc", "x": "w"}}),
              "spec.template.metadata.labels", {"name": "abc", "x": "w"})
    assert errors(new, old) == [("spec.selector", "FieldValueInvalid",
                                 'spec.selector: Invalid value: {"matchLabels":{"name":"abc","x":"w"}}: '
                                 "field is immutable")]
    assert errors(put(deployment(), "spec.replicas", 5), old) == []


@pytest.mark.parametrize("base", [replica_set, daemon_set])
def test_replica_set_and_daemon_set_selectors_are_immutable(base) -> None:
    old = base()
    new = put(put(base(), "spec.selector", {"matchLabels": {"a": "b", "c": "d"}}),
              "spec.template.metadata.labels", {"a": "b", "c": "d"})
    assert [e[0] for e in errors(new, old)] == ["spec.selector"]


def test_stateful_set_forbidden_updates() -> None:
    """apps_test TestValidateStatefulSetUpdate: only some spec fields may change."""
    old = stateful_set()
    new = put(stateful_set(), "spec.serviceName", "other")
    assert errors(new, old) == [("spec", "FieldValueForbidden",
                                 "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', "
                                 "'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' "
                                 "and 'minReadySeconds' are forbidden")]
    allowed = put(put(stateful_set(), "spec.replicas", 3), "spec.minReadySeconds", 5)
    assert errors(allowed, old) == []


def _live_job() -> dict:
    obj = job()
    obj["metadata"]["uid"] = "1a2b3c4d-0000-4000-8000-000000000001"
    labels = {"job-name": "myjob", "batch.kubernetes.io/job-name": "myjob",
              "controller-uid": obj["metadata"]["uid"], "batch.kubernetes.io/controller-uid": obj["metadata"]["uid"]}
    obj["spec"]["selector"] = {"matchLabels": {"batch.kubernetes.io/controller-uid": obj["metadata"]["uid"]}}
    obj["spec"]["template"]["metadata"] = {"labels": labels}
    return obj


def test_job_template_and_completions_are_immutable() -> None:
    """batch_test TestValidateJobUpdate: completions (NonIndexed) and the template are immutable; the manifest
    need not restate the generated selector (kubectl apply keeps the live one)."""
    old = _live_job()
    new = put(put(job(), "spec.completions", 2), "spec.template.spec.containers", [{"name": "c", "image": "other"}])
    got = errors(new, old)
    assert [(f, t) for f, t, _ in got] == [("spec.completions", "FieldValueInvalid"),
                                           ("spec.template", "FieldValueInvalid")]
    assert got[0][2] == "spec.completions: Invalid value: 2: field is immutable"
    assert errors(put(job(), "spec.activeDeadlineSeconds", 10), old) == []


def test_indexed_job_completions_change_with_parallelism() -> None:
    """batch_test TestValidateJobUpdate (elastic indexed jobs): completions and parallelism change together."""
    old = indexed_job()
    old.update(_live_job() | {"spec": {**_live_job()["spec"], **{k: v for k, v in indexed_job()["spec"].items()
                                                                 if k != "template"}}})
    new = put(put(indexed_job(), "spec.completions", 6), "spec.parallelism", 5)
    assert ("spec.completions", "FieldValueInvalid",
            "spec.completions: Invalid value: 6: can only be modified in tandem with spec.parallelism") \
        in errors(new, old)


def test_cron_job_tz_in_a_live_schedule_may_stay() -> None:
    """batch_test TestValidateCronJobSpec: a schedule that already had TZ may keep it, but not with timeZone."""
    old = put(cron_job(), "spec.schedule", "TZ=UTC 0 * * * *")
    assert errors(put(cron_job(), "spec.schedule", "TZ=UTC 5 * * * *"), old) == []
    both = put(put(cron_job(), "spec.schedule", "TZ=UTC 5 * * * *"), "spec.timeZone", "UTC")
    assert ("spec.schedule", "FieldValueInvalid", 'spec.schedule: Invalid value: "TZ=UTC 5 * * * *": cannot use both '
            "timeZone field and TZ or CRON_TZ in schedule") in errors(both, old)
