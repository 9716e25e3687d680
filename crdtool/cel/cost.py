"""The apiserver's static cost estimate of a rule: cel-go's checker cost estimator with the Kubernetes
library costs and the CRD size estimator.

Each node's cost is an interval [min, max] in cel-go's units (uint64, saturating). Sizes of values
come from literals, from what functions are known to return, and otherwise from the schema: the
value a field path reaches (`self.spec.items.@items.name`) has at most the maxLength / maxItems /
maxProperties of its schema (or what fits in a 3 MiB request). Comprehensions cost their range's
size times the cost of one step. The apiserver rejects a rule whose maximum, times how often the rule
can run, exceeds its budget.
"""

from __future__ import annotations

import math
from typing import Protocol

from crdtool.cel.checked_ast import CheckedAst, Node
from crdtool.cel.types import DeclType
from crdtool.model.record import FrozenRecord

__all__ = ["Cost", "PathSizes", "estimate", "estimate_over"]

MAX = (1 << 64) - 1
STRING_TRAVERSAL = 0.1
REGEX_LENGTH = 0.25
_FORMAT_MAX_LENGTH = {"dns1123Label": 63, "dns1035Label": 63, "labelValue": 63, "dns1123Subdomain": 253,
                      "qualifiedName": 253}
_TWO_TO_64 = float(1 << 64)


def _add(a: int, b: int) -> int:
    return min(a + b, MAX)


def _mul(a: int, b: int) -> int:
    return min(a * b, MAX)


def _factor(x: int, y: float) -> int:
    """multiplyByCostFactor: ceil(x * y) in float64, saturating."""
    xf = float(x)
    if xf > 0 and y > 0 and xf > float(MAX) / y:
        return MAX
    ceil = math.ceil(xf * y)
    return MAX if ceil >= _TWO_TO_64 else int(ceil)


class Cost(FrozenRecord):
    """A [min, max] interval of costs or sizes."""

    __slots__ = ("min", "max")

    min: int
    max: int

    def __init__(self, min: int = 0, max: int = 0) -> None:
        self.min = min
        self.max = max

    def __add__(self, other: Cost) -> Cost:
        return Cost(_add(self.min, other.min), _add(self.max, other.max))

    def __mul__(self, other: Cost) -> Cost:
        return Cost(_mul(self.min, other.min), _mul(self.max, other.max))

    def union(self, other: Cost) -> Cost:
        return Cost(min(self.min, other.min), max(self.max, other.max))

    def factor(self, y: float) -> Cost:
        return Cost(_factor(self.min, y), _factor(self.max, y))


ONE = Cost(1, 1)
_SCALAR_KINDS = ("int", "uint", "double", "bool", "null", "timestamp", "duration", "message", "abstract")
# Conversions to string of fixed-size values: the longest text they can give.
_TO_STRING_SIZES = {"int64_to_string": Cost(1, 20), "uint64_to_string": Cost(1, 20),
                    "double_to_string": Cost(1, 32), "bool_to_string": Cost(4, 5)}
UNKNOWN = Cost(0, MAX)
_FORMAT_REGEX_COST = Cost(32, 32)  # MaxNameFormatRegexSize (128) x the regex length factor (0.25)


class PathSizes(Protocol):
    """The sizes of the values an expression reads, by field path from a variable (`object`, `spec`,
    `@items`): what the schema gives a rule, taken from the values themselves for admission."""

    def at(self, path: tuple[str, ...]) -> Cost | None:
        """The [smallest, largest] size of the values at `path`, or None when its root is not a variable."""
        ...

    def unknown(self) -> Cost:
        """The size of a value computed in a way the estimator does not follow."""
        ...


def estimate(ast: CheckedAst, self_type: DeclType) -> Cost:
    """The estimated cost of one evaluation of a rule whose `self` (and `oldSelf`) have `self_type`."""
    return estimate_with_largest(ast, self_type)[0]


def estimate_with_largest(ast: CheckedAst, self_type: DeclType) -> tuple[Cost, str]:
    """The estimate, and the field path of the largest size the schema gave it (`self.spec.items`), the
    one to bound first to bring the cost down ("" if no size came from the schema)."""
    root = ast.root
    if (root.kind == "comprehension" and root.iter_var == "oldSelf" and root.iter_range.kind == "list"
            and len(root.iter_range.args) == 1 and root.loop_step.kind == "call" and len(root.loop_step.args) == 2):
        # An optionalOldSelf rule, wrapped to bind oldSelf (see environment): cost the rule itself.
        root = root.loop_step.args[1]
    coster = _Coster(ast, self_type)
    return coster.cost(root), coster.largest_path


