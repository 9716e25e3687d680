"""The rest of ValidatePodSpec against kubernetes' own expectations (pkg/apis/core/validation,
1.36): resource claims (TestValidateDynamicResourceAllocation's cases), pod-level resources
(TestValidatePodResourceNames, TestValidatePodLevelResources..., TestValidatePodResourceConsistency),
an ephemeral volume's claim template (TestValidateVolumes' generic ephemeral cases), the
clusterTrustBundle projection's names (TestValidateProjectedVolumeSource... and
certificates' TestValidateSignerName) and topology spread matchLabelKeys under the 1.36 selector
merge. Each case names the Go function and the case it follows, the (error type, field path) the
Go code gives, and the text where Go states it."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import kinds
from crdtool.apis.core.podresources import aggregate_container_requests
from crdtool.apis.core.pods import validate_pod_template_spec
from crdtool.apis.core.trustbundles import cluster_trust_bundle_name_errors, validate_signer_name
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.errors import ErrorType
from crdtool.model.path import Path

R, IV, NS, F, D, NF, TL = (ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN,
                           ErrorType.DUPLICATE, ErrorType.NOT_FOUND, ErrorType.TOO_LONG)
RC = "spec.resourceClaims"
CC = "spec.containers[0].resources.claims"


def pod(labels: dict | None = None, container: dict | None = None, **spec_changes) -> dict:
    """A valid Pod, defaulted as the apiserver stores it, with `spec_changes` and one container."""
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns", "labels": labels or {}},
           "spec": {"containers": [{"name": "ctr", "image": "image", **(container or {})}], **spec_changes}}
    set_object_defaults(obj, "io.k8s.api.core.v1.Pod")
    return obj


def errors(obj: dict) -> list[tuple[ErrorType, str, str]]:
    return [(e.type, e.field, e.detail) for e in kinds.validate_pod(obj)]


# ---------------------------------------------------------------- resource claims

CLAIM = {"name": "my-claim", "resourceClaimName": "my-claim"}


def test_valid_resource_claims_and_references() -> None:
    """TestValidateDynamicResourceAllocation/valid: claims by name and by template, referenced
    whole or by request."""
    obj = pod(resourceClaims=[CLAIM, {"name": "tmpl", "resourceClaimTemplateName": "my-template"}],
              container={"resources": {"claims": [{"name": "my-claim"}, {"name": "tmpl", "request": "gpu"},
                                                   {"name": "tmpl", "request": "nic"}]}})
    assert errors(obj) == []


CLAIM_CASES = [
    ("validatePodResourceClaim/pod claim name empty",
     [{"resourceClaimName": "x"}], None, (R, RC + "[0].name"), ""),
    ("validatePodResourceClaim/pod claim name with prefix", [{"name": "../my-claim", "resourceClaimName": "x"}],
     None, (IV, RC + "[0].name"), None),
    ("validatePodResourceClaim/duplicate pod claim entries", [CLAIM, CLAIM], None, (D, RC + "[1].name"), ""),
    ("validatePodResourceClaim/resource claim source empty", [{"name": "my-claim"}], None,
     (IV, RC + "[0]"), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"),
    ("validatePodResourceClaim/resource claim reference and template",
     [{"name": "my-claim", "resourceClaimName": "a", "resourceClaimTemplateName": "b"}], None,
     (IV, RC + "[0]"), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"),
    ("validatePodResourceClaim/invalid claim template name",
     [{"name": "my-claim", "resourceClaimTemplateName": "Bad_Name"}], None, (IV, RC + "[0].resourceClaimTemplateName"),
     None),
    ("validatePodResourceClaim/invalid claim name", [{"name": "my-claim", "resourceClaimName": "../x"}], None,
     (IV, RC + "[0].resourceClaimName"), None),
    ("validateResourceClaimNames/claim not found", [CLAIM], [{"name": "no-such-claim"}],
     (NF, CC + "[0]"), "must be one of the names in pod.spec.resourceClaims: my-claim"),
    ("validateResourceClaimNames/claim not found, no claims", [], [{"name": "no-such-claim"}],
     (NF, CC + "[0]"), "must be one of the names in pod.spec.resourceClaims which is empty"),
    ("validateResourceClaimNames/claim empty", [CLAIM], [{"name": ""}], (R, CC + "[0]"), ""),
    ("validateResourceClaimNames/claim duplicate", [CLAIM], [{"name": "my-claim"}, {"name": "my-claim"}],
     (D, CC + "[1]"), ""),
    ("validateResourceClaimNames/claim with request duplicate", [CLAIM],
     [{"name": "my-claim", "request": "foo"}, {"name": "my-claim", "request": "foo"}], (D, CC + "[1]"), ""),
    ("validateResourceClaimNames/claim with request after the whole claim", [CLAIM],
     [{"name": "my-claim"}, {"name": "my-claim", "request": "foo"}], (D, CC + "[1]"), ""),
    ("validateResourceClaimNames/whole claim after one of its requests", [CLAIM],
     [{"name": "my-claim", "request": "foo"}, {"name": "my-claim"}], (D, CC + "[1]"), ""),
    ("validateResourceClaimNames/claim with invalid request", [CLAIM], [{"name": "my-claim", "request": "*$@%^"}],
     (IV, CC + "[0].request"), None),
]


@pytest.mark.parametrize(("case", "claims", "references", "expected", "text"), CLAIM_CASES,
                         ids=[c[0] for c in CLAIM_CASES])
def test_resource_claim_errors(case: str, claims: list, references: list | None, expected: tuple,
                               text: str | None) -> None:
    container = {"resources": {"claims": references}} if references is not None else None
    found = [e for e in errors(pod(container=container, resourceClaims=copy.deepcopy(claims)))
             if e[:2] == expected]
    assert found, case
    if text is not None:
        assert found[0][2] == text, case


def test_resource_claim_bad_value_is_the_internal_struct() -> None:
    """field.Invalid(fldPath, claim, ...): the internal core.PodResourceClaim, json.Marshal'd with
    its Go field names and its *string names."""
    [err] = [e for e in kinds.validate_pod(pod(resourceClaims=[{"name": "c"}])) if e.field == RC + "[0]"]
    assert str(err) == ('spec.resourceClaims[0]: Invalid value: {"Name":"c","ResourceClaimName":null,'
                        '"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, '
                        '`resourceClaimTemplateName`')


def test_a_template_claims_are_checked_too() -> None:
    """ValidatePodTemplateSpec runs ValidatePodSpec: a Deployment's template claims too."""
    template = {"metadata": {}, "spec": pod(resourceClaims=[{"name": "c"}])["spec"]}
    assert [e.field for e in validate_pod_template_spec(template, Path.root("spec", "template"))] == [
        "spec.template.spec.resourceClaims[0]"]


