"""CEL expressions of admission (policies' validations, variables, audit annotations, matchConditions),
compiled and evaluated as k8s.io/apiserver pkg/admission/plugin/cel does (compile.go, activation.go,
composition.go).

The checking environment declares what compile.go's createEnvForOpts declares: `object` and
`oldObject` (dyn), `request` (kubernetes.AdmissionRequest) and `namespaceObject`
(kubernetes.Namespace) as the apiserver's object types, `params` (dyn) when the policy has a
paramKind, `authorizer` when the expression may use it, and `variables` (kubernetes.variables) with
one field per variable compiled before, typed by that variable's output type. Evaluation runs on
plain JSON values, as rules do (crdtool.cel.environment); variables are read lazily (`Composition`),
so a variable that fails is an error only for the evaluations that reach a read of it. The CEL
engine's cap of 10,000 comprehension iterations is not the apiserver's: past it an expression runs
again loop by loop (crdtool.cel.unbounded), stopped only by the apiserver's per-call cost limit.

The status controller's type checker (admission.policy.typecheck) declares `object` and `oldObject`
typed by a matched kind's schema and `params` by the paramKind's instead (`TypedObjects`).

Authorization checks cannot be answered without a cluster: an expression that reads `authorizer`
compiles (its functions are declared with the library's types), but is never evaluated here
(`Evaluation.unsupported`), and the caller says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from cel_expr_python import cel
from google.protobuf import descriptor_pb2

from crdtool.cel import environment, library, unbounded
from crdtool.cel.checked_ast import CheckedAst, decode
from crdtool.cel.compiler import TooDeepError, check_expression
from crdtool.cel.depth import parser_limit_error
from crdtool.cel.errors import cel_go_type_name, go_runtime_error, not_evaluable, split_types
from crdtool.cel.protos import SchemaTypes, build_schema_types
from crdtool.cel.sized import PER_CALL_LIMIT
from crdtool.cel.types import DeclField, DeclType

__all__ = ["BOOL", "NULL", "STRING", "ANY", "AdmissionCompiler", "Compiled", "Composition", "Evaluation",
           "PatchTypes", "TypedObjects", "Variable", "eval_env", "evaluate", "reads_variable"]

#: The return types an expression kind allows (ExpressionAccessor.ReturnTypes).
BOOL, STRING, NULL, ANY = "bool", "string", "null_type", "any"

_VARIABLE = "__crdtoolVariable"
_AUTHORIZER_WORD = re.compile(r"\bauthorizer\b")
_STRING_LITERAL = re.compile("|".join((
    r"(?:[bB][rR]?|[rR][bB]?)?(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"",
    r"'(?:\\[\s\S]|[^'\\\n\r])*'",
    r'"(?:\\[\s\S]|[^"\\\n\r])*")',
)))


@dataclass(frozen=True)
class Variable:
    """A policy's variable as later expressions see it: its name and its compiled output type."""

    name: str
    type: DeclType


