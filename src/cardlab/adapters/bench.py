"""The adapter benchmark (`cardlab bench GAME --adapter pettingzoo|parallel|openspiel`).

What an adapter keeps of the engine's speed: the same uniformly random play,
through the adapter and straight on the engine, in one process, runs
alternating between the two so a busy machine slows both alike. Time is CPU
time of this process (`time.process_time`), so other processes on a shared
machine change the figures less. Decisions are engine decisions
(`apply_action` calls that the engine accepted).

The loops, each the one a user of that interface writes:

- engine: ``state.apply_action(rng.choice(state.legal_actions()))``;
- ``pettingzoo``: the AEC env (`cardlab.adapters.pettingzoo.env`, turn mode)
  through its order-enforcing wrapper, ``env.last(observe=False)`` and the mask
  from ``info["action_mask"]``; ``observed`` the same reading
  ``env.last()``'s observation dict (vector and mask) instead;
- ``parallel``: the parallel env, every agent answering from its mask each
  step (the vectors are encoded only when read: `adapters.table.LazyObservation`);
  ``observed`` also reads every agent's observation vector each step;
- ``openspiel``: the pyspiel game, the deal sampled from ``chance_outcomes()``,
  then ``state.apply_action(rng.choice(state.legal_actions()))``; ``observed``
  also reads ``information_state_tensor`` of the seat to move every decision.

``floor`` (the masked adapters): what the caller's own loop costs with no adapter at
all, the engine plus, per decision, the 0/1 mask any masked interface must hand over
and the caller's sampling from it (for ``parallel`` every agent's, the idle ones'
NOOP too, as its loop samples every agent each step; one in a simultaneous round).
No adapter can beat it, so ``floor_ratio`` is the ceiling of ``ratio``: at 4 players
on the compiled engines the mask and the sampling alone cost about as much as the
engine's decision (docs/adapters.md "Speed").

``tensors_per_s`` is the observation vector alone (`encode_state`) over the
states of random games, every seat.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from cardlab.adapters.encoding import encode_state
from cardlab.core import Game, GameState

ADAPTERS = ("pettingzoo", "parallel", "openspiel")

Loop = Callable[[random.Random, int], int]
"""Plays one game from a seed with a generator; returns the engine decisions taken."""


@dataclass
class AdapterBench:
    game: str
    players: int
    adapter: str
    runs: int
    seconds_per_run: float
    engine_decisions_per_s: float
    adapter_decisions_per_s: float
    ratio: float
    observed_decisions_per_s: float
    observed_ratio: float
    tensors_per_s: float
    floor_decisions_per_s: float | None = None
    floor_ratio: float | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def text(self) -> str:
        how, observed = WHAT[self.adapter]
        floor = ""
        if self.floor_decisions_per_s is not None:
            floor = (
                f"; the same loop's mask and sampling without an adapter (the ceiling) "
                f"{self.floor_decisions_per_s:,.0f} ({self.floor_ratio:.2f}x)"
            )
        return (
            f"{self.game} {self.players}p, {self.adapter}: "
            f"{self.adapter_decisions_per_s:,.0f} decisions/CPU-s {how}, "
            f"{self.ratio:.2f}x the engine's {self.engine_decisions_per_s:,.0f}; "
            f"{observed} {self.observed_decisions_per_s:,.0f} "
            f"({self.observed_ratio:.2f}x); observation vectors {self.tensors_per_s:,.0f}/CPU-s "
            f"(median of {self.runs} runs of {self.seconds_per_run:g}s each){floor}"
        )


WHAT = {
    "pettingzoo": ("with the mask from info", "reading last()'s observation"),
    "parallel": ("with masks", "reading every agent's observation vector each step"),
    "openspiel": ("from legal_actions()", "with information_state_tensor each decision"),
}
"""How each loop decides, and what its `observed` variant adds, as the text says it."""


def _engine_loop(game: Game) -> Loop:
    def play(rng: random.Random, seed: int) -> int:
        state = game.new_initial_state(seed)
        n = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return play


def _floor_loop(game: Game, every_agent: bool) -> Loop:
    """The caller's side of a masked loop on the bare engine (module docstring)."""
    from cardlab.adapters.table import mask_of, simultaneous_kinds

    size = game.num_distinct_actions + (1 if every_agent else 0)
    idle = mask_of(size, [size - 1])
    others = game.num_players - 1 if every_agent else 0
    together = simultaneous_kinds(game.name)

    def play(rng: random.Random, seed: int) -> int:
        state = game.new_initial_state(seed)
        choice = rng.choice
        idle_choice = random.Random(seed).choice  # the idle draws leave the game's as it is
        n = 0
        while not state.is_terminal():
            mask = mask_of(size, state.legal_actions())
            action = choice(mask.nonzero()[0].tolist())
            if others and state.decision_kind() not in together:
                for _ in range(others):
                    idle_choice(idle.copy().nonzero()[0].tolist())
            state.apply_action(action)
            n += 1
        return n

    return play


