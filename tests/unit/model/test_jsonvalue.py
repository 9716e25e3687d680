"""Go's primitives on decoded JSON values (crdtool.model.jsonvalue)."""

from __future__ import annotations

from crdtool.model.jsonvalue import deep_equal, holds_null, json_copy, same_reading


def test_json_copy_shares_no_container():
    value = {"a": [{"b": 1}], "c": "x"}
    copy = json_copy(value)
    assert copy == value
    copy["a"][0]["b"] = 2
    assert value["a"][0]["b"] == 1


def test_deep_equal_keeps_go_types_apart():
    assert deep_equal({"a": [1, "x", None]}, {"a": [1, "x", None]})
    assert not deep_equal(1, 1.0)
    assert not deep_equal(True, 1)
    assert not deep_equal({"a": [1]}, {"a": [1.0]})
    assert not deep_equal({"a": 1}, {"b": 1})
    assert not deep_equal([1, 2], [1])
    assert not deep_equal(float("nan"), float("nan"))


def test_two_readings_of_a_nan_are_the_same_reading_but_go_types_stay_apart():
    nan = float("nan")
    assert same_reading({"a": [nan, {"b": nan}]}, {"a": [float("nan"), {"b": float("nan")}]})
    assert same_reading({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not same_reading({"a": [nan]}, {"a": [1.0]})
    assert not same_reading({"a": nan, "b": 1}, {"a": nan, "b": 1.0})
    assert not same_reading([nan], [nan, nan])
    assert not same_reading({"a": nan}, {"b": nan})


def test_same_reading_in_another_key_order_or_nested_beyond_marshal() -> None:
    assert same_reading({"a": 1, "b": [0.0]}, {"b": [-0.0], "a": 1})
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    other: list = []
    for _ in range(3000):
        other = [other]
    assert same_reading(deep, other)
    assert not same_reading(deep, [other])


def test_a_null_anywhere_is_found() -> None:
    assert holds_null(None) and holds_null({"a": [1, {"b": None}]}) and holds_null([{}, [None]])
    assert not holds_null({"a": [1, {"b": False, "c": ""}], "d": 0}) and not holds_null([])
