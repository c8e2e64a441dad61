"""The engine benchmark: random play in one process, games/s and decisions/s.

Decisions are counted as calls of `apply_action` (each preceded by
`legal_actions`), the figure OpenSpiel and TAG report. The median of several
runs is printed so figures compare run to run."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from cardlab.core.game import Game


@dataclass
class BenchResult:
    game: str
    players: int
    runs: int
    seconds_per_run: float
    games_per_s: float
    decisions_per_s: float
    mean_decisions_per_game: float
    all_decisions_per_s: list[float]

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def bench_random_play(
    game: Game, seconds: float = 2.0, runs: int = 5, seed: int = 0
) -> BenchResult:
    """Play random games for `seconds` per run, `runs` times; report medians."""
    games_rates: list[float] = []
    dec_rates: list[float] = []
    total_games = 0
    total_decisions = 0
    for run in range(runs):
        rng = random.Random(seed * 1000 + run)
        n_games, n_dec, elapsed = _run(game, seconds, rng, seed * 100_000 + run * 10_000)
        games_rates.append(n_games / elapsed)
        dec_rates.append(n_dec / elapsed)
        total_games += n_games
        total_decisions += n_dec
    return BenchResult(
        game=game.name,
        players=game.num_players,
        runs=runs,
        seconds_per_run=seconds,
        games_per_s=statistics.median(games_rates),
        decisions_per_s=statistics.median(dec_rates),
        mean_decisions_per_game=total_decisions / max(total_games, 1),
        all_decisions_per_s=[round(r) for r in dec_rates],
    )


def _run(game: Game, seconds: float, rng: random.Random, seed0: int) -> tuple[int, int, float]:
    choose: Callable[[list[int]], int] = rng.choice
    start = time.perf_counter()
    deadline = start + seconds
    games = decisions = 0
    while True:
        state = game.new_initial_state(seed0 + games)
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, decisions, now - start
