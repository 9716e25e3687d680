"""cel-go's parser limits, as the apiserver keeps them (cel-go's defaults; the base environment sets none).

cel-go refuses an expression, at no source location (`ERROR: <input>:-1:0: ...`), when

- it has more than 100,000 code points: `expression code point size exceeds limit: size: N, limit 100000`;
- while parsing, one grammar rule is open more than 250 times at once: `expression recursion limit
  exceeded: 250`. Its ANTLR listener keeps one count per rule (expr, member, calc, exprList, ...), as
  ANTLR reports rule entries and exits: in the left-recursive rules (relation, calc, member) each
  operator or suffix exits the open context and enters a new one, the right operand opens the rule
  again, and returning exits every pushed context (never counting below zero). So 250 nested
  parentheses or calls are too deep, and so are 125 levels of `1 + (...)` (two calc levels each);
- while building the syntax tree, more than 250 ternaries, relations, arithmetic operators, selections,
  member calls and indexes are nested in one another (counted together): `max recursion depth exceeded`,
  e.g. a chain of 251 `+` or of 251 `.f` selections.

crdtool's CEL runtime parses far less deeply (32 levels), so these limits are decided here, by a
parser of cel-go's grammar that only counts. Asked to, the same parser also lists the expression's
syntax nodes with their source spans (`syntax_nodes`), from which a deeper expression is cut into
pieces the runtime parses (crdtool.cel.deep).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from dataclasses import dataclass

__all__ = ["MAX_CODE_POINTS", "MAX_RECURSION_DEPTH", "MemberCall", "SyntaxNode", "member_call", "parser_limit_error",
           "syntax_nodes"]

MAX_RECURSION_DEPTH = 250  # cel-go's default maxRecursionDepth
MAX_CODE_POINTS = 100_000  # cel-go's default expressionSizeCodePointLimit

_TOKEN = re.compile(r"""
    (?P<space>[ \t\n\r\f]+|//[^\n]*)
  | (?P<string>(?:[bB][rR]?|[rR][bB]?)?(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'(?:\\[\s\S]|[^'\\\n\r])*'
                                          |"(?:\\[\s\S]|[^"\\\n\r])*"))
  | (?P<number>0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[uU]?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*|`[^`]*`)
  | (?P<op>==|!=|<=|>=|&&|\|\||[<>!+\-*/%?:.,\[\](){}])
""", re.X)
_RELATIONS = frozenset({"<", "<=", ">=", ">", "==", "!=", "in"})
_LITERAL_WORDS = frozenset({"true", "false", "null"})


class _Limit(Exception):
    """A limit is exceeded: the message is cel-go's."""


class _Unparsed(Exception):
    """Not valid CEL: the parser's own syntax errors are left to the CEL engine."""


@dataclass(slots=True)
class SyntaxNode:
    """One node of the syntax tree: its kind, its source span [start, end) in code points, and for an
    identifier or a call its name. Kinds: ternary, or, and, relation, calc, unary, select, call (a
    member call), index, paren, list, map, struct, global (a global call), ident, literal."""

    kind: str
    start: int
    end: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class MemberCall:
    """The parts of a member call `receiver.name(arguments...)`: the receiver's node, the offset of the
    opening parenthesis, and the arguments' nodes."""

    receiver: SyntaxNode
    paren: int
    arguments: list[SyntaxNode]


def member_call(source: str, nodes: list[SyntaxNode], call: SyntaxNode) -> MemberCall | None:
    """The parts of a member call node (`syntax_nodes(source)` are `nodes`), or None for another node."""
    if call.kind != "call":
        return None
    inside = [n for n in nodes if call.start <= n.start and n.end <= call.end and n is not call]
    receiver = max((n for n in inside if n.start == call.start), key=lambda n: n.end, default=None)
    paren = source.find("(", receiver.end, call.end) if receiver is not None else -1
    if receiver is None or paren < 0:
        return None
    arguments = [n for n in inside if n.start > paren]
    outermost = [n for n in arguments if not any(o.start <= n.start and n.end <= o.end and o is not n
                                                 for o in arguments)]
    return MemberCall(receiver, paren, outermost)


def parser_limit_error(source: str) -> str | None:
    """cel-go's error for `source` when it exceeds one of the parser's limits, else None (also when the
    text is not valid CEL before any limit is reached)."""
    size = len(source)
    if size > MAX_CODE_POINTS:
        return _located(f"expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}")
    if size <= MAX_RECURSION_DEPTH:
        # Each level either limit counts takes a token of its own (an operator, a selection, a bracket),
        # and a token at least a code point: most rules are far too short to be parsed here.
        return None
    tokens = _tokens(source)
    if tokens is None:
        return None
    try:
        height = _parse(_Parser(tokens[0]))
    except _Limit as err:
        return _located(str(err))
    except _Unparsed:
        return None
    if height > MAX_RECURSION_DEPTH:
        return _located("max recursion depth exceeded")
    return None


def syntax_nodes(source: str) -> list[SyntaxNode] | None:
    """The syntax nodes of an expression within cel-go's limits, outermost first (a node's span holds
    its children's spans), or None when it is not valid CEL or exceeds a limit."""
    if len(source) > MAX_CODE_POINTS:
        return None
    tokens = _tokens(source)
    if tokens is None:
        return None
    parser = _Parser(*tokens)
    try:
        height = _parse(parser)
    except (_Limit, _Unparsed):
        return None
    if height > MAX_RECURSION_DEPTH or parser.nodes is None:
        return None
    return sorted(parser.nodes, key=lambda n: (n.start, -n.end))


def _parse(parser: _Parser) -> int:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 40 * MAX_RECURSION_DEPTH))
    try:
        return parser.start()
    finally:
        sys.setrecursionlimit(limit)


def _located(message: str) -> str:
    return f"ERROR: <input>:-1:0: {message}"


def _tokens(source: str) -> tuple[list[str], list[tuple[int, int]]] | None:
    """The tokens (strings as `'`, numbers as `0`) and their spans."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos, n = 0, len(source)
    while pos < n:
        m = _TOKEN.match(source, pos)
        if m is None:
            return None
        pos = m.end()
        kind = m.lastgroup
        if kind == "space":
            continue
        text = m.group()
        out.append("'" if kind == "string" else "0" if kind == "number" else text)
        spans.append(m.span())
    out.append("<EOF>")
    spans.append((n, n))
    return out, spans


