"""Service validation against the expectations of kubernetes' own tests (pkg/apis/core/validation
validation_test.go, 1.36: TestValidateServiceCreate, TestValidateServiceUpdate,
TestValidateServiceExternalTrafficPolicy and TestValidateServiceClusterIPsRelatedFields), each case
an object, the field path and error type the Go test expects, and the text where it states it."""

from __future__ import annotations

import copy

import pytest

from crdtool.apis.core import services
from crdtool.apis.defaults import set_object_defaults
from crdtool.model.errors import ErrorType

R, IV, NS, F, D = (ErrorType.REQUIRED, ErrorType.INVALID, ErrorType.NOT_SUPPORTED, ErrorType.FORBIDDEN,
                   ErrorType.DUPLICATE)


def service(**spec) -> dict:
    """makeValidService: a ClusterIP service with one TCP port and a selector, defaulted as stored,
    with `spec` applied before defaulting (a field emptied by the case stays empty, as the Go test's
    tweak sets it after defaulting)."""
    obj = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "valid", "namespace": "default"},
           "spec": {"selector": {"key": "val"}, "ports": [{"name": "p", "port": 8675, "targetPort": 8675}],
                    **spec}}
    set_object_defaults(obj, "io.k8s.api.core.v1.Service")
    obj["spec"].update({k: v for k, v in spec.items() if v == ""})
    return obj


def port(name: str = "p", number: int = 80, **more) -> dict:
    return {"name": name, "port": number, "targetPort": number, "protocol": "TCP", **more}


def found(obj: dict) -> list[tuple[ErrorType, str]]:
    return [(e.type, e.field) for e in services.validate_service_create(obj)]


