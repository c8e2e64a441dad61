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


def mask_of(size: int, legal: list[int]) -> np.ndarray:
    """`legal` as a 0/1 int8 vector of `size`. Element by element for a few actions: a
    fancy-index assignment converts the list to an array first and costs twice as much
    below about a dozen (0.87 against 0.37 us for five, numpy 2, this machine)."""
    mask = np.zeros(size, np.int8)
    if len(legal) > 12:
        mask[legal] = 1
    else:
        for action in legal:
            mask[action] = 1
    return mask


def action_mask(
    state: GameState, seat: int, size: int, legal: list[int] | None = None
) -> np.ndarray:
    """Legal actions of `seat` as 0/1 (all zero when it is not to move or the game is over)."""
    if state.is_terminal():
        return np.zeros(size, np.int8)
    if legal is None:
        legal = state.legal_actions() if state.current_player() == seat else []
    return mask_of(size, legal)


def observe(
    state: GameState, seat: int, size: int, legal: list[int] | None = None
) -> dict[str, np.ndarray]:
    return {
        "observation": encode_state(state, seat),
        "action_mask": action_mask(state, seat, size, legal),
    }


class _Moment:
    """The state the lazy observations of one step read, shared by all of them.

    Until the env moves on it is the live game state. `Lockstep.step` then changes that
    state in place, so it first `freeze`s the moment: it notes how many decisions the
    game had taken. An observation read after that (kept past the next step) rebuilds
    its moment once from the seed and that many decisions of the history, which gives
    the same state (a game is a function of its seed and actions: the core contract).
    The usual rollout reads this step's observations before the next, and pays nothing:
    a clone per step, the other way to keep them, cost 2-5 us, more than the engine's
    decision itself.
    """

    __slots__ = ("state", "open", "game", "seed", "decisions")

    def __init__(self, state: GameState, game: Game, seed: int) -> None:
        self.state = state
        self.open = 0
        """Observations of this moment whose vector is not encoded yet."""
        self.game = game
        self.seed = seed
        self.decisions = -1
        """-1 while `state` is this moment's; else the decisions taken at this moment."""

    def freeze(self, decisions: int) -> None:
        """Called before the env changes the state in place."""
        if self.decisions < 0:
            self.decisions = decisions

    def current(self) -> GameState:
        if self.decisions >= 0:
            replay = self.game.new_initial_state(self.seed)
            for action in self.state.history()[: self.decisions]:
                replay.apply_action(action)
            self.state, self.decisions = replay, -1  # a private copy: nothing changes it
        return self.state


class LazyObservation(dict):  # type: ignore[type-arg]
    """``{"observation": vector, "action_mask": mask}`` whose vector is encoded on first
    read.

    Why: the parallel API returns every seat's observation every step, and encoding
    them all took 95% of a masked random rollout (RUNWAY 4p: 6k decisions/s against the
    engine's 550k). A policy that reads only the masks, or only its own seat, should not
    pay for the rest. It is a real dict (``isinstance(obs, dict)``; gymnasium's
    ``Dict.contains``, ``np.asarray(obs["observation"])`` and ``dict(obs)`` all work):
    ``obs["observation"]`` encodes through ``__missing__``, and every method that would
    see the stored keys (keys, items, len, ==, copy, pickling, ...) encodes first, so
    its values are exactly those `observe` gives (tests/adapters/test_pettingzoo.py).
    """

    __slots__ = ("_moment", "_seat")
    _moment: _Moment | None
    _seat: int
    # Made by `Lockstep.observe_all` as ``LazyObservation(action_mask=mask)`` (dict's own
    # constructor: a Python __init__ cost a third of the step) with the slots set after.

    def __missing__(self, key: str) -> np.ndarray:
        if key == "observation" and self._moment is not None:
            observation: np.ndarray = self._fill()["observation"]
            return observation
        raise KeyError(key)

    def _fill(self) -> LazyObservation:
        moment = self._moment
        if moment is not None:
            self._moment = None
            moment.open -= 1
            mask = dict.pop(self, "action_mask")
            dict.__setitem__(self, "observation", encode_state(moment.current(), self._seat))
            dict.__setitem__(self, "action_mask", mask)  # the eager dict's key order
        return self

    def __iter__(self) -> Any:
        return dict.__iter__(self._fill())

    def __len__(self) -> int:
        return dict.__len__(self._fill())

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self._fill(), key)

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self._fill(), other)

    def __ne__(self, other: object) -> bool:
        return dict.__ne__(self._fill(), other)

    __hash__ = None

    def __repr__(self) -> str:
        return dict.__repr__(self._fill())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self._fill(), key)

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self._fill(), key, value)

    def __or__(self, other: Any) -> Any:
        return dict.__or__(dict(self.items()), other)

    def __ror__(self, other: Any) -> Any:
        return dict.__or__(dict(other), dict(self.items()))

    def __ior__(self, other: Any) -> LazyObservation:
        dict.update(self._fill(), other)
        return self

    def keys(self) -> Any:
        return dict.keys(self._fill())

    def values(self) -> Any:
        return dict.values(self._fill())

    def items(self) -> Any:
        return dict.items(self._fill())

    def get(self, key: str, default: Any = None) -> Any:
        return dict.get(self._fill(), key, default)

    def copy(self) -> dict[str, Any]:
        return dict(self.items())

    def pop(self, key: str, *default: Any) -> Any:
        return dict.pop(self._fill(), key, *default)

    def popitem(self) -> tuple[str, Any]:
        return dict.popitem(self._fill())

    def setdefault(self, key: str, default: Any = None) -> Any:
        return dict.setdefault(self._fill(), key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self._fill(), *args, **kwargs)

    def clear(self) -> None:
        dict.clear(self._fill())


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


