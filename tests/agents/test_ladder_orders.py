"""The mixed-seating ladder: every cyclic order of the pool in turn, each rotated."""

from __future__ import annotations

from collections import Counter

from agents_toy import toy

from cardlab.ladder import run_ladder
from cardlab.ladder_orders import cyclic_orders, run_mixed_ladder


def test_cyclic_orders_are_every_neighbour_structure_once():
    orders = cyclic_orders(4)
    assert len(orders) == 6 and len(set(orders)) == 6
    assert all(o[0] == 0 and sorted(o) == [0, 1, 2, 3] for o in orders)
    assert cyclic_orders(2) == [(0, 1)]


def test_every_agent_has_every_other_as_its_left_neighbour_equally_often():
    table = run_mixed_ladder(toy(4), ["greedy", "random"] * 2, games=24, seed=5)
    # 6 deals x 4 rotations; each game seats both rows twice
    assert table.games == 24 and all(row.seats == 48 for row in table.rows)
    left = Counter()
    for result in table.results:
        seats = result["seat_agents"]
        for s, a in enumerate(seats):
            left[a, seats[(s + 1) % 4]] += 1
    # over the 6 orders, greedy's left neighbour is greedy in 2 of them, random in 4
    assert left[0, 0] == left[1, 1] and left[0, 1] == left[1, 0] == 2 * left[0, 0]


def test_one_order_is_the_plain_ladder_game_for_game():
    plain = run_ladder(toy(2), ["greedy", "random"], games=10, seed=3)
    mixed = run_mixed_ladder(toy(2), ["greedy", "random"], games=10, seed=3)
    assert plain.results == mixed.results
    assert [(r.agent, r.wins) for r in plain.rows] == [(r.agent, r.wins) for r in mixed.rows]