# (Go test case, spec changes, expected (type, field), a text the Go test states or None)
CREATE_CASES = [
    ("missing type", {"type": ""}, (R, "spec.type"), None),
    ("invalid type", {"type": "INVALID"}, (NS, "spec.type"), None),
    ("missing ports", {"ports": []}, (R, "spec.ports"), None),
    ("empty port[1] name", {"ports": [port("p"), port("", 12345)]}, (R, "spec.ports[1].name"), None),
    ("invalid port name", {"ports": [port("INVALID")]}, (IV, "spec.ports[0].name"), None),
    ("dup port name", {"ports": [port("p"), port("p", 81)]}, (D, "spec.ports[1].name"), None),
    ("invalid port", {"ports": [port("p", 65536)]}, (IV, "spec.ports[0].port"),
     "must be between 1 and 65535, inclusive"),
    ("missing protocol", {"ports": [{"name": "p", "port": 80, "protocol": ""}]}, None, None),
    ("invalid protocol", {"ports": [port(protocol="INVALID")]}, (NS, "spec.ports[0].protocol"), None),
    ("invalid cluster ip", {"clusterIP": "invalid"}, (IV, "spec.clusterIPs[0]"),
     "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
    ("invalid targetPort int", {"ports": [port(targetPort=65536)]}, (IV, "spec.ports[0].targetPort"), None),
    ("invalid targetPort string", {"ports": [port(targetPort="123-456")]}, (IV, "spec.ports[0].targetPort"),
     None),
    ("invalid publicIPs localhost", {"type": "NodePort", "externalIPs": ["127.0.0.1"]},
     (IV, "spec.externalIPs[0]"), "may not be in the loopback range (127.0.0.0/8, ::1/128)"),
    ("invalid publicIPs unspecified", {"type": "NodePort", "externalIPs": ["0.0.0.0"]},
     (IV, "spec.externalIPs[0]"), "may not be unspecified (0.0.0.0)"),
    ("invalid publicIPs link-local", {"type": "NodePort", "externalIPs": ["169.254.0.1"]},
     (IV, "spec.externalIPs[0]"), "may not be in the link-local range (169.254.0.0/16, fe80::/10)"),
    ("invalid publicIPs link-local multicast", {"type": "NodePort", "externalIPs": ["ff02::1"]},
     (IV, "spec.externalIPs[0]"), "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"),
    ("invalid publicIPs", {"externalIPs": ["1.2.3.4.5"]}, (IV, "spec.externalIPs[0]"), None),
    ("dup port", {"ports": [port("p", 1), port("q", 1)]}, (D, "spec.ports[1]"), None),
    ("invalid load balancer protocol UDP 1", {"type": "LoadBalancer", "ports": [port(protocol="INVALID")]},
     (NS, "spec.ports[0].protocol"), None),
    ("invalid node port with clusterIP type", {"ports": [port(nodePort=30123)]},
     (F, "spec.ports[0].nodePort"), "may not be used when `type` is 'ClusterIP'"),
    ("duplicate nodeports", {"type": "NodePort", "ports": [port("p", 1, nodePort=30123), port("q", 2, nodePort=30123)]},
     (D, "spec.ports[1].nodePort"), None),
    ("invalid LoadBalancerSourceRanges", {"type": "LoadBalancer", "loadBalancerSourceRanges": ["10.0.0.0/33"]},
     (IV, "spec.LoadBalancerSourceRanges[0]"), "must be a valid CIDR value"),
    ("LoadBalancerSourceRanges on NodePort", {"type": "NodePort", "loadBalancerSourceRanges": ["10.0.0.0/8"]},
     (F, "spec.LoadBalancerSourceRanges"), "may only be used when `type` is 'LoadBalancer'"),
    ("invalid type ExternalName without name", {"type": "ExternalName", "ports": []}, (R, "spec.externalName"),
     None),
    ("invalid ExternalName", {"type": "ExternalName", "externalName": "-123"}, (IV, "spec.externalName"), None),
    ("ExternalName with clusterIP", {"type": "ExternalName", "externalName": "foo.bar.example.com",
                                     "clusterIP": "1.2.3.4"}, (F, "spec.clusterIPs"),
     "may not be set for ExternalName services"),
    ("headless NodePort", {"type": "NodePort", "clusterIP": "None"}, (IV, "spec.clusterIPs[0]"),
     "may not be set to 'None' for NodePort services"),
    ("headless LoadBalancer", {"type": "LoadBalancer", "clusterIP": "None"}, (IV, "spec.clusterIPs[0]"),
     "may not be set to 'None' for LoadBalancer services"),
    ("invalid session affinity", {"sessionAffinity": "INVALID"}, (NS, "spec.sessionAffinity"), None),
    ("invalid timeoutSeconds", {"sessionAffinity": "ClientIP",
                                "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": -1}}},
     (IV, "spec.sessionAffinityConfig.clientIP.timeoutSeconds"), "must be greater than 0 and less than 86400"),
    ("invalid selector", {"selector": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}}, (IV, "spec.selector"),
     None),
    ("externalTrafficPolicy on ClusterIP", {"externalTrafficPolicy": "Local"}, (IV, "spec.externalTrafficPolicy"),
     "may only be set for externally-accessible services"),
    ("invalid externalTrafficPolicy", {"type": "NodePort", "externalTrafficPolicy": "Nope"},
     (NS, "spec.externalTrafficPolicy"), None),
    ("healthCheckNodePort without Local", {"type": "LoadBalancer", "healthCheckNodePort": 34567},
     (IV, "spec.healthCheckNodePort"),
     "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"),
    ("invalid internalTrafficPolicy", {"internalTrafficPolicy": "Nope"}, (NS, "spec.internalTrafficPolicy"), None),
    ("allocateLoadBalancerNodePorts on ClusterIP", {"allocateLoadBalancerNodePorts": True},
     (F, "spec.allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"),
    ("loadBalancerClass on ClusterIP", {"loadBalancerClass": "test.com/test"}, (F, "spec.loadBalancerClass"),
     "may only be used when `type` is 'LoadBalancer'"),
    ("invalid loadBalancerClass", {"type": "LoadBalancer", "loadBalancerClass": "Bad/Class"},
     (IV, "spec.loadBalancerClass"), None),
    ("invalid appProtocol", {"ports": [port(appProtocol="example.com/protocol:v1")]},
     (IV, "spec.ports[0].appProtocol"), None),
    ("invalid trafficDistribution", {"trafficDistribution": "PreferSomewhere"}, (NS, "spec.trafficDistribution"),
     'supported values: "PreferClose", "PreferSameZone", "PreferSameNode"'),
    ("clusterIPs without clusterIP", {"clusterIPs": ["10.0.0.1"]}, (IV, "spec.clusterIPs"),
     "must be empty when `clusterIP` is not specified"),
    ("clusterIPs not matching clusterIP", {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.2"]},
     (IV, "spec.clusterIPs"), "first value must match `clusterIP`"),
    ("None not alone", {"clusterIP": "None", "clusterIPs": ["None", "10.0.0.1"]}, (IV, "spec.clusterIPs"),
     "'None' must be the first and only value"),
    ("two IPv4", {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "10.0.0.2"]}, (IV, "spec.clusterIPs"),
     "may specify no more than one IP for each IP family"),
    ("three IPs", {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "2000::1", "10.0.0.2"]},
     (IV, "spec.clusterIPs"), "may only hold up to 2 values"),
    ("family mismatch", {"clusterIP": "10.0.0.1", "ipFamilies": ["IPv6"]}, (IV, "spec.clusterIPs[0]"),
     "expected an IPv6 value as indicated by `ipFamilies[0]`"),
    ("invalid family", {"ipFamilies": ["IPv5"]}, (NS, "spec.ipFamilies[0]"), None),
    ("duplicate family", {"ipFamilies": ["IPv4", "IPv4"]}, (D, "spec.ipFamilies[1]"), None),
    ("invalid family policy", {"ipFamilyPolicy": "Sometimes"}, (NS, "spec.ipFamilyPolicy"), None),
    ("topology annotations disagree", {}, None, None),
]


