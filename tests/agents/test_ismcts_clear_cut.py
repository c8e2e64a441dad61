"""ISMCTS finds the obviously best move in positions of every real game.

The positions come from `clearcut.find_clear_cut`: found by playing each
engine through its public API, each has one action that won every sampled
continuation while the others won at most 30%. The test asserts positions
were found, so it cannot pass vacuously. Two players: with more seats the
last decisions rarely decide the game alone, so clear-cut positions are rare. The
games cardlab ships (the shelf's reference games bring their own tests: War has no
decisions, Hearts and Oh Hell no 2-player game)."""

import pytest
from clearcut import find_clear_cut
from gamelist import real_games

import cardlab
from cardlab.agents import make_agent
from cardlab.games import game_info

SETUPS = [
    (name, 2) for name in real_games() if game_info(name).package.startswith("cardlab.games.")
]


@pytest.mark.parametrize("game_name, players", SETUPS)
def test_ismcts_finds_the_clear_cut_move(game_name, players):
    game = cardlab.load_game(game_name, players=players)
    positions = find_clear_cut(game, wanted=3, seed=players)
    assert positions, f"no clear-cut position found in {game_name} ({players} players)"
    for found in positions:
        seat = found.state.current_player()
        for seed in range(2):
            view = found.state.resample_from_infostate(seat, 500 + seed)
            choice = make_agent("ismcts", seed=seed, iterations=300).step(view)
            assert choice == found.best, (
                f"{game_name}: ISMCTS chose {found.state.action_to_string(choice)!r}, not "
                f"{found.state.action_to_string(found.best)!r}; sampled win rates "
                f"{found.win_rates}"
            )
