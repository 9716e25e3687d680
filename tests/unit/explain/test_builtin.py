"""`crdtool explain` for built-in kinds (crdtool.explain.builtin and the built-in resources of
explain.resolve): kubectl explain's text against a 1.36 apiserver, from the vendored types.

The expected texts follow kubectl 1.36's plaintext template as the CRD tests do: a built-in
kind's header names its group (none for the core group), a field of a named struct type shows the
type's Go name (`<DeploymentStrategy>`, `<[]Container>`), IntOrString and Quantity show theirs,
and a field's DESCRIPTION is its own text then its type's. ObjectMeta's text is checked against
what the real kubectl printed (../shared/conformance/kubectl/explain.jsonl).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conformance_cases import available, params

from crdtool.cli.explain import command
from crdtool.explain.resolve import builtin_resources

DEPLOYMENT_HEADER = "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\n"


def run(*args: str):
    return CliRunner().invoke(command, list(args))


def test_a_field_of_a_builtin_kind() -> None:
    res = run("deployments.spec.strategy")
    assert res.exit_code == 0, res.output
    assert res.stdout == DEPLOYMENT_HEADER + (
        "FIELD: strategy <DeploymentStrategy>\n\n\n"
        "DESCRIPTION:\n"
        "    The deployment strategy to use to replace existing pods with new ones.\n"
        "    DeploymentStrategy describes how to replace existing pods with new ones.\n"
        "    \n"
        "FIELDS:\n"
        "  rollingUpdate\t<RollingUpdateDeployment>\n"
        "    Rolling update config params. Present only if DeploymentStrategyType =\n"
        "    RollingUpdate.\n\n"
        "  type\t<string>\n"
        "  enum: Recreate, RollingUpdate\n"
        '    Type of deployment. Can be "Recreate" or "RollingUpdate". Default is\n'
        "    RollingUpdate.\n"
        "    \n"
        "    Possible enum values:\n"
        '     - `"Recreate"` Kill all existing pods before creating new ones.\n'
        '     - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling\n'
        "    update i.e gradually scale down the old ReplicaSets and scale up the new\n"
        "    one.\n\n\n")


# kubectl 1.36 against a 1.36 apiserver: an enum field explained alone lists its values under ENUM:, and
# its description ends with the lines openapi-gen builds from the constants of its Go type
# (k8s.io/api core/v1 PullPolicy, RestartPolicy, ServiceType; apps/v1 DeploymentStrategyType).
IMAGE_PULL_POLICY = (
    "KIND:       Pod\nVERSION:    v1\n\n"
    "FIELD: imagePullPolicy <string>\n"
    "ENUM:\n    Always\n    IfNotPresent\n    Never\n\n"
    "DESCRIPTION:\n"
    "    Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if\n"
    "    :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More\n"
    "    info: https://kubernetes.io/docs/concepts/containers/images#updating-images\n"
    "    \n"
    "    Possible enum values:\n"
    '     - `"Always"` means that kubelet always attempts to pull the latest image.\n'
    "    Container will fail If the pull fails.\n"
    '     - `"IfNotPresent"` means that kubelet pulls if the image isn\'t present on\n'
    "    disk. Container will fail if the image isn't present and the pull fails.\n"
    '     - `"Never"` means that kubelet never pulls an image, but only uses a local\n'
    "    image. Container will fail if the image isn't present\n"
    "    \n\n")
RESTART_POLICY = (
    "KIND:       Pod\nVERSION:    v1\n\n"
    "FIELD: restartPolicy <string>\n"
    "ENUM:\n    Always\n    Never\n    OnFailure\n\n"
    "DESCRIPTION:\n"
    "    Restart policy for all containers within the pod. One of Always, OnFailure,\n"
    "    Never. In some contexts, only a subset of those values may be permitted.\n"
    "    Default to Always. More info:\n"
    "    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy\n"
    "    \n"
    "    Possible enum values:\n"
    '     - `"Always"`\n'  # constants without a doc comment: the value alone
    '     - `"Never"`\n'
    '     - `"OnFailure"`\n'
    "    \n\n")
SERVICE_TYPE_VALUES = (
    "    Possible enum values:\n"
    '     - `"ClusterIP"` means a service will only be accessible inside the cluster,\n'
    "    via the cluster IP.\n"
    '     - `"ExternalName"` means a service consists of only a reference to an\n'
    "    external name that kubedns or equivalent will return as a CNAME record, with\n"
    "    no exposing or proxying of any pods involved.\n"
    '     - `"LoadBalancer"` means a service will be exposed via an external load\n'
    "    balancer (if the cloud provider supports it), in addition to 'NodePort'\n"
    "    type.\n"
    '     - `"NodePort"` means a service will be exposed on one port of every node,\n'
    "    in addition to 'ClusterIP' type.\n"
    "    \n\n")
STRATEGY_TYPE = (
    DEPLOYMENT_HEADER
    + "FIELD: type <string>\n"
    "ENUM:\n    Recreate\n    RollingUpdate\n\n"
    "DESCRIPTION:\n"
    '    Type of deployment. Can be "Recreate" or "RollingUpdate". Default is\n'
    "    RollingUpdate.\n"
    "    \n"
    "    Possible enum values:\n"
    '     - `"Recreate"` Kill all existing pods before creating new ones.\n'
    '     - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling\n'
    "    update i.e gradually scale down the old ReplicaSets and scale up the new\n"
    "    one.\n"
    "    \n\n")


@pytest.mark.parametrize(("argument", "expected"), [
    ("pods.spec.containers.imagePullPolicy", IMAGE_PULL_POLICY),
    ("deploy.spec.template.spec.restartPolicy", DEPLOYMENT_HEADER + RESTART_POLICY.split("\n\n", 1)[1]),
    ("pods.spec.restartPolicy", RESTART_POLICY),
    ("deployments.spec.strategy.type", STRATEGY_TYPE),
])
def test_an_enum_field_shows_its_values_and_their_descriptions(argument: str, expected: str) -> None:
    res = run(argument)
    assert res.exit_code == 0, res.output
    assert res.stdout == expected


def test_a_service_type_lists_its_values() -> None:
    res = run("svc.spec.type")
    assert res.stdout.startswith("KIND:       Service\nVERSION:    v1\n\nFIELD: type <string>\n"
                                 "ENUM:\n    ClusterIP\n    ExternalName\n    LoadBalancer\n    NodePort\n\n"
                                 "DESCRIPTION:\n    type determines how the Service is exposed.")
    assert res.stdout.endswith("service-types\n    \n" + SERVICE_TYPE_VALUES)


def test_a_field_list_shows_up_to_four_enum_values() -> None:
    """Under a field's line, `enum:` and four values at most, then `....`."""
    service = run("svc.spec").stdout
    assert "  type\t<string>\n  enum: ClusterIP, ExternalName, LoadBalancer, NodePort\n" in service
    assert "  sessionAffinity\t<string>\n  enum: ClientIP, None\n" in service
    container = run("pods.spec.containers").stdout
    assert "  imagePullPolicy\t<string>\n  enum: Always, IfNotPresent, Never\n" in container
    assert "    stopSignal\t<string>\n    enum: SIGABRT, SIGALRM, SIGBUS, SIGCHLD, ....\n" in run(
        "pods.spec.containers", "--recursive").stdout


