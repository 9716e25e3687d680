"""ValidatePodSpecificAnnotations (kubernetes pkg/apis/core/validation/validation.go, 1.36): the
mirror pod annotation, the tolerations annotation (decoded as encoding/json decodes it), the deletion
cost, the seccomp and the AppArmor annotations, in Go's order, the annotations in document order."""

from __future__ import annotations

import pytest

from crdtool.apis.core import kinds
from crdtool.apis.core.podannotations import (
    decode_tolerations,
    is_valid_deletion_cost,
    validate_pod_specific_annotations,
)
from crdtool.apis.core.pods import validate_pod_template_spec
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.path import Path

ANNOTATIONS = Path.root("metadata", "annotations")
SPEC = {"containers": [{"name": "web", "image": "nginx"}]}
TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations"
COST = "controller.kubernetes.io/pod-deletion-cost"
APPARMOR = "container.apparmor.security.beta.kubernetes.io/"
SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP = "container.seccomp.security.alpha.kubernetes.io/"


def errors(annotations: dict, spec: dict | None = None, allow_invalid_cost: bool = False) -> list[str]:
    return [str(e) for e in validate_pod_specific_annotations(annotations, spec or SPEC, ANNOTATIONS,
                                                               allow_invalid_cost)]


# ---------------------------------------------------------------- mirror pod

def test_a_mirror_pod_needs_a_node() -> None:
    assert errors({"kubernetes.io/config.mirror": "abc"}) == [
        'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "abc": must set spec.nodeName if mirror '
        "pod annotation is set"]
    assert errors({"kubernetes.io/config.mirror": "abc"}, {**SPEC, "nodeName": "n1"}) == []


# ---------------------------------------------------------------- tolerations

DECODE_CASES = [
    ("syntax", '[{"key": "a",}]', "invalid character '}' looking for beginning of object key string"),
    ("truncated", '[{"key": "a"}', "unexpected end of JSON input"),
    ("blank", " ", "unexpected end of JSON input"),
    ("not a list", '{"key": "a"}', "json: cannot unmarshal object into Go value of type []core.Toleration"),
    ("a string", '"a"', "json: cannot unmarshal string into Go value of type []core.Toleration"),
    ("an item", "[1]", "json: cannot unmarshal number into Go value of type core.Toleration"),
    ("a key", '[{"key": 1}]', "json: cannot unmarshal number into Go struct field Toleration.key of type string"),
    ("an operator", '[{"operator": true}]',
     "json: cannot unmarshal bool into Go struct field Toleration.operator of type core.TolerationOperator"),
    ("seconds as text", '[{"tolerationSeconds": 1.50}]',
     "json: cannot unmarshal number 1.50 into Go struct field Toleration.tolerationSeconds of type int64"),
    ("seconds out of range", '[{"tolerationSeconds": 9223372036854775808}]',
     "json: cannot unmarshal number 9223372036854775808 into Go struct field Toleration.tolerationSeconds of "
     "type int64"),
    ("the first error wins", '[{"key": 1}, 2]',
     "json: cannot unmarshal number into Go struct field Toleration.key of type string"),
]


@pytest.mark.parametrize(("text", "error"), [c[1:] for c in DECODE_CASES], ids=[c[0] for c in DECODE_CASES])
def test_a_tolerations_annotation_that_does_not_decode(text: str, error: str) -> None:
    assert decode_tolerations(text)[1] == error
    assert errors({TOLERATIONS: text}) == [
        f'metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": {error}']


def test_tolerations_decode_as_the_standard_library_does() -> None:
    # field names match regardless of case, unknown fields are dropped, null is the zero value
    assert decode_tolerations('[{"KEY": "a", "Operator": "Exists", "x": [1]}, null]') == (
        [{"key": "a", "operator": "Exists"}, {}], None)
    assert decode_tolerations('[{"tolerationSeconds": 30, "tolerationseconds": -5}]') == (
        [{"tolerationSeconds": -5}], None)
    assert decode_tolerations("null") == ([], None)


def test_decoded_tolerations_are_validated_at_the_annotations_child_path() -> None:
    text = '[{"key": "a", "operator": "Exists", "value": "v"}, {"operator": "Lt", "tolerationSeconds": 3}]'
    assert errors({TOLERATIONS: text}) == [
        "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[0].operator: Invalid value: \"v\": value "
        "must be empty when `operator` is 'Exists'",
        "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[1].operator: Invalid value: \"Lt\": "
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[1].effect: Invalid value: \"\": effect "
        "must be 'NoExecute' when `tolerationSeconds` is set",
        'metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[1].operator: Unsupported value: "Lt": '
        'supported values: "Equal", "Exists"']


def test_empty_and_valid_tolerations_annotations_pass() -> None:
    assert errors({TOLERATIONS: ""}) == []
    assert errors({TOLERATIONS: "[]"}) == []
    assert errors({TOLERATIONS: '[{"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute", '
                                '"tolerationSeconds": 30}]'}) == []


