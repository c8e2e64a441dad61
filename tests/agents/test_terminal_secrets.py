"""Terminal play shows other seats only through the seat's own view (issue 12, item 8).

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
from gamelist import real_games
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


@pytest.mark.parametrize("game_name", real_games())
@pytest.mark.parametrize("seed", [3, 8])
def test_terminal_play_from_a_middle_seat_names_no_hidden_card(game_name, seed, monkeypatch):
    game = cardlab.load_game(game_name, players=3)
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
    bots = [make_agent("greedy", seed=1), None, make_agent("greedy", seed=2)]
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


@pytest.mark.parametrize("game_name", real_games())
def test_the_terminal_never_prints_another_seats_action_label(game_name):
    """Bots' moves reach the screen only through the public log, never as their labels."""
    game = cardlab.load_game(game_name, players=3)
    out = io.StringIO()
    bots = [make_agent("greedy", seed=1), None, make_agent("greedy", seed=2)]
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