@dataclass
class Compiled:
    """One expression compiled: the text to evaluate, or the apiserver's compile error.

    `error_type` is "invalid" (a compile or return type error, `error` its detail) or "" when it compiled.
    `issues` is cel-go's own text of a compile error (what `error` says after "compilation failed: ").
    """

    expression: str
    text: str = ""
    error: str = ""
    error_type: str = ""
    issues: str = ""
    output: DeclType | None = None
    uses_authorizer: bool = False
    #: Nested deeper than crdtool's CEL runtime parses: neither checked nor evaluated here.
    unsupported: bool = False
    #: The evaluation environment when not the common one (a mutation's, with its patch types).
    env: Any = field(default=None, repr=False)
    #: Programs by the variables whose reads they make lazy: as written, and run loop by loop.
    _programs: dict[tuple[tuple[str, ...], bool], Any] = field(default_factory=dict, repr=False)
    #: The variables it reads, by the variables declared.
    _reads: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict, repr=False)
    #: The checked expression, serialized (decoded for the cost estimate only when asked).
    _checked: bytes = field(default=b"", repr=False)
    _ast: Any = field(default=None, repr=False)
    #: Its cost over values of at most N elements each, by N (crdtool.cel.admission_cost).
    cost_bounds: dict[int, int] = field(default_factory=dict, repr=False)

    def reads(self, variables: tuple[str, ...]) -> tuple[str, ...]:
        """Those of `variables` the expression's text reads."""
        if variables not in self._reads:
            self._reads[variables] = tuple(name for name in variables if reads_variable(self.text, name))
        return self._reads[variables]

    def program(self, variables: tuple[str, ...] = ()) -> Any:
        """The program to run, reading `variables` lazily (see Composition)."""
        key = (variables, False)
        if key not in self._programs:
            self._programs[key] = self.eval_env().compile(_lazy_reads(self.text, variables))
        return self._programs[key]

    def unbounded(self, variables: tuple[str, ...] = ()) -> Any:
        """The program with its comprehensions run loop by loop, past the engine's 10,000 iterations."""
        key = (variables, True)
        if key not in self._programs:
            program = self.program(variables)
            self._programs[key] = unbounded.rewrite(program.serialize(), self.eval_env(), _ENV_VARIABLES) or program
        return self._programs[key]

    def eval_env(self) -> cel.Env:
        return self.env if self.env is not None else _eval_env()

    def ast(self) -> CheckedAst | None:
        """The checked tree the cost estimate walks (None when the expression did not compile)."""
        if self._ast is None and self._checked:
            self._ast = decode(self._checked)
        return self._ast


@dataclass(frozen=True)
class TypedObjects:
    """The type checker's declarations (policy/validating/typechecking.go, buildEnvSet): `object` and
    `oldObject` typed by one matched kind's schema, `params` by the paramKind's (dyn when None), each
    type named as the apiserver names it (the kind with a number); `authorizer` is declared without
    its `authorizer.requestResource`."""

    object: DeclType | None
    object_name: str
    params: DeclType | None = None
    params_name: str = ""


class PatchTypes(Protocol):
    """The types a mutation's expressions construct (compile.go's HasPatchTypes: `Object...` and
    `JSONPatch`, and the jsonpatch library): how an expression is rewritten to be checked and run here."""

    def descriptor_files(self) -> list[descriptor_pb2.FileDescriptorProto]: ...

    def functions(self) -> list[cel.FunctionDecl]: ...

    def eval_env(self) -> cel.Env: ...

    def rewrite(self, expression: str) -> tuple[str, Callable[[str], str]]:
        """The text to check and run, and the function that words its compile errors for `expression`."""
        ...


@dataclass(frozen=True)
class Evaluation:
    """An expression's outcome: its value, or the apiserver's error text (`cel.Error.Detail`)."""

    value: Any = None
    error: str | None = None
    #: Not evaluated: it reads the authorizer, or crdtool cannot run it.
    unsupported: str | None = None
    #: The value as data for another evaluation (uints kept as uints).
    data: Any = field(default=None, repr=False)
    #: What the evaluation certainly cost in cel-go's units (its loops run here; 0 when the engine ran it all).
    lower: int = 0


def _string(max_elements: int = 0) -> DeclType:
    return DeclType("string", max_elements=max_elements, min_serialized_size=2)


def _object(fields: Sequence[tuple[str, DeclType, bool]]) -> DeclType:
    return DeclType("object", min_serialized_size=2,
                    fields={name: DeclField(name, name, t, required) for name, t, required in fields})


def _list(elem: DeclType) -> DeclType:
    return DeclType("list", min_serialized_size=2, elem_type=elem)


def _map(elem: DeclType) -> DeclType:
    return DeclType("map", min_serialized_size=2, elem_type=elem, key_type=_string())


