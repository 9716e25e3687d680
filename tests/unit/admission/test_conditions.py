"""A webhook's matchConditions (crdtool.admission.conditions), compiled in the typed admission
environment as the apiserver compiles them (pkg/admission/plugin/webhook/accessors.go
GetCompiledMatcher; plugin/cel compile.go) and evaluated as matchconditions/matcher.go does."""

from __future__ import annotations

import pytest

from crdtool.admission.chain import Attributes, Resource
from crdtool.admission.conditions import compile_condition, evaluate

V1 = Resource("stable.example.com", "v1", "CronTab", "crontabs")
V2 = Resource("stable.example.com", "v2", "CronTab", "crontabs")
OBJ = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "c"}, "spec": {"n": 1}}


def run(*expressions: str, failure: str = "Fail", invoked: Resource = V1, namespace: str = "default"):
    attributes = Attributes(operation="CREATE", object=OBJ, old_object=None, resource=V1, name="c",
                            namespace=namespace)
    conditions = [{"name": f"c{i}", "expression": e} for i, e in enumerate(expressions)]
    return evaluate(conditions, attributes, invoked, OBJ, None, failure)


@pytest.mark.parametrize(("expression", "error"), [
    ("request.nope == 1", "compilation failed: ERROR: <input>:1:8: undefined field 'nope'\n"
                          " | request.nope == 1\n | .......^"),
    ("request.name", "must evaluate to bool but got string"),
    ("params == null", "compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' "
                       "(in container '')\n | params == null\n | ^"),
])
def test_typed_compile_errors(expression: str, error: str) -> None:
    assert compile_condition(expression).error == error


def test_a_condition_that_does_not_compile_is_an_evaluation_error() -> None:
    problem, matched, _ = run("request.name")
    assert (problem, matched) == ("compilation error: must evaluate to bool but got string", False)
    assert run("request.name", failure="Ignore") == (None, False, "")


@pytest.mark.parametrize(("expression", "matched"), [
    ("request.kind.version == 'v2' && request.resource.version == 'v1'", True),
    ("request.requestKind.version == 'v1'", True),
    ("request.options.dryRun == ['All']", True),
    ("namespaceObject == null", True),
    ("!has(request.subResource)", True),
    ("request.namespace == 'other'", False),
])
def test_the_request_is_the_matched_kind_with_the_requests_resource(expression: str, matched: bool) -> None:
    assert run(expression, invoked=V2) == (None, matched, "")


def test_false_wins_over_errors_and_errors_aggregate() -> None:
    assert run("object.spec.nothing == 1", "false") == (None, False, "")
    problem, _, _ = run("object.spec.nothing == 1", "object.spec.other == 1")
    assert problem == ("[expression 'object.spec.nothing == 1' resulted in error: no such key: nothing, "
                       "expression 'object.spec.other == 1' resulted in error: no such key: other]")


def test_a_missing_optional_field_is_absent_not_empty() -> None:
    problem, _, _ = run("request.name == 'c' && request.namespace == ''", namespace="")
    assert problem == ("expression 'request.name == 'c' && request.namespace == ''' resulted in error: "
                       "no such key: namespace")


AUTHORIZER = "authorizer.group('apps').resource('deployments').check('scale').allowed()"


@pytest.mark.parametrize("failure", ["Fail", "Ignore"])
def test_a_condition_reading_the_authorizer_leaves_the_match_undecided(failure: str) -> None:
    """matcher.go would ask the authorizer: crdtool cannot, so there is no match and no error, only
    what was not decided (the first such condition), whatever the failurePolicy and the other errors."""
    undecided = (f"matchCondition '{AUTHORIZER}' reads the authorizer, which crdtool cannot consult "
                 "without a cluster")
    assert run(AUTHORIZER, failure=failure) == (None, False, undecided)
    assert run("object.spec.nothing == 1", AUTHORIZER, "true", failure=failure) == (None, False, undecided)


def test_a_false_condition_decides_even_beside_the_authorizer() -> None:
    assert run(AUTHORIZER, "object.spec.n == 2") == (None, False, "")
