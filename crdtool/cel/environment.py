"""The CEL environments rules are compiled in: the apiserver's libraries, and `self`/`oldSelf`.

Two environments per rule-bearing schema node. The checking one types `self` and `oldSelf` as the
node's schema type, so compile errors are the apiserver's; its program is not run, because protobuf
messages have no absent fields (an unset integer reads 0 where the apiserver says `no such key`). The
evaluation one declares both `dyn` and runs on plain JSON values, which behave as the apiserver's
unstructured values do; the checking env has already rejected anything ill-typed.

With `optionalOldSelf`, oldSelf is an optional value. cel-expr-python cannot declare a variable of an
optional type, so the rule is wrapped in a one-element comprehension that binds it,
`[<optional>].all(oldSelf, rule)`, and error columns on the first line are shifted back.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from cel_expr_python import cel

from crdtool.cel import deep, library, list_semantics, pool_files, unbounded

if TYPE_CHECKING:
    from crdtool.cel.protos import SchemaTypes

__all__ = ["OLD_SELF_PRESENT", "OLD_SELF_VALUE", "check_env", "eval_env", "optional_old_self_check",
           "optional_old_self_eval"]

OLD_SELF_PRESENT = "__oldSelfPresent"
OLD_SELF_VALUE = "__oldSelfValue"
_CHECK_PREFIX = "[optional.of(self)].all(oldSelf, "
_EVAL_PREFIX = f"[{OLD_SELF_PRESENT} ? optional.of({OLD_SELF_VALUE}) : optional.none()].all(oldSelf, "


def optional_old_self_check(rule: str) -> tuple[str, int]:
    """The rule with oldSelf bound to an optional of self's type, and the columns added to line 1."""
    return f"{_CHECK_PREFIX}{rule})", len(_CHECK_PREFIX)


def optional_old_self_eval(rule: str) -> str:
    """The rule with oldSelf bound to optional.of(the old value) or optional.none()."""
    return f"{_EVAL_PREFIX}{rule})"


def check_env(types: SchemaTypes, declare_old_self: bool = True) -> cel.Env:
    """The type-checking environment of a node whose `self` has the given schema types, made once per
    node and kept with its types: making one reads every message type of the node, and so does an
    environment's first compile (a node with thousands of fields and as many rules was quadratic).
    Of the library's functions it declares those the node's expressions can call (`types.names`)."""
    env = types.check_envs.get(declare_old_self)
    if env is None:
        variables = {"self": types.self_type}
        if declare_old_self:
            variables["oldSelf"] = types.self_type
        functions = library.functions() if types.names is None else library.functions_named(types.names)
        env = types.check_envs[declare_old_self] = cel.NewEnv(
            descriptor_pool=types.pool, variables=variables, config=library.config(), functions=functions)
    return env


@cache
def eval_env(more_variables: tuple[str, ...] = ()) -> cel.Env:
    """The evaluation environment: `self` and `oldSelf` dynamic, plus the optional-oldSelf inputs (and
    `more_variables`, dynamic: the macro variables a piece of a split rule reads, crdtool.cel.deep)."""
    variables = {"self": cel.Type.DYN, "oldSelf": cel.Type.DYN, OLD_SELF_PRESENT: cel.Type.BOOL,
                 OLD_SELF_VALUE: cel.Type.DYN, **{name: cel.Type.DYN for name in more_variables}}
    return cel.NewEnv(descriptor_pool=library_pool(), variables=variables, config=library.config(),
                      functions=[*library.runtime_functions(), *list_semantics.declarations(),
                                 *unbounded.declarations(), *deep.declarations()])


@cache
def library_pool() -> Any:
    """The well-known types and the library's opaque types (IP, CIDR, Quantity, ...), added from their
    serialized files (pool_files): making them as FileDescriptorProtos would import protobuf's
    descriptor messages and the well-known types' modules, which evaluating a rule does not need."""
    from google.protobuf.descriptor_pool import DescriptorPool  # cel.NewEnv imports it in any case

    pool = DescriptorPool()
    for serialized in (*pool_files.WELL_KNOWN, *pool_files.OPAQUE):
        pool.AddSerializedFile(serialized)
    return pool
