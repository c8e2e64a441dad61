"""UptimeGame.max_game_length() and utility_bounds() (docs/rules/uptime.md "How long a game
can be"): random and greedy play never exceed them under any option combination, and the
worst cases we can build cheaply stay inside them."""

from __future__ import annotations

import itertools

import pytest

import cardlab
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.state import STALL_CAP_ROUNDS
from cardlab.testing import check_play_within_bounds

OPTION_SETS = [
    {"stall_end": se, "supply_reshuffle": rs, "row_sweep": sw}
    for se, rs, sw in itertools.product((True, False), repeat=3)
]
CASES = [(n, o) for n in (2, 3, 4) for o in OPTION_SETS]
IDS = [f"{n}p-" + "-".join(f"{k}={v}" for k, v in o.items()) for n, o in CASES]


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_random_and_greedy_play_stay_within_the_bounds(players, options):
    game = cardlab.load_game("uptime", players=players, **options)
    check_play_within_bounds(game, random_games=30, greedy_games=6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_passing_without_the_stall_rule_reaches_the_turn_cap(players):
    # Worst case for turns with stall_end=false: nobody claims, every turn is a Pass, so
    # the game runs to the hard cap of 100 rounds (the turn part of the bound is reached).
    game = cardlab.load_game("uptime", players=players, stall_end=False)
    state = game.new_initial_state(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(A.PASS if A.PASS in legal else legal[0])
    assert state.info()["end_reason"] == "stalled"
    turns = STALL_CAP_ROUNDS * players
    assert sum(state.turns) == turns <= len(state.history()) <= game.max_game_length()


def test_defaults_reproduce_the_documented_figure():
    # docs/rules/uptime.md: 716 decisions at 4 players with the rulings' options (U3: the
    # supply discard is reshuffled), 259 with supply_reshuffle=false.
    assert cardlab.load_game("uptime", players=4).max_game_length() == 716
    assert cardlab.load_game("uptime", players=4, supply_reshuffle=False).max_game_length() == 259
    assert cardlab.load_game("uptime", players=4).utility_bounds() == (0.0, 69.0)
