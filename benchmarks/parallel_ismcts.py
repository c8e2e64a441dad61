"""Root-parallel ISMCTS (issue 28 item 3): speed at 1 and 2 workers, and strength at
equal wall time (docs/agents.md, "Root-parallel search").

    nice .venv/bin/python benchmarks/parallel_ismcts.py speed --game runway --players 3
    nice .venv/bin/python benchmarks/parallel_ismcts.py strength --game runway --players 3 \
        --games 96 --time-ms 25

`strength` plays paired games: every deal is played once with the 2-worker bot in each
seat (seats rotated), the other seats 1-worker bots, every bot with the same time budget
per decision (`time_ms`; with `--iterations I` instead: the 2-worker bot 2*I split, 500
each for I=500, the others I, which is equal wall time on an idle 2-core machine and
deterministic). It prints the 2-worker seat's share of wins (ties split) against the
1/N an equal bot gets, with its standard error, and the load average at start and end.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from cardlab.agents import Agent, make_agent, parallel, play_game
from cardlab.agents.bench import bench_agent
from cardlab.agents.spec import AgentSpec
from cardlab.core import GameState
from cardlab.core.build import build_info
from cardlab.games import load_game


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def speed(args: argparse.Namespace) -> None:
    game = load_game(args.game, players=args.players)
    for workers in (1, 2):
        spec = AgentSpec("ismcts", {"iterations": args.iterations_speed})
        result = bench_agent(game, spec, positions=args.positions, runs=args.runs, workers=workers)
        print(result.text())


class Counted(Agent):
    """An agent that counts the iterations its searches made (per decision, on average)."""

    def __init__(self, inner: Agent, tally: list[int]) -> None:
        super().__init__(inner.seed)
        self.inner, self.tally = inner, tally

    def step(self, state: GameState) -> int:
        action = self.inner.step(state)
        self.tally[0] += getattr(self.inner, "last_search").iterations  # noqa: B009 (any agent)
        self.tally[1] += 1
        return action


def strength(args: argparse.Namespace) -> None:
    game = load_game(args.game, players=args.players)
    n = args.players
    if args.iterations:
        strong = {"iterations": 2 * args.iterations, "workers": 2}
        plain = {"iterations": args.iterations}
    else:
        strong = {"time_ms": args.time_ms, "workers": 2}
        plain = {"time_ms": args.time_ms}
    deals = max(1, args.games // n)
    share, shares, started = 0.0, [], time.perf_counter()
    tally_strong, tally_plain = [0, 0], [0, 0]
    for deal in range(deals):
        for seat in range(n):
            agents = [
                Counted(
                    make_agent("ismcts", seed=1000 * deal + s, **(strong if s == seat else plain)),
                    tally_strong if s == seat else tally_plain,
                )
                for s in range(n)
            ]
            result = play_game(game, agents, seed=args.seed + deal)
            won = (1.0 / len(result.winners)) if seat in result.winners else 0.0
            share += won
            shares.append(won)
    games = len(shares)
    mean = share / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(1, games - 1))
    print(
        f"{args.game} {n}p, {games} games ({deals} deals x {n} seats), "
        f"2 workers {strong} vs 1 worker {plain}: 2-worker seat won {mean:.3f} "
        f"(+- {sd / math.sqrt(games):.3f} s.e.; an equal bot {1 / n:.3f}) "
        f"in {time.perf_counter() - started:.0f} s; iterations per decision: 2 workers "
        f"{tally_strong[0] / max(1, tally_strong[1]):.0f}, 1 worker "
        f"{tally_plain[0] / max(1, tally_plain[1]):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["speed", "strength"])
    parser.add_argument("--game", default="runway")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--time-ms", type=float, default=25.0)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--iterations-speed", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"build: {build_info().text()}; at start {load()}")
    try:
        speed(args) if args.what == "speed" else strength(args)
    finally:
        parallel.shutdown_pool()
    print(f"at end {load()}")


if __name__ == "__main__":
    main()