@pytest.mark.parametrize(("go_test", "changes", "expected", "text"), CREATE_CASES, ids=[c[0] for c in CREATE_CASES])
def test_service_create(go_test: str, changes: dict, expected: tuple | None, text: str | None) -> None:
    obj = service(**changes)
    errors = services.validate_service_create(obj)
    if expected is None:  # defaulting fills what the case leaves empty: valid
        assert errors == [], [str(e) for e in errors]
        return
    matching = [e for e in errors if (e.type, e.field) == expected]
    assert matching, f"{go_test}: {[str(e) for e in errors]}"
    if text is not None:
        assert any(text in e.detail for e in matching), [str(e) for e in matching]


VALID = [
    ("valid", {}),
    ("valid headless", {"clusterIP": "None"}),
    ("valid headless without ports", {"clusterIP": "None", "ports": []}),
    ("valid ExternalName with trailing dot", {"type": "ExternalName", "externalName": "foo.bar.example.com."}),
    ("valid NodePort with nodePort", {"type": "NodePort", "ports": [port(nodePort=30123)]}),
    ("valid LoadBalancer Local without healthCheckNodePort (allocated)",
     {"type": "LoadBalancer", "externalTrafficPolicy": "Local"}),
    ("valid dual stack", {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "2000::1"],
                          "ipFamilies": ["IPv4", "IPv6"], "ipFamilyPolicy": "RequireDualStack"}),
    ("valid ClientIP affinity (timeout defaulted)", {"sessionAffinity": "ClientIP"}),
    ("valid same protocol and port over TCP and UDP", {"ports": [port("p", 53), port("q", 53, protocol="UDP")]}),
    ("valid space-padded source range", {"type": "LoadBalancer", "loadBalancerSourceRanges": [" 10.0.0.0/8 "]}),
    ("valid PreferSameNode", {"trafficDistribution": "PreferSameNode"}),
    ("valid leading zeros (legacy field)", {"clusterIP": "010.0.0.1"}),
]


@pytest.mark.parametrize(("go_test", "changes"), VALID, ids=[c[0] for c in VALID])
def test_valid_services(go_test: str, changes: dict) -> None:
    errors = services.validate_service_create(service(**changes))
    assert errors == [], [str(e) for e in errors]