def _pettingzoo_loop(game: Game, observe: bool) -> Loop:
    from cardlab.adapters.pettingzoo import env as make_env

    env = make_env(game)
    raw = env.unwrapped

    def play(rng: random.Random, seed: int) -> int:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last(observe)
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if observe else info["action_mask"]
            env.step(rng.choice(mask.nonzero()[0].tolist()))
        return len(raw.game_state.history())

    return play


def _parallel_loop(game: Game, observe: bool) -> Loop:
    from cardlab.adapters.pettingzoo import parallel_env

    env = parallel_env(game)

    def play(rng: random.Random, seed: int) -> int:
        obs, _ = env.reset(seed=seed)
        choice = rng.choice
        while env.agents:
            if observe:
                for o in obs.values():
                    o["observation"]
            acts = {a: choice(o["action_mask"].nonzero()[0].tolist()) for a, o in obs.items()}
            obs, *_ = env.step(acts)
        return len(env.table.state.history())

    return play


def _openspiel_loop(game: Game, observe: bool) -> Loop:
    import pyspiel

    from cardlab.adapters.openspiel import short_name

    params: dict[str, object] = {"players": game.num_players, **game.options}
    spiel = pyspiel.load_game(short_name(game.name), params)

    def play(rng: random.Random, seed: int) -> int:
        state = spiel.new_initial_state()
        state.apply_action(rng.choice(state.chance_outcomes())[0])
        n = 0
        while not state.is_terminal():
            if observe:
                state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return play


FLOORS = {"pettingzoo": False, "parallel": True}
"""The masked adapters, and whether their loop samples every agent each step."""

LOOPS: dict[str, Callable[[Game, bool], Loop]] = {
    "pettingzoo": _pettingzoo_loop,
    "parallel": _parallel_loop,
    "openspiel": _openspiel_loop,
}


def _rate(loop: Loop, seconds: float, seed0: int) -> float:
    rng = random.Random(seed0)
    start = time.process_time()
    games = decisions = 0
    while True:
        decisions += loop(rng, seed0 + games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed


def _states(game: Game, games: int = 4) -> list[GameState]:
    rng, out = random.Random(1), []
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def tensor_rate(game: Game, seconds: float) -> float:
    """Observation vectors per CPU-second, every seat of the states of random games."""
    states = _states(game)
    seats = range(game.num_players)
    start = time.process_time()
    n = 0
    while time.process_time() - start < seconds:
        for state in states:
            for p in seats:
                encode_state(state, p)
        n += len(states) * game.num_players
    return n / (time.process_time() - start)


def bench_adapter(game: Game, adapter: str, seconds: float = 1.0, runs: int = 3) -> AdapterBench:
    """Engine and adapter random play, alternating `runs` times; medians."""
    if adapter not in LOOPS:
        raise ValueError(f"adapter must be one of {', '.join(ADAPTERS)}, not {adapter!r}")
    engine = _engine_loop(game)
    loops = {
        "engine": engine,
        "fast": LOOPS[adapter](game, False),
        "observed": LOOPS[adapter](game, True),
    }
    if adapter in FLOORS:
        loops["floor"] = _floor_loop(game, every_agent=FLOORS[adapter])
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for run in range(runs):
        seed0 = 1_000 * run
        for name, loop in loops.items():
            rates[name].append(_rate(loop, seconds, seed0))
    med = {k: statistics.median(v) for k, v in rates.items()}
    floor = med.get("floor")
    return AdapterBench(
        game=game.name,
        players=game.num_players,
        adapter=adapter,
        runs=runs,
        seconds_per_run=seconds,
        engine_decisions_per_s=med["engine"],
        adapter_decisions_per_s=med["fast"],
        ratio=med["fast"] / med["engine"],
        observed_decisions_per_s=med["observed"],
        observed_ratio=med["observed"] / med["engine"],
        tensors_per_s=tensor_rate(game, seconds),
        floor_decisions_per_s=floor,
        floor_ratio=None if floor is None else floor / med["engine"],
    )
