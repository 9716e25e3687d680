"""crdtool's own notes on a CRD: rules it could neither type-check nor evaluate.

The CEL runtime crdtool uses parses expressions nested at most 32 levels deep; cel-go's limits
(crdtool.cel.depth) are far higher and decided without it. A rule between the two is checked and
evaluated in pieces the runtime parses (crdtool.cel.deep); the few that cannot be cut so (every deep
part reads an optional oldSelf, or yields a type or an optional value) are not reported as errors (the
apiserver accepts them) but not silently passed over either: the user is told they were not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crdtool.model.notes import Note
from crdtool.schema.crd.seam import RuleCompilation, RuleCompiler, RuleCompileRequest

TOO_DEEP = ("not checked: the rule nests deeper than crdtool's CEL engine parses (32 levels) and cannot be cut into "
            "pieces it parses, though within cel-go's parser limits, so it is neither type-checked nor evaluated here")

TOO_DEEP_MESSAGE = ("not checked: the messageExpression nests deeper than crdtool's CEL engine parses (32 levels) and "
                    "cannot be cut into pieces it parses, though within cel-go's parser limits, so it is neither "
                    "type-checked nor evaluated here, and its estimated cost is left out of the CRD's cost total")


@dataclass
class UnsupportedRules:
    """A RuleCompiler that compiles through `inner` and notes each rule it could not handle."""

    inner: RuleCompiler
    notes: list[Note] = field(default_factory=list)

    def compile(self, request: RuleCompileRequest) -> list[RuleCompilation]:
        results = self.inner.compile(request)
        for i, compilation in enumerate(results):
            rule_path = request.path.child("x-kubernetes-validations").index(i)
            if compilation.unsupported:
                self.notes.append(Note(rule_path.child("rule"), compilation.unsupported_note or TOO_DEEP))
            if compilation.message_expression_unsupported:
                self.notes.append(Note(rule_path.child("messageExpression"), TOO_DEEP_MESSAGE))
        return results

    def validate_default(self, *args, **kwargs):
        return self.inner.validate_default(*args, **kwargs)
