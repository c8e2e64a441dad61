"""`cardlab.core.trail.Trail`, the persistent append-only record the engines keep their
moves and log in: a push never changes the trail it extends (so clones may share it),
and it reads, compares and pickles like the list it stands for."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.core.trail import EMPTY_TRAIL, Trail, trail


@given(st.lists(st.integers()), st.lists(st.integers()))
def test_a_trail_reads_as_its_items_and_a_push_leaves_the_old_one_alone(xs, ys):
    base = trail(xs)
    longer = base
    for y in ys:
        longer = longer.push(y)
    assert base.items() == list(base) == xs and len(base) == len(xs)
    assert longer.items() == xs + ys and len(longer) == len(xs) + len(ys)
    assert longer.since(base) == ys
    assert list(longer.newest_first()) == (xs + ys)[::-1]
    for i in range(-len(xs + ys), len(xs + ys)):
        assert longer[i] == (xs + ys)[i]
    assert (longer == trail(xs + ys)) and (longer != base or not ys)


def test_indexing_past_either_end_is_an_index_error():
    t = trail("abc")
    with pytest.raises(IndexError, match="out of range for 3 entries"):
        t[3]
    with pytest.raises(IndexError):
        t[-4]
    with pytest.raises(IndexError):
        EMPTY_TRAIL[0]


def test_since_a_trail_that_is_not_an_ancestor_gives_everything():
    assert trail([1, 2]).since(trail([1])) == [1, 2]  # equal items, another object
    t = trail([1])
    assert t.push(2).since(t) == [2] and t.since(t) == []


def test_a_long_trail_pickles_copies_and_frees_without_deep_recursion():
    long = trail(range(200_000))
    back = pickle.loads(pickle.dumps(long, pickle.HIGHEST_PROTOCOL))
    assert back == long and len(back) == 200_000 and back[-1] == 199_999
    assert copy.deepcopy(trail(range(50_000))) == trail(range(50_000))
    del long, back  # a chain of 200k objects freed one by one, not recursively


def test_a_trail_is_not_a_list_nor_equal_to_one():
    assert trail([1]) != [1] and isinstance(trail([1]), Trail)
    assert repr(trail([1, (2, 3)])) == "trail([1, (2, 3)])"


@given(st.lists(st.integers(0, 3)), st.lists(st.integers(0, 3)))
def test_a_rewritten_trail_has_the_new_items_and_shares_the_common_start(xs, ys):
    old = trail(xs)
    new = old.rewritten(ys)
    assert new.items() == ys and old.items() == xs
    same = 0
    while same < min(len(xs), len(ys)) and xs[same] == ys[same]:
        same += 1
    cell = new
    for _ in range(len(ys) - same):
        cell = cell.rest
    shared = old
    for _ in range(len(xs) - same):
        shared = shared.rest
    assert cell is shared  # the first `same` entries are the old trail's own cells
    assert old.rewritten(xs) is old


def test_a_copy_or_deep_copy_of_a_trail_is_the_trail():
    t = trail([("place", 1, (2, 3))])
    assert copy.copy(t) is t and copy.deepcopy(t) is t
