"""A fixed amount of engine work, for timing one tree against another from outside
(`farm-bench --vs`): the same random games, or the same ISMCTS decisions, every run.

    python benchmarks/fixed_work.py GAME random 15000   # 15,000 random 4-player games
    python benchmarks/fixed_work.py GAME ismcts 120     # 120 decisions at 300 iterations

Why not `cardlab bench`: it runs for a fixed time and reports a rate, so two trees cannot
be paired run by run from outside; this does the same work each time, so the process's
CPU time is the figure (docs/agents.md, "One engine pattern (core), and what it costs")."""

from __future__ import annotations

import random
import sys

import cardlab
from cardlab.games import load_game


def main(game_name: str, mode: str, count: int) -> None:
    game = load_game(game_name, 4)
    rng = random.Random(1 if mode == "random" else 2)
    agent = cardlab.make_agent("ismcts", seed=1, iterations=300) if mode == "ismcts" else None
    for seed in range(count):
        state = game.new_initial_state(seed)
        if agent is None:
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            continue
        for _ in range(rng.randrange(0, 40)):  # a position up to 40 moves in
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            agent.step(state)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