def test_texts_character_for_character() -> None:
    """Whole messages, as ErrorBody renders the Go values (a duplicate port is the internal struct)."""
    obj = service(ports=[port("p", 1), port("q", 1)], sessionAffinity="Sticky", type="NodePort",
                  externalIPs=["fe80::1"])
    assert [str(e) for e in services.validate_service_create(obj)] == [
        'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
        'spec.externalIPs[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, '
        'fe80::/10)',
        'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":1,"TargetPort":0,'
        '"NodePort":0}']


def test_topology_annotations_must_agree() -> None:
    obj = service()
    obj["metadata"]["annotations"] = {"service.kubernetes.io/topology-mode": "Auto",
                                      "service.kubernetes.io/topology-aware-hints": "Disabled"}
    assert [str(e) for e in services.validate_service_create(obj)] == [
        'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match '
        'annotations[service.kubernetes.io/topology-aware-hints] when both are specified']


def test_source_range_annotation() -> None:
    """The annotation is checked when the field is empty, at the annotation's path."""
    obj = service(type="NodePort")
    obj["metadata"]["annotations"] = {"service.beta.kubernetes.io/load-balancer-source-ranges": "10.0.0.0/8, x"}
    assert found(obj) == [
        (F, "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]"),
        (IV, "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]")]


def update_errors(old: dict, new: dict) -> list[str]:
    return [str(e) for e in services.validate_service_update(new, old)]


def test_update_cluster_ip_is_immutable() -> None:
    """TestValidateServiceUpdate/change cluster IP, add and remove secondary IPs."""
    old = services.prepare_for_create(service(clusterIP="1.2.3.4"))
    new = copy.deepcopy(old)
    new["spec"]["clusterIP"] = "8.6.7.5"
    # PrepareForUpdate: clusterIPs left as stored follow the changed clusterIP; then it may not change
    assert update_errors(old, new) == [
        'spec.clusterIPs[0]: Invalid value: ["8.6.7.5"]: may not change once set']
    dual = copy.deepcopy(old)
    dual["spec"].update(clusterIPs=["1.2.3.4", "2000::1"], ipFamilyPolicy="PreferDualStack",
                        ipFamilies=["IPv4", "IPv6"])
    assert update_errors(old, dual) == []
    single = copy.deepcopy(dual)
    single["spec"].update(clusterIPs=["1.2.3.4"], ipFamilies=["IPv4"])
    assert update_errors(dual, single) == [
        'spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the '
        'secondary clusterIP',
        'spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the '
        'secondary ipFamily']


def test_update_an_old_client_keeps_cluster_ips() -> None:
    """NormalizeClusterIPs: a client that sends only clusterIP keeps the stored clusterIPs."""
    old = services.prepare_for_create(service(clusterIP="1.2.3.4"))
    new = copy.deepcopy(old)
    del new["spec"]["clusterIPs"]
    assert update_errors(old, new) == []


def test_update_to_external_name_drops_cluster_ips() -> None:
    """dropTypeDependentFields: clusterIPs left as they were are released for an ExternalName."""
    old = services.prepare_for_create(service(clusterIP="1.2.3.4"))
    new = copy.deepcopy(old)
    new["spec"].update(type="ExternalName", externalName="example.com")
    new["spec"].pop("internalTrafficPolicy")
    assert update_errors(old, new) == []


def test_update_load_balancer_class_and_health_check_port() -> None:
    old = service(type="LoadBalancer", loadBalancerClass="a.io/x", externalTrafficPolicy="Local",
                  healthCheckNodePort=30001)
    new = copy.deepcopy(old)
    new["spec"].update(loadBalancerClass="b.io/y", healthCheckNodePort=30002)
    assert update_errors(old, new) == [
        'spec.loadBalancerClass: Invalid value: "b.io/y": may not change once set',
        "spec.healthCheckNodePort: Forbidden: field is immutable"]
