"""A webhook's matchConditions: CEL expressions over the request, as the apiserver evaluates them
(k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions/matcher.go, pkg/admission/plugin/cel
filter.go and CreateAdmissionRequest).

The variables are `object`, `oldObject` (null on a create) and `request` (the AdmissionRequest as a
map), all dynamically typed, as a webhook's conditions are compiled. The first condition that is
false means no match; otherwise any evaluation errors are the answer under failurePolicy Fail
(`expression 'X' resulted in error: ...`, several as Go's aggregate `[a, b]`) and no match under
Ignore. `authorizer` checks cannot be answered offline: such a condition is an error crdtool names.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from crdtool.admission.chain import Attributes, JSONObject

__all__ = ["evaluate"]


@cache
def _env() -> Any:
    from cel_expr_python import cel  # type: ignore[import-untyped]

    from crdtool.cel import library
    from crdtool.cel.environment import library_pool

    variables = {"object": cel.Type.DYN, "oldObject": cel.Type.DYN, "request": cel.Type.DYN}
    return cel.NewEnv(descriptor_pool=library_pool(), variables=variables, config=library.config(),
                      functions=library.runtime_functions())


def _request(attributes: Attributes, obj: JSONObject | None, old: JSONObject | None) -> dict[str, Any]:
    """CreateAdmissionRequest: the request the expressions see as `request`."""
    resource = attributes.resource
    return {
        "kind": {"group": resource.group, "version": resource.version, "kind": resource.kind},
        "resource": {"group": resource.group, "version": resource.version, "resource": resource.resource},
        "subResource": resource.subresource,
        "requestKind": {"group": resource.group, "version": resource.version, "kind": resource.kind},
        "requestResource": {"group": resource.group, "version": resource.version, "resource": resource.resource},
        "requestSubResource": resource.subresource,
        "name": attributes.name, "namespace": attributes.namespace, "operation": attributes.operation,
        "userInfo": attributes.user_info, "dryRun": attributes.dry_run,
        "options": {"kind": "CreateOptions" if attributes.operation == "CREATE" else "UpdateOptions",
                    "apiVersion": "meta.k8s.io/v1"},
    }


def _one(expression: str, data: dict[str, Any]) -> tuple[bool, str | None]:
    """(value is false, the error text or None) of one expression."""
    from crdtool.cel import library
    from crdtool.cel.errors import go_runtime_error

    if "authorizer" in expression:
        return False, (f"expression '{expression}' resulted in error: crdtool cannot evaluate authorizer checks "
                       "without a cluster")
    try:
        outcome = _env().compile(library.rewrite(expression)).eval(data=data)
    except RuntimeError as err:
        return False, f"expression '{expression}' resulted in error: {go_runtime_error(str(err))}"
    kind = outcome.type().name()
    if kind == "ERROR":
        return False, f"expression '{expression}' resulted in error: {go_runtime_error(str(outcome.plain_value()))}"
    if kind != "BOOL":
        return False, f"expression '{expression}' resulted in error: cel expression must evaluate to a bool"
    return outcome.plain_value() is False, None


def evaluate(conditions: Any, attributes: Attributes, obj: JSONObject | None, old: JSONObject | None,
             failure_policy: str) -> tuple[str | None, bool]:
    """(the error under failurePolicy Fail, or None; whether the conditions match)."""
    data = {"object": obj, "oldObject": old, "request": _request(attributes, obj, old)}
    errors: list[str] = []
    for condition in conditions if isinstance(conditions, list) else []:
        expression = condition.get("expression") if isinstance(condition, dict) else None
        is_false, error = _one(str(expression or ""), data)
        if is_false:
            return None, False
        if error is not None:
            errors.append(error)
    if not errors:
        return None, True
    if failure_policy == "Ignore":
        return None, False
    return (errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"), False
