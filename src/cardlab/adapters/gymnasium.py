"""A single-agent Gymnasium env: you play one seat, cardlab bots play the rest.

``CardlabEnv(game, players=N, seat=0, opponents="greedy", **options)``;
``opponents`` is one agent kind for every other seat, a list of kinds (one per
other seat, in seat order), or a list of ready `Agent` objects. The bots are
handed what ``play_game`` hands them: a view redealt from their own infostate,
never the true state.

Observation: ``{"observation": float32 vector in [-1, 1], "action_mask": int8}``
from ``observation(seat)`` only; action space ``Discrete(num_distinct_actions)``.
`action_masks()` gives the mask as booleans, as sb3-contrib's MaskablePPO asks.
Reward: the change in your points since your last action (sums to your final
points), or with ``reward="win"`` 1 at the end if you are among the winners. An
illegal action changes nothing and costs ``illegal_penalty`` (or raises with
``illegal="raise"``). ``max_steps`` truncates an episode (default: none, games end).

Seeds: ``reset(seed=s)`` plays ``new_initial_state(s)`` and reseeds every bot
from ``s``, agent objects included (`Agent.reseed`), so the same seed and the
same actions give the same episode however the opponents were given.

The end: a terminal observation's mask allows exactly one action, 0
(`END_ACTION`), which a finished episode accepts and ignores (reward 0, still
terminated). So a masked sampler or MaskablePPO always has an option, e.g.
for the action Gymnasium's vector envs pass to a finished sub-env before they
reset it (autoreset), and the mask is never all zero.

Registered as ``cardlab/<game>-v0`` (e.g. ``gymnasium.make("cardlab/runway-v0",
players=3)``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from cardlab.adapters.encoding import HIGH, LOW, encoding_for
from cardlab.adapters.table import (
    ILLEGAL_MODES,
    RENDER_MODES,
    check_render_mode,
    make_game,
    observe,
    points_sign,
    render,
)
from cardlab.agents import Agent, agent_view, make_agent
from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.registry import list_games

END_ACTION = 0
"""The one action a terminal observation's mask allows; a finished episode ignores it."""


class CardlabEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a cardlab game against bots. See the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] | Sequence[Agent] = "greedy",
        render_mode: str | None = None,
        reward: str = "points",
        illegal: str = "penalize",
        illegal_penalty: float = -1.0,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        self.game = make_game(game, players, **options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, not {seat}")
        check_render_mode(render_mode)
        if reward not in ("points", "win") or illegal not in ILLEGAL_MODES:
            raise ValueError(f"reward: points|win, illegal: {'|'.join(ILLEGAL_MODES)}")
        self.seat = seat
        self._opponents: list[str | Agent] = (
            [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        )
        if len(self._opponents) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponents, got {len(self._opponents)}")
        objects = [o for o in self._opponents if not isinstance(o, str)]
        if len({id(o) for o in objects}) != len(objects):
            # one object in two seats would carry one seat's memory and generator into another
            raise ValueError("give one agent object per seat, not the same one twice")
        self.render_mode = render_mode
        self.reward_mode = reward
        self._sign = points_sign(self.game)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
        size = encoding_for(self.game).size(self.game)
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_distinct_actions,), np.int8),
            }
        )
        self.action_space: spaces.Space[Any] = spaces.Discrete(self.game.num_distinct_actions)
        self.state: GameState = self.game.new_initial_state(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.state = self.game.new_initial_state(game_seed)
        bot_seeds = random.Random(f"opponents-{game_seed}")
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.bots: dict[int, Agent] = {}
        for s, o in zip(others, self._opponents, strict=True):
            bot_seed = bot_seeds.getrandbits(32)
            if isinstance(o, str):
                self.bots[s] = make_agent(o, seed=bot_seed)
            else:
                o.reseed(bot_seed)  # as if made afresh with that seed
                self.bots[s] = o
        self._views = random.Random(f"views-{game_seed}")
        self.steps = 0
        self._points = 0.0
        self._play_bots()
        return self._obs(), {}

    def _play_bots(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            seat = state.current_player()
            legal = state.legal_actions()
            view = agent_view(state, seat, self._views)
            state.apply_action(legal[0] if len(legal) == 1 else self.bots[seat].step(view))

    def _obs(self) -> dict[str, np.ndarray]:
        obs = observe(self.state, self.seat, self.game.num_distinct_actions)
        if self.state.is_terminal():
            obs["action_mask"][END_ACTION] = 1
        return obs

    def describe_action(self, action: int) -> dict[str, Any]:
        """What a legal action of this seat does (the engine's `Move` as JSON: kind, card
        ids, cells, slot, amount); refused for any other action."""
        state = self.state
        legal = (
            not state.is_terminal()
            and state.current_player() == self.seat
            and int(action) in state.legal_actions()
        )
        if not legal:
            raise ValueError(f"action {action} is not a legal action of seat {self.seat}")
        return state.describe_action(int(action)).to_json()

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._obs()["action_mask"].astype(bool)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        info: dict[str, Any] = {}
        if self.state.is_terminal():
            # a finished episode: the END_ACTION its mask offers (or any other) changes nothing
            info.update(returns=list(self.state.returns()), winners=list(self.state.winners()))
            return self._obs(), 0.0, True, False, info
        self.steps += 1
        penalty = 0.0
        try:
            self.state.apply_action(int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            penalty, info["illegal_action"] = self.illegal_penalty, True
        self._play_bots()
        done = self.state.is_terminal()
        points = self._sign * self.state.returns()[self.seat]  # fewer penalty points: more
        if self.reward_mode == "points":
            reward, self._points = points - self._points, points
        else:
            reward = 1.0 if done and self.seat in self.state.winners() else 0.0
        if done:
            info.update(returns=list(self.state.returns()), winners=list(self.state.winners()))
        truncated = not done and self.max_steps is not None and self.steps >= self.max_steps
        return self._obs(), float(reward + penalty), done, truncated, info

    def render(self) -> str | None:
        return render(self.state, self.seat, self.render_mode)


for _name in list_games():
    gymnasium.register(
        f"cardlab/{_name}-v0",
        entry_point=CardlabEnv,  # type: ignore[arg-type]  # gymnasium's EnvCreator takes **kwargs only
        kwargs={"game": _name},
    )
