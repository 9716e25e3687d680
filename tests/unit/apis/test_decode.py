"""Decoding of built-in objects (crdtool.apis.decode, gotypes, quantity, openapi)."""

from __future__ import annotations

import pytest

from crdtool.apis import openapi
from crdtool.apis.decode import decode
from crdtool.model.quantity import ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, QuantityError, parse_quantity

DEPLOYMENT = openapi.definition_name("apps", "v1", "Deployment")
SERVICE = openapi.definition_name("", "v1", "Service")
POD = openapi.definition_name("", "v1", "Pod")


def deployment(spec: dict) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}, "spec": spec}


# k8s.io/apimachinery pkg/api/resource/quantity_test.go, TestQuantityParse's `invalid` list
@pytest.mark.parametrize(("text", "error"), [
    ("1.1.M", ERR_FORMAT_WRONG), ("1+1.0M", ERR_FORMAT_WRONG), ("0.1mi", ERR_SUFFIX), ("0.1am", ERR_FORMAT_WRONG),
    ("aoeu", ERR_FORMAT_WRONG), (".5i", ERR_SUFFIX), ("1i", ERR_SUFFIX), ("-3.01i", ERR_SUFFIX),
    ("-3.01e-", ERR_SUFFIX), (" 1", ERR_FORMAT_WRONG), ("1 ", ERR_FORMAT_WRONG), ("", ERR_FORMAT_WRONG),
    (".e-10", ERR_NUMERIC),
])
def test_invalid_quantities(text: str, error: str) -> None:
    with pytest.raises(QuantityError) as err:
        parse_quantity(text)
    assert str(err.value) == error


@pytest.mark.parametrize("text", ["0", "1", "100m", "1.5Gi", "1e3", "1E-3", "-1", "+5", "0.5", "128974848",
                                  "129e6", "129M", "123Mi", "1.", "5Ei", "12e+3"])
def test_valid_quantities(text: str) -> None:
    parse_quantity(text)


def test_types_carry_go_names_and_field_order() -> None:
    spec = openapi.go_type("io.k8s.api.apps.v1.DeploymentSpec")
    assert spec.go == "v1.DeploymentSpec"
    assert list(spec.fields)[:4] == ["replicas", "selector", "template", "strategy"]
    assert "replicas" in spec.pointers and "replicas" in spec.omitempty
    container = openapi.go_type("io.k8s.api.core.v1.Container")
    assert container.fields["imagePullPolicy"].go == "v1.PullPolicy"
    assert container.fields["ports"].go == "[]v1.ContainerPort"
    assert container.fields["resources"].fields["limits"].go == "v1.ResourceList"


def test_a_number_for_a_named_string_names_the_go_type() -> None:
    obj = deployment({"template": {"spec": {"containers": [{"name": "c", "imagePullPolicy": 5}]}}})
    assert decode(obj, openapi.go_type(DEPLOYMENT)).error == (
        "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.imagePullPolicy "
        "of type v1.PullPolicy")


def test_an_int_or_string_reads_its_int32_with_the_fields_context() -> None:
    obj = {"apiVersion": "v1", "kind": "Service", "spec": {"ports": [{"port": 80, "targetPort": True}]}}
    assert decode(obj, openapi.go_type(SERVICE)).error == (
        "json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32")
    ok = decode({"spec": {"ports": [{"port": 80, "targetPort": "http"}]}}, openapi.go_type(SERVICE))
    assert ok.error is None and ok.object["spec"]["ports"][0]["targetPort"] == "http"


def test_a_number_is_a_quantity_as_its_text() -> None:
    obj = {"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": 0.5, "memory": True}}}]}}
    assert decode(obj, openapi.go_type(POD)).error == ERR_FORMAT_WRONG
    assert decode({"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": 0.5}}}]}},
                  openapi.go_type(POD)).error is None


def test_a_bad_time_is_time_parse_error() -> None:
    obj = {"metadata": {"name": "x", "creationTimestamp": "yesterday"}}
    assert decode(obj, openapi.go_type(POD)).error.startswith('parsing time "yesterday"')


def test_unknown_fields_are_listed_in_the_apiservers_sorted_order() -> None:
    obj = deployment({"zeta": 1, "template": {"spec": {"containers": [{"name": "c", "prots": []}]}}, "alpha": 2})
    found = decode(obj, openapi.go_type(DEPLOYMENT))
    assert found.error is None
    assert found.strict_errors == ['unknown field "spec.alpha"',
                                   'unknown field "spec.template.spec.containers[0].prots"',
                                   'unknown field "spec.zeta"']
    assert "zeta" not in found.object["spec"]


def test_a_type_error_wins_over_unknown_fields() -> None:
    obj = deployment({"prots": 1, "replicas": "3"})
    found = decode(obj, openapi.go_type(DEPLOYMENT))
    assert found.object is None and found.strict_errors == []
    assert found.error == ("json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas "
                           "of type int32")


def test_the_first_type_error_in_sorted_order_is_reported() -> None:
    obj = deployment({"replicas": "3", "minReadySeconds": "x"})
    assert "minReadySeconds" in decode(obj, openapi.go_type(DEPLOYMENT)).error


def test_secret_data_is_base64() -> None:
    secret = openapi.go_type(openapi.definition_name("", "v1", "Secret"))
    assert decode({"data": {"k": "not base64!"}}, secret).error == "illegal base64 data at input byte 3"
    assert decode({"data": {"k": "aGk="}}, secret).error is None
