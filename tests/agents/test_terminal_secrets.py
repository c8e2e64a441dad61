"""Terminal play shows other seats only through the seat's own view.

Each game is played at the terminal from a middle seat against bots. Every
time the human is prompted, the names of the cards hidden from that seat at
that moment (a bot's secret pick or kept build, other hands, the decks) are
collected, leaving out any name that a card the seat can see also carries
(copies share names). The text printed for that prompt must name none of
them. So must the closing story and final table, against what is still hidden
at the end."""

from __future__ import annotations

import io
import json
import re

import pytest
from gamelist import bots_around, games_that_ask, seats_for
from rich.console import Console

import cardlab
import cardlab.terminal as terminal
from cardlab.agents import make_agent
from cardlab.art import game_art
from cardlab.core import GameState


def card_names(game) -> dict[str, str]:
    art = game_art(game.name)
    try:
        faces = art.faces(game.cards, game.options)
    except TypeError:
        faces = art.faces(game.cards)
    return {f.id: f.name for f in faces}


def secret_names(state: GameState, seat: int, names: dict[str, str]) -> set[str]:
    """Names only hidden cards carry now: no card the seat can see shares or contains
    the name, and the seat's own observation does not name it (it may know a set of
    cards without knowing where each is, e.g. a hand it passed, minus a secret pick)."""
    every = {cid for ids in state.zones().values() for cid in ids}
    hidden = state.hidden_card_ids(seat) & every
    visible = {names[c] for c in every - hidden if c in names}
    secret = {names[c] for c in hidden if c in names} - visible
    known = json.dumps(state.observation(seat))
    return {n for n in secret if not any(n in v for v in visible) and not named_in(known, {n})}


