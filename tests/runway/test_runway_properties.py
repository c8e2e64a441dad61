"""The shared harness properties for RUNWAY over Hypothesis-drawn seeds, 2-4 players.

Bound on game length (documented in docs/rules/runway.md): every Deal takes
exactly one pitch turn per seat, and a turn is at most two decisions (pass,
then trade), so a game is at most 12 Deals x n seats x 2 = 24n decisions
(96 for 4 players). The harness fails a game that runs past this bound.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab.testing import check_replay_and_clone, random_game


def max_decisions(players: int) -> int:
    return 12 * players * 2


SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)
OPTIONS = st.sampled_from(
    [
        {},
        {"shock_effect": "none"},
        {"shock_effect": "reward_minus_one"},
        {"two_player_last_seat": "alternate"},
        {"last_seat": "rotate"},
    ]
)


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, action_seed=SEEDS, options=OPTIONS)
def test_harness_properties_hold(players, seed, action_seed, options):
    """54 cards conserved, legal never empty, games end within the bound, illegal
    refused without change, resampling keeps observation(p), no hidden id leaks."""
    game = cardlab.load_game("runway", players=players, **options)
    state = random_game(game, seed, action_seed, max_decisions(players), checks_every=3)
    assert len(state.history()) <= max_decisions(players)
    assert state.info()["rounds"] == 12


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, action_seed=SEEDS)
def test_replay_and_clone(players, seed, action_seed):
    """Same seed + same actions = same game; a clone is independent."""
    check_replay_and_clone(cardlab.load_game("runway", players=players), seed, action_seed)


def test_total_is_54_cards():
    """The box: 32 Capital + 12 Deals + 6 Shocks + 4 Sector cards = 54."""
    state = cardlab.load_game("runway", players=3).new_initial_state(5)
    ids = [i for zone in state.zones().values() for i in zone]
    assert len(ids) == len(set(ids)) == 54
