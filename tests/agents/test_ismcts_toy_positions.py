"""ISMCTS finds the forced win in hand-made positions of the toy game (the
`cardlab new-game` template with `sabotage` on; card i has value i, 0..15).

Each position has one winning move whatever the hidden cards are; a random
bot finds it a third of the time or less, so ISMCTS must find it every seed."""

import pytest
from agents_toy import TOP, position, sabotage_action, toy

from cardlab.agents import make_agent

SEEDS = range(5)


def decide(state, seed, iterations=300):  # noqa: ANN001, ANN201
    view = state.resample_from_infostate(state.current_player(), 1000 + seed)
    return make_agent("ismcts", seed=seed, iterations=iterations).step(view)


def two_player_last_card():  # noqa: ANN201
    # Last round; seat 0 led with a hidden card (9); seat 1 trails 3-0. The round's
    # winner scores its card: only the top card (15) is sure to take the round, and
    # taking it with 1 or 2 (if seat 0 laid the 0) still leaves seat 1 behind.
    return position(2, hands=[[5], [1, 2, TOP]], points=[3, 0], laid=[9])


@pytest.mark.parametrize("seed", SEEDS)
def test_two_players_lay_the_top_card_to_win(seed):
    state = two_player_last_card()
    assert state.current_player() == 1
    assert decide(state, seed) == TOP


@pytest.mark.parametrize("seed", SEEDS)
def test_four_players_last_to_lay_takes_the_round(seed):
    # Four players, seat 3 lays last; everyone is within reach, the last round
    # decides the game and only the top card (15) is sure to take it: of the three
    # hidden cards at most one is the 0, so 1 or 2 never takes the round, and any
    # other winner ends above seat 3's 5 points.
    state = position(4, hands=[[3], [4], [6], [1, 2, TOP]], points=[4, 5, 3, 5], laid=[7, 10, 11])
    assert state.current_player() == 3
    assert decide(state, seed) == TOP


@pytest.mark.parametrize("seed", SEEDS)
def test_out_of_turn_sabotage_hits_the_rival(seed):
    # After the last reveal seat 1 (6 points, it took the round with the 6) sabotages
    # out of turn: hitting seat 0 (6 points) wins; hitting seat 2 leaves a 6-6 tie
    # that seat 0 wins on rounds taken (2 to 1).
    state = position(3, hands=[[2], [6], [3]], points=[6, 0, 0], rounds_taken=[2, 0, 0])
    for card in (2, 6, 3):
        state.apply_action(card)
    assert state.points == [6, 6, 0]
    assert state.current_player() == 1 and state.decision_kind() == "sabotage"
    assert decide(state, seed, iterations=100) == sabotage_action(state.game, 0)


def test_search_runs_the_iterations_asked_and_counts_visits():
    state = two_player_last_card()
    agent = make_agent("ismcts", seed=1, iterations=200)
    agent.step(state)
    stats = agent.last_search
    assert stats.iterations == 200
    assert sum(stats.visits.values()) == 200
    assert set(stats.visits) == {1, 2, TOP}
    assert stats.values[TOP] > max(stats.values[1], stats.values[2])


def test_time_budget_mode_stops_on_the_clock():
    state = toy(3).new_initial_state(2)
    agent = make_agent("ismcts", seed=1, time_ms=30)
    assert agent.step(state) in state.legal_actions()
    assert agent.last_search.iterations > 0
    assert agent.last_search.seconds < 1.0


@pytest.mark.parametrize("rollout", ["greedy", "random", "mast"])
def test_rollout_policies_and_full_depth_rollouts_work(rollout):
    state = two_player_last_card()
    agent = make_agent("ismcts", seed=2, iterations=150, rollout=rollout, rollout_depth=None)
    assert agent.step(state) == TOP


@pytest.mark.parametrize("epsilon", [-0.1, 1.5, "high", True])
def test_a_bad_epsilon_is_refused_clearly(epsilon):
    with pytest.raises(ValueError, match="epsilon"):
        make_agent("ismcts", seed=1, epsilon=epsilon)