def named_in(text: str, secret: set[str]) -> set[str]:
    return {n for n in secret if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


@pytest.mark.parametrize("game_name", games_that_ask())
@pytest.mark.parametrize("seed", [3, 8])
def test_terminal_play_from_a_middle_seat_names_no_hidden_card(game_name, seed, monkeypatch):
    game = cardlab.load_game(game_name, players=seats_for(game_name))
    names = card_names(game)
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    real_prompt = terminal.prompt
    leaks: list[str] = []
    prompts = 0

    def watched_prompt(state, screen, console_, read, clear):
        nonlocal prompts
        prompts += 1
        secret = secret_names(state, 1, names)
        start = len(out.getvalue())
        action = real_prompt(state, screen, console_, read, clear)
        found = named_in(out.getvalue()[start:], secret)
        if found:
            leaks.append(f"prompt {prompts}: {sorted(found)}")
        return action

    monkeypatch.setattr(terminal, "prompt", watched_prompt)
    bots = bots_around(game_name, 1, lambda seed: make_agent("greedy", seed=seed))
    tail_start = 0

    def read(_: str) -> str:
        nonlocal tail_start
        tail_start = len(out.getvalue())
        return "1"

    state = terminal.play_terminal(
        game, [1], bots, seed=seed, console=console, read=read, clear=False
    )
    assert state.is_terminal()
    assert prompts >= 2, "the human was hardly asked anything"
    end = named_in(out.getvalue()[tail_start:], secret_names(state, 1, names))
    assert not leaks and not end, (leaks, end)


@pytest.mark.parametrize("game_name", games_that_ask())
def test_the_terminal_never_prints_another_seats_action_label(game_name):
    """Bots' moves reach the screen only through the public log, never as their labels."""
    game = cardlab.load_game(game_name, players=seats_for(game_name))
    out = io.StringIO()
    bots = bots_around(game_name, 1, lambda seed: make_agent("greedy", seed=seed))
    terminal.play_terminal(
        game,
        [1],
        bots,
        seed=5,
        console=Console(file=out, width=140, color_system=None),
        read=lambda _: "1",
        clear=False,
    )
    text = out.getvalue()
    assert not re.search(r"Seat [02] \((greedy|random|ismcts)\)", text)
    assert "Since your last move" in text
    assert "final scores" in text.lower()


# `cardlab play` never shows the seed of a live game. It deals every
# hidden card and (before) seeded every bot, so one printed line let a player predict
# every bot's secret pick. After the end it prints the seed and the command replaying it.

SCRIPT = "1\n" * 3000  # the human always takes choice 1 (more lines than any game asks)
REPLAY = re.compile(r"^  (cardlab play .*--seed (\d+).*)$", re.M)


def play_cli(args: list[str], script: str = SCRIPT):
    from typer.testing import CliRunner

    from cardlab.cli import app

    result = CliRunner().invoke(app, ["play", *args], input=script)
    assert result.exit_code == 0, result.output
    return result.output


def replay_of(output: str) -> tuple[list[str], int, int]:
    """The printed replay command (as argv after `cardlab play`), its seed, and where the
    final table starts in the output."""
    import shlex

    found = REPLAY.findall(output)
    assert len(found) == 1, output[-2000:]
    command, seed = found[0]
    argv = shlex.split(command)
    assert argv[:2] == ["cardlab", "play"]
    end = output.find("Final scores")
    assert end > 0, "the game did not reach its final table"
    return argv[2:], int(seed), end


@pytest.mark.parametrize("game_name", games_that_ask())
def test_cli_play_shows_the_seed_only_after_the_end_and_its_replay_plays_the_same_game(
    game_name,
):
    players = str(seats_for(game_name))
    output = play_cli([game_name, "--players", players, "--seat", "1", "--bots", "greedy,random"])
    argv, seed, end = replay_of(output)
    assert 0 <= seed < 2**64
    assert str(seed) not in output[:end], "the seed was printed during the game"
    assert not re.search(r"seed\W*\d", output[:end], re.I)  # was "SUPER COMPUTER: seed 634912"
    assert output.index(f"This game's seed was {seed}.") > end
    assert argv == [game_name, "--players", players, "--seat", "1", "--seed", str(seed)] + [
        "--bots",
        "greedy,random",
    ]
    # The same moves of the human's under the printed command: the very same game, screen
    # for screen (the deal, every bot's move, the final table).
    assert play_cli(argv) == output


def test_a_given_seed_is_not_shown_either_and_a_64_bit_one_plays():
    seed = 2**64 - 1
    output = play_cli(["runway", "--players", "2", "--seed", str(seed), "--bots", "greedy"])
    argv, shown, end = replay_of(output)
    assert shown == seed and str(seed) not in output[:end]


def test_the_replay_command_carries_the_options_variant_and_cards_given(tmp_path):
    from pathlib import Path

    import cardlab.games.uptime as package

    cards = tmp_path / "my cards.toml"  # a space: the command must quote it
    cards.write_text((Path(package.__file__).parent / "cards.toml").read_text())
    args = ["uptime", "--players", "2", "--seat", "0", "--bots", "greedy"]
    args += ["-o", "supply_reshuffle=true", "--variant", "lab", "--cards", str(cards)]
    output = play_cli(args)
    argv, seed, _ = replay_of(output)
    assert argv[argv.index("-o") + 1] == "supply_reshuffle=true"
    assert argv[argv.index("--variant") + 1] == "lab"
    assert argv[argv.index("--cards") + 1] == str(cards)
    assert play_cli(argv) == output


def test_two_games_without_a_seed_get_different_ones():
    seeds = {replay_of(play_cli(["uptime", "--players", "2", "--bots", "random"]))[1] for _ in "ab"}
    assert len(seeds) == 2 and all(s < 2**64 for s in seeds)


# `cardlab play` without a game asks which one.


def test_cli_play_without_a_game_lists_the_games_and_asks_which_one(monkeypatch):
    import cardlab.cli as cli

    monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: True)
    names = cardlab.list_games()
    # not the first listed (that one used to be played unasked), and one that asks
    pick = [n for n in names if n in games_that_ask()][-1]
    assert pick != names[0]
    output = play_cli([], f"{len(names) + 1}\nnope\n{names.index(pick) + 1}\nq\n")
    for i, name in enumerate(names, 1):
        cls = cardlab.load_game(name)
        assert f"{i}. {name}: {cls.title}, {cls.min_players}-{cls.max_players} players" in output
    assert f"No game '{len(names) + 1}'" in output and "No game 'nope'" in output
    assert f"{cardlab.load_game(pick).title}: you are seat 0" in output
    assert "Left the game." in output
    by_name = play_cli([], f"{pick}\nq\n")
    assert f"{cardlab.load_game(pick).title}: you are seat 0" in by_name
    quit_ = play_cli([], "q\n")
    assert "you are seat" not in quit_
