"""Terminal play against bots given as text specs, ISMCTS with parameters included."""

import io

import pytest
from gamelist import games_that_ask, seats_for
from rich.console import Console
from typer.testing import CliRunner

import cardlab
from cardlab.agents import parse_agent_list
from cardlab.cli import app
from cardlab.terminal import play_terminal

GAMES = games_that_ask()
"""WAR asks a human nothing (every move is forced): the story tests need a choice."""


@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_game_against_ismcts_tells_the_story_and_the_final_scores(game_name):
    game = cardlab.load_game(game_name, players=seats_for(game_name))
    specs = parse_agent_list("ismcts:iterations=10,rollout_depth=4,greedy")
    bots = [None] + [specs[(s - 1) % 2].make(seed=s) for s in range(1, game.num_players)]
    out = io.StringIO()
    state = play_terminal(
        game,
        [0],
        bots,
        seed=4,
        console=Console(file=out, width=120),
        read=lambda _: "1",
        clear=False,
    )
    assert state.is_terminal()
    text = out.getvalue()
    # The bots' moves are told by the public log (never as their action labels)...
    assert "Since your last move" in text
    assert "Seat 1 (ismcts):" not in text and "Seat 2 (greedy):" not in text
    # ...and the game ends on its final scores.
    assert "final scores" in text.lower()


@pytest.mark.skipif(not GAMES, reason="no engine has landed")
def test_cli_play_accepts_bot_parameters_and_names_bad_ones():
    runner = CliRunner()
    args = ["play", GAMES[0], "--players", "2", "--seed", "3", "--bots", "ismcts:iterations=5"]
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code == 0, result.output
    assert "Left the game" in result.output
    bad = runner.invoke(app, ["play", GAMES[0], "--bots", "ismcts:iterations=0"], input="q\n")
    assert bad.exit_code == 2 and "iterations must be" in bad.output


@pytest.mark.skipif(not GAMES, reason="no engine has landed")
def test_cli_play_without_a_game_and_no_terminal_names_the_games_instead_of_playing_one():
    """No game is played by default (not even the first listed); with stdin not
    a terminal there is nobody to ask, so the games are listed and the command exits 2.
    The interactive choice is tested in tests/agents/test_terminal_secrets.py."""
    result = CliRunner().invoke(app, ["play", "--seed", "3"], input="q\n")
    assert result.exit_code == 2, result.output
    assert "no game given" in result.output
    for name in GAMES:
        cls = cardlab.load_game(name)
        assert f"{name}: {cls.title}, {cls.min_players}-{cls.max_players} players" in result.output
