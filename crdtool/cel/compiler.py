"""Compiling the x-kubernetes-validations rules of a schema node, as the apiserver's cel.Compile does.

Each rule is type-checked against the node's schema type (errors in cel-go's words), must yield a
bool (its messageExpression a string), is costed, and is compiled once more for evaluation over plain
JSON values. Results are cached per schema node, so lint and validation share them and evaluation
never parses a rule again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from cel_expr_python import cel

from crdtool.cel import checked_ast, cost, environment, library, list_semantics, unbounded
from crdtool.cel.types import DeclType, DeclTypes, schema_decl_type
from crdtool.model.gofmt import go_trim_space
from crdtool.model.memo import IdentityMemo
from crdtool.model.record import Record
from crdtool.schema.crd.seam import RuleCompilation, RuleCompileError
from crdtool.schema.structural.structural import Structural, valid_field_path

if TYPE_CHECKING:
    from crdtool.cache import Cache
    from crdtool.cel import deep
    from crdtool.cel.errors import CompileIssue
    from crdtool.cel.protos import SchemaTypes
    from crdtool.cel.sourcemap import SourceMap

__all__ = ["CompiledRule", "NodeRules", "TooDeepError", "check_expression", "compile_node"]

MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024
_OLD_SELF_WORD = re.compile(r"\boldSelf\b")


class CompiledRule(Record):
    """One rule, ready to evaluate: its programs and what the apiserver derives from it.

    The evaluation programs are compiled on first use (linting never needs them), then kept.
    """

    __slots__ = ("rule", "compilation", "expression", "message_expression", "compiled", "unsupported",
                 "optional_old_self", "field_path", "ast", "self_type", "program_bytes", "list_rewrite", "deep_rule",
                 "deep_message", "_program", "_message_program", "_unbounded")

    rule: dict
    compilation: RuleCompilation
    expression: str  # the rule as compiled (numeric literals retyped, library calls rewritten)
    message_expression: str
    compiled: bool  # whether the rule (and its messageExpression) type-checked
    #: Too deeply nested for cel-expr-python (and not cut into pieces): neither checked nor evaluated.
    unsupported: bool
    optional_old_self: bool
    field_path: str  # the normalized fieldPath the error is reported at, relative to the node
    #: The checked AST, to estimate the rule's cost again with a given object's sizes.
    ast: checked_ast.CheckedAst | None
    #: The CEL type of `self` (set and map lists in it change what `==` and `+` mean).
    self_type: DeclType | None
    #: The evaluation program before the rewrite for set and map lists (list_semantics), serialized (as
    #: the persistent cache keeps it): deserializing and rewriting are some ten times faster than compiling.
    program_bytes: bytes | None
    #: Whether that rewrite changes the program (None: not known yet). Most rules' programs it leaves as
    #: they are: known, a warm run deserializes them without looking again.
    list_rewrite: bool | None
    #: A rule (a messageExpression) nested deeper than the CEL runtime parses: how its pieces evaluate.
    deep_rule: deep.EvalPlan | None
    deep_message: deep.EvalPlan | None
    _program: cel.Expression | None
    _message_program: cel.Expression | None
    _unbounded: dict[str, cel.Expression] | None

    def __init__(self, rule: dict, compilation: RuleCompilation, expression: str = "", message_expression: str = "",
                 compiled: bool = False, unsupported: bool = False, optional_old_self: bool = False,
                 field_path: str = "", ast: checked_ast.CheckedAst | None = None, self_type: DeclType | None = None,
                 program_bytes: bytes | None = None, list_rewrite: bool | None = None,
                 deep_rule: deep.EvalPlan | None = None, deep_message: deep.EvalPlan | None = None,
                 _program: cel.Expression | None = None, _message_program: cel.Expression | None = None,
                 _unbounded: dict[str, cel.Expression] | None = None) -> None:
        self.rule = rule
        self.compilation = compilation
        self.expression = expression
        self.message_expression = message_expression
        self.compiled = compiled
        self.unsupported = unsupported
        self.optional_old_self = optional_old_self
        self.field_path = field_path
        self.ast = ast
        self.self_type = self_type
        self.program_bytes = program_bytes
        self.list_rewrite = list_rewrite
        self.deep_rule = deep_rule
        self.deep_message = deep_message
        self._program = _program
        self._message_program = _message_program
        self._unbounded = _unbounded

    @property
    def program(self) -> cel.Expression | None:
        """The rule's evaluation program (None: an empty rule or one that did not compile)."""
        if self._program is None and self.compiled:
            if self.deep_rule is not None:
                self._program = _deep_program(self.deep_rule, self.optional_old_self, self.self_type)
            elif self.program_bytes is not None:
                self._program = _program_from(self.program_bytes, self.optional_old_self, self.self_type,
                                              self.list_rewrite)
            else:
                self._program, self.list_rewrite = _eval_program(self.expression, self.optional_old_self,
                                                                 self.self_type)
        return self._program

    def unbounded(self, program: cel.Expression) -> cel.Expression:
        """`program` (the rule's or its message's) with its comprehensions run one iteration at a time, past
        the engine's cap of 10,000 iterations per evaluation (crdtool.cel.unbounded)."""
        key = "message" if program is self._message_program else "rule"
        if self._unbounded is None:
            self._unbounded = {}
        split = self._unbounded.get(key)
        if split is None:
            split = unbounded.rewrite(program.serialize(), environment.eval_env()) or program
            self._unbounded[key] = split
        return split

    @property
    def message_program(self) -> cel.Expression | None:
        """The messageExpression's evaluation program, if the rule has a valid one."""
        if self._message_program is None and self.compiled and self.message_expression \
                and self.compilation.message_expression_error is None:
            self._message_program = (_deep_program(self.deep_message, False, self.self_type)
                                     if self.deep_message is not None
                                     else _eval_program(self.message_expression, False, self.self_type)[0])
        return self._message_program


