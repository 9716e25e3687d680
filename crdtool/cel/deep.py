"""Expressions nested deeper than the CEL runtime parses (32 levels) but within cel-go's limits (250),
checked, costed and evaluated in pieces.

Such an expression is cut into pieces the runtime parses: a deep sub-expression becomes, in the text
of the piece around it, a call `__d<k>(free variables...)` (its free variables being the rule's
variables and the macro variables in scope that it reads), laid out inside the span the
sub-expression had, so that every other character keeps its line and column; the piece for the
sub-expression is the whole text with everything outside its span blanked (line breaks kept), so its
positions are the original ones too. Compile errors thus come out at cel-go's positions.

Type-checking goes both ways: the piece around is checked with each call returning `dyn`, which
gives the types of the variables passed; each inner piece is checked with them declared; then the
piece around again with each call returning its piece's type, until nothing changes. The checked
trees are then put back together into one tree of the original shape, which the cost estimate and
the aggregate literal check walk as they would walk cel-go's.

For evaluation, each call runs its piece's program here (`__deep__(<n>, [values])`), with the values
passed as its variables. The call sits where the sub-expression sat, so `&&`, `||` and `?:` skip it
as they would have skipped the sub-expression, and an error it yields is the sub-expression's error.
Values pass as the engine hands them to functions (plain values): a uint (also in a list or map)
becomes an int, so the piece restores it from the type the checker gave the variable. Optional values
and type values cannot pass at all: no piece is cut that would take or return one (an optionalOldSelf
rule's oldSelf stays in the root piece). An expression that cannot be cut so, or whose piece the
runtime still refuses (it also stops at 13 nested types), stays unsupported (crdtool.engine.notes).
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from cel_expr_python import cel

from crdtool.cel import checked_ast
from crdtool.model.record import IdentityRecord, Record

if TYPE_CHECKING:  # the parser and the errors are checking's: evaluating a stored rule needs neither
    from crdtool.cel.depth import SyntaxNode
    from crdtool.cel.errors import CompileIssue

__all__ = ["DeepChecked", "EvalPlan", "Piece", "Unsplittable", "check", "declarations", "program", "split"]

#: The deepest a piece is cut at (in nested syntax nodes), well within the runtime's 32 levels: a
#: piece may run a few levels deeper where a node cannot be cut, and its calls add two.
CHUNK_DEPTH = 20
_MAX_PIECE_DEPTH = 28
_EVAL_FUNCTION = "__deep__"
_STATUS_PREFIX = re.compile(r"^[A-Z_]+: ")
# Macros and how many of their leading arguments name variables (by argument count; default one).
_MACROS = {"all": {3: 2}, "exists": {3: 2}, "exists_one": {}, "existsOne": {3: 2}, "map": {}, "filter": {},
           "sortBy": {}, "optMap": {}, "optFlatMap": {}, "transformList": {3: 2, 4: 2},
           "transformMap": {3: 2, 4: 2}, "transformMapEntry": {3: 2, 4: 2}}


class Unsplittable(Exception):
    """The expression cannot be cut into pieces the runtime parses (or evaluates) here."""


class _Tree(IdentityRecord):
    __slots__ = ("node", "children", "scope", "binder")

    node: SyntaxNode
    children: list[_Tree]
    scope: frozenset[str]  # the variables bound where the node is
    binder: bool  # a macro's variable argument

    def __init__(self, node: SyntaxNode, children: list[_Tree] | None = None, scope: frozenset[str] = frozenset(),
                 binder: bool = False) -> None:
        self.node = node
        self.children = [] if children is None else children
        self.scope = scope
        self.binder = binder


class Piece(IdentityRecord):
    """One piece: the sub-expression at `start:end` of the source, its free variables and the pieces
    cut out of it."""

    __slots__ = ("number", "start", "end", "free", "children")

    number: int
    start: int
    end: int
    free: tuple[str, ...]
    children: list[Piece]

    def __init__(self, number: int, start: int, end: int, free: tuple[str, ...],
                 children: list[Piece] | None = None) -> None:
        self.number = number
        self.start = start
        self.end = end
        self.free = free
        self.children = [] if children is None else children


def split(source: str, variables: frozenset[str], unpassable: frozenset[str] = frozenset()) -> tuple[Piece, str]:
    """The pieces of a too deep expression whose global variables are `variables`: the root piece (the
    whole expression) and the prefix of the calls' names. No piece but the root reads a variable of
    `unpassable`. Raises Unsplittable."""
    from crdtool.cel.depth import syntax_nodes

    nodes = syntax_nodes(source)
    if not nodes:
        raise Unsplittable("not parsed")
    prefix = next((f"__{c}" for c in "dpqxyz" if f"__{c}" not in source), None)
    if prefix is None:
        raise Unsplittable("no free name")
    root = _tree(nodes)
    _scope(root, variables)
    counter = [0]

    def visit(t: _Tree, top: bool) -> tuple[int, list[Piece]]:
        depth, pieces = 0, []
        for child in t.children:
            d, p = visit(child, False)
            depth, pieces = max(depth, d), pieces + p
        depth += 1
        if depth >= CHUNK_DEPTH and not top and _cuttable(t):
            free = tuple(sorted(_idents(t) & t.scope))
            call = _call_tokens(f"{prefix}{len(nodes)}", free)  # no piece number is longer
            if not unpassable & set(free) and _lay_out(source, t.node.start, t.node.end, call) is not None:
                if depth > _MAX_PIECE_DEPTH:
                    raise Unsplittable("a piece is too deep")
                counter[0] += 1
                piece = Piece(counter[0], t.node.start, t.node.end, free, pieces)
                return 2, [piece]
        return depth, pieces

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(nodes) + 100))
    try:
        depth, pieces = visit(root, True)
    finally:
        sys.setrecursionlimit(limit)
    if depth > _MAX_PIECE_DEPTH:
        raise Unsplittable("the expression is too deep")
    return Piece(0, root.node.start, root.node.end, (), pieces), prefix


def _tree(nodes: list[SyntaxNode]) -> _Tree:
    """The tree of nodes sorted outermost first: each node's parent is the nearest enclosing one."""
    root = _Tree(nodes[0])
    stack = [root]
    for node in nodes[1:]:
        while stack[-1].node.end < node.end or stack[-1].node.start > node.start:
            stack.pop()
        t = _Tree(node)
        stack[-1].children.append(t)
        stack.append(t)
    return root