# ---------------------------------------------------------------- pod-level resources

PR = "spec.resources"


@pytest.mark.parametrize(("case", "resources", "expected", "text"), [
    ("TestValidatePodResourceNames/storage", {"requests": {"storage": "1Gi"}}, (NS, PR + ".requests[storage]"),
     'supported values: "cpu", "hugepages-", "memory"'),
    ("TestValidatePodResourceNames/ephemeral-storage", {"limits": {"ephemeral-storage": "1Gi"}},
     (NS, PR + ".limits[ephemeral-storage]"), 'supported values: "cpu", "hugepages-", "memory"'),
    ("TestValidatePodResourceNames/not a standard name", {"requests": {"cpus": "1"}}, (IV, PR + ".requests[cpus]"),
     "must be a standard resource type or fully qualified"),
    ("TestValidatePodResourceNames/extended resource", {"limits": {"example.com/gpu": "1"}},
     (NS, PR + ".limits[example.com/gpu]"), None),
    ("validatePodResources/claims at pod level", {"claims": [{"name": "c"}]}, (F, PR + ".claims"),
     "claims cannot be set for Resources at pod-level"),
    ("validateResourceRequirements/pod requests above limits", {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}},
     (IV, PR + ".requests"), "must be less than or equal to cpu limit of 1"),
    ("validateResourceRequirements/negative quantity", {"requests": {"memory": "-1"}},
     (IV, PR + ".requests[memory]"), "must be greater than or equal to 0"),
    ("validateResourceRequirements/hugepages without cpu or memory", {"limits": {"hugepages-2Mi": "2Mi"}},
     (F, PR), "HugePages require cpu or memory"),
])
def test_pod_level_resource_errors(case: str, resources: dict, expected: tuple, text: str | None) -> None:
    found = [e for e in errors(pod(resources=copy.deepcopy(resources))) if e[:2] == expected]
    assert found, case
    if text is not None:
        assert found[0][2] == text, case


