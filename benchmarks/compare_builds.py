"""Before/after speed of two or more source trees, measured so a shared machine's load
cancels out (issue 17: "measured at each step").

    python benchmarks/compare_builds.py --build before=/tmp/before/src --build after=src
        [--mode ismcts|random|both] [--games uptime,runway,supercomputer] [--rounds 3]
        [--iterations 300] [--seconds 2] [--instructions]

Each figure runs in a fresh process with `PYTHONPATH` set to one tree (a plain `src/`,
or the compiled work tree `build/mypyc/work/src` that `make compiled` leaves, with
CARDLAB_PURE=1 so that the checkout's own keyed build in build/mypyc/<key> does not load
for the plain tree: `make measure-compiled`), alternating between the trees
round after round, and the median of the rounds is printed with its ratio to the first
tree. ISMCTS: iterations per CPU-second of that process on 8 positions of random play,
4 players (the `cardlab bench` positions); random: decisions per CPU-second of random
games. CPU seconds are the per-core speed; other work on the machine still slows them
a little (shared caches), which is why the trees alternate.

`--instructions` (compiled trees only, needs valgrind) counts the machine instructions
per ISMCTS iteration inside the search instead (callgrind, collecting only inside
`ISMCTSAgent._iterate`) and, with `--mode random` or `both`, per random decision inside
the engine (`apply_action`, `legal_actions`, `is_terminal` over the same seeded games):
independent of the load, so two runs hours apart compare.
A tree of the source before a change is easiest made with
`git archive COMMIT | tar -x -C /tmp/before` (then `make compiled` there for its
compiled build).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

ONE_RUN = """
import random, sys, time
from cardlab.games import load_game
mode, name, amount = sys.argv[1], sys.argv[2], float(sys.argv[3])
game = load_game(name, players=4)
if mode == "random_games":  # a fixed number of seeded games (counted by callgrind)
    rng, decisions = random.Random(0), 0
    for deal in range(int(amount)):
        state = game.new_initial_state(deal)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    print(decisions)
elif mode == "random":
    rng, decisions, deal = random.Random(0), 0, 0
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < amount:
        state = game.new_initial_state(deal)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        deal += 1
    print(decisions / (time.process_time() - cpu0))
else:
    from cardlab.agents import make_agent
    from cardlab.agents.bench import sample_positions
    from cardlab.agents.play import agent_view
    positions = int(sys.argv[4])
    view_rng = random.Random(0)
    views = [agent_view(s, s.current_player(), view_rng) for s in sample_positions(game, positions, 0)]
    agent = make_agent("ismcts", seed=0, iterations=int(amount))
    cpu0, done = time.process_time(), 0
    for view in views:
        agent.step(view)
        done += agent.last_search.iterations
    print(done / (time.process_time() - cpu0))
"""
"""One measurement in a fresh process (so each tree's modules are the ones imported)."""

SEARCH_FUNCTION = "CPyDef_ismcts___ISMCTSAgent____iterate"
"""The compiled search iteration's C function: callgrind counts only inside it."""


def _run(
    tree: str, args: list[str], prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=tree)
    command = [*(prefix or []), sys.executable, "-c", ONE_RUN, *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{tree}: the measurement failed:\n{done.stderr[-3000:]}")
    return done


def rate(tree: str, mode: str, game: str, amount: str, positions: int) -> float:
    return float(_run(tree, [mode, game, amount, str(positions)]).stdout)


def instructions(tree: str, game: str, iterations: int, positions: int) -> float:
    """Instructions per ISMCTS iteration inside the compiled search (callgrind)."""
    prefix = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no",
        f"--toggle-collect={SEARCH_FUNCTION}", "--callgrind-out-file=/dev/null",
    ]  # fmt: skip
    done = _run(tree, ["ismcts", game, str(iterations), str(positions)], prefix)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found or int(found.group(1)) < 1000:
        raise SystemExit(f"{tree}: no search instructions counted (is it a compiled build?)")
    return int(found.group(1)) / (iterations * positions)


RANDOM_GAMES = {"uptime": 600, "runway": 200, "supercomputer": 200}
"""Seeded random games counted per game: a few thousand decisions each (UPTIME's are short)."""


def random_instructions(tree: str, game: str) -> float:
    """Instructions per random decision inside the compiled engine (callgrind, collecting
    only inside `apply_action`, `legal_actions` and `is_terminal`) over the same seeded
    games: the engine's share of random play, without the driver's Python loop."""
    prefix = ["valgrind", "--tool=callgrind", "--collect-atstart=no"]
    prefix += [
        f"--toggle-collect=CPyPy_{game}___state___*State___{method}"
        for method in ("apply_action", "legal_actions", "is_terminal")
    ]
    prefix.append("--callgrind-out-file=/dev/null")
    done = _run(tree, ["random_games", game, str(RANDOM_GAMES[game]), "0"], prefix)
    found = re.search(r"Collected : (\d+)", done.stderr)
    decisions = int(done.stdout.split()[-1])
    if not found or int(found.group(1)) < 1000:
        raise SystemExit(f"{tree}: no engine instructions counted (is it a compiled build?)")
    return int(found.group(1)) / decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--mode", choices=("ismcts", "random", "both"), default="both")
    parser.add_argument("--games", default="uptime,runway,supercomputer")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args()
    builds: dict[str, str] = {}
    for item in args.build:
        name, sep, path = item.partition("=")
        if not sep or not os.path.isdir(path):
            parser.error(f"--build {item!r}: give NAME=PATH to an existing source tree")
        builds[name] = path
    games = args.games.split(",")
    if args.instructions:
        if args.mode != "random":
            print("instructions per ISMCTS iteration (callgrind, compiled search), 4 players")
            for game in games:
                counts = {n: instructions(p, game, 150, 4) for n, p in builds.items()}
                first = next(iter(counts.values()))
                cells = "  ".join(f"{n} {c:9,.0f} ({first / c:.2f}x)" for n, c in counts.items())
                print(f"{game:14} {cells}", flush=True)
        if args.mode != "ismcts":
            print("instructions per random decision (callgrind, compiled engine), 4 players")
            for game in games:
                counts = {n: random_instructions(p, game) for n, p in builds.items()}
                first = next(iter(counts.values()))
                cells = "  ".join(f"{n} {c:9,.0f} ({first / c:.2f}x)" for n, c in counts.items())
                print(f"{game:14} {cells}", flush=True)
        return 0
    modes = ("ismcts", "random") if args.mode == "both" else (args.mode,)
    units = {"ismcts": "ISMCTS iterations/CPU-s", "random": "random decisions/CPU-s"}
    for mode in modes:
        amount = str(args.iterations if mode == "ismcts" else args.seconds)
        for game in games:
            rates: dict[str, list[float]] = {name: [] for name in builds}
            for _ in range(args.rounds):
                for name, path in builds.items():
                    rates[name].append(rate(path, mode, game, amount, args.positions))
            medians = {n: statistics.median(r) for n, r in rates.items()}
            first = next(iter(medians.values()))
            cells = "  ".join(f"{n} {m:9,.0f} ({m / first:.2f}x)" for n, m in medians.items())
            print(f"{game:14} {units[mode]:24} {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
