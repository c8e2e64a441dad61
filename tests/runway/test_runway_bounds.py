"""RunwayGame.max_game_length() and utility_bounds() (docs/rules/runway.md "Bound on game
length"): random and greedy play never exceed them under any option, and the longest game
(everyone passes and trades every turn) reaches the length bound exactly."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.games.runway.actions import PASS, SKIP
from cardlab.testing import check_play_within_bounds

OPTION_SETS = [
    {"last_seat": last, "shock_effect": shock, "two_player_last_seat": two}
    for last in ("catch_up", "rotate")
    for shock in ("hype_down", "none", "reward_minus_one")
    for two in ("catch_up", "alternate")
]
CASES = [(n, o) for n in (2, 3, 4) for o in OPTION_SETS]
IDS = [f"{n}p-" + "-".join(str(v) for v in o.values()) for n, o in CASES]


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_random_and_greedy_play_stay_within_the_bounds(players, options):
    game = cardlab.load_game("runway", players=players, **options)
    check_play_within_bounds(game, random_games=15, greedy_games=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_passing_and_trading_every_turn_reaches_the_length_bound(players):
    # R5: a pass opens a trade decision; skipping it keeps the hand, so every seat can
    # pass (and trade) on all 12 Deals: exactly 24 n decisions, all Deals Dumped.
    game = cardlab.load_game("runway", players=players)
    state = game.new_initial_state(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(PASS if PASS in legal else SKIP)
    assert len(state.history()) == game.max_game_length() == 24 * players
    assert state.returns() == [0.0] * players


def test_points_bound_is_the_sum_of_the_best_rewards():
    # 12 Deals of score + 2 (Hype bonus at most 2), 4 locks of 2, 4 Sector bonuses.
    game = cardlab.load_game("runway", players=3)
    scores = game.cards.deal_score
    assert game.utility_bounds() == (0.0, float(sum(scores) + 2 * 12 + 8 + 4))
