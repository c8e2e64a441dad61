"""SuperComputerGame.max_game_length() and utility_bounds() (docs/rules/supercomputer.md
"Length"): random and greedy play never exceed them under any option, and cheap worst-case
games (scrap everything; keep both builds and miss them) stay inside them."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.testing import check_play_within_bounds

OPTION_SETS = [
    {"builds": builds, "voluntary_scrap": scrap, "passing": passing}
    for builds in ("choose_one", "keep_both", "public_race")
    for scrap in (False, True)
    for passing in ("left", "alternate")
]
CASES = [(n, o) for n in (2, 3, 4, 5) for o in OPTION_SETS]
IDS = [f"{n}p-" + "-".join(str(v) for v in o.values()) for n, o in CASES]


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_random_and_greedy_play_stay_within_the_bounds(players, options):
    game = cardlab.load_game("supercomputer", players=players, **options)
    check_play_within_bounds(game, random_games=8, greedy_games=1)


@pytest.mark.parametrize("builds", ["choose_one", "keep_both", "public_race"])
@pytest.mark.parametrize("players", [2, 5])
def test_scrapping_every_part_reaches_the_length_bound(players, builds):
    # S5 option voluntary_scrap: a seat that scraps every revealed part decides every
    # placement (3 rounds x 7), so the game is exactly the bound: 45 n (42 n when there
    # is no build choice). Its points are all reds plus penalties: at or above the low bound.
    game = cardlab.load_game("supercomputer", players=players, voluntary_scrap=True, builds=builds)
    state = game.new_initial_state(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(game.actions.scrap if game.actions.scrap in legal else legal[0])
    assert len(state.history()) == game.max_game_length()
    low, high = game.utility_bounds()
    assert all(low <= r <= min(0.0, high) for r in state.returns())


def test_public_race_bound_counts_n_minus_1_builds():
    # players-1 face-up builds a round can all go to one seat: the high bound grows with n
    # (the adapter's first version assumed two builds at most, too low at 4-5 players).
    high = [
        cardlab.load_game("supercomputer", players=n, builds="public_race").utility_bounds()[1]
        for n in (2, 3, 4, 5)
    ]
    assert high == sorted(high) and high[0] < high[-1]