def test_int_or_string_and_quantity_fields_show_their_types_descriptions() -> None:
    """IntOrString and Quantity publish their doc comments (with their OpenAPI v3 shapes): explain
    prints the field's description, then the type's."""
    surge = run("deploy.spec.strategy.rollingUpdate.maxSurge").stdout
    assert surge.endswith(
        "    time during the update is at most 130% of desired pods.\n"
        "    IntOrString is a type that can hold an int32 or a string.  When used in JSON\n"
        "    or YAML marshalling and unmarshalling, it produces or consumes the inner\n"
        "    type.  This allows you to have, for example, a JSON field that can accept a\n"
        "    name or number.\n    \n\n")
    hard = run("ResourceQuota.spec.hard").stdout
    assert hard.startswith(
        "KIND:       ResourceQuota\nVERSION:    v1\n\nFIELD: hard <map[string]Quantity>\n\n\n"
        "DESCRIPTION:\n"
        "    hard is the set of desired hard limits for each named resource. More info:\n"
        "    https://kubernetes.io/docs/concepts/policy/resource-quotas/\n"
        "    Quantity is a fixed-point representation of a number. It provides convenient\n"
        "    marshaling/unmarshaling in JSON and YAML, in addition to String() and\n"
        "    AsInt64() accessors.\n    \n    The serialization format is:\n    \n"
        "    ``` <quantity>        ::= <signedNumber><suffix>\n    \n"
        '    \t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n')
    assert hard.endswith("    implementors to also use a fixed point implementation.\n    \n\n")


def test_a_core_kind_by_short_name_has_no_group_line() -> None:
    res = run("svc")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("KIND:       Service\nVERSION:    v1\n\nDESCRIPTION:\n    Service is a named "
                                 "abstraction of software service")
    assert "  spec\t<ServiceSpec>\n" in res.stdout


def test_types_are_go_names_lists_and_maps() -> None:
    pod = run("pods.spec").stdout
    assert "  containers\t<[]Container> -required-\n" in pod
    assert "  nodeSelector\t<map[string]string>\n" in pod
    assert "  terminationGracePeriodSeconds\t<integer>\n" in pod
    assert "  hostNetwork\t<boolean>\n" in pod
    resources = run("deploy.spec.template.spec.containers.resources").stdout
    assert "  limits\t<map[string]Quantity>\n" in resources
    assert run("deploy.spec.strategy.rollingUpdate.maxSurge").stdout.startswith(
        DEPLOYMENT_HEADER + "FIELD: maxSurge <IntOrString>\n")
    assert "  creationTimestamp\t<string>\n" in run("pods.metadata").stdout