def test_pod_level_resources_accepted() -> None:
    """Pod-level cpu, memory and huge pages within which the containers fit."""
    obj = pod(resources={"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "2Gi"}},
              container={"resources": {"requests": {"cpu": "500m"}, "limits": {"memory": "1Gi"}}})
    assert errors(obj) == []


def test_aggregate_container_requests_exceed_pod_requests() -> None:
    """validatePodResourceConsistency: the pod requests at least its containers' aggregate (two
    containers and a sidecar add up; an init container counts with the sidecars before it)."""
    obj = pod(resources={"requests": {"cpu": "1"}},
              initContainers=[{"name": "side", "image": "i", "restartPolicy": "Always",
                               "resources": {"requests": {"cpu": "300m"}}},
                              {"name": "init", "image": "i", "resources": {"requests": {"cpu": "2"}}}],
              container={"resources": {"requests": {"cpu": "500m"}}})
    obj["spec"]["containers"].append({"name": "two", "image": "i", "resources": {"requests": {"cpu": "400m"}}})
    set_object_defaults(obj, "io.k8s.api.core.v1.Pod")
    assert (IV, PR + ".requests[cpu]", "must be greater than or equal to aggregate container requests of 2300m") in \
        errors(obj)
    assert str(next(e for e in kinds.validate_pod(obj) if e.field == PR + ".requests[cpu]")).startswith(
        'spec.resources.requests[cpu]: Invalid value: "1": ')


def test_container_limit_above_pod_limit() -> None:
    """validatePodResourceConsistency: a container's limit at most the pod's, reported at Go's
    path (the pod resources' path, then containers[i][name].limits)."""
    obj = pod(resources={"limits": {"memory": "1Gi"}}, container={"resources": {"limits": {"memory": "2Gi"}}})
    assert (IV, "spec.resources.containers[0][memory].limits", "must be less than or equal to pod limits of 1Gi") in \
        errors(obj)


def test_pod_requests_default_from_containers_then_limits() -> None:
    """defaultPodRequests: with pod-level limits, missing pod requests come from the containers'
    aggregate (cpu), else from the pod limits (memory); a template is not defaulted."""
    obj = pod(resources={"limits": {"cpu": "2", "memory": "1Gi"}},
              container={"resources": {"requests": {"cpu": "500m"}}})
    assert obj["spec"]["resources"]["requests"] == {"cpu": "500m", "memory": "1Gi"}
    assert errors(obj) == []
    over = pod(resources={"limits": {"cpu": "1"}}, container={"resources": {"requests": {"cpu": "2"}}})
    assert (IV, PR + ".requests", "must be less than or equal to cpu limit of 1") in errors(over)


def test_aggregate_sums_print_as_quantity_strings() -> None:
    """AggregateContainerRequests' arithmetic (Quantity.Add); a sum's text is Quantity.String() in the
    first quantity's format."""
    spec = {"containers": [{"resources": {"requests": {"memory": "512Mi"}}},
                           {"resources": {"requests": {"memory": "512Mi", "cpu": "1"}}}]}
    totals = aggregate_container_requests(spec)
    assert {name: (total.amount, total.string()) for name, total in totals.items()} == {
        "memory": (2**30, "1Gi"), "cpu": (1, "1")}
    for texts, expected in [(["500m", "1"], "1500m"), (["1k", "2k"], "3k"), (["1Mi", "512Ki"], "1536Ki"),
                            (["512Mi", "512Mi"], "1Gi"), (["1Ki", "476"], "1500"), (["1", "1Ki"], "1025")]:
        spec = {"containers": [{"resources": {"requests": {"cpu": text}}} for text in texts]}
        assert aggregate_container_requests(spec)["cpu"].string() == expected, texts


# ---------------------------------------------------------------- ephemeral volume claim template

EV = "spec.volumes[0].ephemeral.volumeClaimTemplate"
CLAIM_SPEC = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}