class NodeRules(Record):
    """The compiled rules of one schema node and the CEL type of its `self`."""

    __slots__ = ("decl_type", "rules")

    decl_type: DeclType | None
    rules: list[CompiledRule]

    def __init__(self, decl_type: DeclType | None, rules: list[CompiledRule]) -> None:
        self.decl_type = decl_type
        self.rules = rules


_cache: IdentityMemo[NodeRules] = IdentityMemo()


def compile_node(schema: Structural, is_resource_root: bool, store: Cache | None = None) -> NodeRules:
    """The node's compiled rules (compiled on first use; from `store`, the persistent cache, when it
    holds rules of the same type)."""
    hit = _cache.get(schema, is_resource_root)
    if hit is not None:
        return hit
    return _cache.put(schema, _compile(schema, is_resource_root, store), is_resource_root)


# Nodes with the same type and the same rules compile alike: CRDs repeat them across versions and kinds.
_by_fingerprint: dict[tuple, list[CompiledRule]] = {}


#: The CEL types of the nodes met, kept as long as `_cache` keeps the nodes: a node's type is its rules'
#: and part of the types of the rule-bearing nodes above it.
_decl_types: DeclTypes = IdentityMemo()


def _compile(schema: Structural, is_resource_root: bool, store: Cache | None = None) -> NodeRules:
    decl_type = schema_decl_type(schema, is_resource_root, _decl_types)
    rules = schema.x_validations or []
    if decl_type is None:
        raise RuleCompileError("internal error: failed to construct type information for x-kubernetes-validations "
                               "rules: unable to convert structural schema to CEL declarations")
    key = (decl_type.fingerprint(), json.dumps(rules, sort_keys=True))
    stored_key = repr(key).encode() if store is not None and store.enabled else b""  # a long text: made only when used
    compiled = _by_fingerprint.get(key)
    if compiled is None and store is not None and store.enabled:
        compiled = _stored_rules(store, stored_key, decl_type)
    if compiled is None:  # the checking side (protobuf's descriptors) is imported when a rule is compiled
        from crdtool.cel.protos import UndeclarableError, selectable_names

        sources = [r.get(k) or "" for r in rules for k in ("rule", "messageExpression")]
        try:
            types = _schema_types(decl_type, selectable_names(sources))
        except UndeclarableError as err:
            compiled = [_undeclarable(rule, decl_type, str(err)) for rule in rules]
        else:
            max_cardinality = MAX_REQUEST_SIZE_BYTES // (decl_type.min_serialized_size + 1)
            compiled = [_compile_rule(rule, schema, decl_type, types, max_cardinality) for rule in rules]
    if store is not None and store.enabled and not store.holds(_STORE_NAMESPACE, stored_key):
        # Rules first compiled by lint (which keeps none) too: the next run's evaluation reads them.
        store.put(_STORE_NAMESPACE, stored_key, [_storable(r) for r in compiled])
    _by_fingerprint[key] = compiled
    return NodeRules(decl_type, compiled)


