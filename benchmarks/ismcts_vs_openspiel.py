"""ISMCTS speed, side by side in one run: cardlab's ISMCTS on each cardlab game,
OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``) and OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``) on 4-player Hearts, and OpenSpiel's
Python ISMCTS on the cardlab games through the OpenSpiel adapter; and random play in
the same run: cardlab's engines against OpenSpiel's C++ Hearts and its pure-Python
python_team_dominoes.

    python benchmarks/ismcts_vs_openspiel.py [--players 4] [--iterations 1000]
        [--positions 10] [--python-sims 200] [--games uptime,runway,supercomputer] [--rounds 3]
        [--random-seconds 2]

Each bot decides once on each of the same `--positions` positions, taken from
random play (only positions with a real choice), with a fixed number of
iterations (simulations) per decision; the figure is iterations per CPU-second
of this process (less disturbed by other processes than the wall clock; the
wall-clock figure is printed too). Ratios are cardlab over the OpenSpiel bot.

The C++ bot and cardlab's bot on each game are timed `--rounds` times in turn (C++,
then each game, again and again), so a shared machine whose speed drifts (other
sessions on the same host) weighs on both alike: each row shows the median round,
and each ratio against the C++ bot is the median of the rounds' ratios, every game
taken against the C++ run of its own round. OpenSpiel's Python bots run once.

Random play: uniformly random games, decisions (non-chance actions) per CPU-second, each
engine `--random-seconds` per round, in the same rounds as the search (OpenSpiel's chance
nodes sampled from `chance_outcomes()`, not counted). `--random-seconds 0` skips it.

Equal iterations are not equal work, and the script says so rather than
hiding it: cardlab's ISMCTS cuts rollouts at 12 decisions and scores them with
the game's heuristic; OpenSpiel's bots play one random rollout to the end
(Hearts: up to 52 card plays), with `max_world_samples` unlimited (a fresh
determinisation per simulation, as cardlab does).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Row:
    bot: str
    game: str
    iterations: int
    cpu: float
    wall: float

    @property
    def rate(self) -> float:
        return self.iterations / self.cpu if self.cpu else 0.0

    @property
    def wall_rate(self) -> float:
        return self.iterations / self.wall if self.wall else 0.0


def _median_row(rows: list[Row]) -> Row:
    """The run with the median rate (the lower middle one of an even count)."""
    ordered = sorted(rows, key=lambda r: r.rate)
    return ordered[(len(ordered) - 1) // 2]


def _timed(
    bot: str, game: str, decide: Callable[[Any], int], positions: list[Any], sims: int
) -> Row:
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for position in positions:
        decide(position)
    return Row(
        bot, game, sims * len(positions), time.process_time() - cpu0, time.perf_counter() - wall0
    )


def cardlab_positions(name: str, players: int, count: int) -> list[Any]:
    from cardlab.agents.bench import sample_positions
    from cardlab.agents.play import agent_view
    from cardlab.games import load_game

    rng = random.Random(0)
    return [
        agent_view(s, s.current_player(), rng)
        for s in sample_positions(load_game(name, players=players), count)
    ]


def bench_cardlab(name: str, players: int, count: int, iterations: int) -> Row:
    from cardlab.agents import ismcts, make_agent

    positions = cardlab_positions(name, players, count)
    agent = make_agent("ismcts", seed=0, iterations=iterations)
    # the default install runs the mypyc build (build/mypyc/<key>, CARDLAB_PURE=1 the
    # plain source): say which ran
    build = "compiled" if not (ismcts.__file__ or "").endswith(".py") else "Python"
    return _timed(
        f"cardlab ISMCTS ({build})", f"{name} {players}p", agent.step, positions, iterations
    )


HEARTS_PASSES = 12
"""Hearts' first decisions pass cards (3 per seat). Positions are taken after them:
OpenSpiel 2.0.2's C++ ISMCTSBot crashed (segmentation fault) on a pass-phase state."""


