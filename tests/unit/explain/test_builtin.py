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
        '    Type of deployment. Can be "Recreate" or "RollingUpdate". Default is\n'
        "    RollingUpdate.\n\n\n")


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
