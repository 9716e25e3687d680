"""ValidatePodTemplateSpec's seccomp and AppArmor annotation-against-field checks
(validateSeccompAnnotationsAndFields, validateAppArmorAnnotationsAndFieldsMatchOnCreate), which a
Pod's create runs too, at the template's spec path (kubernetes pkg/apis/core/validation, 1.36)."""

from __future__ import annotations

import pytest

from crdtool.apis.core import kinds
from crdtool.apis.core.pods import validate_pod_template_spec
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.path import Path

SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CTR = "container.seccomp.security.alpha.kubernetes.io/app"
APPARMOR_CTR = "container.apparmor.security.beta.kubernetes.io/app"
TEMPLATE = Path.root("spec", "template")


def template(annotations: dict, pod_context: dict | None = None, container_context: dict | None = None) -> dict:
    """A Deployment's pod template, defaulted as the apiserver stores it."""
    container = {"name": "app", "image": "nginx"}
    if container_context is not None:
        container["securityContext"] = container_context
    spec: dict = {"containers": [container]}
    if pod_context is not None:
        spec["securityContext"] = pod_context
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
                  "spec": {"selector": {"matchLabels": {"a": "b"}},
                           "template": {"metadata": {"labels": {"a": "b"}, "annotations": annotations},
                                        "spec": spec}}}
    set_object_defaults(deployment, "io.k8s.api.apps.v1.Deployment")
    return deployment["spec"]["template"]


CASES = [
    ("seccomp pod annotation and field type differ",
     template({SECCOMP_POD: "unconfined"}, pod_context={"seccompProfile": {"type": "RuntimeDefault"}}),
     ["spec.template.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field "
      "must match"]),
    ("seccomp container localhost profiles differ",
     template({SECCOMP_CTR: "localhost/a.json"},
              container_context={"seccompProfile": {"type": "Localhost", "localhostProfile": "b.json"}}),
     ["spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp "
      "profile in annotation and field must match"]),
    ("seccomp docker/default is RuntimeDefault",
     template({SECCOMP_POD: "docker/default"}, pod_context={"seccompProfile": {"type": "RuntimeDefault"}}), []),
    ("apparmor annotation and the pod's profile differ",
     template({APPARMOR_CTR: "runtime/default"}, pod_context={"appArmorProfile": {"type": "Unconfined"}}),
     ["spec.template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in "
      "annotation and field must match"]),
    ("apparmor container localhost profiles differ",
     template({APPARMOR_CTR: "localhost/a"},
              container_context={"appArmorProfile": {"type": "Localhost", "localhostProfile": "b"}}),
     ["spec.template.spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor "
      "profile in annotation and field must match"]),
    ("apparmor annotation and field agree",
     template({APPARMOR_CTR: "localhost/a"},
              container_context={"appArmorProfile": {"type": "Localhost", "localhostProfile": "a"}}), []),
    ("annotation without a field", template({SECCOMP_POD: "unconfined", APPARMOR_CTR: "unconfined"}), []),
]


@pytest.mark.parametrize(("name", "tmpl", "expected"), CASES, ids=[c[0] for c in CASES])
def test_template_annotations_agree_with_fields(name: str, tmpl: dict, expected: list) -> None:
    assert [str(e) for e in validate_pod_template_spec(tmpl, TEMPLATE)] == expected


def test_windows_templates_skip_the_apparmor_check() -> None:
    tmpl = template({APPARMOR_CTR: "runtime/default"}, pod_context={"appArmorProfile": {"type": "Unconfined"}})
    tmpl["spec"]["os"] = {"name": "windows"}
    assert not any("apparmor type" in str(e) for e in validate_pod_template_spec(tmpl, TEMPLATE))


def test_a_pod_create_still_checks_them_at_spec() -> None:
    tmpl = template({SECCOMP_POD: "unconfined"}, pod_context={"seccompProfile": {"type": "RuntimeDefault"}})
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", **tmpl["metadata"]}, "spec": tmpl["spec"]}
    assert "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match" in [
        str(e) for e in kinds.validate_pod(pod)]