def breakdown(name: str, players: int, count: int, iterations: int) -> dict[str, float]:
    """Microseconds of CPU per ISMCTS iteration spent in each engine call it makes,
    timed apart without a profiler (which inflates small, frequent calls): the
    redeal, a 12-decision random rollout (legal actions + apply), the evaluation;
    the rest of a full iteration is the search's own bookkeeping and tree walk."""
    from cardlab.agents import make_agent
    from cardlab.agents.evaluation import eval_scale_for, rewards

    positions = cardlab_positions(name, players, count)
    rng = random.Random(1)
    out = {"redeal": 0.0, "rollout (12 decisions)": 0.0, "evaluation": 0.0}
    worlds = []
    for view in positions:
        me = view.current_player()
        t = time.process_time()
        for _ in range(iterations):
            worlds.append(view.resample_from_infostate(me, rng.getrandbits(63)))
        out["redeal"] += time.process_time() - t
        t = time.process_time()
        for w in worlds:
            for _ in range(12):
                if w.is_terminal():
                    break
                legal = w.legal_actions()
                w.apply_action(legal[int(rng.random() * len(legal))])
        out["rollout (12 decisions)"] += time.process_time() - t
        scale = eval_scale_for(view)
        t = time.process_time()
        for w in worlds:
            rewards(w, scale)
        out["evaluation"] += time.process_time() - t
        worlds.clear()
    agent = make_agent("ismcts", seed=0, iterations=iterations)
    t = time.process_time()
    for view in positions:
        agent.step(view)
    total = time.process_time() - t
    n = iterations * len(positions)
    us = {k: 1e6 * v / n for k, v in out.items()}
    us["search bookkeeping + tree walk"] = 1e6 * total / n - sum(us.values())
    us["whole iteration"] = 1e6 * total / n
    return us


def _load() -> str:
    """The machine's load average (1, 5, 15 minutes), to name with the figures."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def random_cardlab(name: str, players: int, seconds: float) -> Row:
    """cardlab's engine: `apply_action(rng.choice(legal_actions()))` until `seconds` of CPU."""
    from cardlab.games import load_game

    game = load_game(name, players=players)
    rng = random.Random(0)
    decisions = deal = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        state = game.new_initial_state(deal)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        deal += 1
    return Row(
        "random play", f"{name} {players}p (cardlab)", decisions,
        time.process_time() - cpu0, time.perf_counter() - wall0,
    )  # fmt: skip


def random_spiel(game_name: str, label: str, seconds: float) -> Row:
    """An OpenSpiel game's own random play, chance sampled from `chance_outcomes()`."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = random.Random(0)
    decisions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return Row(
        "random play", label, decisions, time.process_time() - cpu0, time.perf_counter() - wall0
    )


def spiel_positions(game: Any, count: int, seed: int = 0, skip: int = 0) -> list[Any]:
    """States with a real choice, every few decisions of random games (chance sampled),
    after the first `skip` decisions of each game."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and step >= skip and step % 5 == 0:
                out.append(state.clone())
            state.apply_action(rng.choice(legal))
            step += 1
    return out


def bench_spiel_cpp(game_name: str, players: int, count: int, sims: int) -> Row:
    import pyspiel

    game = pyspiel.load_game(game_name)
    positions = spiel_positions(game, count, skip=HEARTS_PASSES)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, sims)
    return _timed("OpenSpiel ISMCTS (C++)", f"{game_name} {players}p", bot.step, positions, sims)