def ephemeral(template: dict) -> dict:
    return pod(volumes=[{"name": "scratch", "ephemeral": {"volumeClaimTemplate": template}}])


@pytest.mark.parametrize(("case", "template", "expected", "text"), [
    ("TestValidateVolumes/ephemeral volume without spec", {"spec": {}}, (R, EV + ".spec.accessModes"),
     "at least 1 access mode is required"),
    ("TestValidateVolumes/ephemeral volume without storage request",
     {"spec": {"accessModes": ["ReadWriteOnce"]}}, (R, EV + ".spec.resources[storage]"), ""),
    ("ValidatePersistentVolumeClaimSpec/bad access mode",
     {"spec": {**CLAIM_SPEC, "accessModes": ["Everyone"]}}, (NS, EV + ".spec.accessModes"), None),
    ("ValidateTemplateObjectMeta/name cannot be set", {"metadata": {"name": "x"}, "spec": CLAIM_SPEC},
     (F, EV + ".metadata.name"), "cannot be set"),
    ("ValidateTemplateObjectMeta/uid cannot be set", {"metadata": {"uid": "1"}, "spec": CLAIM_SPEC},
     (F, EV + ".metadata.uID"), "cannot be set"),
    ("ValidateTemplateObjectMeta/bad label", {"metadata": {"labels": {"a": "@"}}, "spec": CLAIM_SPEC},
     (IV, EV + ".metadata.labels"), None),
])
def test_ephemeral_claim_template_errors(case: str, template: dict, expected: tuple, text: str | None) -> None:
    found = [e for e in errors(ephemeral(copy.deepcopy(template))) if e[:2] == expected]
    assert found, case
    if text is not None:
        assert found[0][2] == text, case


def test_valid_ephemeral_claim_template() -> None:
    """TestValidateVolumes/generic ephemeral volume: labels and annotations allowed."""
    assert errors(ephemeral({"metadata": {"labels": {"a": "b"}}, "spec": CLAIM_SPEC})) == []


# ---------------------------------------------------------------- clusterTrustBundle names

CTB = "spec.volumes[0].projected.sources[0].clusterTrustBundle"


def bundle(**fields) -> dict:
    source = {"clusterTrustBundle": {"path": "ca.pem", **fields}}
    return pod(volumes=[{"name": "v", "projected": {"sources": [source]}}])


@pytest.mark.parametrize(("case", "fields", "expected", "text"), [
    ("validateProjectionSources/signerName without a domain", {"signerName": "example/signer"},
     (IV, CTB + ".signerName"), "should be a domain with at least two segments separated by dots"),
    ("validateProjectionSources/signerName without a path", {"signerName": "example.com"},
     (IV, CTB + ".signerName"), "must be a fully qualified domain and path of the form 'example.com/signer-name'"),
    ("validateProjectionSources/empty signerName", {"signerName": ""}, (R, CTB + ".signerName"),
     "must be a valid signer name"),
    ("validateProjectionSources/name for a signer with a bad rest", {"name": "example.com:s:Bad"},
     (IV, CTB + ".name"), None),
    ("validateProjectionSources/name starting with a colon", {"name": ":foo"}, (IV, CTB + ".name"),
     'not a valid clustertrustbundlename: ClusterTrustBundle without signer name must not have ":" in its name'),
])
def test_cluster_trust_bundle_name_errors(case: str, fields: dict, expected: tuple, text: str | None) -> None:
    found = [e for e in errors(bundle(**fields)) if e[:2] == expected]
    assert found, case
    if text is not None:
        assert found[0][2] == text, case