#: The message types (and checking environments) made, by their type's fingerprint and the library
#: functions their rules can call: nodes of one type with other rules (a CRD's versions, the kinds of one
#: project) share them. The most recent are kept.
_types_made: dict[tuple, SchemaTypes] = {}
_TYPES_KEPT = 512


def _schema_types(decl_type: DeclType, names: frozenset[str]) -> SchemaTypes:
    """The message types of a node's `self` for rules whose identifiers are `names` (`build_schema_types`),
    made once per type. Raises UndeclarableError."""
    from crdtool.cel.protos import build_schema_types, renumbered

    key = (decl_type.fingerprint(), library.callable_functions(names))
    made = _types_made.get(key)
    if made is not None and (not made.narrowed or made.names == names):
        return renumbered(made)
    types = build_schema_types(decl_type, library.descriptor_files(), names)
    _types_made.pop(key, None)
    _types_made[key] = types
    if len(_types_made) > _TYPES_KEPT:
        del _types_made[next(iter(_types_made))]
    return types


_STORE_NAMESPACE = "cel-rules"


def _storable(rule: CompiledRule) -> CompiledRule:
    """A compiled rule as the persistent cache keeps it: what type-checking and costing found and its
    evaluation program serialized (the rules of a node about to be evaluated), without the type of `self`
    (the node's own) or its message's program (compiled on first use, when a rule fails)."""
    serialized = rule.program_bytes
    if serialized is None and rule.program is not None and rule.deep_rule is None:
        # A program rewritten for set and map lists (list_semantics) does not evaluate the same once
        # serialized and read back: the program before the rewrite is kept, and rewritten when read.
        plain = _plain_program(rule.expression, rule.optional_old_self) if rule.list_rewrite else rule.program
        serialized = plain.serialize()
    return CompiledRule(rule.rule, rule.compilation, rule.expression, rule.message_expression, rule.compiled,
                        rule.unsupported, rule.optional_old_self, rule.field_path, rule.ast, None, serialized,
                        rule.list_rewrite, rule.deep_rule, rule.deep_message)


def _stored_rules(store: Cache, key: bytes, decl_type: DeclType) -> list[CompiledRule] | None:
    """The compiled rules the cache holds for rules of this type (the key: the type's fingerprint and
    the rules), their `self` typed as this node's."""
    stored = store.get(_STORE_NAMESPACE, key)
    if not isinstance(stored, list) or not all(isinstance(r, CompiledRule) for r in stored):
        return None
    for rule in stored:
        rule.self_type = decl_type
    return stored


def _undeclarable(rule: dict, decl_type: DeclType, limit: str) -> CompiledRule:
    """A rule whose `self` type protobuf cannot declare (`limit`, its words): neither checked nor run."""
    compilation = RuleCompilation(unsupported=True, unsupported_note=(
        f"not checked: the CEL engine crdtool uses declares a rule's object types as protobuf messages, and "
        f"protobuf cannot declare this one ({limit}), so the rules here are neither type-checked nor evaluated"))
    return CompiledRule(rule, compilation, unsupported=True, self_type=decl_type)


