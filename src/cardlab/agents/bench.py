"""The agent benchmark: how fast a bot decides, on positions from real play.

Positions are collected once by random play (every few decisions, only where
there is a real choice), then the agent decides on each position's view, run
after run. For ISMCTS it reports iterations per second and seconds per
decision; for any agent, seconds per decision. The machine is shared and
noisy, so medians over runs are reported, with every run's figure, and
iterations per CPU-second of this process (the per-core speed, less disturbed
by other processes than the wall clock).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import statistics
import time
from dataclasses import asdict, dataclass

from cardlab.agents.play import agent_view
from cardlab.agents.spec import AgentSpec
from cardlab.core import Game, GameState


@dataclass
class AgentBenchResult:
    game: str
    players: int
    agent: str
    positions: int
    runs: int
    iterations_per_s: float | None
    iterations_per_cpu_s: float | None
    seconds_per_decision: float
    cpu_seconds_per_decision: float
    p90_seconds_per_decision: float
    all_iterations_per_s: list[float]

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def text(self) -> str:
        parts = [f"{self.game} {self.players}p {self.agent}:"]
        if self.iterations_per_s is not None:
            parts.append(
                f"{self.iterations_per_s:,.0f} iterations/s "
                f"({self.iterations_per_cpu_s:,.0f} per CPU-second),"
            )
        parts.append(
            f"{1000 * self.seconds_per_decision:.1f} ms/decision median "
            f"({1000 * self.cpu_seconds_per_decision:.1f} ms of CPU; "
            f"90th percentile {1000 * self.p90_seconds_per_decision:.1f} ms)"
        )
        parts.append(f"over {self.positions} positions, median of {self.runs} runs")
        if self.iterations_per_s is not None:
            parts.append(f"(iterations/s per run: {[round(r) for r in self.all_iterations_per_s]})")
        return " ".join(parts)


def sample_positions(game: Game, count: int, seed: int = 0, every: int = 5) -> list[GameState]:
    """`count` states with a real choice, taken every `every` decisions of random games."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    deal = 0
    while len(positions) < count:
        state = game.new_initial_state(seed * 10_000 + deal)
        deal += 1
        step = 0
        while not state.is_terminal() and len(positions) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                positions.append(state.clone())
            state.apply_action(rng.choice(legal))
            step += 1
    return positions


def bench_agent(
    game: Game,
    spec: AgentSpec,
    positions: int = 20,
    runs: int = 3,
    seed: int = 0,
    workers: int | None = None,
) -> AgentBenchResult:
    """Time `spec`'s decisions on sampled positions; medians over `runs`.

    `workers` (ISMCTS: root-parallel, agents/parallel.py) is added to the spec. The
    CPU figure then counts the workers' CPU too (this process's clock misses it)."""
    if workers is not None:
        spec = AgentSpec(spec.kind, {**spec.params, "workers": workers})
    states = sample_positions(game, positions, seed)
    view_rng = random.Random(seed)
    views = [agent_view(s, s.current_player(), view_rng) for s in states]
    if isinstance(spec.params.get("workers"), int) and spec.params["workers"] > 1:
        spec.make(seed=seed).step(views[0])  # start the worker pool before the clock does
    rates: list[float] = []
    cpu_rates: list[float] = []
    times: list[float] = []
    cpu_times: list[float] = []
    for run in range(runs):
        agent = spec.make(seed=seed + run)
        iterations = 0
        elapsed = 0.0
        cpu_start = time.process_time()
        for view in views:
            start, cpu_at = time.perf_counter(), time.process_time()
            agent.step(view)
            took = time.perf_counter() - start
            cpu_times.append(time.process_time() - cpu_at)
            times.append(took)
            elapsed += took
            iterations += getattr(getattr(agent, "last_search", None), "iterations", 0)
            worker_cpu = getattr(agent, "worker_cpu_seconds", 0.0)
            cpu_times[-1] += worker_cpu
            cpu_start -= worker_cpu
        cpu = time.process_time() - cpu_start
        if iterations:
            rates.append(iterations / elapsed)
            cpu_rates.append(iterations / cpu)
    ordered = sorted(times)
    return AgentBenchResult(
        game=game.name,
        players=game.num_players,
        agent=spec.label,
        positions=len(views),
        runs=runs,
        iterations_per_s=statistics.median(rates) if rates else None,
        iterations_per_cpu_s=statistics.median(cpu_rates) if cpu_rates else None,
        seconds_per_decision=statistics.median(times),
        cpu_seconds_per_decision=statistics.median(cpu_times),
        p90_seconds_per_decision=ordered[int(0.9 * (len(ordered) - 1))],
        all_iterations_per_s=rates,
    )


def profile_agent(game: Game, spec: AgentSpec, positions: int = 10, top: int = 20) -> str:
    """cProfile of the agent deciding on sampled positions.

    Two views: own time summed by module (how much is the search itself, how much
    the game engine's clone, redeal, legal actions and evaluation), then the top
    functions by own time. cProfile's per-call overhead inflates small functions
    that are called often, so compare shares, not absolute times."""
    states = sample_positions(game, positions)
    view_rng = random.Random(0)
    views = [agent_view(s, s.current_player(), view_rng) for s in states]
    agent = spec.make(seed=0)
    profiler = cProfile.Profile()
    profiler.enable()
    for view in views:
        agent.step(view)
    profiler.disable()
    stats = pstats.Stats(profiler)
    out = io.StringIO()
    out.write(by_module(stats))
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def _module_of(filename: str) -> str:
    """``cardlab.games.uptime.state`` for a cardlab file, else ``python: random`` or ``builtins``."""
    path = filename.replace("\\", "/")
    if "/cardlab/" in path:
        return "cardlab." + path.rsplit("/cardlab/", 1)[1].removesuffix(".py").replace("/", ".")
    if filename == "~":
        return "builtins (list, dict, sort, ...)"
    return "python: " + path.rsplit("/", 1)[-1].removesuffix(".py")


def by_module(stats: pstats.Stats) -> str:
    """Own time summed per module, largest first, with each module's share."""
    totals: dict[str, float] = {}
    for (filename, _line, _name), row in stats.stats.items():  # type: ignore[attr-defined]
        module = _module_of(filename)
        totals[module] = totals.get(module, 0.0) + row[2]
    grand = sum(totals.values()) or 1.0
    lines = ["Own time by module (cProfile):"]
    for module, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        if seconds / grand >= 0.005:
            lines.append(f"  {100 * seconds / grand:5.1f}%  {seconds:7.3f}s  {module}")
    return "\n".join(lines) + "\n\n"
