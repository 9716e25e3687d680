"""Where crdtool's CEL engine stops short of cel-go: nesting depth as cel-go's parser counts it (its
limit is 250), and the object-sized cost estimate used when the engine's iteration budget runs out."""

from crdtool.cel.depth import nesting_depth


def test_brackets_of_every_kind_nest() -> None:
    assert nesting_depth("self.a == 1") == 1
    assert nesting_depth("(self.a == 1)") == 2
    assert nesting_depth("self.l.all(x, x in [1, {'k': [2]}])") == 5
    assert nesting_depth("((a) + (b))") == 3


def test_brackets_in_string_literals_do_not_count() -> None:
    assert nesting_depth("self.s == '((((' && self.t == \"[[\"") == 1
    assert nesting_depth("self.s == '''(\n(''' ") == 1
    assert nesting_depth(r"self.s == 'it\'s (' ") == 1
    assert nesting_depth(r"self.s.matches(r'\(')") == 2


def test_sized_schema_takes_the_values_sizes() -> None:
    from crdtool.cel.sized import sized_schema
    from crdtool.schema.structural import new_structural

    schema = new_structural({"type": "object", "properties": {
        "l": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}}}})
    sized = sized_schema(schema, [{"l": ["ab", "abcd"], "m": {"k": "xyz"}}, {"l": ["a"]}])
    assert sized.properties["l"].value_validation.max_items == 2
    assert sized.properties["l"].items.value_validation.max_length == 4
    assert sized.properties["m"].value_validation.max_properties == 1
    assert sized.properties["m"].additional_properties.value_validation.max_length == 3
    assert schema.properties["l"].value_validation.max_items == 100  # the schema itself is left as it was


def _list_rules(max_length: int | None) -> object:
    from crdtool.schema.structural import new_structural

    item = {"type": "string", "x-kubernetes-validations": [{"rule": "self.matches('^a+b$')"}]}
    if max_length is not None:
        item["maxLength"] = max_length
    return new_structural({"type": "object", "properties": {"l": {"type": "array", "items": item}}})


def test_cheap_objects_stay_within_the_per_object_budget_unnoted() -> None:
    from crdtool.cel.evaluate import validate
    from crdtool.model.notes import Note
    from crdtool.model.path import Path

    # Unbounded strings: the static estimates of 300 runs exceed the budget, their sizes here do not.
    errs, warnings = validate(_list_rules(None), False, {"l": ["ab"] * 300}, None, Path.root("spec"), False)
    assert errs == [] and not [w for w in warnings if isinstance(w, Note)]


def test_objects_whose_rules_may_exceed_the_per_object_budget_are_noted() -> None:
    from crdtool.cel.evaluate import validate
    from crdtool.model.notes import Note
    from crdtool.model.path import Path

    long = "a" * 20_000 + "b"
    errs, warnings = validate(_list_rules(None), False, {"l": [long] * 800}, None, Path.root("spec"), False)
    notes = [w for w in warnings if isinstance(w, Note)]
    assert errs == []
    assert len(notes) == 1 and str(notes[0].path) == "spec"
    assert "exceeds the apiserver's runtime budget of 10,000,000 per object" in notes[0].message
