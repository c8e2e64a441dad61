"""Fast paths written for the search give what the readable code gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab.games.uptime import scoring

GAMES = {n: cardlab.load_game("uptime", players=n) for n in (2, 3, 4)}

small = st.integers(min_value=0, max_value=3)


@settings(max_examples=400, deadline=None)
@given(
    players=st.sampled_from((2, 3, 4)),
    first=st.integers(min_value=0, max_value=3),
    rows=st.lists(st.tuples(small, small, small, small), min_size=4, max_size=4),
)
def test_final_ranking_is_scoring_rank(players, first, rows):
    """U17's chain: the state's field-by-field ranking (`_rank_final`, run at every game
    end) names the same winner and deciding level as `scoring.rank` over `break_ties`,
    ties at every depth included (small values make them common)."""
    state = GAMES[players].new_initial_state(0)
    state.first_player = first % players
    rows = rows[:players]
    pts = [r[0] for r in rows]
    state.computers = [r[1] for r in rows]
    state.contracts = [r[2] for r in rows]
    state.draw_pass = [r[3] for r in rows]
    assert state._rank_final(pts) == scoring.rank(state, pts)


def test_finished_games_rank_as_scoring_rank():
    """Random games to the end: the winner `_finish` stored is `scoring.rank`'s."""
    rng = random.Random(5)
    for seed in range(40):
        state = GAMES[2 + seed % 3].new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.final_winner == scoring.rank(state, state.final_points)[0]
