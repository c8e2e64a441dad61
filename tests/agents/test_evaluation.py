"""Rewards for search: in [0, 1], fair share 1/n when level, the winner on top."""

import pytest
from toygame import SealedBids, position

from cardlab.agents.evaluation import heuristic_values, rewards, score_shares


def test_level_seats_get_the_fair_share():
    state = SealedBids(4).new_initial_state(0)
    assert score_shares(state, 3.0) == pytest.approx([0.25] * 4)


def test_leader_gets_more_and_shares_sum_to_one():
    state = position(3, hands=[[1], [2], [3]], points=[6, 2, 0], prize=4)
    shares = rewards(state, 3.0)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > shares[1] > shares[2] > 0


def test_finished_game_rewards_the_winner():
    state = position(2, hands=[[1], [2]], points=[5, 3], prize=1)
    state.round = 4  # over
    assert state.is_terminal() and state.winners() == [0]
    won, lost = rewards(state, 3.0)
    assert 0.9 <= won <= 1.0 and 0.0 <= lost <= 0.1


def test_a_game_may_give_all_heuristic_values_at_once():
    state = position(2, hands=[[1], [2]], points=[5, 3], prize=1)
    assert heuristic_values(state) == [2.0, -2.0]
    state.heuristic_values = lambda: [7.0, 1.0]  # the optional fast path
    assert heuristic_values(state) == [7.0, 1.0]