def points_sign(game: Game) -> float:
    """1.0, or -1.0 for a game the fewest points win: the adapters reward
    `sign * points`, so more reward is always better (`GameInfo.better`)."""
    from cardlab.core.plugin import lowest_wins

    return -1.0 if lowest_wins(game.name) else 1.0


def rewarded_points(state: GameState, sign: float) -> list[float]:
    """Every seat's points as the adapters reward them (`points_sign`)."""
    points = state.returns()
    return list(points) if sign > 0 else [-float(x) for x in points]


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
        self.sign = points_sign(game)
        """The points are rewarded so that more is better: -1 turns a penalty-point
        game's points (`GameInfo.score_direction` "lowest"), so a learner that takes
        fewer points is rewarded."""
        self.noop = game.num_distinct_actions
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.state: GameState = game.new_initial_state(0)
        self.pending: dict[int, list[int]] = {}
        self.last = [0.0] * game.num_players
        self.seed = 0
        self.decisions = 0
        """Decisions the engine accepted since the deal (what a lazy observation replays)."""
        self._moment = _Moment(self.state, game, 0)
        self._idle_mask = np.zeros(self.noop + 1, np.int8)
        self._idle_mask[self.noop] = 1
        self._done_mask = np.zeros(self.noop + 1, np.int8)
        """Templates: each observation gets its own copy."""

    def reset(self, seed: int) -> None:
        # (the last moment's observations keep reading the old state: nothing changes it)
        self.seed, self.decisions = seed, 0
        self.state = self.game.new_initial_state(seed)
        self.pending = deciders(self.state)
        # points held at the deal (UPTIME's starting hand) count in the first reward
        self.last = [0.0] * self.game.num_players

    def _legal(self, seat: int) -> list[int]:
        return self.pending.get(seat, [self.noop] if not self.state.is_terminal() else [])

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        return observe(self.state, seat, self.noop + 1, self._legal(seat))

    def observe_all(self, seats: list[int]) -> list[LazyObservation]:
        """Every seat's observation of this moment, each vector encoded on first read
        (the parallel env's return; `LazyObservation`). The state they read is frozen
        by the next `step` or `reset` if some were not read by then."""
        moment = self._moment
        if moment.decisions >= 0 or moment.state is not self.state:  # the game moved on
            moment = self._moment = _Moment(self.state, self.game, self.seed)
        size = self.noop + 1
        terminal = self.state.is_terminal()
        idle = self._done_mask if terminal else self._idle_mask
        pending = self.pending
        out = []
        for seat in seats:
            legal = None if terminal else pending.get(seat)
            mask = idle.copy() if legal is None else mask_of(size, legal)
            obs = LazyObservation(action_mask=mask)
            obs._moment, obs._seat = moment, seat
            out.append(obs)
        moment.open += len(out)
        return out

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
        self._moment.freeze(self.decisions)
        before = self.last
        pending, noop, state = self.pending, self.noop, self.state
        bad: set[int] = set()
        penalties = [0.0] * self.game.num_players
        out_of_turn = False
        for seat, a in actions.items():
            if a != noop and seat not in pending:
                out_of_turn = True
                break
        if out_of_turn:
            for seat, action in sorted(actions.items()):
                if seat not in pending and int(action) != noop:
                    if self.illegal == "raise":
                        raise IllegalActionError(
                            f"seat {seat} is not to move now; it must answer NOOP "
                            f"({noop}), not {int(action)}"
                        )
                    penalties[seat] += self.illegal_penalty
                    bad.add(seat)
        for seat in pending:
            action = actions.get(seat, noop)
            try:
                if state.current_player() != seat:
                    raise AssertionError(f"simultaneous round of {self.game.name} changed order")
                state.apply_action(action if type(action) is int else int(action))
                self.decisions += 1
            except IllegalActionError:
                if self.illegal == "raise":
                    raise
                penalties[seat] += self.illegal_penalty
                bad.add(seat)
                break
        after = self.last = rewarded_points(state, self.sign)
        self.pending = deciders(state)
        if bad:
            return [a - b + p for a, b, p in zip(after, before, penalties, strict=True)], bad
        return [a - b for a, b in zip(after, before, strict=True)], bad