def bench_spiel_python(game: Any, label: str, count: int, sims: int, skip: int = 0) -> Row:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    positions = spiel_positions(game, count, skip=skip)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)
    return _timed("OpenSpiel ISMCTS (Python)", label, bot.step, positions, sims)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=1000, help="cardlab and C++ ISMCTS")
    parser.add_argument("--python-sims", type=int, default=200, help="OpenSpiel Python ISMCTS")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--games", default="", help="comma-separated cardlab games (default all)")
    parser.add_argument("--skip-python-on-cardlab", action="store_true")
    parser.add_argument(
        "--breakdown", action="store_true", help="also time cardlab's engine calls per iteration"
    )
    parser.add_argument("--rounds", type=int, default=3, help="C++ and cardlab in turn, medians")
    parser.add_argument(
        "--random-seconds", type=float, default=2.0, help="random play per engine and round"
    )
    args = parser.parse_args(argv)

    import open_spiel.python.games  # noqa: F401  (registers python_team_dominoes)
    import pyspiel

    import cardlab.adapters.openspiel as spiel_adapter
    from cardlab.games import list_games

    games = [g for g in args.games.split(",") if g] or list_games()
    n = args.players
    rows: list[Row] = []
    from cardlab.core.build import build_info

    print(f"cardlab engines: {build_info().text()}; load average at the start: {_load()}")
    print(f"{args.positions} positions per game, one decision each; measuring...", file=sys.stderr)
    cpp_runs: list[Row] = []
    runs: dict[str, list[Row]] = {name: [] for name in games}
    ratios: dict[str, list[float]] = {name: [] for name in games}
    spiel_random = {"hearts": "hearts 4p (OpenSpiel C++)",
                    "python_team_dominoes": "python_team_dominoes 4p (OpenSpiel Python)"}  # fmt: skip
    random_runs: dict[str, list[Row]] = {k: [] for k in [*spiel_random, *games]}
    for _ in range(max(1, args.rounds)):
        cpp_runs.append(bench_spiel_cpp("hearts", 4, args.positions, args.iterations))
        for name in games:
            runs[name].append(bench_cardlab(name, n, args.positions, args.iterations))
            ratios[name].append(runs[name][-1].rate / cpp_runs[-1].rate)
        if args.random_seconds > 0:
            for key, label in spiel_random.items():
                random_runs[key].append(random_spiel(key, label, args.random_seconds))
            for name in games:
                random_runs[name].append(random_cardlab(name, n, args.random_seconds))
    cpp = _median_row(cpp_runs)
    rows.append(cpp)
    hearts = pyspiel.load_game("hearts")
    py_hearts = bench_spiel_python(
        hearts, "hearts 4p", args.positions, args.python_sims, skip=HEARTS_PASSES
    )
    rows.append(py_hearts)
    mine: list[Row] = []
    for name in games:
        mine.append(_median_row(runs[name]))
        rows.append(mine[-1])
        if not args.skip_python_on_cardlab:
            game = pyspiel.load_game(spiel_adapter.short_name(name), {"players": n})
            rows.append(bench_spiel_python(game, f"{name} {n}p", args.positions, args.python_sims))

    print("\n| bot | game | iterations | iterations/CPU-s | iterations/s (wall) |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r.bot} | {r.game} | {r.iterations:,} | {r.rate:,.0f} | {r.wall_rate:,.0f} |")
    rounds = len(cpp_runs)
    print(
        f"\nRatios (iterations per CPU-second, cardlab ISMCTS over the other bot; against C++ "
        f"the median of {rounds} round(s), each against the C++ run of its round):"
    )
    for name, r in zip(games, mine, strict=True):
        each = ", ".join(f"{x:.2f}" for x in ratios[name])
        print(
            f"  {r.game}: {statistics.median(ratios[name]):.2f}x OpenSpiel C++ ISMCTS on hearts "
            f"4p (rounds: {each}), {r.rate / py_hearts.rate:.1f}x OpenSpiel Python ISMCTS on "
            "hearts 4p"
        )
    if args.random_seconds > 0:
        medians = {k: _median_row(v) for k, v in random_runs.items()}
        print("\n| random play | decisions | decisions/CPU-s | decisions/s (wall) |")
        print("|---|---:|---:|---:|")
        for r in medians.values():
            print(f"| {r.game} | {r.iterations:,} | {r.rate:,.0f} | {r.wall_rate:,.0f} |")
        cpp_r, py_r = medians["hearts"].rate, medians["python_team_dominoes"].rate
        print(f"\nRandom play, cardlab over OpenSpiel (median of {rounds} round(s) each):")
        for name in games:
            rate = medians[name].rate
            print(
                f"  {name} {n}p: {rate / cpp_r:.2f}x OpenSpiel C++ hearts, "
                f"{rate / py_r:.1f}x OpenSpiel Python python_team_dominoes"
            )
    print(f"\nload average at the end: {_load()}")
    if args.breakdown:
        print("\nCPU microseconds per cardlab ISMCTS iteration, by engine call:")
        for name in games:
            parts = breakdown(name, n, args.positions, args.iterations)
            whole = parts["whole iteration"]
            text = ", ".join(
                f"{k} {v:.0f} ({100 * v / whole:.0f}%)"
                for k, v in parts.items()
                if k != "whole iteration"
            )
            print(f"  {name} {n}p: {whole:.0f} us = {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