def request_type() -> DeclType:
    """BuildRequestType: the `request` variable's type."""
    gvk = _object([("group", _string(), True), ("version", _string(), True), ("kind", _string(), True)])
    gvr = _object([("group", _string(), True), ("version", _string(), True), ("resource", _string(), True)])
    user_info = _object([("username", _string(), False), ("uid", _string(), False),
                         ("groups", _list(_string()), False), ("extra", _map(_list(_string())), False)])
    return _object([("kind", gvk, True), ("resource", gvr, True), ("subResource", _string(), False),
                    ("requestKind", gvk, True), ("requestResource", gvr, True),
                    ("requestSubResource", _string(), False), ("name", _string(), True),
                    ("namespace", _string(), False), ("operation", _string(), True),
                    ("userInfo", user_info, True), ("dryRun", DeclType("bool"), False),
                    ("options", DeclType("dyn"), False)])


def namespace_type() -> DeclType:
    """BuildNamespaceType: the `namespaceObject` variable's type."""
    strings = _list(_string())
    labels = _map(_string())
    timestamp = DeclType("timestamp")
    condition = _object([("status", _string(), True), ("type", _string(), True),
                         ("lastTransitionTime", timestamp, True), ("message", _string(), True),
                         ("reason", _string(), True)])
    metadata = _object([("name", _string(), True), ("generateName", _string(), True),
                        ("namespace", _string(), True), ("labels", labels, True), ("annotations", labels, True),
                        ("UID", _string(), True), ("creationTimestamp", timestamp, True),
                        ("deletionGracePeriodSeconds", DeclType("int"), True), ("deletionTimestamp", timestamp, True),
                        ("generation", DeclType("int"), True), ("resourceVersion", _string(), True),
                        ("finalizers", strings, True)])
    return _object([("metadata", metadata, True), ("spec", _object([("finalizers", strings, True)]), True),
                    ("status", _object([("conditions", _list(condition), True), ("phase", _string(), True)]), True)])


#: The apiserver's names of the declared object types, by their path from the declarations' root.
_TYPE_NAMES = {
    "request": "kubernetes.AdmissionRequest", "request.kind": "kubernetes.GroupVersionKind",
    "request.requestKind": "kubernetes.GroupVersionKind", "request.resource": "kubernetes.GroupVersionResource",
    "request.requestResource": "kubernetes.GroupVersionResource", "request.userInfo": "kubernetes.UserInfo",
    "namespaceObject": "kubernetes.Namespace", "namespaceObject.metadata": "kubernetes.NamespaceMetadata",
    "namespaceObject.spec": "kubernetes.NamespaceSpec", "namespaceObject.status": "kubernetes.NamespaceStatus",
    "namespaceObject.status.conditions.@idx": "kubernetes.NamespaceCondition", "variables": "kubernetes.variables",
}