def _compile_rule(rule: dict, schema: Structural, decl_type: DeclType, types: SchemaTypes,
                  max_cardinality: int) -> CompiledRule:
    from crdtool.cel.depth import parser_limit_error  # checking's modules: a run whose rules are cached needs none

    source = rule.get("rule") or ""
    optional_old_self = bool(rule.get("optionalOldSelf"))
    result = CompiledRule(rule, RuleCompilation(), optional_old_self=optional_old_self, self_type=decl_type)
    if not go_trim_space(source):
        return result
    limit_error = parser_limit_error(source)
    if limit_error is not None:
        result.compilation = RuleCompilation(error_type="invalid", error_detail="compilation failed: " + limit_error)
        return result
    try:
        checked, error, result.expression = _check(source, types, optional_old_self)
    except TooDeepError:
        # Nested deeper than this CEL runtime parses, and not cut into pieces it parses: the rule can be
        # neither checked nor run here. Reporting it as invalid would reject a CRD the apiserver accepts, so
        # it is left out; whether it reads oldSelf is taken from its text (optionalOldSelf asks for it).
        result.unsupported = True
        result.compilation = RuleCompilation(unsupported=True, uses_old_self=bool(_OLD_SELF_WORD.search(source)))
        return result
    if error is not None:
        result.compilation = RuleCompilation(error_type="invalid", error_detail="compilation failed: " + error)
        return result
    if checked.return_type() != cel.Type.BOOL:
        result.compilation = RuleCompilation(error_type="invalid",
                                             error_detail="cel expression must evaluate to a bool")
        return result
    result.ast = _decoded(checked)
    if not isinstance(checked, cel.Expression):  # checked in pieces (crdtool.cel.deep)
        result.deep_rule = checked.plan
    # The apiserver's UsesOldSelf: a reference named oldSelf in the checked expression. cel-go's checker
    # references every identifier it resolves, a macro's variable too, so `self.all(oldSelf, ...)` makes a
    # transition rule as well (the optionalOldSelf wrapping binds oldSelf without an identifier).
    uses_old_self = _reads(result.ast, "oldSelf")
    max_cost, largest = _max_cost(result.ast, decl_type)
    message_source = rule.get("messageExpression") or ""
    message_error, message_cost, message_unsupported = (
        _compile_message_expression(message_source, types, decl_type, result) if message_source
        else (None, 0, False))
    result.compilation = RuleCompilation(
        max_cost=max_cost, max_cardinality=max_cardinality, message_expression_error=message_error,
        has_message_expression=bool(message_source) and not message_unsupported,
        message_expression_max_cost=message_cost, uses_old_self=uses_old_self, largest_size_path=largest,
        message_expression_unsupported=message_unsupported)
    result.compiled = True
    field_path = rule.get("fieldPath") or ""
    if field_path:
        try:
            path, _ = valid_field_path(field_path, schema)
        except ValueError:
            path = None
        result.field_path = str(path) if path is not None else ""
    return result


def _compile_message_expression(source: str, types: SchemaTypes, decl_type: DeclType,
                                result: CompiledRule) -> tuple[str | None, int, bool]:
    """compileRule's messageExpression step: (its error, its estimated cost, whether it nests too deep
    to be checked here, so that the rule's message is used instead). Sets `result.message_expression`."""
    from crdtool.cel.depth import parser_limit_error

    limit_error = parser_limit_error(source)
    if limit_error is not None:
        return "messageExpression compilation failed: " + limit_error, 0, False
    try:
        checked, error, result.message_expression = _check(source, types, optional_old_self=False)
    except TooDeepError:
        return None, 0, True
    if error is not None:
        return "messageExpression compilation failed: " + error, 0, False
    if checked.return_type() != cel.Type.STRING:
        return "messageExpression must evaluate to a string", 0, False
    if not isinstance(checked, cel.Expression):  # checked in pieces (crdtool.cel.deep)
        result.deep_message = checked.plan
    cost, _ = _max_cost(_decoded(checked), decl_type)
    return None, cost, False


