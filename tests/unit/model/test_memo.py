"""IdentityMemo: values by an object's identity, with the object kept alive."""

from __future__ import annotations

from crdtool.model.memo import IdentityMemo


class Node:
    """An object compared by identity, as schema nodes are."""


def test_a_value_is_found_by_the_object_itself_and_its_part() -> None:
    memo: IdentityMemo[str] = IdentityMemo()
    a, b = Node(), Node()
    assert memo.put(a, "root", True) == "root"
    memo.put(a, "inner", False)
    assert (memo.get(a, True), memo.get(a, False), memo.get(a), memo.get(b, True)) == ("root", "inner", None, None)


def test_a_remembered_none_is_told_from_an_unknown_object() -> None:
    memo: IdentityMemo[str | None] = IdentityMemo()
    unknown = object()
    a = Node()
    memo.put(a, None)
    assert memo.get(a, default=unknown) is None
    assert memo.get(Node(), default=unknown) is unknown


def test_an_entry_keeps_its_object_so_its_id_is_never_another_objects() -> None:
    memo: IdentityMemo[int] = IdentityMemo()
    for n in range(100):
        memo.put(Node(), n)  # without the entry holding it, each Node could reuse the last one's id
    assert len(memo) == 100
    assert memo.get(Node()) is None


def test_a_full_memo_starts_afresh() -> None:
    memo: IdentityMemo[int] = IdentityMemo(limit=2)
    a, b, c = Node(), Node(), Node()
    memo.put(a, 1)
    memo.put(b, 2)
    memo.put(c, 3)
    assert (memo.get(a), memo.get(b), memo.get(c), len(memo)) == (None, None, 3, 1)
    memo.clear()
    assert len(memo) == 0