def _scope(t: _Tree, scope: frozenset[str]) -> None:
    """Set each node's scope: the global variables and the variables of the macros around it."""
    stack = [(t, scope)]
    while stack:
        t, scope = stack.pop()
        t.scope = scope
        children = t.children
        if t.node.kind == "call" and t.node.name in _MACROS and len(children) >= 3:
            args = children[1:]
            count = _MACROS[t.node.name].get(len(args), 1)
            binders = args[:count]
            if all(b.node.kind == "ident" and b.node.name for b in binders):
                bound = scope | {b.node.name for b in binders}
                for b in binders:
                    b.binder = True
                stack.append((children[0], scope))
                stack.extend((b, scope) for b in binders)
                stack.extend((a, bound) for a in args[count:])
                continue
        stack.extend((c, scope) for c in children)


def _cuttable(t: _Tree) -> bool:
    """Whether the node can be replaced by a call: not a leaf, not has()'s field selection, not a name
    that may be qualified (a selection chain from an identifier that is no variable), not a type value
    (which a function cannot return)."""
    if t.node.kind in ("ident", "literal") or t.binder or (t.node.kind == "global" and t.node.name == "type"):
        return False
    chain = t
    while chain.node.kind == "select" and chain.children:
        chain = chain.children[0]
    return chain is t or chain.node.kind != "ident" or chain.node.name in t.scope


def _idents(t: _Tree) -> set[str]:
    names, stack = set(), [t]
    while stack:
        n = stack.pop()
        if n.node.kind == "ident" and n.node.name:
            names.add(n.node.name)
        stack.extend(n.children)
    return names


def _call_tokens(name: str, args: tuple[str, ...]) -> list[str]:
    tokens = [name, "("]
    for i, arg in enumerate(args):
        tokens += [",", arg] if i else [arg]
    return [*tokens, ")"]


def _lay_out(source: str, start: int, end: int, tokens: list[str]) -> str | None:
    """`tokens` written over the span's characters, line breaks kept in place (None: they do not fit)."""
    out = [c if c in "\n\r" else " " for c in source[start:end]]
    i, pos = 0, 0
    while i < len(tokens):
        token = tokens[i]
        if pos + len(token) > len(out):
            return None
        if any(c in "\n\r" for c in out[pos:pos + len(token)]):
            pos += 1
            continue
        out[pos:pos + len(token)] = token
        pos += len(token)
        i += 1
    return "".join(out)