class TooDeepError(Exception):
    """The expression nests deeper than cel-expr-python's parser allows (cel-go's limits are in depth),
    and (for rules) it cannot be cut into pieces that parser takes (crdtool.cel.deep).

    Its parser (CEL C++'s) stops at 32 levels, counted both by its grammar-rule listener (`Expression
    recursion limit exceeded. limit: 32`) and by its tree builder (`Exceeded max recursion depth of 32
    when parsing.`): a build-time default that neither `NewEnv` nor its YAML configuration sets. Only
    `Env.compile` type-checks, and it parses from text; a tree built elsewhere can only be handed over
    through `Env.deserialize`, which does not type-check and whose protobuf reader stops at 100 nested
    messages (49 levels of calls). So such an expression is checked and run in pieces, when it can be."""


_RECURSION_LIMIT = re.compile(r"recursion limit exceeded|Exceeded max recursion depth")


def _check(source: str, types: SchemaTypes, optional_old_self: bool, env: cel.Env | None = None
           ) -> tuple[cel.Expression | deep.DeepChecked | None, str | None, str]:
    """Type-check `source`: the checked expression or cel-go's error text, and the text to evaluate.

    `env` is the checking environment (by default the rule's, declaring `self` and `oldSelf` of `types`).
    A rule nested deeper than the CEL runtime parses is checked in pieces (crdtool.cel.deep); an
    expression checked in another environment raises TooDeepError then."""
    from crdtool.cel.errors import format_issues, go_issues

    rule_env = env is None
    if env is None:
        env = environment.check_env(types, declare_old_self=not optional_old_self)
    try:
        checked, error, rewritten, shift = _compile_text(env, source, types, optional_old_self)
    except TooDeepError:
        if not rule_env:
            raise
        return _check_deep(source, types, optional_old_self)
    if error is not None:
        issues = go_issues(error, source, types.type_names, column_shift=shift, source_map=rewritten)
        return None, format_issues(_member_calls_of_globals(issues, source, env, types), source), source
    assert checked is not None, "compiled without error"
    issues = _validator_issues(source, rewritten, lambda: _decoded(checked), types, shift)
    if issues is not None:
        return None, issues, source
    return checked, None, rewritten.text


_UNDECLARED = re.compile(r"undeclared reference to '(\w+)' \(in container ''\)")


def _member_calls_of_globals(issues: list[CompileIssue], source: str, env: cel.Env, types: SchemaTypes
                             ) -> list[CompileIssue]:
    """cel-go's error for a member call of a library function declared only as a global one (`q.sign()`):
    no matching overload, applied to the receiver's and arguments' types, where the engine says the name
    is undeclared. Left as it is when a part does not compile on its own."""
    from crdtool.cel.depth import syntax_nodes
    from crdtool.cel.errors import cel_go_type_name, source_offset

    for issue in issues:
        m = _UNDECLARED.fullmatch(issue.message)
        if m is None or m.group(1) not in library.global_only_functions():
            continue
        offset = source_offset(source, issue.line, issue.column)
        parts = _member_call_parts(source, syntax_nodes(source) or [], m.group(1), offset)
        texts = []
        for part in parts or ():
            checked, error, _, _ = _compile_text(env, part, types, False)
            if checked is None:
                break
            texts.append(cel_go_type_name(checked.return_type(), types.type_names))
        else:
            if parts:
                issue.message = (f"found no matching overload for '{m.group(1)}' applied to "
                                 f"'{texts[0]}.({', '.join(texts[1:])})'")
    return issues


def _member_call_parts(source: str, nodes: list, name: str, paren: int) -> list[str] | None:
    """The receiver's and arguments' texts of the member call `name` whose opening parenthesis is at
    `paren`, or None."""
    from crdtool.cel.depth import member_call

    for call in nodes:
        parts = member_call(source, nodes, call) if call.name == name else None
        if parts is not None and parts.paren == paren:
            return [source[n.start:n.end] for n in (parts.receiver, *parts.arguments)]
    return None