class AdmissionCompiler:
    """The compiler of one policy (or webhook's matchConditions): its variables, in order, are
    declared to the expressions compiled after them (CompositedCompiler)."""

    def __init__(self, has_params: bool, patch_types: PatchTypes | None = None,
                 typed: TypedObjects | None = None) -> None:
        self.has_params = has_params
        self.patch_types = patch_types
        self.typed = typed
        self.variables: list[Variable] = []
        self._variable_results: dict[str, Compiled] = {}
        self._types: SchemaTypes | None = None
        self._envs: dict[tuple[bool, bool], cel.Env] = {}

    def compile_variable(self, name: str, expression: str) -> Compiled:
        """CompileAndStoreVariable: the variable compiled and declared to later expressions (dyn when it
        did not compile)."""
        result = self.compile(expression, (ANY,), authorizer=True)
        self.variables.append(Variable(name, result.output or DeclType("dyn")))
        self._variable_results[name] = result
        self._types = None
        self._envs.clear()
        return result

    def compile(self, expression: str, returns: Sequence[str], authorizer: bool, patch: bool = False) -> Compiled:
        """CompileCELExpression: `expression` checked in the environment (with `authorizer` declared or
        not, with the patch types when `patch`), its output type one of `returns`."""
        result = Compiled(expression)
        limit_error = parser_limit_error(expression)
        if limit_error is not None:
            result.issues = limit_error
            result.error, result.error_type = "compilation failed: " + limit_error, "invalid"
            return result
        types = self._schema_types()
        source, word_error = expression, None
        if patch and self.patch_types is not None:
            source, word_error = self.patch_types.rewrite(expression)
            result.env = self.patch_types.eval_env()
        try:
            checked, error, result.text = check_expression(source, types, self._env(authorizer, patch))
        except TooDeepError:
            result.unsupported = True
            return result
        if error is not None and word_error is not None:
            error = word_error(error)
        if error is not None:
            result.issues = error
            result.error, result.error_type = "compilation failed: " + error, "invalid"
            return result
        output = cel_go_type_name(checked.return_type(), types.type_names)
        if ANY not in returns and output not in returns:
            result.error_type = "invalid"
            result.error = (f"must evaluate to {returns[0]} but got {output}" if len(returns) == 1 else
                            f"must evaluate to one of [{' '.join(returns)}] but got {output}")
            return result
        result.output = _decl_type(checked.return_type())
        result._checked = checked.serialize()
        result.uses_authorizer = authorizer and _reads_authorizer(expression)
        return result

    def variable_results(self) -> Mapping[str, Compiled]:
        return self._variable_results

    def _schema_types(self) -> SchemaTypes:
        if self._types is None:
            variables = _object([(v.name, v.type, True) for v in self.variables])
            declared = [("request", request_type(), True), ("namespaceObject", namespace_type(), True),
                        ("variables", variables, True)]
            typed_names: dict[str, str] = {}
            for name, t, type_name in self._typed_variables():
                declared.append((name, t, True))
                typed_names[name] = type_name
            patch_files = self.patch_types.descriptor_files() if self.patch_types is not None else []
            types = build_schema_types(_object(declared), [*library.descriptor_files(), _authz_file(), *patch_files])
            root_name = next(name for full, name in types.type_names.items() if "." not in name)
            for full, name in list(types.type_names.items()):
                path = name[len(root_name) + 1:]
                head, dot, rest = path.partition(".")
                if path in _TYPE_NAMES:
                    types.type_names[full] = _TYPE_NAMES[path]
                elif head in typed_names:  # a typed object's types: `Kind123`, `Kind123.spec`, ...
                    types.type_names[full] = typed_names[head] + dot + rest
            self._types = types
        return self._types

    def _env(self, authorizer: bool, patch: bool = False) -> cel.Env:
        patch = patch and self.patch_types is not None
        env = self._envs.get((authorizer, patch))
        if env is None:
            types = self._schema_types()
            by_name = {name: full for full, name in types.type_names.items()}
            typed = {name: _cel_type(t, by_name.get(type_name, "")) for name, t, type_name in self._typed_variables()}
            variables = {"object": typed.get("object", cel.Type.DYN), "oldObject": typed.get("object", cel.Type.DYN),
                         "request": cel.Type(by_name["kubernetes.AdmissionRequest"]),
                         "namespaceObject": cel.Type(by_name["kubernetes.Namespace"]),
                         "variables": cel.Type(by_name["kubernetes.variables"])}
            if self.has_params:
                variables["params"] = typed.get("params", cel.Type.DYN)
            functions = library.functions()
            if authorizer:
                variables["authorizer"] = cel.Type(f"{_AUTHZ}.Authorizer")
                if self.typed is None:
                    variables["authorizer.requestResource"] = cel.Type(f"{_AUTHZ}.ResourceCheck")
                functions = [*functions, *_authz_functions()]
            if patch and self.patch_types is not None:
                functions = [*functions, *self.patch_types.functions()]
            env = self._envs[(authorizer, patch)] = cel.NewEnv(descriptor_pool=types.pool, variables=variables,
                                                      config=library.config(), functions=functions)
        return env

    def _typed_variables(self) -> list[tuple[str, DeclType, str]]:
        """The typed `object` and `params` declarations (name, type, the apiserver's type name)."""
        typed = self.typed
        if typed is None:
            return []
        out = []
        if typed.object is not None:
            out.append(("object", typed.object, typed.object_name))
        if self.has_params and typed.params is not None:
            out.append(("params", typed.params, typed.params_name))
        return out


def _cel_type(t: DeclType, message: str) -> cel.Type:
    """A typed variable's CEL type: its object message (a resource's root is an object), else dyn."""
    return cel.Type(message) if t.kind == "object" and message else cel.Type.DYN


