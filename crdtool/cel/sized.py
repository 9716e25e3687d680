"""A rule's cost on one object: cel-go's estimate with the object's own sizes.

cel-expr-python stops a rule after 10,000 comprehension iterations, far below the apiserver's
runtime limit of 1,000,000 cost units per rule call. When it stops, the rule's static cost is
estimated again with the schema's bounds replaced by the sizes of the values at hand (the longest
string, list and map at each schema node). That is an upper bound of what the apiserver would
spend: within the per-call limit, the apiserver would have finished the rule, so crdtool cannot
say what it found; beyond it, the apiserver (whose estimate it is) would cancel it.
"""

from __future__ import annotations

from typing import Any

from crdtool.cel import cost
from crdtool.cel.types import schema_decl_type
from crdtool.model.memo import IdentityMemo
from crdtool.model.record import replace
from crdtool.schema.structural.structural import Structural, ValueValidation

PER_CALL_LIMIT = 1_000_000  # the apiserver's runtime cost limit of one rule evaluation
RUNTIME_BUDGET = 10_000_000  # the apiserver's runtime cost budget of all rules on one object


def sized_cost(ast: Any, schema: Structural, is_resource_root: bool, values: list[Any]) -> int:
    """The rule's estimated worst-case cost over these values (self, and oldSelf)."""
    decl_type = schema_decl_type(sized_schema(schema, values), is_resource_root)
    if decl_type is None:
        return cost.MAX
    estimate, _ = cost.estimate_with_largest(ast, decl_type)
    return estimate.max


def sized_schema(s: Structural, values: list[Any]) -> Structural:
    """A copy of `s` whose maxLength/maxItems/maxProperties are the largest sizes among `values` (0 where
    there are none)."""
    if not values:  # nothing there: a rule reaching here finds no value to traverse
        return _zeroed(s)
    strings = [v for v in values if isinstance(v, str)]
    lists = [v for v in values if isinstance(v, list)]
    maps = [v for v in values if isinstance(v, dict)]
    vv = replace(s.value_validation) if s.value_validation is not None else ValueValidation()
    if strings:
        vv.max_length = max(len(v) for v in strings)
    if lists:
        vv.max_items = max(len(v) for v in lists)
    if maps:
        vv.max_properties = max(len(v) for v in maps)
    items = s.items
    if items is not None:
        items = sized_schema(items, [x for v in lists for x in v])
    properties = {name: sized_schema(p, [m[name] for m in maps if name in m]) for name, p in s.properties.items()}
    additional = s.additional_properties
    if isinstance(additional, Structural):
        additional = sized_schema(additional, [x for m in maps for k, x in m.items() if k not in s.properties])
    return replace(s, value_validation=vv, items=items, properties=properties, additional_properties=additional)


# Schema node -> its copy sized for no values at all: large schemas are mostly absent from an object,
# and their zeroed copies are the same for every object.
_zeroed_cache: IdentityMemo[Structural] = IdentityMemo()


def _zeroed(s: Structural) -> Structural:
    hit = _zeroed_cache.get(s)
    if hit is not None:
        return hit
    vv = replace(s.value_validation) if s.value_validation is not None else ValueValidation()
    vv.max_length = vv.max_items = vv.max_properties = 0
    additional = s.additional_properties
    zeroed = replace(s, value_validation=vv, items=_zeroed(s.items) if s.items is not None else None,
                     properties={name: _zeroed(p) for name, p in s.properties.items()},
                     additional_properties=_zeroed(additional) if isinstance(additional, Structural) else additional)
    return _zeroed_cache.put(s, zeroed)
