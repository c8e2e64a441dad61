"""Measure the Hype curve of the packaged Deal list (R2): not a test, a script.

    .venv/bin/python tests/runway/measure_hype.py [games] [players...]

For each line (agents x players x shock_effect) it plays `games` games from
seeds 0.. and reports the median and mean Hype after the 6th Deal closes, the
share of games where Hype is 5+ after Deal 6, the share that reach 10 at some
point, the mean final Hype and the share of Deals Dumped. The figures are in
docs/rules/runway.md.
"""

from __future__ import annotations

import random
import statistics
import sys

from cardlab import load_game
from cardlab.agents import make_agent


def hype_run(players: int, kinds: list[str], games: int, **options: object) -> dict[str, float]:
    game = load_game("runway", players=players, **options)
    after6, final, reached, dumped, first10 = [], [], 0, 0, []
    for i in range(games):
        agents = [make_agent(kinds[(p + i) % len(kinds)], seed=i * 10 + p) for p in range(players)]
        view_rng = random.Random(f"views-{i}")
        s = game.new_initial_state(i)
        top = 0
        while not s.is_terminal():
            seat = s.current_player()
            legal = s.legal_actions()
            closed = s.deals_closed
            if len(legal) == 1:
                action = legal[0]
            else:
                action = agents[seat].step(
                    s.resample_from_infostate(seat, view_rng.getrandbits(63))
                )
            s.apply_action(action)
            if s.deals_closed != closed:
                if s.hype >= 10 and top < 10:
                    first10.append(s.deals_closed)
                top = max(top, s.hype)
                if s.deals_closed == 6:
                    after6.append(s.hype)
        reached += top >= 10
        final.append(s.hype)
        dumped += len(s.dumped)
    return {
        "median6": statistics.median(after6),
        "mean6": statistics.fmean(after6),
        "five_by6": sum(h >= 5 for h in after6) / games,
        "reach10": reached / games,
        "first10": statistics.median(first10) if first10 else float("nan"),
        "final": statistics.fmean(final),
        "dumped": dumped / (12 * games),
    }


LINES = [
    ("random", ["random"]),
    ("greedy", ["greedy"]),
    ("personas", ["generalist", "specialist"]),
]

if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    counts = [int(x) for x in sys.argv[2:]] or [2, 4]
    print(
        "| play | players | shock_effect | Hype after Deal 6 (median / mean) | Hype 5+ after Deal 6 "
        "| reaches 10 | first at Deal (median) | final mean | Deals Dumped |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, kinds in LINES:
        for n in counts:
            for effect in ("hype_down", "none", "reward_minus_one"):
                if effect != "hype_down" and label != "random":
                    continue
                r = hype_run(n, kinds, games, shock_effect=effect)
                print(
                    f"| {label} | {n} | {effect} | {r['median6']:g} / {r['mean6']:.2f} "
                    f"| {r['five_by6']:.0%} | {r['reach10']:.0%} | {r['first10']:g} | {r['final']:.2f} "
                    f"| {r['dumped']:.0%} |",
                    flush=True,
                )
