"""What a claim's verdict means: kinds, verdicts, and the rulings a verdict rests on.

A rulebook makes two sorts of claims, and a gate that mixes them misleads:

- `design` claims are promises about play ("both styles are viable", "a game lasts
  25-30 minutes") that simulation can refute. Only these count toward the gate.
- `invariant` claims are guaranteed by the engine ("Pass is always legal", "one
  pitch per Deal"): a simulation cannot make them fail unless the engine is broken,
  so they are shown apart, as a regression check, and never counted as holding.

Verdicts:

- `holds`: measured, and the claim's stated test passed;
- `fails`: measured, and it did not;
- `needs_data`: measured, but the evidence cannot decide either way (a range that
  straddles the target, intervals too wide), with what would decide it;
- `untestable`: the lab cannot measure it (no sample, no engine hook), with the reason.

A design claim measured by intervals is judged by one rule (`by_interval`): it holds
only when its interval lies inside the target, fails only when it lies wholly outside,
else needs data, and says how many more games would decide it (from the interval's
width: games scale with 1/width^2). Overlapping intervals are not evidence of balance.

A claim is judged first under the rulebook as written. Where one of our rulings
(docs/rules/<game>.md, e.g. U13) changes the verdict, the claim lists the rulings in
`rests_on` and carries the verdict under them in `with_rulings`, so a designer sees
both: "fails as written; holds only with ruling U13".

The JSON shape (one entry of report.json `claims`) is documented in docs/lab.md and
kept stable for `cardlab tune`, which reads it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

DESIGN, INVARIANT = "design", "invariant"
KINDS = (DESIGN, INVARIANT)

HOLDS, FAILS, UNTESTABLE, NEEDS_DATA = "holds", "fails", "untestable", "needs_data"
VERDICTS = (HOLDS, FAILS, NEEDS_DATA, UNTESTABLE)


@dataclass
class Verdict:
    """One judgement with its evidence.

    `with_rulings` is the same claim judged under our rulings when they change the
    verdict (set by the claim with `resting_on`); `note` is a plain sentence shown
    beside the verdict (e.g. why a claim is circular)."""

    verdict: str
    evidence: dict[str, Any] = field(default_factory=dict)
    rests_on: tuple[str, ...] = ()
    with_rulings: Verdict | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")

    def resting_on(self, rulings: Iterable[str], ruled: Verdict, note: str = "") -> Verdict:
        """This verdict (the rulebook as written) beside `ruled` (under `rulings`).

        When both agree the rulings change nothing and are not listed: `rests_on`
        names only rulings the verdict depends on."""
        ids = tuple(rulings)
        if ruled.verdict == self.verdict:
            self.evidence["under_rulings_too"] = {"rulings": list(ids), "verdict": ruled.verdict}
            return self
        self.rests_on = ids
        self.with_rulings = ruled
        self.note = note or (
            f"{self.verdict} as written; {ruled.verdict} only with ruling {', '.join(ids)}"
        )
        return self

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "evidence": self.evidence,
            "rests_on": list(self.rests_on),
            "with_rulings": None,
            "note": self.note,
        }
        if self.with_rulings is not None:
            out["with_rulings"] = {
                "rulings": list(self.rests_on),
                "verdict": self.with_rulings.verdict,
                "evidence": self.with_rulings.evidence,
            }
        return out


def verdict(ok: bool, **evidence: Any) -> Verdict:
    """`holds` when `ok` (a computed condition), else `fails`, with evidence."""
    return Verdict(HOLDS if ok else FAILS, evidence)


def judged(ok: bool | None, **evidence: Any) -> Verdict:
    """Three-way: True holds, False fails, None needs more data."""
    if ok is None:
        return Verdict(NEEDS_DATA, evidence)
    return verdict(ok, **evidence)


def untestable(reason: str, **evidence: Any) -> Verdict:
    return Verdict(UNTESTABLE, {"reason": reason, **evidence})


def needs_data(reason: str, **evidence: Any) -> Verdict:
    return Verdict(NEEDS_DATA, {"reason": reason, **evidence})


def counts(claims: Iterable[dict[str, Any]], kind: str = DESIGN) -> dict[str, int]:
    """Verdict counts over report.json claims of one kind (design by default):
    the gate's score, as `cardlab tune` reads it."""
    out = dict.fromkeys(VERDICTS, 0)
    for c in claims:
        if c.get("kind", DESIGN) == kind:
            out[c["verdict"]] += 1
    return out


