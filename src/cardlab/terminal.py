"""Play a game at the terminal against bots.

The human's screen is drawn by the game's own `render.render_text(state, seat)`
from the seat's view only; choices are numbered; bad input is asked again."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from cardlab.agents import Agent, agent_view
from cardlab.core import Game, GameState
from cardlab.games import render_module

InputFn = Callable[[str], str]


class QuitGame(Exception):
    """The human asked to leave."""


def ask_choice(labels: Sequence[str], read: InputFn, console: Console) -> int:
    """Ask for a number 1..len(labels) until one is given; 'q' quits."""
    while True:
        try:
            raw = read("Your choice (number, q to quit): ").strip().lower()
        except EOFError:
            raise QuitGame() from None
        if raw in ("q", "quit", "exit"):
            raise QuitGame()
        if raw.isdigit() and 1 <= int(raw) <= len(labels):
            return int(raw) - 1
        console.print(f"[red]Please type a number from 1 to {len(labels)}.[/red]")


def play_terminal(
    game: Game,
    human_seats: Sequence[int],
    bots: Sequence[Agent | None],
    seed: int,
    console: Console | None = None,
    read: InputFn = input,
    clear: bool = True,
) -> GameState:
    """Run one game; `bots[seat]` plays the seats not in `human_seats`."""
    console = console or Console()
    render = render_module(game.name)
    state = game.new_initial_state(seed)
    view_rng = random.Random(f"terminal-views-{seed}")
    recent: list[str] = []
    try:
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if seat in human_seats:
                if clear:
                    console.clear()
                console.print(render.render_text(state, seat))
                if recent:
                    console.rule("Since your last move")
                    for line in recent[-12:]:
                        console.print(escape(line))
                    recent.clear()
                console.rule(f"Seat {seat}: {state.decision_kind()}")
                labels = [state.action_to_string(a) for a in legal]
                for i, label in enumerate(labels, 1):
                    console.print(f"  [bold]{i:>2}[/bold]. {escape(label)}")
                action = legal[ask_choice(labels, read, console)]
                recent.append(f"You: {state.action_to_string(action)}")
            else:
                bot = bots[seat]
                assert bot is not None
                action = (
                    legal[0] if len(legal) == 1 else bot.step(agent_view(state, seat, view_rng))
                )
                recent.append(f"Seat {seat} ({bot.kind}): {state.action_to_string(action)}")
            state.apply_action(action)
    except QuitGame:
        console.print("Left the game.")
        return state
    if clear:
        console.clear()
    for line in recent[-12:]:
        console.print(escape(line))
    console.print(render.render_final(state))
    return state