def test_recursive_lists_names_and_types_only() -> None:
    res = run("pods", "--recursive")
    assert res.exit_code == 0
    assert "\n  spec\t<PodSpec>\n    activeDeadlineSeconds\t<integer>\n" in res.stdout
    assert "\n    containers\t<[]Container> -required-\n      args\t<[]string>\n" in res.stdout
    assert "Pod is a collection of containers" in res.stdout  # the kind's own description stays


def test_api_version_picks_another_served_version() -> None:
    assert run("hpa").stdout.startswith("GROUP:      autoscaling\nKIND:       HorizontalPodAutoscaler\n"
                                        "VERSION:    v2\n")
    res = run("hpa.spec", "--api-version", "autoscaling/v1")
    assert res.exit_code == 0
    assert res.stdout.startswith("GROUP:      autoscaling\nKIND:       HorizontalPodAutoscaler\nVERSION:    v1\n")
    assert "  targetCPUUtilizationPercentage\t<integer>\n" in res.stdout


def test_plural_dot_group_selects_the_group() -> None:
    res = run("deployments.apps.spec.replicas")
    assert res.stdout.startswith(DEPLOYMENT_HEADER + "FIELD: replicas <integer>\n")


def test_an_unknown_field_prints_the_header_then_the_error() -> None:
    res = run("deploy.spec.nope")
    assert res.exit_code == 1
    assert res.stdout == DEPLOYMENT_HEADER
    assert res.stderr == 'error: field "nope" does not exist\n'


def test_a_custom_resource_needs_its_crd() -> None:
    res = run("crontabs")
    assert res.exit_code == 1
    assert res.stderr == 'error: the server doesn\'t have a resource type "crontabs"\n'


def test_builtin_resources_come_in_discovery_order() -> None:
    """The core group's resources first; each resource with its served versions, preferred first."""
    resources = builtin_resources()
    assert resources[0].group == ""
    hpa = next(r for r in resources if r.plural == "horizontalpodautoscalers")
    assert list(hpa.versions) == ["v2", "v1"]
    assert "deploy" in next(r for r in resources if r.plural == "deployments").short_names


@pytest.mark.skipif(not available(), reason="shared conformance cases not found")
def test_object_meta_matches_what_kubectl_printed() -> None:
    """ObjectMeta's texts (from the vendored descriptions) are kubectl's for `widgets.metadata`."""
    case = next(c for c in params("kubectl/explain") if c.id == "explain/synthetic/types-all/metadata").values[0]
    widget_header = "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\n"
    expected = case["expected"]["stdout"].removeprefix(widget_header)
    assert run("deploy.metadata").stdout == DEPLOYMENT_HEADER + expected


def test_the_published_schema_of_a_kind() -> None:
    """explain.builtin.openapi_document: the root carries its GVK, a described struct field is
    `allOf: [{$ref}]` beside its description, IntOrString has no `type`, Time is a date-time string."""
    from crdtool.explain.builtin import PREFIX, openapi_document

    document = openapi_document("apps", "v1", "Deployment")
    assert document is not None
    schemas = document["components"]["schemas"]
    root = schemas["io.k8s.api.apps.v1.Deployment"]
    assert root["x-kubernetes-group-version-kind"] == [{"group": "apps", "kind": "Deployment", "version": "v1"}]
    assert root["properties"]["spec"] == {"allOf": [{"$ref": PREFIX + "io.k8s.api.apps.v1.DeploymentSpec"}],
                                          "description": "Specification of the desired behavior of the Deployment."}
    assert "type" not in schemas["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]
    assert schemas["io.k8s.apimachinery.pkg.apis.meta.v1.Time"]["format"] == "date-time"
    assert "io.k8s.api.batch.v1.JobSpec" not in schemas  # only what the kind reaches
    assert openapi_document("apps", "v1", "NoSuchKind") is None


def test_the_document_carries_what_structured_merge_reads() -> None:
    """The published shapes (a 1.36 apiserver's /openapi/v3/apis/apps/v1): a list's type, keys and patch
    strategy beside its items; a type's own map type; a field's map type beside its $ref (wrapped in
    allOf); a scalar field's default, its marker's or openapi-gen's zero value."""
    from crdtool.explain.builtin import openapi_document

    document = openapi_document("apps", "v1", "Deployment")
    assert document is not None
    schemas = document["components"]["schemas"]
    containers = schemas["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"]
    assert {k: v for k, v in containers.items() if k.startswith("x-")} == {
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}
    assert schemas["io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"]["x-kubernetes-map-type"] == "atomic"
    port = schemas["io.k8s.api.core.v1.ContainerPort"]["properties"]
    assert (port["protocol"]["default"], port["containerPort"]["default"], "default" in port["hostPort"]) == (
        "TCP", 0, False)
    strategy = schemas["io.k8s.api.apps.v1.DeploymentSpec"]["properties"]["strategy"]
    assert strategy["allOf"] == [{"$ref": "#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy"}]
    assert strategy["x-kubernetes-patch-strategy"] == "retainKeys"