#: The variables of the admission environment, which a loop run here reads as its arguments.
_ENV_VARIABLES = frozenset({"object", "oldObject", "request", "namespaceObject", "params", "variables", "authorizer"})


class Composition:
    """composition.go's compositionContext with the lazy map of variables newActivation gives it: a
    variable is evaluated when an expression first reads it (the expression's own evaluation asks for it,
    so a read the evaluation never reaches evaluates nothing), then its value is kept for the other
    expressions of the context. Its error is an error where it is read, a failed variable that is never
    read fails nothing. What each read evaluated is kept in `pending` until the caller takes it
    (GetAndResetCost: the variables' cost is charged to the expression that read them).

    One context is one ForInput. The contexts of one activation share what they evaluated (`context()`):
    the values are the same, but each context charges what its expressions read again, as the apiserver
    evaluates a variable again in each."""

    def __init__(self, variables: Sequence[tuple[str, Compiled]], activation: Mapping[str, Any],
                 memo: dict[str, tuple[Evaluation, tuple[str, ...]]] | None = None) -> None:
        self.variables = dict(variables)
        self.activation = activation
        #: name -> (its outcome as readers see it, the variables its evaluation read)
        self._memo = memo if memo is not None else {}
        self._read: set[str] = set()
        self.pending: list[tuple[str, Evaluation]] = []
        #: A read of a variable crdtool cannot evaluate, in the evaluation under way.
        self.unsupported: str | None = None
        self._reads: list[str] | None = None  # the reads of the variable being evaluated

    def context(self) -> Composition:
        """A new context (ForInput) over the same activation."""
        return Composition(list(self.variables.items()), self.activation, self._memo)

    def take(self) -> list[tuple[str, Evaluation]]:
        """The variables evaluated since the last call (GetAndResetCost)."""
        taken, self.pending = self.pending, []
        return taken

    def read(self, name: str) -> Evaluation:
        """The variable as an expression reading it sees it: evaluated on its first read in this context."""
        if self._reads is not None:
            self._reads.append(name)
        memo = self._memo.get(name)
        if name in self._read and memo is not None:
            return memo[0]
        self._read.add(name)
        if memo is not None:
            for dependency in memo[1]:  # its evaluation here would read them again
                self.read(dependency)
            self.pending.append((name, memo[0]))
            return memo[0]
        compiled = self.variables[name]
        outer, self._reads = self._reads, []
        try:
            outcome = evaluate(compiled, self.activation, self)
        finally:
            reads, self._reads = self._reads, outer
        if outcome.error is not None or compiled.error:
            outcome = Evaluation(error=variable_failure(name, compiled, outcome), lower=outcome.lower)
        self._memo[name] = (outcome, tuple(reads))
        self.pending.append((name, outcome))
        return outcome


_compositions: list[Composition] = []


def _read_variable(name: str) -> Any:
    """The value of `variables.<name>` for the evaluation under way (its error raised, as an error value)."""
    composition = _compositions[-1]
    outcome = composition.read(name)
    if outcome.unsupported:
        composition.unsupported = composition.unsupported or f"reads variable '{name}', which {outcome.unsupported}"
        raise ValueError(composition.unsupported)
    if outcome.error is not None:
        raise ValueError(outcome.error)
    return outcome.data