# ---------------------------------------------------------------- deletion cost

@pytest.mark.parametrize("cost", ["0", "-0", "7", "-12", "2147483647", "-2147483648", "-007"])
def test_valid_deletion_costs(cost: str) -> None:
    assert is_valid_deletion_cost({COST: cost})
    assert errors({COST: cost}) == []


@pytest.mark.parametrize("cost", ["", "+10", "007", "00", "-", "2147483648", "-2147483649", "1.5", " 1", "1_0",
                                  "\uff11"])
def test_invalid_deletion_costs(cost: str) -> None:
    assert not is_valid_deletion_cost({COST: cost})
    assert [e.split(":")[0] for e in errors({COST: cost})] == [f"metadata.annotations[{COST}]"]
    assert errors({COST: cost})[0].endswith(": must be a 32bit integer")
    assert errors({COST: cost}, allow_invalid_cost=True) == []


def test_a_pod_update_keeps_an_invalid_cost_the_pod_already_had() -> None:
    def pod(cost: str) -> dict:
        obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "annotations": {COST: cost}},
               "spec": {"containers": [{"name": "web", "image": "nginx"}]}}
        set_object_defaults(obj, "io.k8s.api.core.v1.Pod")
        return obj

    assert kinds.validate_pod_update(pod("008"), pod("007")) == []
    assert any("must be a 32bit integer" in str(e) for e in kinds.validate_pod_update(pod("008"), pod("7")))


# ---------------------------------------------------------------- seccomp

def test_seccomp_profiles_are_named_or_local_descending_paths() -> None:
    good = {SECCOMP_POD: "runtime/default", SECCOMP + "a": "docker/default", SECCOMP + "b": "unconfined",
            SECCOMP + "c": "localhost/profiles/p.json", SECCOMP + "d": "localhost/"}
    assert errors(good) == []
    assert errors({SECCOMP + "web": "localhost/a/../b", SECCOMP + "x": "localhost//etc/p", SECCOMP_POD: ""}) == [
        'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "": must be a valid seccomp '
        "profile",
        "metadata.annotations.container.seccomp.security.alpha.kubernetes.io/web: Invalid value: \"a/../b\": must "
        "not contain '..'",
        'metadata.annotations.container.seccomp.security.alpha.kubernetes.io/x: Invalid value: "/etc/p": must be a '
        "relative path"]


# ---------------------------------------------------------------- AppArmor

def test_apparmor_annotations_name_a_container_and_a_profile() -> None:
    spec = {"initContainers": [{"name": "init"}], "containers": [{"name": "web"}],
            "ephemeralContainers": [{"name": "debug"}]}
    good = {APPARMOR + "init": "runtime/default", APPARMOR + "web": "localhost/p", APPARMOR + "debug": ""}
    assert errors({**good, APPARMOR + "web": "unconfined"}, spec) == []
    assert errors({APPARMOR + "web": "foo", APPARMOR + "nope": "runtime/default", APPARMOR + "gone": 'a"b'},
                  spec) == [
        f'metadata.annotations[{APPARMOR}web]: Invalid value: "foo": invalid AppArmor profile name: "foo"',
        f'metadata.annotations[{APPARMOR}nope]: Invalid value: "nope": container not found',
        f'metadata.annotations[{APPARMOR}gone]: Invalid value: "gone": container not found',
        f'metadata.annotations[{APPARMOR}gone]: Invalid value: "a\\"b": invalid AppArmor profile name: "a\\"b"']


# ---------------------------------------------------------------- the whole

def test_go_order_then_document_order() -> None:
    annotations = {APPARMOR + "nope": "runtime/default", SECCOMP + "web": "bad", COST: "x",
                   TOLERATIONS: "[1]", "kubernetes.io/config.mirror": "m", SECCOMP_POD: "bad"}
    assert [e.split(":")[0] for e in errors(annotations)] == [
        "metadata.annotations[kubernetes.io/config.mirror]", "metadata.annotations",
        f"metadata.annotations[{COST}]", f"metadata.annotations.{SECCOMP_POD}", f"metadata.annotations.{SECCOMP}web",
        f"metadata.annotations[{APPARMOR}nope]"]


def test_a_pod_template_gets_the_same_checks_at_its_annotations() -> None:
    # ValidatePodTemplateSpec names them as the template's Child("annotations"), without "metadata"
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
                  "spec": {"selector": {"matchLabels": {"a": "b"}},
                           "template": {"metadata": {"labels": {"a": "b"},
                                                     "annotations": {APPARMOR + "nope": "runtime/default"}},
                                        "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}
    set_object_defaults(deployment, "io.k8s.api.apps.v1.Deployment")
    assert [str(e) for e in validate_pod_template_spec(deployment["spec"]["template"],
                                                       Path.root("spec", "template"))] == [
        f'spec.template.annotations[{APPARMOR}nope]: Invalid value: "nope": container not found']
