"""The lab's first seat is the game's first player, not whoever decides first.

UPTIME deals the starting hands before the first turn, and a Power Surge dealt on the
way asks the drawing seat (often not the first player) for a material: the seat of the
first decision is then not the first player. The lab's first-seat figures read the
game's own `info()["first_player"]`."""

from __future__ import annotations

import cardlab
from cardlab.lab.simulate import SimSpec, game_seed, play_one


def _first_decider(seed: int) -> tuple[int, int]:
    game = cardlab.load_game("uptime", players=4)
    state = game.new_initial_state(seed)
    return state.current_player(), int(state.info()["first_player"])


def test_first_player_comes_from_the_game_not_the_first_decision() -> None:
    spec = SimSpec(game="uptime", players=4, agents=("random",) * 4, seed=11, games=40)
    mismatched = 0
    for index in range(spec.games):
        decider, first = _first_decider(game_seed(spec.seed, index))
        record = play_one(spec, index)
        assert record.error is None or record.error == "", record.error
        assert record.first_player == first, index
        mismatched += decider != first
    assert mismatched > 0, "no game in the sample opened with another seat's decision"