def evaluate(compiled: Compiled, activation: Mapping[str, Any], composition: Composition | None = None) -> Evaluation:
    """Activation.Evaluate of one compiled expression over plain JSON values.

    `activation` holds object, oldObject, request, namespaceObject, params; `composition` the policy's
    variables, read lazily. Past CEL C++'s 10,000 comprehension iterations the expression runs again
    loop by loop (crdtool.cel.unbounded), with the apiserver's per-call cost limit as its only limit:
    once what its loops certainly cost passes it, the outcome is cel-go's cancellation."""
    if compiled.error:
        return Evaluation(error=f"compilation error: {compiled.error}")
    if compiled.unsupported:
        return Evaluation(unsupported="nested deeper than crdtool's CEL runtime evaluates")
    if compiled.uses_authorizer:
        return Evaluation(unsupported="reads the authorizer, which crdtool cannot consult without a cluster")
    names = compiled.reads(tuple(composition.variables)) if composition is not None else ()
    program = compiled.program(names)
    data = {**activation, "variables": dict.fromkeys(composition.variables) if composition is not None else {}}
    if composition is not None:
        _compositions.append(composition)
        outer, composition.unsupported = composition.unsupported, None
    try:
        with unbounded.metered(PER_CALL_LIMIT) as meter:
            try:
                result = program.eval(data=data)
            except RuntimeError as err:
                if "budget" not in str(err):
                    return _failed(compiled, str(err))
                result = compiled.unbounded(names).eval(data=data)
        unsupported = composition.unsupported if composition is not None else None
    finally:
        if composition is not None:
            _compositions.pop()
            composition.unsupported = outer
    if unsupported:
        return Evaluation(unsupported=unsupported)
    if meter.exceeded:
        return Evaluation(error=_resulted(compiled, unbounded.CANCELLED), lower=meter.spent)
    if result.type().name() == "ERROR":
        return _failed(compiled, str(result.plain_value()), meter.spent)
    return Evaluation(value=result.plain_value(), data=unbounded.as_data(result), lower=meter.spent)


def _failed(compiled: Compiled, error: str, spent: int = 0) -> Evaluation:
    """The evaluation an engine error ends: cel-go's error, or (the engine's own limit) not evaluated."""
    why = not_evaluable(error)
    if why is not None:
        return Evaluation(unsupported=why)
    return Evaluation(error=_resulted(compiled, go_runtime_error(error)), lower=spent)


def _resulted(compiled: Compiled, error: str) -> str:
    return f"expression '{compiled.expression}' resulted in error: {error}"


def variable_failure(name: str, compiled: Compiled, outcome: Evaluation) -> str:
    """The error a failed variable is where it is read (composition.go's variableAccessor)."""
    if compiled.error:
        return f'composited variable "{name}" fails to compile: {compiled.error}'
    detail = outcome.error or ""
    prefix = f"expression '{compiled.expression}' resulted in error: "
    if detail.startswith(prefix):
        detail = detail[len(prefix):]
    return f'composited variable "{name}" fails to evaluate: {detail}'


def reads_variable(text: str, name: str) -> bool:
    """Whether an expression's text reads `variables.<name>` (outside string literals)."""
    return re.search(rf"\bvariables\s*\.\s*{re.escape(name)}\b", _STRING_LITERAL.sub('""', text)) is not None