def test_cluster_trust_bundle_names_accepted() -> None:
    assert errors(bundle(signerName="example.com/my-signer")) == []
    assert errors(bundle(name="example.com:my-signer:bundle-1")) == []
    assert errors(bundle(name="plain-bundle")) == []


def test_signer_name_and_bundle_name_forms() -> None:
    """certificates' ValidateSignerName (first bad label of each part; the lengths) and
    ValidateClusterTrustBundleName."""
    path = Path.root("signerName")
    [err] = validate_signer_name("Example.com/signer", path)
    assert err.detail.startswith('validating label "Example": a lowercase RFC 1123 label must consist of')
    assert err.bad_value == "Example.com"
    assert [e.type for e in validate_signer_name("a.b/" + "c" * 600, path)][-1] == TL
    assert cluster_trust_bundle_name_errors("a/b:c") == ["ClusterTrustBundle for signerName a/b must be named with "
                                                         "prefix a:b:"]
    assert cluster_trust_bundle_name_errors("example.com:s:ok") == []


# ---------------------------------------------------------------- topology spread matchLabelKeys

TSC = "spec.topologySpreadConstraints"
SPREAD = {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}


def spread(**changes) -> list:
    return [{**SPREAD, **changes}]


def test_match_label_key_in_the_selector_is_found_after_the_merge() -> None:
    """TestValidateTopologySpreadConstraints ("key exists in both matchLabelKeys and labelSelector")
    with MatchLabelKeysInPodTopologySpreadSelectorMerge on: the Pod create strategy has merged the
    pod's `app` label into the selector, so validateMatchLabelKeysAndMismatchLabelKeys finds `app`
    twice (reported at the constraint's path with the key's index, as Go writes it); without the
    label nothing is merged and the Pod is accepted; a template is never merged."""
    constraints = spread(labelSelector={"matchLabels": {"app": "web"}}, matchLabelKeys=["app"])
    assert errors(pod(labels={"app": "web"}, topologySpreadConstraints=constraints)) == [
        (IV, TSC + "[0][0]", "exists in both matchLabelKeys and labelSelector")]
    assert errors(pod(topologySpreadConstraints=constraints)) == []
    template = {"metadata": {"labels": {"app": "web"}}, "spec": pod(topologySpreadConstraints=constraints)["spec"]}
    assert validate_pod_template_spec(template, Path.root("spec", "template")) == []


def test_match_label_keys_merged_from_other_labels_are_accepted() -> None:
    """The usual case: matchLabelKeys [pod-template-hash] beside a selector on app."""
    constraints = spread(labelSelector={"matchLabels": {"app": "web"}}, matchLabelKeys=["pod-template-hash"])
    assert errors(pod(labels={"app": "web", "pod-template-hash": "abc"}, topologySpreadConstraints=constraints)) == []


def test_match_label_keys_without_selector_is_only_forbidden() -> None:
    """validateLabelKeys: without a labelSelector, one Forbidden and no check of the keys."""
    assert errors(pod(topologySpreadConstraints=spread(matchLabelKeys=["/bad"]))) == [
        (F, TSC + "[0].matchLabelKeys", "must not be specified when labelSelector is not set")]


# ---------------------------------------------------------------- ephemeral containers on update

def test_adding_ephemeral_containers_by_an_update_is_refused() -> None:
    """ValidatePodUpdate (the regular update path, not the ephemeralcontainers subresource): the
    spec's ephemeralContainers are not among the updatable fields."""
    old = pod()
    new = copy.deepcopy(old)
    new["spec"]["ephemeralContainers"] = [{"name": "debug", "image": "busybox", "targetContainerName": "ctr",
                                           "terminationMessagePolicy": "File", "imagePullPolicy": "Always"}]
    [err] = kinds.validate_pod_update(new, old)
    assert (err.type, err.field) == (F, "spec")
    head, _, diff = err.detail.partition("\n")
    assert head.startswith("pod updates may not change fields other than `spec.containers[*].image`")
    assert "+ \tEphemeralContainers: " in diff
