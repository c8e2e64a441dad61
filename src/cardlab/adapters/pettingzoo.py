"""PettingZoo environments for cardlab games.

``env(game, players=N, **options)`` is an AEC env. Two turn structures:

- ``mode="turn"`` (default): like PettingZoo's classic games, the selected
  agent is whoever the engine asks next (``current_player()``), also out of
  turn (an auction raise, a sub-decision). Action space
  ``Discrete(num_distinct_actions)``. ``max_cycles`` caps each agent's steps; an
  illegal action counts as a step and keeps the same agent selected (the engine
  still asks it), so retries of illegal actions use up that agent's steps.
- ``mode="lockstep"``: every agent steps once per cycle, in seat order;
  agents with nothing to decide must answer NOOP (the extra last action, the
  only one their mask allows). This is the AEC face of ``parallel_env``.

``parallel_env(game, players=N, **options)`` is a ParallelEnv with the lockstep
structure: each step, the deciding seat chooses and the others send NOOP; in a
round the rulebook plays simultaneously (SUPER COMPUTER's picks) every seat of
the round chooses in the same step. For the turn-based games (UPTIME, RUNWAY)
it is a faithful but idle-heavy view; prefer ``env`` there. Its observations are
`LazyObservation` dicts: each vector is encoded when first read (the values are exactly
the eager ones, also when read after later steps), so a policy reading only the masks, or
only some seats, does not pay for every seat's vector each step.

Observations are dicts ``{"observation": float32 vector in [-1, 1],
"action_mask": int8}``, the vector built from ``observation(seat)`` only. The
selected agent's ``info`` also carries its ``"action_mask"``, so a rollout that
does not read the vector uses ``last(observe=False)`` and skips building it.
Render modes: ``ansi`` returns the seat's text view, ``human`` prints it.
Rewards are the change in the seat's points (they sum to the final points),
or with ``reward="win"`` 1 to each winner at the end. Seeds flow from
``reset(seed=s)`` to ``new_initial_state(s)``; later unseeded resets draw from
a generator seeded by ``s``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from cardlab.adapters.encoding import HIGH, LOW, encoding_for
from cardlab.adapters.table import (
    ILLEGAL_MODES,
    RENDER_MODES,
    Lockstep,
    check_render_mode,
    make_game,
    mask_of,
    observe,
    render,
    rewarded_points,
)
from cardlab.core import Game, GameState, IllegalActionError

MODES = ("turn", "lockstep")
REWARDS = ("points", "win")


class _Common:
    """Spaces, seeding, rewards and rendering shared by the AEC and parallel envs."""

    metadata: dict[str, Any]

    def _setup(
        self,
        game: str | Game,
        players: int | None,
        options: dict[str, Any],
        render_mode: str | None,
        max_cycles: int | None,
        reward: str,
        illegal: str,
        illegal_penalty: float,
        noop: bool,
    ) -> None:
        self.game = make_game(game, players, **options)
        check_render_mode(render_mode)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.reward_mode = reward
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.metadata = {
            "name": f"cardlab_{self.game.name}_v0",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": noop,
        }
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.n_actions = self.game.num_distinct_actions + (1 if noop else 0)
        size = encoding_for(self.game).size(self.game)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            }
        )
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._seeder = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    def _game_seed(self, seed: int | None) -> int:
        if seed is not None:
            self._seeder = random.Random(seed)
            return int(seed)
        return self._seeder.getrandbits(63)

    def _rewards(
        self, state: GameState, deltas: list[float], penalties: list[float]
    ) -> list[float]:
        if self.reward_mode == "points":
            return [d + p for d, p in zip(deltas, penalties, strict=True)]
        won = set(state.winners()) if state.is_terminal() else set()
        return [(1.0 if s in won else 0.0) + penalties[s] for s in range(len(deltas))]

    @staticmethod
    def _final_info(state: GameState) -> dict[str, Any]:
        return {"returns": list(state.returns()), "winners": list(state.winners())}

    def _render(self, state: GameState, seat: int) -> str | None:
        return render(state, seat, self.render_mode)


class raw_env(_Common, AECEnv):  # noqa: N801  (PettingZoo's naming convention)
    """The AEC env; use `env()` for the order-enforcing wrapped version."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        *,
        mode: str = "turn",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: str = "points",
        illegal: str = "penalize",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        AECEnv.__init__(self)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode
        lockstep = mode == "lockstep"
        self._setup(
            game,
            players,
            options,
            render_mode,
            max_cycles,
            reward,
            illegal,
            illegal_penalty,
            lockstep,
        )
        self.table = Lockstep(self.game, illegal, self.illegal_penalty)
        self.game_state = self.table.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(self._game_seed(seed))
        self.game_state = self.table.state
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = dict.fromkeys(self.agents, 0)
        self.cycles = 0
        self._buffer: dict[int, int] = {}
        self._rewarded = False
        """Whether some reward of the last step was not 0 (the next step zeroes it)."""
        if self.mode == "turn":
            self.agent_selection = self._next_turn_agent()
            self._legal = self.game_state.legal_actions()
        else:
            self.agent_selection = self.agents[0]
        self._offer_mask()

    def _next_turn_agent(self) -> str:
        return self.possible_agents[self.game_state.current_player()]

    def _offer_mask(self) -> None:
        """The selected agent's mask in its info too (PettingZoo's other place for it),
        so ``last(observe=False)`` gives a masked policy what it needs without the
        observation vector: the fast path for rollouts that do not read it."""
        agent = self.agent_selection
        for other, info in self.infos.items():
            if other != agent and "action_mask" in info:
                self.infos[other] = {k: v for k, v in info.items() if k != "action_mask"}
        if not (self.terminations[agent] or self.truncations[agent]):
            info = self.infos[agent] = dict(self.infos[agent])
            info["action_mask"] = self._mask(agent)

    def _mask(self, agent: str) -> np.ndarray:
        seat = self._seat_of[agent]
        if self.mode == "lockstep":
            return self.table.mask(seat)
        if self.possible_agents[self.game_state.current_player()] == agent:
            return mask_of(self.n_actions, self._legal)
        return np.zeros(self.n_actions, np.int8)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        if self.mode == "lockstep":
            return self.table.observe(seat)
        state = self.game_state
        if state.is_terminal():
            return observe(state, seat, self.n_actions)
        legal = self._legal if state.current_player() == seat else []
        return observe(state, seat, self.n_actions, legal)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.steps[agent] += 1
        if self.mode == "turn":
            self._turn_step(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._lockstep_step(agent, action)
        self._accumulate_rewards()
        self._offer_mask()

    def _finish(self, deltas: list[float], penalties: list[float], bad: set[int]) -> None:
        state = self.game_state
        rewards = self._rewards(state, deltas, penalties)
        self.rewards = {a: rewards[self._seat_of[a]] for a in self.agents}
        self.infos = {
            a: {"illegal_action": True} if self._seat_of[a] in bad else {} for a in self.agents
        }
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: self._final_info(state) for a in self.agents}

    def _turn_step(self, agent: str, action: Any) -> None:
        """One decision of the engine's current player: the hot path of a rollout,
        written flat. It keeps `rewards` and `infos` as the same dicts and changes only
        what moved: the rewards only when some seat's points changed (this step or the
        last), and of the infos only the two agents' that held and now get the mask
        (in turn mode no other agent's info holds anything between steps)."""
        state = self.game_state
        bad = False
        try:
            state.apply_action(action if type(action) is int else int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            bad = True
        table = self.table
        before = table.last
        after = state.returns() if table.sign > 0 else rewarded_points(state, table.sign)
        done = state.is_terminal()
        agents = self.possible_agents
        cum = self._cumulative_rewards
        cum[agent] = 0.0
        rewards = self.rewards
        if self.reward_mode == "win":
            won = state.winners() if done else ()
            for i, a in enumerate(agents):
                rewards[a] = r = 1.0 if i in won else 0.0
                cum[a] += r
        elif self._rewarded or after != before:
            table.last = after = list(after)
            self._rewarded = after != before
            for a, x, y in zip(agents, after, before, strict=True):
                rewards[a] = r = x - y
                cum[a] += r
        if bad:
            rewards[agent] += self.illegal_penalty
            cum[agent] += self.illegal_penalty
            self._rewarded = True
        if done:
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: self._final_info(state) for a in self.agents}
            return
        infos = self.infos
        if bad:
            infos[agent] = {"illegal_action": True}
        else:
            infos[agent] = {}
            self._legal = state.legal_actions()
        nxt = self.agent_selection = agents[state.current_player()]
        if self.max_cycles is not None and self.steps[nxt] >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            return
        infos[nxt]["action_mask"] = mask_of(self.n_actions, self._legal)

    def _lockstep_step(self, agent: str, action: Any) -> None:
        self._buffer[self._seat_of[agent]] = self.table.noop if action is None else int(action)
        idx = self.agents.index(agent)
        if idx < len(self.agents) - 1:
            self._clear_rewards()
            self.agent_selection = self.agents[idx + 1]
            return
        rewards, bad = self.table.step(self._buffer)
        self._buffer = {}
        self.cycles += 1
        penalties = [self.illegal_penalty if s in bad else 0.0 for s in range(len(rewards))]
        deltas = [r - p for r, p in zip(rewards, penalties, strict=True)]
        self._finish(deltas, penalties, bad)
        self.agent_selection = self.agents[0]
        cap = self.max_cycles
        if not self.game_state.is_terminal() and cap is not None and self.cycles >= cap:
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        return self._render(self.game_state, self._seat_of[self.agent_selection])

    def describe_action(self, action: int) -> dict[str, Any]:
        """What a legal action of the agent to move does (the engine's `Move` as JSON:
        kind, the card ids it names, cells, slot, amount), so a policy or a person can
        read a move without its label. Only the mover's legal actions are described:
        a description names the mover's own cards."""
        state = self.game_state
        if state.is_terminal() or int(action) not in state.legal_actions():
            raise ValueError(f"action {action} is not a legal action of {self.agent_selection}")
        return state.describe_action(int(action)).to_json()

    def close(self) -> None:
        pass