def _lazy_reads(text: str, names: Sequence[str]) -> str:
    """`text` with each read of `variables.<name>` (outside string literals, and but for a `has()` test of
    it) a call that reads the variable when the evaluation gets there."""
    if not names:
        return text
    pattern = re.compile(rf"(\bhas\s*\(\s*)?\bvariables\s*\.\s*({'|'.join(map(re.escape, names))})\b")

    def call(m: re.Match[str]) -> str:
        return m.group(0) if m.group(1) else f'{_VARIABLE}("{m.group(2)}")'

    out, last = [], 0
    for m in _STRING_LITERAL.finditer(text):
        out.append(pattern.sub(call, text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(pattern.sub(call, text[last:]))
    return "".join(out)


def _reads_authorizer(expression: str) -> bool:
    return _AUTHORIZER_WORD.search(_STRING_LITERAL.sub('""', expression)) is not None


_AUTHZ = "kubernetes.authorization"


@cache
def _authz_file() -> descriptor_pb2.FileDescriptorProto:
    """The authorization library's opaque types (library/authz.go), named as cel-go names them."""
    proto = descriptor_pb2.FileDescriptorProto(name="crdtool/admission/authz.proto", package=_AUTHZ, syntax="proto3")
    for name in ("Authorizer", "PathCheck", "GroupCheck", "ResourceCheck", "Decision"):
        proto.message_type.add(name=name)
    return proto


def _authz_functions() -> list[cel.FunctionDecl]:
    """The authorization library's functions, for type-checking only (they are never evaluated here)."""
    t = {name: cel.Type(f"{_AUTHZ}.{name}") for name in ("Authorizer", "PathCheck", "GroupCheck", "ResourceCheck",
                                                           "Decision")}
    s = cel.Type.STRING
    overloads: dict[str, list[tuple[str, cel.Type, list[cel.Type]]]] = {
        "path": [("authorizer_path", t["PathCheck"], [t["Authorizer"], s])],
        "group": [("authorizer_group", t["GroupCheck"], [t["Authorizer"], s])],
        "serviceAccount": [("authorizer_serviceaccount", t["Authorizer"], [t["Authorizer"], s, s])],
        "resource": [("groupcheck_resource", t["ResourceCheck"], [t["GroupCheck"], s])],
        "subresource": [("resourcecheck_subresource", t["ResourceCheck"], [t["ResourceCheck"], s])],
        "namespace": [("resourcecheck_namespace", t["ResourceCheck"], [t["ResourceCheck"], s])],
        "name": [("resourcecheck_name", t["ResourceCheck"], [t["ResourceCheck"], s])],
        "fieldSelector": [("authorizer_resourcecheck_fieldselector", t["ResourceCheck"], [t["ResourceCheck"], s])],
        "labelSelector": [("authorizer_resourcecheck_labelselector", t["ResourceCheck"], [t["ResourceCheck"], s])],
        "check": [("pathcheck_check", t["Decision"], [t["PathCheck"], s]),
                  ("resourcecheck_check", t["Decision"], [t["ResourceCheck"], s])],
        "errored": [("decision_errored", cel.Type.BOOL, [t["Decision"]])],
        "error": [("decision_error", s, [t["Decision"]])],
        "allowed": [("decision_allowed", cel.Type.BOOL, [t["Decision"]])],
        "reason": [("decision_reason", s, [t["Decision"]])],
    }
    return [cel.FunctionDecl(name, [cel.Overload(oid, result, params, True, _raise) for oid, result, params in ovs])
            for name, ovs in overloads.items()]


def _raise(message: str) -> Any:
    raise ValueError(message)


@cache
def _eval_env() -> cel.Env:
    return eval_env()


def eval_env(files: Sequence[descriptor_pb2.FileDescriptorProto] = (),
             functions: Sequence[cel.FunctionDecl] = ()) -> cel.Env:
    """Every admission variable dynamic, the library's runtime functions, the lazy read of a variable and
    the loops run loop by loop (with the message types of `files` and the runtime `functions` of a
    mutation's patch types)."""
    variables = {name: cel.Type.DYN for name in ("object", "oldObject", "request", "namespaceObject", "params",
                                                 "variables", "authorizer")}
    read = cel.FunctionDecl(_VARIABLE, [cel.Overload(f"{_VARIABLE}_string", cel.Type.DYN, [cel.Type.STRING], False,
                                                     _read_variable)])
    pool = environment.library_pool()
    for proto in files:
        pool.Add(proto)
    return cel.NewEnv(descriptor_pool=pool, variables=variables, config=library.config(),
                      functions=[*library.runtime_functions(), read, *unbounded.declarations(), *functions])


def _decl_type(t: cel.Type) -> DeclType:
    """convertCelTypeToDeclType: a variable's output type as later expressions see it (objects, and
    maps keyed by other than strings, are dyn)."""
    return _decl_type_name(t.name())


def _decl_type_name(name: str) -> DeclType:
    simple = {"INT": "int", "UINT": "int", "DOUBLE": "double", "BOOL": "bool", "STRING": "string",
              "BYTES": "bytes", "DURATION": "duration", "TIMESTAMP": "timestamp"}
    if name in simple:
        return DeclType(simple[name], min_serialized_size=1)
    head, _, rest = name.partition("<")
    if head == "LIST":
        return _list(_decl_type_name(rest[:-1]))
    if head == "MAP":
        key, value = split_types(rest[:-1], "<>")
        if key == "STRING":
            return _map(_decl_type_name(value))
    return DeclType("dyn")
