"""CEL expressions of admission (policies' validations, variables, audit annotations, matchConditions),
compiled and evaluated as k8s.io/apiserver pkg/admission/plugin/cel does (compile.go, activation.go,
composition.go).

The checking environment declares what compile.go's createEnvForOpts declares: `object` and
`oldObject` (dyn), `request` (kubernetes.AdmissionRequest) and `namespaceObject`
(kubernetes.Namespace) as the apiserver's object types, `params` (dyn) when the policy has a
paramKind, `authorizer` when the expression may use it, and `variables` (kubernetes.variables) with
one field per variable compiled before, typed by that variable's output type. Evaluation runs on
plain JSON values, as rules do (crdtool.cel.environment); a variable that fails is an error only for
the expressions that read it, as the apiserver's lazy map of variables makes it.

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

from crdtool.cel import environment, library
from crdtool.cel.checked_ast import CheckedAst, decode
from crdtool.cel.compiler import TooDeepError, check_expression
from crdtool.cel.depth import parser_limit_error
from crdtool.cel.errors import go_runtime_error
from crdtool.cel.protos import SchemaTypes, build_schema_types
from crdtool.cel.types import DeclField, DeclType

__all__ = ["BOOL", "NULL", "STRING", "ANY", "AdmissionCompiler", "Compiled", "Evaluation", "PatchTypes",
           "TypedObjects", "Variable", "cel_go_type_name", "eval_env", "reads_variable"]

#: The return types an expression kind allows (ExpressionAccessor.ReturnTypes).
BOOL, STRING, NULL, ANY = "bool", "string", "null_type", "any"

_VARIABLE_FAILED = "__crdtoolVariableFailed"
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
    _program: Any = field(default=None, repr=False)
    #: The checked expression, serialized (decoded for the cost estimate only when asked).
    _checked: bytes = field(default=b"", repr=False)
    _ast: Any = field(default=None, repr=False)
    #: Its cost over values of at most N elements each, by N (crdtool.cel.admission_cost).
    cost_bounds: dict[int, int] = field(default_factory=dict, repr=False)

    def program(self) -> Any:
        if self._program is None:
            self._program = self.eval_env().compile(self.text)
        return self._program

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


def evaluate(compiled: Compiled, activation: Mapping[str, Any],
             variables: Mapping[str, Evaluation] | None = None) -> Evaluation:
    """Activation.Evaluate of one compiled expression over plain JSON values.

    `activation` holds object, oldObject, request, namespaceObject, params; `variables` the policy's
    variables already evaluated (a failed one is an error where it is read)."""
    if compiled.error:
        return Evaluation(error=f"compilation error: {compiled.error}")
    if compiled.unsupported:
        return Evaluation(unsupported="nested deeper than crdtool's CEL runtime evaluates")
    if compiled.uses_authorizer:
        return Evaluation(unsupported="reads the authorizer, which crdtool cannot consult without a cluster")
    data = dict(activation)
    values: dict[str, Any] = {}
    text = compiled.text
    for name, outcome in (variables or {}).items():
        if outcome.unsupported and reads_variable(text, name):
            return Evaluation(unsupported=f"reads variable '{name}', which {outcome.unsupported}")
        if outcome.error is not None:
            text = _fail_reads(text, name, outcome.error)
        elif outcome.unsupported is None:
            values[name] = outcome.value
    data["variables"] = values
    program = compiled.program() if text == compiled.text else compiled.eval_env().compile(text)
    try:
        result = program.eval(data=data)
    except RuntimeError as err:
        if "budget" in str(err):
            return Evaluation(unsupported="runs more than 10,000 iterations, past crdtool's CEL runtime")
        return Evaluation(error=f"expression '{compiled.expression}' resulted in error: {go_runtime_error(str(err))}")
    if result.type().name() == "ERROR":
        message = go_runtime_error(str(result.plain_value()))
        return Evaluation(error=f"expression '{compiled.expression}' resulted in error: {message}")
    return Evaluation(value=result.plain_value())


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


def _fail_reads(text: str, name: str, message: str) -> str:
    """`text` with each read of `variables.<name>` (outside string literals) replaced by an error."""
    pattern = re.compile(rf"\bvariables\s*\.\s*{re.escape(name)}\b")
    literal = '"' + message.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    out, last = [], 0
    for m in _STRING_LITERAL.finditer(text):
        out.append(pattern.sub(f"{_VARIABLE_FAILED}({literal})", text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(pattern.sub(f"{_VARIABLE_FAILED}({literal})", text[last:]))
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
    """Every admission variable dynamic, the library's runtime functions, and the failed-variable stand-in
    (with the message types of `files` and the runtime `functions` of a mutation's patch types)."""
    variables = {name: cel.Type.DYN for name in ("object", "oldObject", "request", "namespaceObject", "params",
                                                 "variables", "authorizer")}
    failed = cel.FunctionDecl(_VARIABLE_FAILED, [cel.Overload(f"{_VARIABLE_FAILED}_string", cel.Type.DYN,
                                                              [cel.Type.STRING], False, _raise)])
    pool = environment.library_pool()
    for proto in files:
        pool.Add(proto)
    return cel.NewEnv(descriptor_pool=pool, variables=variables, config=library.config(),
                      functions=[*library.runtime_functions(), failed, *functions])


_SIMPLE_NAMES = {"INT": "int", "UINT": "uint", "DOUBLE": "double", "BOOL": "bool", "STRING": "string",
                 "BYTES": "bytes", "NULL": "null_type", "DYN": "dyn", "DURATION": "google.protobuf.Duration",
                 "TIMESTAMP": "google.protobuf.Timestamp"}


def cel_go_type_name(t: cel.Type, type_names: Mapping[str, str] | None = None) -> str:
    """cel-go's `Type.String()` of a checked type."""
    return _type_text(t.name(), type_names or {})


def _type_text(name: str, type_names: Mapping[str, str]) -> str:
    if name in _SIMPLE_NAMES:
        return _SIMPLE_NAMES[name]
    head, sep, rest = name.partition("<")
    if sep and rest.endswith(">"):
        params = [_type_text(p, type_names) for p in _split(rest[:-1])]
        base = {"LIST": "list", "MAP": "map", "TYPE": "type"}.get(head, head)
        return f"{base}({', '.join(params)})"
    return type_names.get(name, name)


def _split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


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
        key, value = _split(rest[:-1])
        if key == "STRING":
            return _map(_decl_type_name(value))
    return DeclType("dyn")
