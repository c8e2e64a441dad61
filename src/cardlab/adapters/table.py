"""What every adapter needs from a cardlab game, written once.

- `make_game`: a game from a registry name (or an already made `Game`).
- `observe`: the observation dict ``{"observation", "action_mask"}`` of a seat.
- `deciders`: which seats decide *now*. Normally only ``current_player()``;
  in a round the game plays simultaneously (a decision kind the game declares
  ``simultaneous`` in its `GameInfo`, e.g. SUPER COMPUTER's picks), every seat
  of the round, found by probing a clone.
- `Lockstep`: the turn structure shared by the parallel PettingZoo env and the
  lockstep AEC env: one step = every seat answers once; seats with nothing to
  decide answer NOOP (any other action from them is flagged as illegal).
- `render_ansi`: the game's own `render_text(state, seat)` turned into ANSI;
  `render` gives it for a render mode (``ansi`` returns it, ``human`` prints it).
"""

from __future__ import annotations

import io
import sys
from functools import cache
from typing import Any

import numpy as np

from cardlab.adapters.encoding import encode_state
from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.registry import game_info, load_game

ILLEGAL_MODES = ("penalize", "raise")
"""What an illegal action does: ``penalize`` leaves the game unchanged and gives
the offender ``illegal_penalty`` (so unmasked random sampling, as the PettingZoo
and Gymnasium checkers do, never crashes a run); ``raise`` raises
IllegalActionError."""


def make_game(game: str | Game, players: int | None = None, **options: Any) -> Game:
    if isinstance(game, Game):
        if players is not None and players != game.num_players or options:
            raise ValueError("pass players/options with a game name, not with a Game object")
        return game
    return load_game(game, players=players, **options)


def action_mask(
    state: GameState, seat: int, size: int, legal: list[int] | None = None
) -> np.ndarray:
    """Legal actions of `seat` as 0/1 (all zero when it is not to move or the game is over)."""
    mask = np.zeros(size, np.int8)
    if not state.is_terminal():
        if legal is None:
            legal = state.legal_actions() if state.current_player() == seat else []
        mask[legal] = 1
    return mask


def observe(
    state: GameState, seat: int, size: int, legal: list[int] | None = None
) -> dict[str, np.ndarray]:
    return {
        "observation": encode_state(state, seat),
        "action_mask": action_mask(state, seat, size, legal),
    }


@cache
def simultaneous_kinds(name: str) -> frozenset[str]:
    """Decision kinds the rulebook plays simultaneously, as the game declares them."""
    return frozenset(k.name for k in game_info(name).decision_kinds if k.simultaneous)


def deciders(state: GameState) -> dict[int, list[int]]:
    """Seat -> legal actions of every seat that decides at this moment, in engine order.

    In a simultaneous round the engine asks the seats one after another; their
    options do not depend on each other's hidden choices, so a clone is played
    forward with arbitrary choices to learn who else decides and from what.
    """
    if state.is_terminal():
        return {}
    seat = state.current_player()
    out = {seat: state.legal_actions()}
    kinds = simultaneous_kinds(state.game.name)
    if state.decision_kind() not in kinds:
        return out
    kind = state.decision_kind()
    probe = state.clone()
    while True:
        probe.apply_action(out[seat][0])
        if probe.is_terminal() or probe.decision_kind() != kind:
            return out
        seat = probe.current_player()
        if seat in out:
            return out
        out[seat] = probe.legal_actions()


RENDER_MODES = ("ansi", "human")
"""``ansi`` returns the seat's text view as a string; ``human`` prints it (returns None)."""


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")


def render(state: GameState, seat: int, render_mode: str | None) -> str | None:
    """What ``env.render()`` gives in `render_mode` (warns when there is none)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn(f"render() called without a render_mode (one of {RENDER_MODES})")
        return None
    text = render_ansi(state, seat)
    if render_mode == "human":
        sys.stdout.write(text)
        sys.stdout.flush()
        return None
    return text


def render_ansi(state: GameState, seat: int) -> str:
    """The game's text render for `seat` (rich markup turned into ANSI codes)."""
    render = game_info(state.game.name).module("render")
    if render is None:
        return str(state)
    text = render.render_text(state, seat)
    from rich.console import Console

    buf = io.StringIO()
    Console(
        file=buf, force_terminal=True, width=100, color_system="standard", highlight=False
    ).print(text)
    return buf.getvalue()


class Lockstep:
    """One game played in steps where every seat answers once (NOOP if idle).

    Turn-based decisions are taken by one seat per step; a simultaneous round
    is one step for all its seats. Actions are applied in engine order; the
    first illegal one stops the step (``penalize``) or raises.
    """

    def __init__(self, game: Game, illegal: str, illegal_penalty: float) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        self.game = game
        self.noop = game.num_distinct_actions
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.state: GameState = game.new_initial_state(0)
        self.pending: dict[int, list[int]] = {}
        self.last = [0.0] * game.num_players

    def reset(self, seed: int) -> None:
        self.state = self.game.new_initial_state(seed)
        self.pending = deciders(self.state)
        # points held at the deal (UPTIME's starting hand) count in the first reward
        self.last = [0.0] * self.game.num_players

    def _legal(self, seat: int) -> list[int]:
        return self.pending.get(seat, [self.noop] if not self.state.is_terminal() else [])

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        return observe(self.state, seat, self.noop + 1, self._legal(seat))

    def mask(self, seat: int) -> np.ndarray:
        return action_mask(self.state, seat, self.noop + 1, self._legal(seat))

    def step(self, actions: dict[int, int]) -> tuple[list[float], set[int]]:
        """Apply the deciding seats' actions.

        A seat that is not to move must answer NOOP: any other action from it is
        flagged (penalised, or IllegalActionError before anything changes with
        ``illegal="raise"``), since a learner that acts out of turn should hear so.
        Returns the reward per seat (change of points, penalties) and the seats
        whose action was illegal.
        """
        before = self.last
        penalties = [0.0] * self.game.num_players
        bad: set[int] = set()
        for seat, action in sorted(actions.items()):
            if seat not in self.pending and int(action) != self.noop:
                if self.illegal == "raise":
                    raise IllegalActionError(
                        f"seat {seat} is not to move now; it must answer NOOP "
                        f"({self.noop}), not {int(action)}"
                    )
                penalties[seat] += self.illegal_penalty
                bad.add(seat)
        for seat in self.pending:
            action = int(actions.get(seat, self.noop))
            try:
                if self.state.current_player() != seat:
                    raise AssertionError(f"simultaneous round of {self.game.name} changed order")
                self.state.apply_action(action)
            except IllegalActionError:
                if self.illegal == "raise":
                    raise
                penalties[seat] += self.illegal_penalty
                bad.add(seat)
                break
        after = self.last = list(self.state.returns())
        self.pending = deciders(self.state)
        return [a - b + p for a, b, p in zip(after, before, penalties, strict=True)], bad