def _compile_text(env: cel.Env, source: str, types: SchemaTypes, optional_old_self: bool
                  ) -> tuple[cel.Expression | None, str | None, SourceMap, int]:
    """Compile `source` in `env`: the checked expression or cel-expr-python's error, the text compiled
    (library calls rewritten, numeric literals widened) with where it came from in `source`, and the
    columns the optionalOldSelf wrapping added before its first line. Raises TooDeepError."""
    from crdtool.cel.numeric import widen_literals
    from crdtool.cel.quiet import quiet_stderr
    from crdtool.cel.sourcemap import SourceMap

    rewritten = library.rewrite(source)
    error = ""
    for _ in range(16):
        text, shift = (environment.optional_old_self_check(rewritten.text) if optional_old_self
                       else (rewritten.text, 0))
        try:
            with quiet_stderr(types.json_name_clash):
                return env.compile(text), None, rewritten, shift
        except RuntimeError as err:
            error = str(err)
            if _RECURSION_LIMIT.search(error):
                raise TooDeepError(error) from None
            widened = widen_literals(rewritten.text, error, shift) if not rewritten.rewritten else None
            if widened is None:
                break
            rewritten = SourceMap.identity(widened)
    return None, error, rewritten, shift


def _validator_issues(source: str, compiled: SourceMap, ast: Callable[[], checked_ast.CheckedAst],
                      types: SchemaTypes, shift: int) -> str | None:
    """cel-go's validators' errors for a checked expression (`compiled` its text as compiled, with where it
    came from in `source`; `ast` its checked tree), or None: literals, homogeneous aggregate literals,
    string.format calls."""
    from crdtool.cel.errors import format_issues
    from crdtool.cel.format_validator import string_format_issues
    from crdtool.cel.homogeneous import aggregate_literal_issues
    from crdtool.cel.literals import literal_issues

    issues = literal_issues(source)
    text = compiled.text
    if "[" in text or "{" in text:  # a list or map literal: cel-go holds it to one type
        found = aggregate_literal_issues(ast(), text, types.type_names, column_shift=shift)
        if "format" in text:  # a format call on a list literal: its clauses are checked
            found += string_format_issues(ast(), text, types.type_names, column_shift=shift)
        issues += compiled.in_source(found, source) if compiled.rewritten else found
    return format_issues(issues, source) if issues else None


def _check_deep(source: str, types: SchemaTypes, optional_old_self: bool
                ) -> tuple[deep.DeepChecked | None, str | None, str]:
    """`_check` of a rule nested deeper than the runtime parses, in pieces. Raises TooDeepError when it
    cannot be cut into pieces checked here."""
    from crdtool.cel import deep
    from crdtool.cel.errors import format_issues, go_issues

    variables = {"self": types.self_type}
    if not optional_old_self:
        variables["oldSelf"] = types.self_type

    def make_env(declared: dict[str, cel.Type], functions: list[cel.FunctionDecl]) -> cel.Env:
        return cel.NewEnv(descriptor_pool=types.pool, variables=declared, config=library.config(),
                          functions=[*library.functions(), *functions])

    def compile_piece(env: cel.Env, text: str, root: bool):
        checked, error, rewritten, shift = _compile_text(env, text, types, optional_old_self and root)
        issues = go_issues(error, source, types.type_names, column_shift=shift) if error is not None else []
        return checked, issues, rewritten.text, shift

    try:
        checked, issues = deep.check(source, variables, make_env, compile_piece,
                                     bound=frozenset({"oldSelf"}) if optional_old_self else frozenset())
    except deep.Unsplittable as err:
        raise TooDeepError(str(err)) from None
    if checked is None:
        return None, format_issues(issues, source), source
    from crdtool.cel.sourcemap import SourceMap

    validator = _validator_issues(source, SourceMap.identity(source), lambda: checked.ast, types, 0)
    if validator is not None:
        return None, validator, source
    return checked, None, source


#: The last expression decoded and its AST: checking a rule with a list or map literal decodes it, and
#: costing it needs the same AST (decoding is a good part of compiling a CRD's rules).
_last_decoded: list[tuple[cel.Expression, checked_ast.CheckedAst]] = []


