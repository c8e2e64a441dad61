"""Hypothesis property tests for SUPER COMPUTER over all player counts and options,
using the shared contract checks in cardlab.testing.

Bound on game length (docs/rules/supercomputer.md, "Length"): per round each seat
makes at most 1 build choice, 7 picks and 7 placements, so a game has at most
3 * 15 * n = 45 n decisions (225 for 5 players)."""

from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab.testing import check_replay_and_clone, random_game

OPTION_SETS = [
    {},
    {"voluntary_scrap": True},
    {"builds": "keep_both"},
    {"builds": "public_race", "passing": "alternate"},
    {"passing": "right", "voluntary_scrap": True},
]


def max_decisions(n: int) -> int:
    return 45 * n


@settings(max_examples=10, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**31),
    action_seed=st.integers(0, 2**31),
    opts=st.sampled_from(OPTION_SETS),
)
def test_contract_holds_in_random_games(players, seed, action_seed, opts):
    """Cards conserved, no empty legal list, illegal refused, resample keeps obs, no leak."""
    game = cardlab.load_game("supercomputer", players=players, **opts)
    state = random_game(game, seed, action_seed, max_decisions(players), checks_every=5)
    # S3: seven picks a round, three rounds: exactly 21 picks per player.
    assert state.info()["picks"] == [21] * players
    picks = [a for a in state.history() if a < game.actions.first_place]
    assert len(picks) == 21 * players


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), action_seed=st.integers(0, 2**31))
def test_replay_and_clone(players, seed, action_seed):
    game = cardlab.load_game("supercomputer", players=players)
    check_replay_and_clone(game, seed, action_seed)
