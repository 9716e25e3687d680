"""CEL validation rules (x-kubernetes-validations) as the apiserver compiles, costs and evaluates them.

Imported only when a schema has rules: the CEL runtime is not needed for anything else. Lint reaches
it through `rule_compiler`, which imports the compiler at the first rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crdtool.schema.structural.structural import has_rules

if TYPE_CHECKING:
    from crdtool.model.errors import FieldError
    from crdtool.model.path import Path
    from crdtool.schema.crd.seam import RuleCompilation, RuleCompileRequest
    from crdtool.schema.structural.structural import Structural

__all__ = ["rule_compiler"]


class _RuleCompiler:
    """The lint seam (schema.crd.seam.RuleCompiler) over `compiler.compile_node`. Light to import:
    the compiler, and with it the CEL runtime, loads at the first rule (a node's rules to compile, a
    default under rules to check), so that linting a CRD without rules never loads it."""

    def compile(self, request: RuleCompileRequest) -> list[RuleCompilation]:
        from crdtool.cel.compiler import compile_node

        node = compile_node(request.schema, request.is_resource_root)
        return [r.compilation for r in node.rules]

    def validate_default(self, schema: Structural, is_resource_root: bool, value: Any, path: Path
                         ) -> list[FieldError]:
        if not has_rules(schema):
            return []  # hasXValidations: the apiserver makes no CEL validator for the default
        from crdtool.cel.evaluate import validate_default

        return validate_default(schema, is_resource_root, value, path)


rule_compiler = _RuleCompiler()
