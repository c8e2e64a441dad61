"""ISMCTS finds the forced win in hand-made Sealed Bids positions (toy game).

Each position has one winning move whatever the hidden cards are; a random
bot finds it a third of the time or less, so ISMCTS must find it every seed."""

import pytest
from toygame import SealedBids, position

from cardlab.agents import make_agent

SEEDS = range(5)


def decide(state, seed, iterations=300):  # noqa: ANN001, ANN201
    view = state.resample_from_infostate(state.current_player(), 1000 + seed)
    return make_agent("ismcts", seed=seed, iterations=iterations).step(view)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_players_bid_the_top_card_to_win(seed):
    # Round 4 of 4, seat 1 led with a hidden bid; seat 0 trails 3-0 and the
    # prize is 5. Only the top card of the deck (12) is sure to win the prize.
    top = SealedBids(2).top_bid
    state = position(2, hands=[[1, 2, top], [5]], points=[0, 3], prize=5, leader_bids={1: 9})
    assert state.current_player() == 0
    assert decide(state, seed) == top


@pytest.mark.parametrize("seed", SEEDS)
def test_four_players_last_to_bid_takes_the_prize(seed):
    # Four players, seat 2 bids last; everyone is within reach, the prize (8)
    # decides the game and only the top card (20) is sure to take it.
    top = SealedBids(4).top_bid
    state = position(
        4,
        hands=[[3], [4], [1, 2, top], [6]],
        points=[4, 5, 3, 5],
        prize=8,
        leader_bids={3: 7, 0: 10, 1: 11},
    )
    assert state.current_player() == 2
    assert decide(state, seed) == top


@pytest.mark.parametrize("seed", SEEDS)
def test_out_of_turn_sabotage_hits_the_rival(seed):
    # After the last reveal seat 1 (6 points) sabotages out of turn: hitting
    # seat 0 (6 points) wins; hitting seat 2 leaves a 6-6 tie that seat 0 wins.
    game = SealedBids(3)
    state = position(3, hands=[[], [], []], points=[6, 6, 3], prize=1)
    state.prize = None
    state.saboteur = 1
    assert state.current_player() == 1 and state.decision_kind() == "sabotage"
    assert decide(state, seed, iterations=100) == game.sabotage_action(0)


def test_search_runs_the_iterations_asked_and_counts_visits():
    top = SealedBids(2).top_bid
    state = position(2, hands=[[1, 2, top], [5]], points=[0, 3], prize=5, leader_bids={1: 9})
    agent = make_agent("ismcts", seed=1, iterations=200)
    agent.step(state)
    stats = agent.last_search
    assert stats.iterations == 200
    assert sum(stats.visits.values()) == 200
    assert set(stats.visits) == {1, 2, top}
    assert stats.values[top] > max(stats.values[1], stats.values[2])


def test_time_budget_mode_stops_on_the_clock():
    state = SealedBids(3).new_initial_state(2)
    agent = make_agent("ismcts", seed=1, time_ms=30)
    assert agent.step(state) in state.legal_actions()
    assert agent.last_search.iterations > 0
    assert agent.last_search.seconds < 1.0


@pytest.mark.parametrize("rollout", ["greedy", "random"])
def test_rollout_policies_and_full_depth_rollouts_work(rollout):
    top = SealedBids(2).top_bid
    state = position(2, hands=[[1, 2, top], [5]], points=[0, 3], prize=5, leader_bids={1: 9})
    agent = make_agent("ismcts", seed=2, iterations=150, rollout=rollout, rollout_depth=None)
    assert agent.step(state) == top