class parallel_raw_env(_Common, ParallelEnv):  # noqa: N801
    """The parallel env: every live agent acts each step (NOOP when idle)."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: str = "points",
        illegal: str = "penalize",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        self._setup(
            game, players, options, render_mode, max_cycles, reward, illegal, illegal_penalty, True
        )
        self.table = Lockstep(self.game, illegal, self.illegal_penalty)
        self.agents: list[str] = []
        self._seats: list[int] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.table.reset(self._game_seed(seed))
        self.agents = list(self.possible_agents)
        self.cycles = 0
        agents = self.agents
        self._seats = [self._seat_of[a] for a in agents]
        obs = dict(zip(agents, self.table.observe_all(self._seats), strict=True))
        return obs, {a: {} for a in agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """One lockstep step. Written flat (the hot path of a parallel rollout): the
        observations are `LazyObservation`s, so a policy that reads only the masks
        encodes no vector (RUNWAY 4p random play: 6k -> see docs/adapters.md)."""
        seat_of = self._seat_of
        table = self.table
        rewards, bad = table.step(
            {
                seat_of[a]: x if type(x) is int else int(x)
                for a, x in actions.items()
                if x is not None
            }
        )
        self.cycles += 1
        state = table.state
        agents = self.agents
        done = state.is_terminal()
        if self.reward_mode == "points":
            rew = rewards  # the change of points plus any penalty, per seat
        else:
            penalties = [self.illegal_penalty if s in bad else 0.0 for s in range(len(rewards))]
            rew = self._rewards(state, rewards, penalties)
        cut = not done and self.max_cycles is not None and self.cycles >= self.max_cycles
        seats = self._seats  # the live agents' seats (all of them until the end)
        obs = dict(zip(agents, table.observe_all(seats), strict=True))
        if done:
            infos: dict[str, dict[str, Any]] = {a: self._final_info(state) for a in agents}
        else:
            infos = {a: {} for a in agents}
            for s in bad:
                infos[self.possible_agents[s]] = {"illegal_action": True}
        out = (
            obs,
            {a: rew[s] for a, s in zip(agents, seats, strict=True)},
            dict.fromkeys(agents, done),
            dict.fromkeys(agents, cut),
            infos,
        )
        if done or cut:
            self.agents, self._seats = [], []
        return out

    def render(self) -> str | None:
        pending = sorted(self.table.pending) or [0]
        return self._render(self.table.state, pending[0])

    def close(self) -> None:
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with the same checks, but `last`, `step` and
    `agent_iter` read the env directly instead of through the wrapper's attribute
    forwarding (``__getattr__`` per ``agent_selection``, ``infos``, ...), which took
    about half of a masked random rollout's time."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)


class _OrderEnforcingIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):
    """AECOrderEnforcingIterator's checks, reading the wrapped env directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


def env(game: str | Game, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The AEC env (order-enforcing wrapper on `raw_env`). See the module docstring."""
    return OrderEnforcing(raw_env(game, players, **kwargs))


def parallel_env(game: str | Game, players: int | None = None, **kwargs: Any) -> ParallelEnv:
    """The parallel env. See the module docstring."""
    return parallel_raw_env(game, players, **kwargs)


__all__ = ["OrderEnforcing", "env", "parallel_env", "parallel_raw_env", "raw_env"]