def estimate_over(ast: CheckedAst, sizes: PathSizes) -> Cost:
    """The cost of one evaluation of an expression over values whose sizes `sizes` gives (an admission
    expression, whose variables are `dyn`). Every field selection is charged, as cel-go's runtime
    charges each qualifier, where the static estimate charges none on `dyn`: with sizes that bound
    the values' own, the estimate bounds what the runtime would count."""
    return _Coster(ast, None, sizes).cost(ast.root)


class _Coster:
    def __init__(self, ast: CheckedAst, self_type: DeclType | None, path_sizes: PathSizes | None = None) -> None:
        self.ast = ast
        self.self_type = self_type
        self.path_sizes = path_sizes
        self._selectable = ("map", "message", "type_param", "dyn") if path_sizes is not None \
            else ("map", "message", "type_param")
        self.paths: dict[int, tuple[str, ...]] = {}
        self.sizes: dict[int, Cost] = {}
        self.largest_path, self._largest = "", -1  # the schema size that weighed most, and its path
        self.element_sizes: dict[int, Cost] = {}  # lists computed by functions: the size of each element
        # Comprehension variables in scope: name -> stack of (role, node): "accu" bound to the accumulator's
        # initial value, "items"/"keys"/"values" to the range whose elements it takes, "index" for list indexes.
        self.locals: dict[str, list[tuple[str, Node]]] = {}

    # ------------------------------------------------------------------ sizes
    def size(self, node: Node) -> Cost:
        """sizeOrUnknown: the computed size, else the schema's bound for the node's path, else unknown."""
        computed = self.computed_size(node)
        if computed is not None:
            return computed
        estimated = self.path_size(node)
        if estimated is not None:
            return estimated
        if self.ast.type_kind(node) in _SCALAR_KINDS:
            return ONE
        return self.path_sizes.unknown() if self.path_sizes is not None else UNKNOWN

    def computed_size(self, node: Node) -> Cost | None:
        if node.id in self.sizes:
            return self.sizes[node.id]
        if node.kind == "const":
            value = node.const
            if isinstance(value, str):
                return Cost(len(value), len(value))
            if isinstance(value, bytes):
                return Cost(len(value), len(value))
            return ONE
        if node.kind in ("list", "map"):
            return Cost(len(node.args), len(node.args))
        return None

    def path_size(self, node: Node) -> Cost | None:
        """The apiserver's sizeEstimator: walk the declared type along the node's field path."""
        path = self.paths.get(node.id)
        if not path:
            return None
        if self.path_sizes is not None:
            return self.path_sizes.at(path)
        current = self.self_type
        if current is None:
            return None
        for name in path[1:]:
            if name in ("@items", "@values"):
                current = current.elem_type
            elif name == "@keys":
                current = current.key_type
            else:
                f = current.fields.get(name) if current.fields else None
                current = f.type if f is not None else None
            if current is None:
                return None
        if current.max_elements > self._largest:
            self._largest = current.max_elements
            self.largest_path = ".".join(path)
        return Cost(0, current.max_elements)

    # ------------------------------------------------------------------ costs
    def cost(self, node: Node | None) -> Cost:
        if node is None:
            return Cost()
        kind = node.kind
        if kind == "const":
            return Cost()
        if kind == "ident":
            return self.ident(node)
        if kind == "select":
            return self.select(node)
        if kind == "call":
            return self.call(node)
        if kind == "list":
            total = Cost(10, 10)
            for arg in node.args:
                total = total + self.cost(arg)
            return total
        if kind in ("map", "struct"):
            total = Cost(30, 30) if kind == "map" else Cost(40, 40)
            for arg in node.args:
                total = total + self.cost(arg)
            return total
        if kind == "comprehension":
            return self.comprehension(node)
        return Cost()

    def ident(self, node: Node) -> Cost:
        scope = self.locals.get(node.name)
        if scope:
            role, bound = scope[-1]
            if role == "accu":
                size = self.computed_size(bound)
                if size is not None:
                    self.sizes[node.id] = size
                if bound.id in self.paths:
                    self.paths[node.id] = self.paths[bound.id]
            elif role == "items" and bound.id in self.element_sizes:
                self.sizes[node.id] = self.element_sizes[bound.id]
            elif role != "index":
                # cel-go extends the range's path, an empty one too: `@items` alone then walks nothing
                # and the apiserver's estimator answers with the rule's own type's bound.
                self.paths[node.id] = (*self.paths.get(bound.id, ()), f"@{role}")
        else:
            self.paths[node.id] = (node.name,)
        return ONE

    def entry_size(self, node: Node) -> Cost | None:
        """The size of each element of a list: computed by a function, taken from the schema along the
        list's path, joined over a conditional's branches, or of a literal's elements."""
        if node.id in self.element_sizes:
            return self.element_sizes[node.id]
        if node.id in self.paths:
            probe = Node(-node.id - 1, "ident")
            self.paths[probe.id] = (*self.paths[node.id], "@items")
            return self.path_size(probe)
        if node.kind == "call" and node.name == "_?_:_" and len(node.args) == 3:
            sizes = [self.entry_size(branch) for branch in node.args[1:]
                     if not (branch.kind == "list" and not branch.args)]
            if sizes and all(size is not None for size in sizes):
                result = sizes[0]
                for size in sizes[1:]:
                    result = result.union(size)
                return result
        if node.kind == "list" and node.args:
            result = None
            for element in node.args:
                size = self.size(element)
                result = size if result is None else result.union(size)
            return result
        return None

    def _bind(self, name: str, role: str, node: Node) -> None:
        self.locals.setdefault(name, []).append((role, node))

    def _unbind(self, name: str) -> None:
        self.locals[name].pop()

    def select(self, node: Node) -> Cost:
        total = self.cost(node.target)
        if node.test_only:
            return total  # has(): the apiserver counts presence tests as free
        if self.ast.type_kind(node.target) in self._selectable:
            total = total + ONE
        base = self.paths.get(node.target.id)
        if base is not None:
            self.paths[node.id] = (*base, node.name)
        return total

    def comprehension(self, node: Node) -> Cost:
        total = self.cost(node.iter_range) + self.cost(node.accu_init)
        is_map = self.ast.type_kind(node.iter_range) == "map"
        self._bind(node.accu_var, "accu", node.accu_init)
        if node.iter_var2:
            self._bind(node.iter_var, "keys" if is_map else "index", node.iter_range)
            self._bind(node.iter_var2, "values" if is_map else "items", node.iter_range)
        else:
            self._bind(node.iter_var, "keys" if is_map else "items", node.iter_range)
        loop = self.cost(node.loop_condition)
        step = self.cost(node.loop_step)
        self._unbind(node.iter_var)
        if node.iter_var2:
            self._unbind(node.iter_var2)
        total = total + self.cost(node.result)
        self._unbind(node.accu_var)
        count = self.size(node.iter_range)
        self.sizes[node.id] = count
        if self.ast.type_kind(node) == "list" and node.iter_range.id in self.paths:
            # map() and filter() results: their elements are taken to be like the range's.
            self.paths[node.id] = self.paths[node.iter_range.id]
        return total + count * (step + loop)

    def call(self, node: Node) -> Cost:
        args = node.args
        arg_costs = [self.cost(a) for a in args]
        overloads = self.ast.overloads.get(node.id, [])
        if not overloads:
            return Cost()
        total = Cost()
        if node.target is not None:
            total = self.cost(node.target)
        fn_cost: Cost | None = None
        result_size: Cost | None = None
        for overload in overloads:
            est, size = self.function_cost(node, overload, arg_costs)
            fn_cost = est if fn_cost is None else fn_cost.union(est)
            if size is not None:
                result_size = size if result_size is None else result_size.union(size)
            if overload == "index_list" and args:
                if args[0].id in self.element_sizes:
                    result_size = self.element_sizes[args[0].id]
                base = self.paths.get(args[0].id)
                if base is not None:
                    self.paths[node.id] = (*base, "@items")
            elif overload == "index_map" and args:
                base = self.paths.get(args[0].id)
                if base is not None:
                    self.paths[node.id] = (*base, "@values")
        if result_size is not None:
            self.sizes[node.id] = result_size
        return total + fn_cost

    def function_cost(self, node: Node, overload: str, arg_costs: list[Cost]) -> tuple[Cost, Cost | None]:
        args = node.args
        target = node.target
        arg_sum = Cost()
        for c in arg_costs:
            arg_sum = arg_sum + c
        library = self.library_cost(node, overload)
        if library is not None:
            est, size = library
            return est + arg_sum, size
        if overload in ("starts_with_string", "ends_with_string") and target is not None and len(args) == 1:
            return self.size(args[0]).factor(STRING_TRAVERSAL) + arg_sum, None
        if overload == "in_list" and len(args) == 2:
            return Cost(1, self.size(args[1]).max) + arg_sum, None
        if overload == "matches_string" and target is not None and len(args) == 1:
            string_cost = (self.size(target) + ONE).factor(STRING_TRAVERSAL)
            regex_cost = self.size(args[0]).factor(REGEX_LENGTH)
            return string_cost * regex_cost + arg_sum, None
        if overload == "contains_string" and target is not None and len(args) == 1:
            return self.size(target).factor(STRING_TRAVERSAL) * self.size(args[0]).factor(STRING_TRAVERSAL) \
                + arg_sum, None
        if overload in ("logical_or", "logical_and"):
            lhs, rhs = arg_costs[0], arg_costs[1]
            return Cost(lhs.min, (lhs + rhs).max), None
        if overload == "conditional" and _is_format_named(node):
            return self.cost(args[0].args[0]) + ONE, None  # format.named: a dictionary lookup, cost 1
        if overload == "conditional" and _is_format_validate(node):
            errors = args[0].args[0].target or args[0].args[0].args[0]
            return self.cost(errors), None
        if overload == "conditional":
            size = self.size(args[1]).union(self.size(args[2]))
            return arg_costs[0] + arg_costs[1].union(arg_costs[2]), size
        if overload in ("add_string", "add_bytes", "add_list") and len(args) == 2:
            size = self.size(args[0]) + self.size(args[1])
            if overload == "add_list":
                return ONE + arg_sum, size
            return size.factor(STRING_TRAVERSAL) + arg_sum, size
        if overload in ("less_string", "greater_string", "less_equals_string", "greater_equals_string",
                        "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes",
                        "equals", "not_equals"):
            lhs, rhs = self.size(args[0]), self.size(args[1])
            smallest = min(lhs.max, rhs.max)
            return Cost(1 if smallest > 0 else 0, smallest).factor(STRING_TRAVERSAL) + arg_sum, None
        if overload in _TO_STRING_SIZES:
            return ONE + arg_sum, _TO_STRING_SIZES[overload]
        if overload in ("string_to_bytes", "bytes_to_string") and len(args) == 1:
            size = self.size(args[0])
            result = Cost(size.min, _mul(size.max, 4)) if overload == "string_to_bytes" else \
                Cost(size.min // 4, size.max)
            return size.factor(STRING_TRAVERSAL) + arg_sum, result
        return ONE + arg_sum, None

    def library_cost(self, node: Node, overload: str) -> tuple[Cost, Cost | None] | None:
        """The libraries' cost estimates, cel-go's lists extension's before the Kubernetes library's
        (library.CostEstimator.EstimateCallCost), as cel-go consults them: the call's cost and its
        result's size, or None for a call no library estimates."""
        for estimate in (self._lists_extension_cost, self._list_call_cost, self._string_call_cost,
                         self._parsed_value_call_cost):
            cost = estimate(node, overload)
            if cost is not None:
                return cost
        return None

    def _lists_extension_cost(self, node: Node, overload: str) -> tuple[Cost, Cost | None] | None:
        """cel-go's lists extension at version 3, the apiserver's since 1.34 (its overload estimators come
        before any other): a call that makes a list costs 1, plus 10 for the new list, plus a factor
        times the size it reports for that list: the slice's length, the list's for reverse and
        flatten (times the depth), and its square for distinct and sort (2 a pair, 2.1 for strings and
        bytes), which it also reports as the result's size."""
        target, args = node.target, node.args
        if overload == "list_slice" and target is not None and len(args) == 2:
            start, end = self._int_literal(args[0], 0), self._int_literal(args[1], self.size(target).max)
            return _allocating(1.0, _fixed((end - start) % (MAX + 1)))  # uint64 arithmetic wraps
        if overload in ("list_flatten", "list_flatten_int") and target is not None and len(args) <= 1:
            depth = self._int_literal(args[0], MAX) if args else 1
            return _allocating(float(depth), self.size(target))
        if overload in ("list_range", "lists_range") and target is None and len(args) == 1:
            return _allocating(1.0, _fixed(self._int_literal(args[0], MAX)))
        if overload == "list_reverse" and target is not None and not args:
            return _allocating(1.0, self.size(target))
        if overload == "list_distinct" and target is not None and not args:
            size = self.size(target)
            return _allocating(2.0, size * size)
        if overload.endswith("_sort") and target is not None and not args:
            return self._sort_cost(target)
        if overload.endswith("_sortByAssociatedKeys") and target is not None and len(args) == 1:
            return self._sort_cost(args[0])  # sorted by the keys' list, of the keys' type
        return None

    def _sort_cost(self, keys: Node) -> tuple[Cost, Cost]:
        size = self.size(keys)
        return _allocating(2.0 + (STRING_TRAVERSAL if self._list_of_strings(keys) else 0.0), size * size)

    def _int_literal(self, node: Node, default: int) -> int:
        """nodeAsIntValue: an int literal's value (0 when negative), else `default`."""
        if node.kind != "const" or self.ast.type_kind(node) != "int" or isinstance(node.const, bool):
            return default
        return max(int(node.const), 0)  # type: ignore[call-overload]

    def _list_call_cost(self, node: Node, overload: str) -> tuple[Cost, Cost | None] | None:
        """The lists and sets libraries (and a string's indexOf, named like the list function)."""
        name, target, args = node.name, node.target, node.args
        if name in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf") and target is not None \
                and self.ast.type_kind(target) == "list":
            element = ONE
            if self._list_of_strings(target):
                element = ONE + self.element_size(target).factor(STRING_TRAVERSAL)
            return self.size(target) * element, None
        if name in ("indexOf", "lastIndexOf") and target is not None:
            return self.size(target).factor(STRING_TRAVERSAL), None
        if name in ("sets.contains", "sets.intersects", "sets.equivalent") and len(args) == 2:
            pairs = self.size(args[0]) * self.size(args[1])
            return ONE + (pairs + pairs if name == "sets.equivalent" else pairs), None
        return None

    def _string_call_cost(self, node: Node, overload: str) -> tuple[Cost, Cost | None] | None:
        """url(), the strings extension and the regex library: costs that grow with the strings' sizes."""
        name, target, args = node.name, node.target, node.args
        if name == "url" and len(args) == 1:
            return self.size(args[0]).factor(STRING_TRAVERSAL), None
        if name in ("lowerAscii", "upperAscii", "substring", "trim") and target is not None:
            size = self.size(target)
            return size.factor(STRING_TRAVERSAL), size
        if name == "replace" and target is not None and len(args) >= 2:
            return self.replace_cost(target, args)
        if name == "split" and target is not None:
            size = self.size(target)
            limit = size.max
            if len(args) > 1 and args[1].kind == "const" and isinstance(args[1].const, int):
                limit = args[1].const
            self.element_sizes[node.id] = size
            return size.factor(2 * STRING_TRAVERSAL), Cost(0, limit)
        if name == "join" and target is not None:
            list_size = self.size(target)
            result = list_size * self.element_size(target)
            if args:
                separators = Cost(max(list_size.min - 1, 0), max(list_size.max - 1, 0))
                result = result + self.size(args[0]) * separators
            return result.factor(STRING_TRAVERSAL), result
        if name in ("find", "findAll") and target is not None and args:
            size = self.size(target)
            string_cost = (size + ONE).factor(STRING_TRAVERSAL)
            regex_cost = self.size(args[0]).factor(REGEX_LENGTH)
            if name == "findAll":
                self.element_sizes[node.id] = size
                return string_cost * regex_cost, Cost(0, size.max)
            return string_cost * regex_cost, size
        return None

    def _parsed_value_call_cost(self, node: Node, overload: str) -> tuple[Cost, Cost | None] | None:
        """The ip, cidr, quantity, semver and format libraries and the URL getters: parsing a string,
        then constant-cost calls on the parsed value."""
        name, target, args = node.name, node.target, node.args
        if name in ("cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver") and args:
            return self.size(args[0]).factor(STRING_TRAVERSAL), None
        if name == "ip" and (args or target is not None):
            if overload == "cidr_ip" or target is not None:
                return ONE, None
            return self.size(args[0]).factor(STRING_TRAVERSAL), None
        if name == "ip.isCanonical" and args:
            return self.size(args[0]).factor(2 * STRING_TRAVERSAL), None
        if name in ("masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
                    "isLinkLocalUnicast", "isGlobalUnicast", "sign", "asInteger", "isInteger",
                    "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub",
                    "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery",
                    "major", "minor", "patch") or name.startswith("format."):
            return ONE, None
        if name in ("containsIP", "containsCIDR") and args:
            # Comparing addresses (and, for a CIDR, prefix lengths): figures fitted to the apiserver's.
            cost = Cost(4, 4) if name == "containsIP" else Cost(7, 7)
            if self.ast.type_kind(args[0]) == "string":
                cost = cost + self.size(args[0]).factor(STRING_TRAVERSAL)
            return cost, None
        if name == "__formatErrors" and len(args) == 2:
            # Like a regex match against a pattern of the library's largest size (128), over at most the
            # longest value the format allows.
            size = self.size(args[1])
            limit = _FORMAT_MAX_LENGTH.get(args[0].name.removeprefix("format.").removesuffix("Prefix"))
            if limit is not None:
                size = Cost(min(size.min, limit * 4), min(size.max, limit * 4))
            return size.factor(STRING_TRAVERSAL) * _FORMAT_REGEX_COST, None
        return None

    def replace_cost(self, target: Node, args: list[Node]) -> tuple[Cost, Cost]:
        size, to_replace, replace_with = self.size(target), self.size(args[0]), self.size(args[1])
        if to_replace.min == 0:
            count_max, retained_max = (size.max + 1 if size.max < MAX else size.max), size.max
        elif replace_with.max <= to_replace.min:
            count_max, retained_max = 0, size.max
        else:
            count_max, retained_max = min(math.ceil(size.max / to_replace.min), MAX), 0
        if to_replace.max == 0:
            count_min, retained_min = (size.min + 1 if size.min < MAX else size.min), size.min
        elif to_replace.max <= replace_with.min:
            count_min, retained_min = 0, size.min
        else:
            count_min, retained_min = math.ceil(size.min / to_replace.max), 0
        result = Cost(count_min, count_max) * replace_with + Cost(retained_min, retained_max)
        return size.factor(2 * STRING_TRAVERSAL), result

    def element_size(self, node: Node) -> Cost:
        entry = self.entry_size(node)
        return entry if entry is not None else UNKNOWN

    def _stringy(self, node: Node) -> bool:
        return self.ast.type_kind(node) in ("string", "bytes")

    def _list_of_strings(self, node: Node) -> bool:
        t = self.ast.types.get(node.id)
        return bool(t) and t[0] == "list" and t[1][0] in ("string", "bytes")


def _fixed(size: int) -> Cost:
    return Cost(size, size)


def _allocating(factor: float, size: Cost) -> tuple[Cost, Cost]:
    """estimateAllocatingListCall: the call (1) and the new list (common.ListCreateBaseCost, 10), and
    `factor` for each element of a list of `size`, which is also the result's size."""
    return size.factor(factor) + ONE + Cost(10, 10), size


def _is_format_named(node: Node) -> bool:
    """Whether a conditional is the rewrite of `format.named(n)` (see library.format)."""
    cond = node.args[0] if node.args else None
    return cond is not None and cond.kind == "call" and cond.name == "__formatKnown" and len(cond.args) == 1


def _is_format_validate(node: Node) -> bool:
    """Whether a conditional is the rewrite of `f.validate(s)` (see library.format)."""
    cond = node.args[0] if node.args else None
    if cond is None or cond.kind != "call" or cond.name != "_==_" or not cond.args:
        return False
    size_call = cond.args[0]
    if size_call.kind != "call" or size_call.name != "size":
        return False
    inner = size_call.target or (size_call.args[0] if size_call.args else None)
    return inner is not None and inner.kind == "call" and inner.name == "__formatErrors"