def piece_text(source: str, piece: Piece, prefix: str) -> str:
    """The text checked for a piece: the source blanked outside its span, its pieces' spans calls."""
    chars = [c if c in "\n\r" else " " for c in source]
    chars[piece.start:piece.end] = source[piece.start:piece.end]
    for child in piece.children:
        laid = _lay_out(source, child.start, child.end, _call_tokens(f"{prefix}{child.number}", child.free))
        assert laid is not None, "laid out when cut"
        chars[child.start:child.end] = laid
    return "".join(chars)


# --- checked trees ------------------------------------------------------------------------------------


def call_arguments(ast: checked_ast.CheckedAst, name: str) -> list[tuple] | None:
    """The checked types of the arguments of the call `name` in a piece's tree (None if absent)."""
    stack = [ast.root]
    while stack:
        node = stack.pop()
        if node.kind == "call" and node.name == name and node.target is None:
            return [ast.types.get(a.id, ("dyn",)) for a in node.args]
        stack.extend(_children(node))
    return None


def stitch(ast: checked_ast.CheckedAst, prefix: str, pieces: dict[int, checked_ast.CheckedAst]
           ) -> checked_ast.CheckedAst:
    """One tree of the original shape: each call `<prefix><k>(...)` in `ast` replaced by the tree of
    piece k (itself stitched already), node ids renumbered apart."""
    merged = checked_ast.CheckedAst.assembled(ast.root, dict(ast.types), dict(ast.overloads), dict(ast.references),
                                              dict(ast.positions))
    next_id = max([0, *ast.types, *ast.positions, *ast.overloads, *ast.references]) + 1
    pattern = re.compile(re.escape(prefix) + r"(\d+)")

    def replacement(node: checked_ast.Node) -> checked_ast.Node:
        nonlocal next_id
        m = pattern.fullmatch(node.name) if node.kind == "call" and node.target is None else None
        if m is None or int(m.group(1)) not in pieces:
            return node
        inner = pieces[int(m.group(1))]
        offset = next_id - min([0, *inner.types, *inner.positions])
        root = _renumbered(inner.root, offset)
        for source, target in ((inner.types, merged.types), (inner.overloads, merged.overloads),
                               (inner.references, merged.references), (inner.positions, merged.positions)):
            for key, value in source.items():
                target[key + offset] = value  # type: ignore[index]
        next_id = max([next_id, *(k + offset + 1 for k in inner.types), *(k + offset + 1 for k in inner.positions)])
        return root

    merged.root = replacement(merged.root)
    stack = [merged.root]
    while stack:
        node = stack.pop()
        for slot in ("target", "iter_range", "accu_init", "loop_condition", "loop_step", "result"):
            child = getattr(node, slot)
            if child is not None:
                setattr(node, slot, replacement(child))
        node.args = [replacement(a) for a in node.args]
        node.keys = [replacement(k) for k in node.keys]
        stack.extend(_children(node))
    return merged


def _renumbered(root: checked_ast.Node, offset: int) -> checked_ast.Node:
    stack = [root]
    while stack:
        node = stack.pop()
        node.id += offset
        stack.extend(_children(node))
    return root


def _children(node: checked_ast.Node) -> list[checked_ast.Node]:
    parts = [node.target, node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result]
    return [p for p in parts if p is not None] + node.args + node.keys


_PRIMITIVE_TYPES = {"bool": cel.Type.BOOL, "int": cel.Type.INT, "uint": cel.Type.UINT, "double": cel.Type.DOUBLE,
                    "string": cel.Type.STRING, "bytes": cel.Type.BYTES, "null": cel.Type.NULL,
                    "timestamp": cel.Type.TIMESTAMP, "duration": cel.Type.DURATION}
_WRAPPERS = {"bool": "BoolValue", "int": "Int64Value", "uint": "UInt64Value", "double": "DoubleValue",
             "string": "StringValue", "bytes": "BytesValue"}


def declared_type(t: tuple) -> cel.Type:
    """A checked type (checked_ast's form) as a type to declare a variable with. Raises Unsplittable for
    an optional (which cannot be declared) or a type value (which cannot be passed at run time)."""
    kind = t[0]
    if kind in _PRIMITIVE_TYPES:
        return _PRIMITIVE_TYPES[kind]
    if kind == "list":
        return cel.Type.List(declared_type(t[1]))
    if kind == "map":
        return cel.Type.Map(declared_type(t[1]), declared_type(t[2]))
    if kind == "message":
        return cel.Type(t[1])
    if kind == "wrapper" and t[1] in _WRAPPERS:
        return cel.Type(f"google.protobuf.{_WRAPPERS[t[1]]}")
    if kind == "type" or (kind == "abstract" and t[1] == "optional_type"):
        raise Unsplittable("a value a function cannot take")
    if kind == "abstract":
        return cel.Type.AbstractType(t[1], [declared_type(p) for p in t[2:]])
    return cel.Type.DYN