def _decoded(checked: cel.Expression | deep.DeepChecked) -> checked_ast.CheckedAst:
    """The checked AST of a checked expression (decoded once however often it is asked for in a row)."""
    from crdtool.cel import deep

    if isinstance(checked, deep.DeepChecked):
        return checked.ast
    if _last_decoded and _last_decoded[0][0] is checked:
        return _last_decoded[0][1]
    ast = checked_ast.decode(checked.serialize())
    _last_decoded[:] = [(checked, ast)]
    return ast


def check_expression(source: str, types: SchemaTypes, env: cel.Env) -> tuple[cel.Expression | None, str | None, str]:
    """Type-check an expression in `env` (whose message types are `types`), as rules are checked: the
    checked expression or cel-go's error text, and the text to evaluate. Raises TooDeepError."""
    return _check(source, types, optional_old_self=False, env=env)


def _reads(ast: checked_ast.CheckedAst, name: str) -> bool:
    """Whether a checked tree has the identifier `name`."""
    stack = [ast.root]
    while stack:
        node = stack.pop()
        if node.kind == "ident" and node.name == name:
            return True
        stack.extend(n for n in (node.target, node.iter_range, node.accu_init, node.loop_condition, node.loop_step,
                                 node.result, *node.args, *node.keys) if n is not None)
    return False


def _deep_program(plan: deep.EvalPlan, optional_old_self: bool, self_type: DeclType | None) -> cel.Expression:
    """The program of a rule or messageExpression checked in pieces: `_eval_program` for each piece."""
    from crdtool.cel import deep

    def compile_piece(text: str, number: int) -> cel.Expression:
        more = tuple(sorted(set(plan.free[number]) - {"self", "oldSelf"}))
        return _eval_program(text, optional_old_self and number == 0, self_type, more)[0]

    return deep.program(plan, compile_piece)


def _plain_program(source: str, optional_old_self: bool, variables: tuple[str, ...] = ()) -> cel.Expression:
    """`source` compiled for evaluation over plain values, before any rewrite for set and map lists
    (`variables`: more variables it reads, a piece of a split rule's macro variables)."""
    text = environment.optional_old_self_eval(source) if optional_old_self else source
    return environment.eval_env(variables).compile(text)


def _eval_program(source: str, optional_old_self: bool, self_type: DeclType | None,
                  variables: tuple[str, ...] = ()) -> tuple[cel.Expression, bool]:
    """The program evaluating `source` over plain values, with the apiserver's set and map list
    semantics where `self` holds such lists, and whether that rewrite changed it."""
    program = _plain_program(source, optional_old_self, variables)
    if not list_semantics.needs_rewrite(self_type):
        return program, False
    rewritten = _list_semantics(program.serialize(), optional_old_self, self_type)
    if rewritten is None:
        return program, False
    return environment.eval_env(variables).deserialize(rewritten), True


def _program_from(serialized: bytes, optional_old_self: bool, self_type: DeclType | None,
                  list_rewrite: bool | None) -> cel.Expression:
    """`_eval_program`'s program from the plain program serialized (`_plain_program`, as stored), rewritten
    for set and map lists unless that is known to change nothing (`list_rewrite` False)."""
    rewritten = None if list_rewrite is False else _list_semantics(serialized, optional_old_self, self_type)
    return environment.eval_env().deserialize(serialized if rewritten is None else rewritten)


def _list_semantics(serialized: bytes, optional_old_self: bool, self_type: DeclType | None) -> bytes | None:
    """The serialized program rewritten for the set and map lists of `self`'s type (None: nothing to rewrite)."""
    if self_type is None or not list_semantics.needs_rewrite(self_type):
        return None
    inputs = {"self": "value", environment.OLD_SELF_VALUE: "value"}
    if not optional_old_self:
        inputs["oldSelf"] = "value"
    return list_semantics.rewrite(serialized, self_type, inputs)


def _max_cost(ast: checked_ast.CheckedAst, decl_type: DeclType) -> tuple[int, str]:
    """The estimated worst-case cost of one evaluation of a checked expression, and the path of the
    largest schema size behind it."""
    estimate, largest = cost.estimate_with_largest(ast, decl_type)
    return estimate.max, largest
