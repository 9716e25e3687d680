"""CEL validation rules (x-kubernetes-validations) as the apiserver compiles, costs and evaluates them.

Imported only when a schema has rules: the CEL runtime is not needed for anything else.
"""

from __future__ import annotations

__all__ = ["rule_compiler"]


def __getattr__(name: str):
    if name == "rule_compiler":
        from crdtool.cel.compiler import rule_compiler
        return rule_compiler
    raise AttributeError(name)
