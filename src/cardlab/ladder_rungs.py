"""Is a ladder monotone? Each rung against the one below, at the gate's corrected level.

`cardlab ladder --rungs` reads the agents in the order given as rungs, weakest first
(`random,greedy,generalist,ismcts`), and says for each neighbouring pair whether the
stronger one's win-rate interval lies wholly above the weaker one's. The intervals are
Wilson intervals at the level the gate's skill section uses (`cardlab.lab.skill.look_z`):
Bonferroni over its six looks and the ladder's cells (one per neighbouring pair), so "apart"
here means what "clearly wins more" means in a gate report. One ladder table, every agent
at the same table on the same deals, seats rotated: the pairs are not independent
experiments, which the Bonferroni bound does not need.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

from cardlab.ladder import LadderTable, wilson_interval

ALPHA = 0.05
LOOKS = 6
"""The gate's `MAX_LOOKS` (lab/skill.py); tests/agents/test_ladder_rungs.py checks they agree."""


def rung_z(cells: int) -> float:
    """The z of the gate's intervals for `cells` neighbouring pairs (two-sided)."""
    return NormalDist().inv_cdf(1 - ALPHA / (2 * LOOKS * max(1, cells)))


@dataclass(frozen=True)
class Rung:
    weaker: str
    stronger: str
    weak_interval: tuple[float, float]
    strong_interval: tuple[float, float]

    @property
    def apart(self) -> bool:
        return self.strong_interval[0] > self.weak_interval[1]


def rungs(table: LadderTable, order: list[str]) -> tuple[float, list[Rung]]:
    """The corrected z and each neighbouring pair of `order` (agent labels, weakest first)."""
    rows = {row.agent: row for row in table.rows}
    missing = [label for label in order if label not in rows]
    if missing:
        raise ValueError(f"no ladder row for {', '.join(missing)}")
    z = rung_z(len(order) - 1)
    out = []
    for weak, strong in zip(order, order[1:], strict=False):
        w, s = rows[weak], rows[strong]
        out.append(
            Rung(
                weak,
                strong,
                wilson_interval(w.wins, w.seats, z),
                wilson_interval(s.wins, s.seats, z),
            )
        )
    return z, out


def rungs_text(table: LadderTable, order: list[str]) -> str:
    """The rungs as lines under the ladder table, and whether the whole ladder is monotone."""
    z, found = rungs(table, order)
    rows = {row.agent: row for row in table.rows}
    lines = [
        "",
        f"Rungs, weakest first (Wilson intervals at z = {z:.2f}, the gate's level: Bonferroni "
        f"over {LOOKS} looks x {len(found)} pairs):",
    ]
    for rung in found:
        w, s = rows[rung.weaker], rows[rung.stronger]
        (wl, wh), (sl, sh) = rung.weak_interval, rung.strong_interval
        verdict = "apart" if rung.apart else "NOT apart"
        lines.append(
            f"- {rung.stronger} {s.win_rate:.1%} [{sl:.1%}, {sh:.1%}] over {rung.weaker} "
            f"{w.win_rate:.1%} [{wl:.1%}, {wh:.1%}]: {verdict}"
        )
    monotone = all(r.apart for r in found)
    lines.append(f"Monotone: {'yes' if monotone else 'no'}")
    return "\n".join(lines)
