"""Scripted scenarios from the rulebook, played through the engine itself.

S10: the rulebook's "Sample Completed Computer" scores 30 / 40 / 50 in rounds 1 / 2 / 3.
Our sample (docs/rules/supercomputer.md, supercomputer_sample.svg) is placed part by
part through the engine's placement rule and scored by the engine's round scoring.
The lab's claim `supercomputer.sample_30_40_50` calls `sample_computer_scores()`.
"""

from __future__ import annotations

from cardlab.games.supercomputer import scoring
from cardlab.games.supercomputer.rules import SuperComputerGame

SAMPLE: tuple[tuple[int, int, str], ...] = (
    (0, 0, "Core X8 CPU"),
    (0, -1, "32 GB RAM"),
    (1, 0, "24 GB GPU"),
    (-1, 0, "ATX Motherboard"),
    (0, 1, "1000 W PSU"),
    (1, 1, "Liquid Loop"),
    (0, 2, "4 TB NVMe"),
)
"""(x, y, part name) in the order the parts are attached; x east, y south."""
SAMPLE_BUILD = "Gaming Rig"


def sample_computer_scores(game: SuperComputerGame | None = None) -> list[int]:
    """Seat 0's round score for the sample computer in rounds 1, 2 and 3 (S6, S10).

    Raises ValueError if a sample part would not be a legal placement (S4)."""
    g = game if game is not None else SuperComputerGame(2, builds="choose_one")
    t = g.tables
    out = []
    for r in range(3):
        s = g.new_initial_state(0)
        grid: dict[tuple[int, int], int] = {}
        for x, y, name in SAMPLE:
            k = t.part_names.index(name)
            s.set_computer(0, grid)
            cell = g.place_action(x, y) - g.actions.first_place
            if cell not in s.legal_cells(0, k):
                raise ValueError(f"sample computer: {name} at ({x},{y}) is not legal (S4)")
            grid[(x, y)] = k
        s.set_computer(0, grid)
        s.build_offers[0] = []
        s.kept_builds[0] = [t.build_names.index(SAMPLE_BUILD)]
        s.scrap_piles[0] = []
        s.round_index = r
        before = s.points[0]
        scoring.score_round(s)
        out.append(s.points[0] - before)
    return out