class DeepChecked(Record):
    """A split expression, checked: its tree put back together, its type, and its evaluation plan."""

    __slots__ = ("ast", "result_type", "plan")

    ast: checked_ast.CheckedAst
    result_type: cel.Type
    plan: EvalPlan

    def __init__(self, ast: checked_ast.CheckedAst, result_type: cel.Type, plan: EvalPlan) -> None:
        self.ast = ast
        self.result_type = result_type
        self.plan = plan

    def return_type(self) -> cel.Type:
        return self.result_type


#: Compiles a piece's text in an environment: (the checked expression or None, its issues in cel-go's
#: words at the source's positions, the text as compiled, the columns added before line 1). The flag
#: says whether the piece is the root.
PieceCompiler: TypeAlias = "Callable[[cel.Env, str, bool], tuple[cel.Expression | None, list[CompileIssue], str, int]]"
EnvMaker: TypeAlias = Callable[[dict[str, cel.Type], list[cel.FunctionDecl]], cel.Env]


def check(source: str, variables: dict[str, cel.Type], make_env: EnvMaker, compile_piece: PieceCompiler,
          bound: frozenset[str] = frozenset()) -> tuple[DeepChecked | None, list[CompileIssue]]:
    """Type-check a too deep expression in pieces: the checked whole, or the issues of every piece.
    `variables` are the environment's (`bound`: other variables the root piece's compiling binds, which
    no other piece may read);
    `make_env(variables, functions)` makes a piece's environment. Raises Unsplittable."""
    root, prefix = split(source, frozenset(variables) | bound, bound)
    texts: dict[int, str] = {}
    free_types: dict[int, tuple[tuple, ...]] = {}

    def check_piece(piece: Piece, bound: dict[str, tuple]) -> tuple[checked_ast.CheckedAst | None, cel.Type | None,
                                                                      list[CompileIssue]]:
        declared = {**variables, **{name: declared_type(t) for name, t in bound.items()}}
        returns = {c.number: cel.Type.DYN for c in piece.children}
        passed: dict[int, tuple[tuple, ...]] = {}
        inner: dict[int, tuple[checked_ast.CheckedAst | None, cel.Type | None, list[CompileIssue]]] = {}
        for _ in range(len(piece.children) + 2):
            functions = [cel.FunctionDecl(f"{prefix}{c.number}", [cel.Overload(
                f"{prefix}{c.number}_call", returns[c.number], [cel.Type.DYN] * len(c.free), False, _unchecked)])
                for c in piece.children]
            checked, issues, texts[piece.number], shift = compile_piece(
                make_env(declared, functions), piece_text(source, piece, prefix), piece.number == 0)
            if checked is None and not issues:  # refused for a limit of the runtime's own, at no position
                raise Unsplittable("the runtime refuses a piece")
            ast = checked_ast.decode(checked.serialize()) if checked is not None else None
            changed = False
            for c in piece.children:
                arguments = call_arguments(ast, f"{prefix}{c.number}") if ast is not None else None
                types = tuple(arguments) if arguments is not None and len(arguments) == len(c.free) \
                    else (("dyn",),) * len(c.free)
                if c.number in inner and passed[c.number] == types:
                    continue
                passed[c.number] = free_types[c.number] = types
                inner[c.number] = check_piece(c, {n: t for n, t in zip(c.free, types, strict=True)
                                                  if n not in variables})
                result = inner[c.number][1] or cel.Type.DYN
                if result.name() != returns[c.number].name():
                    returns[c.number], changed = result, True
            if not changed:
                break
        issues = issues + [i for c in piece.children for i in inner[c.number][2]]
        if issues or ast is None or checked is None:
            return None, None, issues
        if shift:
            ast = checked_ast.CheckedAst.assembled(ast.root, ast.types, ast.overloads, ast.references,
                                                   {k: v - shift for k, v in ast.positions.items()})
        pieces = {}
        for c in piece.children:
            child_ast = inner[c.number][0]
            assert child_ast is not None, "checked without issues"
            pieces[c.number] = child_ast
        return stitch(ast, prefix, pieces), _passable(checked.return_type()), []

    ast, result, issues = check_piece(root, {})
    if ast is None or result is None:
        return None, issues
    plan = EvalPlan(prefix, texts, {p.number: p.free for p in _pieces(root)}, free_types)
    return DeepChecked(ast, result, plan), []


