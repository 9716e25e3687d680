"""Nesting depth as cel-go's parser counts it (its recursion limit is 250)."""

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
