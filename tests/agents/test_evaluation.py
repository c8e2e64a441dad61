"""Rewards for search: in [0, 1], fair share 1/n when level, the winner on top."""

import pytest
from agents_toy import position, toy

from cardlab.agents.evaluation import heuristic_values, rewards, score_shares


def test_level_seats_get_the_fair_share():
    state = toy(4).new_initial_state(0)
    assert score_shares(state, 3.0) == pytest.approx([0.25] * 4)


def test_leader_gets_more_and_shares_sum_to_one():
    state = position(3, hands=[[1], [2], [3]], points=[6, 2, 0])
    shares = rewards(state, 3.0)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > shares[1] > shares[2] > 0


def test_finished_game_rewards_the_winner():
    state = position(2, hands=[[1], [0]], points=[5, 3])
    for action in (1, 0):  # the last round: seat 0 takes it with the 1 (6-3)...
        state.apply_action(action)
    state.apply_action(state.legal_actions()[0])  # ...and sabotages seat 1 (6-2): over
    assert state.is_terminal() and state.winners() == [0]
    won, lost = rewards(state, 3.0)
    assert 0.9 <= won <= 1.0 and 0.0 <= lost <= 0.1


def test_a_game_may_give_all_heuristic_values_at_once():
    state = position(2, hands=[[1], [2]], points=[5, 3])
    assert heuristic_values(state) == [2.0, -2.0]
    state.heuristic_values = lambda: [7.0, 1.0]  # the optional fast path
    assert heuristic_values(state) == [7.0, 1.0]