def _passable(result: cel.Type) -> cel.Type:
    """A piece's type, which its call returns. Raises Unsplittable for an optional or a type value,
    which a function cannot return here."""
    if result.name().startswith(("optional_type", "TYPE")):
        raise Unsplittable("a value a function cannot return")
    return result


def _pieces(root: Piece) -> list[Piece]:
    out, stack = [], [root]
    while stack:
        piece = stack.pop()
        out.append(piece)
        stack.extend(piece.children)
    return out


def _unchecked(*args: Any) -> Any:
    raise RuntimeError("a type-checking declaration was evaluated")


# --- evaluation ---------------------------------------------------------------------------------------


class EvalPlan(Record):
    """What evaluating a split expression needs, by piece number: the text each piece was checked as
    (its calls in it), its free variables and their checked types, and the calls' name prefix."""

    __slots__ = ("prefix", "texts", "free", "types")

    prefix: str
    texts: dict[int, str]
    free: dict[int, tuple[str, ...]]
    types: dict[int, tuple[tuple, ...]]

    def __init__(self, prefix: str, texts: dict[int, str], free: dict[int, tuple[str, ...]],
                 types: dict[int, tuple[tuple, ...]]) -> None:
        self.prefix = prefix
        self.texts = texts
        self.free = free
        self.types = types


class _Failure(Exception):
    """An error value a piece yields (its text without the runtime's status prefix)."""


_programs: list[tuple[cel.Expression, tuple[str, ...], tuple[tuple, ...]]] = []


def program(plan: EvalPlan, compile_text: Callable[[str, int], cel.Expression]) -> cel.Expression:
    """The root piece's program, the pieces' programs registered for its calls. `compile_text(text, k)`
    compiles a piece's evaluation text (k = 0 for the root)."""
    call = re.compile(re.escape(plan.prefix) + r"(\d+)\s*\(([^()]*)\)")
    numbers: dict[int, int] = {}

    def build(k: int) -> cel.Expression:
        text = plan.texts[k]
        for m in call.finditer(text):
            child = int(m.group(1))
            if child not in numbers:
                _programs.append((build(child), plan.free[child], plan.types[child]))
                numbers[child] = len(_programs) - 1
        text = call.sub(lambda m: f"{_EVAL_FUNCTION}({numbers[int(m.group(1))]}, [{m.group(2)}])", text)
        return compile_text(text, k)

    return build(0)


def _run(number: int, values: list) -> Any:
    from crdtool.cel.unbounded import as_data

    piece, names, types = _programs[number]
    data = {name: _returnable(_restored(value, t)) for name, value, t in zip(names, values, types, strict=True)}
    outcome = piece.eval(data=data)
    if outcome.type().name() == "ERROR":
        raise _Failure(_STATUS_PREFIX.sub("", str(outcome.plain_value()), count=1))
    return _returnable(as_data(outcome))


def _returnable(value: Any) -> Any:
    """A value for a function to return or an activation to hold: timestamps and durations as their
    protobuf messages."""
    if isinstance(value, datetime.datetime):
        from google.protobuf import timestamp_pb2

        message = timestamp_pb2.Timestamp()
        message.FromDatetime(value)
        return message
    if isinstance(value, datetime.timedelta):
        from google.protobuf import duration_pb2

        message = duration_pb2.Duration()
        message.FromTimedelta(value)
        return message
    if isinstance(value, list):
        return [_returnable(v) for v in value]
    if isinstance(value, dict):
        return {k: _returnable(v) for k, v in value.items()}
    return value


def _restored(value: Any, t: tuple) -> Any:
    """A value as the engine passed it to a function, with the uints its checked type says it holds."""
    kind = t[0] if t else "dyn"
    if kind == "uint" and isinstance(value, int) and not isinstance(value, bool):
        from google.protobuf import wrappers_pb2

        return wrappers_pb2.UInt64Value(value=value)
    if kind == "list" and isinstance(value, list):
        return [_restored(v, t[1]) for v in value]
    if kind == "map" and isinstance(value, dict):
        return {k: _restored(v, t[2]) for k, v in value.items()}
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def declarations() -> list[cel.FunctionDecl]:
    """The run-time function of split expressions' programs."""
    return [cel.FunctionDecl(_EVAL_FUNCTION, [
        cel.Overload("crdtool_deep", cel.Type.DYN, [cel.Type.INT, cel.Type.List(cel.Type.DYN)], False, _run)])]
