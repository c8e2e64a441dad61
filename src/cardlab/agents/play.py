"""Play a whole game with agents, each seeing only what its seat may know."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardlab.agents.base import Agent
from cardlab.core import Game, GameState


@dataclass
class GameResult:
    returns: list[float]
    winners: list[int]
    history: list[int]
    info: dict[str, object] = field(default_factory=dict)


def agent_view(state: GameState, seat: int, rng: random.Random) -> GameState:
    """What an agent of `seat` is handed: hidden cards redealt from its infostate.

    The redeal is the whole input: every field of it, the history included, is what
    the seat observed (a secret choice of another seat appears as the redeal's, not
    the true one), so two worlds the seat cannot tell apart hand its bot identical
    bytes. `check_game`'s bot_view check holds every game to it."""
    return state.resample_from_infostate(seat, rng.getrandbits(63))


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int = 0,
    on_action: Callable[[GameState, int, int], None] | None = None,
) -> GameResult:
    """Play one game from `seed`; `on_action(state, seat, action)` sees each move first."""
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.name} with {game.num_players} players needs {game.num_players} agents, got {len(agents)}"
        )
    if len({id(a) for a in agents}) != len(agents):
        # A shared object would carry one seat's memory and generator into another seat.
        raise ValueError("play_game needs one agent object per seat, not the same one twice")
    state = game.new_initial_state(seed)
    view_rng = random.Random(f"views-{seed}")
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = (
            legal[0] if len(legal) == 1 else agents[seat].step(agent_view(state, seat, view_rng))
        )
        if on_action is not None:
            on_action(state, seat, action)
        state.apply_action(action)
    return GameResult(state.returns(), state.winners(), state.history(), state.info())