# --- the one rule for a measured figure against its target ---

INSIDE, OUTSIDE, STRADDLES = "inside", "outside", "straddles"


def place(interval: tuple[float, float], target: tuple[float | None, float | None]) -> str:
    """Where an interval lies against a target range (None: no bound on that side):
    wholly `inside`, wholly `outside`, or `straddles` an edge."""
    lo, hi = interval
    t_lo = -math.inf if target[0] is None else target[0]
    t_hi = math.inf if target[1] is None else target[1]
    if t_lo > t_hi:
        raise ValueError(f"target {target}: its low end is above its high end")
    if t_lo <= lo and hi <= t_hi:
        return INSIDE
    if hi < t_lo or lo > t_hi:
        return OUTSIDE
    return STRADDLES


def games_to_decide(
    games: int,
    estimate: float,
    interval: tuple[float, float],
    target: tuple[float | None, float | None],
) -> int | None:
    """Games (in all, counted as `games` is) at which the interval would no longer straddle
    the target's nearest edge, if the estimate stays where it is: an interval's width
    scales with 1/sqrt(games), so the games scale with 1/width^2. 0 when it is decided
    already; None when the estimate sits on an edge (no number of games decides it
    unless the estimate moves)."""
    if place(interval, target) != STRADDLES:
        return 0
    edges = [e for e in target if e is not None]
    gap = min(abs(estimate - e) for e in edges)
    half = (interval[1] - interval[0]) / 2
    if gap <= 0 or games <= 0:
        return None
    return max(games + 1, math.ceil(round(games * (half / gap) ** 2, 6)))


def part(
    estimate: float,
    interval: Sequence[float],
    target: tuple[float | None, float | None],
    games: int,
) -> dict[str, Any]:
    """One figure judged by the rule: its estimate, interval, target, where the interval
    lies, and the games (in all) that would decide it."""
    lo, hi = interval
    where = place((lo, hi), target)
    need = games_to_decide(games, estimate, (lo, hi), target)
    return {
        "estimate": round(estimate, 4),
        "interval": [round(lo, 4), round(hi, 4)],
        "target": list(target),
        "games": games,
        "reading": where,
        "games_to_decide": need,
        "more_games_to_decide": None if need is None else max(0, need - games),
    }


def by_interval(parts: dict[str, dict[str, Any]], **evidence: Any) -> Verdict:
    """The one rule for a design claim measured by intervals (`part` each): it holds only
    when every interval lies inside its target, fails when one lies wholly outside, and
    otherwise needs data, saying how many more games would decide it (the largest any
    straddling part needs, from its interval's width: games scale with 1/width^2)."""
    if not parts:
        raise ValueError("by_interval needs at least one judged part")
    readings = [p["reading"] for p in parts.values()]
    more: int | None
    if OUTSIDE in readings:
        result, more = FAILS, 0
    elif all(r == INSIDE for r in readings):
        result, more = HOLDS, 0
    else:
        result = NEEDS_DATA
        needs = [p["more_games_to_decide"] for p in parts.values() if p["reading"] == STRADDLES]
        more = None if None in needs else max(int(n) for n in needs)
    decides = (
        "decided: every interval lies inside its target"
        if result == HOLDS
        else "decided: an interval lies wholly outside its target"
        if result == FAILS
        else "an estimate sits on its target's edge: more games decide it only if it moves"
        if more is None
        else f"about {more:,} more games (if the estimates hold still)"
    )
    return Verdict(
        result,
        {
            **evidence,
            "judged": parts,
            "more_games_to_decide": more,
            "decides_it": decides,
            "verdict_rule": "holds only when every interval lies inside its target, fails only "
            "when one lies wholly outside, else needs data; more games from the interval "
            "widths (games scale with 1/width^2)",
        },
    )