class _Parser:
    """cel-go's grammar (CEL.g4), rule for rule, counting how many times each rule is open.

    Every method returns the nesting height of the tree it parsed, counted as cel-go's tree builder
    counts (ternaries, relations and arithmetic with an operator, selections, member calls, indexes).
    """

    def __init__(self, tokens: list[str], spans: list[tuple[int, int]] | None = None) -> None:
        self.tokens, self.i = tokens, 0
        self.open: dict[str, int] = defaultdict(int)
        self.spans = spans
        self.nodes: list[SyntaxNode] | None = [] if spans is not None else None

    def node(self, kind: str, first: int, name: str = "") -> None:
        """Record the node whose tokens run from `first` to the last one taken (when listing nodes)."""
        if self.nodes is not None and self.spans is not None:
            self.nodes.append(SyntaxNode(kind, self.spans[first][0], self.spans[self.i - 1][1], name))

    # -- helpers
    def peek(self, ahead: int = 0) -> str:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if expected is not None and token != expected:
            raise _Unparsed
        self.i += 1
        return token

    def enter(self, rule: str) -> None:
        """The listener's EnterEveryRule: one more open `rule`, refused beyond the limit."""
        self.open[rule] += 1
        if self.open[rule] > MAX_RECURSION_DEPTH:
            raise _Limit(f"expression recursion limit exceeded: {MAX_RECURSION_DEPTH}")

    def leave(self, rule: str, times: int = 1) -> None:
        """The listener's ExitEveryRule, `times` over: it never counts below zero."""
        self.open[rule] = max(0, self.open[rule] - times)

    def push(self, rule: str) -> None:
        """ANTLR's next operator or suffix in a left-recursive rule: the current context is exited and a
        new one (holding it) entered."""
        self.leave(rule)
        self.enter(rule)

    @staticmethod
    def is_ident(token: str) -> bool:
        return (token[0].isalpha() or token[0] in "_`") and token not in _LITERAL_WORDS and token != "in"

    # -- rules
    def start(self) -> int:
        self.enter("start")
        height = self.expr()
        self.take("<EOF>")
        return height

    def expr(self) -> int:
        self.enter("expr")
        first = self.i
        height = self.conditional_or()
        if self.peek() == "?":
            self.take()
            then = self.conditional_or()
            self.take(":")
            otherwise = self.expr()
            height = 1 + max(height, then, otherwise)
            self.node("ternary", first)
        self.leave("expr")
        return height

    def conditional_or(self) -> int:
        self.enter("conditionalOr")
        first = self.i
        height = self.conditional_and()
        if self.peek() == "||":
            while self.peek() == "||":
                self.take()
                height = max(height, self.conditional_and())
            self.node("or", first)
        self.leave("conditionalOr")
        return height

    def conditional_and(self) -> int:
        self.enter("conditionalAnd")
        first = self.i
        height = self.relation(0)
        if self.peek() == "&&":
            while self.peek() == "&&":
                self.take()
                height = max(height, self.relation(0))
            self.node("and", first)
        self.leave("conditionalAnd")
        return height

    def relation(self, precedence: int) -> int:
        """A left-recursive rule: each operator replaces the open context by a new one, and returning
        exits every context the rule pushed (so an operator chain does not add up, but it closes
        enclosing contexts of the same rule in the count)."""
        self.enter("relation")
        pushed, first = 0, self.i
        height = self.calc(0)
        while self.peek() in _RELATIONS and precedence <= 1:
            self.push("relation")
            pushed += 1
            self.take()
            height = 1 + max(height, self.relation(2))
            self.node("relation", first)
        self.leave("relation", pushed + 1)
        return height

    def calc(self, precedence: int) -> int:
        self.enter("calc")
        pushed, first = 0, self.i
        height = self.unary()
        while True:
            token = self.peek()
            if token in ("*", "/", "%") and precedence <= 2:
                right = 3
            elif token in ("+", "-") and precedence <= 1:
                right = 2
            else:
                break
            self.push("calc")
            pushed += 1
            self.take()
            height = 1 + max(height, self.calc(right))
            self.node("calc", first)
        self.leave("calc", pushed + 1)
        return height

    def unary(self) -> int:
        self.enter("unary")
        token, first = self.peek(), self.i
        if token in ("!", "-"):
            while self.peek() == token:
                self.take()
        height = self.member()
        if token in ("!", "-"):
            self.node("unary", first)
        self.leave("unary")
        return height

    def member(self) -> int:
        self.enter("member")
        pushed, first = 0, self.i
        height = self.primary()
        while self.peek() in (".", "["):
            self.push("member")
            pushed += 1
            if self.take() == ".":
                if self.peek() == "?":
                    self.take()
                    self.escape_ident()
                    self.node("select", first, self.tokens[self.i - 1])
                elif self.peek(1) == "(":
                    name = self.take()
                    self.take("(")
                    if self.peek() != ")":
                        height = max(height, self.expr_list())
                    self.take(")")
                    self.node("call", first, name)
                else:
                    self.escape_ident()
                    self.node("select", first, self.tokens[self.i - 1])
            else:
                if self.peek() == "?":
                    self.take()
                height = max(height, self.expr())
                self.take("]")
                self.node("index", first)
            height += 1
        self.leave("member", pushed + 1)
        return height

    def primary(self) -> int:
        self.enter("primary")
        token, first = self.peek(), self.i
        height = 0
        if token == "(":
            self.take()
            height = self.expr()
            self.take(")")
            self.node("paren", first)
        elif token == "[":
            self.take()
            if self.peek() not in ("]", ","):
                height = self.list_init()
            if self.peek() == ",":
                self.take()
            self.take("]")
            self.node("list", first)
        elif token == "{":
            self.take()
            if self.peek() not in ("}", ","):
                height = self.map_init()
            if self.peek() == ",":
                self.take()
            self.take("}")
            self.node("map", first)
        elif token == "." or self.is_ident(token):
            height = self.ident_primary()
        else:
            self.enter("literal")
            if token == "-":
                self.take()
            if self.take() not in ("'", "0", *_LITERAL_WORDS):
                raise _Unparsed
            self.leave("literal")
            self.node("literal", first)
        self.leave("primary")
        return height

    def ident_primary(self) -> int:
        """An identifier, a global call or a message literal (`a.b.Msg{...}`)."""
        first = self.i
        if self.peek() == ".":
            self.take()
        name = self.take()
        if not self.is_ident(name):
            raise _Unparsed
        if self.peek() == "(":
            self.take()
            height = self.expr_list() if self.peek() != ")" else 0
            self.take(")")
            self.node("global", first, name)
            return height
        ahead = 0
        while self.peek(ahead) == "." and self.is_ident(self.peek(ahead + 1)):
            ahead += 2
        if self.peek(ahead) != "{":
            self.node("ident", first, name if first == self.i - 1 else "")
            return 0
        self.i += ahead + 1
        height = self.field_init() if self.peek() not in ("}", ",") else 0
        if self.peek() == ",":
            self.take()
        self.take("}")
        self.node("struct", first)
        return height

    def expr_list(self) -> int:
        self.enter("exprList")
        height = self.expr()
        while self.peek() == ",":
            self.take()
            height = max(height, self.expr())
        self.leave("exprList")
        return height

    def list_init(self) -> int:
        self.enter("listInit")
        height = self.opt_expr()
        while self.peek() == "," and self.peek(1) != "]":
            self.take()
            height = max(height, self.opt_expr())
        self.leave("listInit")
        return height

    def map_init(self) -> int:
        self.enter("mapInitializerList")
        height = 0
        while True:
            height = max(height, self.opt_expr())
            self.take(":")
            height = max(height, self.expr())
            if self.peek() != "," or self.peek(1) == "}":
                break
            self.take()
        self.leave("mapInitializerList")
        return height

    def field_init(self) -> int:
        self.enter("fieldInitializerList")
        height = 0
        while True:
            self.enter("optField")
            if self.peek() == "?":
                self.take()
            self.escape_ident()
            self.leave("optField")
            self.take(":")
            height = max(height, self.expr())
            if self.peek() != "," or self.peek(1) == "}":
                break
            self.take()
        self.leave("fieldInitializerList")
        return height

    def opt_expr(self) -> int:
        self.enter("optExpr")
        if self.peek() == "?":
            self.take()
        height = self.expr()
        self.leave("optExpr")
        return height

    def escape_ident(self) -> None:
        self.enter("escapeIdent")
        if not self.is_ident(self.take()):
            raise _Unparsed
        self.leave("escapeIdent")
