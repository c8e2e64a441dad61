"""SuperComputerGame.max_game_length() and utility_bounds() (docs/rules/supercomputer.md
"Length"): random and greedy play never exceed them under any option, and cheap worst-case
games (scrap everything; keep both builds and miss them) stay inside them."""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab.agents import make_agent, play_game

OPTION_SETS = [
    {"builds": builds, "voluntary_scrap": scrap, "passing": passing}
    for builds in ("choose_one", "keep_both", "public_race")
    for scrap in (False, True)
    for passing in ("left", "alternate")
]
CASES = [(n, o) for n in (2, 3, 4, 5) for o in OPTION_SETS]
IDS = [f"{n}p-" + "-".join(str(v) for v in o.values()) for n, o in CASES]


def _check(game, length: int, returns: list[float]) -> None:
    low, high = game.utility_bounds()
    assert length <= game.max_game_length()
    assert all(low <= r <= high for r in returns), (returns, low, high)


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_random_and_greedy_play_stay_within_the_bounds(players, options):
    game = cardlab.load_game("supercomputer", players=players, **options)
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        _check(game, len(state.history()), state.returns())
    agents = [make_agent("greedy", seed=i) for i in range(players)]
    result = play_game(game, agents, seed=1)
    _check(game, len(result.history), result.returns)


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
        state.apply_action(game.scrap_action if game.scrap_action in legal else legal[0])
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
