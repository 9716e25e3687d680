"""k8s.io/apiserver pkg/admission/plugin/policy/mutating/patch/smd_test.go's TestApplyConfiguration, its
cases by name, over a Deployment written as the caller writes one: the same cases run on a custom
resource with a Deployment's list and map types (tests/unit/admission/policy/test_smd.py) and on the
real apps/v1 Deployment types (test_smd_builtin.py)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from crdtool.admission.policy.patchers import MutationError

#: (the case's name, expression, object, old object, the expected object or the error's text)
Case = tuple[str, str, dict[str, Any], dict[str, Any] | None, dict[str, Any] | str]

ENV = [{"name": "test", "value": "a"}, {"name": "test", "value": "b"}]
IN_CONTAINER = ('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{'
                'containers: [Object.spec.template.spec.containers{name: "nginx", %s}]}}}}')
REFUSED = "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: "


def smd_test_go_cases(deployment: Callable[[dict[str, Any]], dict[str, Any]],
                      pod: Callable[..., dict[str, Any]]) -> list[Case]:
    """The cases, with `deployment(spec)` the whole object and `pod(**podspec)` a spec's template."""
    return [
        ("apply configuration add to listType=map",
         "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
         'volumes: [Object.spec.template.spec.volumes{name: "y"}]}}}}',
         deployment(pod(volumes=[{"name": "x"}])), None, deployment(pod(volumes=[{"name": "x"}, {"name": "y"}]))),
        ("apply configuration update listType=map entry",
         "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
         'volumes: [Object.spec.template.spec.volumes{name: "y", hostPath: '
         'Object.spec.template.spec.volumes.hostPath{path: "a"}}]}}}}',
         deployment(pod(volumes=[{"name": "x"}, {"name": "y"}])), None,
         deployment(pod(volumes=[{"name": "x"}, {"name": "y", "hostPath": {"path": "a"}}]))),
        ("apply configuration with conditionals",
         "Object{spec: Object.spec{replicas: object.spec.replicas % 2 == 0?object.spec.replicas + 1:"
         "object.spec.replicas}}", deployment({"replicas": 2}), None, deployment({"replicas": 3})),
        ("apply configuration with old object",
         "Object{spec: Object.spec{replicas: oldObject.spec.replicas % 2 == 0?oldObject.spec.replicas + 1:"
         "oldObject.spec.replicas}}", deployment({"replicas": 1}), deployment({"replicas": 2}),
         deployment({"replicas": 3})),
        ("complex apply configuration initialization",
         'Object{spec: Object.spec{replicas: 1, template: Object.spec.template{metadata: '
         'Object.spec.template.metadata{labels: {"app": "nginx"}}, spec: Object.spec.template.spec{containers: '
         '[Object.spec.template.spec.containers{name: "nginx", image: "nginx:1.14.2", ports: '
         '[Object.spec.template.spec.containers.ports{containerPort: 80}], resources: '
         'Object.spec.template.spec.containers.resources{limits: {"cpu": "128M"}}}]}}}}',
         deployment({}), None,
         deployment({"replicas": 1, "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [
             {"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}],
              "resources": {"limits": {"cpu": "128M"}}}]}}})),
        ("apply configuration with change to atomic",
         'Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}',
         deployment({"replicas": 1}), None, REFUSED + ".spec.selector"),
        ("apply configuration with invalid type name", "Object{spec: Object.specx{replicas: 1}}",
         deployment({"replicas": 1}), None,
         'type mismatch: unexpected type name "Object.specx", expected "Object.spec", which matches field name '
         "path from root Object type"),
        ("apply configuration with invalid field name", "Object{spec: Object.spec{replicasx: 1}}",
         deployment({"replicas": 1}), None,
         "error applying patch: failed to convert patch object to typed object: .spec.replicasx: field not "
         "declared in schema"),
        ("apply configuration with duplicate env vars in original object", "Object{spec: Object.spec{replicas: 3}}",
         deployment({"replicas": 1, **pod(containers=[{"name": "nginx", "env": ENV}])}), None,
         deployment({"replicas": 3, **pod(containers=[{"name": "nginx", "env": ENV}])})),
        ("apply configuration modify existing env variable",
         IN_CONTAINER % 'env: [Object.spec.template.spec.containers.env{name: "test", value: "c"}]',
         deployment({"replicas": 1, **pod(containers=[{"name": "nginx", "env": [*ENV, {"name": "foo",
                                                                                        "value": "bar"}]}])}),
         None, deployment({"replicas": 1, **pod(containers=[{"name": "nginx", "env": [
             {"name": "test", "value": "c"}, {"name": "foo", "value": "bar"}]}])})),
    ]


def assert_applies(apply: Callable[[str, dict[str, Any], dict[str, Any] | None], dict[str, Any]], expression: str,
                   obj: dict[str, Any], old: dict[str, Any] | None, expected: dict[str, Any] | str) -> None:
    """`apply(expression, obj, old)` gives `expected`: the object, or (a string) MutationError's text; the
    request's object is never modified in place."""
    before = copy.deepcopy(obj)
    if isinstance(expected, str):
        with pytest.raises(MutationError) as err:
            apply(expression, obj, old)
        assert str(err.value) == expected
    else:
        assert apply(expression, obj, old) == expected
    assert obj == before
