"""What a trial is scored on: how far it misses the rulebook's promises, and
how big a change it is (a designer wants the smallest change that works).

The targets are the gate's design claims that a rules change can move, as
numbers: games end by the rules (not a stall ruling or a cap), points decide
the winner (not the tie-break), the first seat has no real edge, and the game
fits the box's playing time. Each target's `miss` is 0 when it holds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STALL_MAX = 0.05
TIEBREAK_MAX = 0.20
FIRST_SEAT_EDGE_MAX = 0.05


@dataclass(frozen=True)
class Target:
    id: str
    text: str
    threshold: str

    def miss(self, m: dict[str, Any]) -> float:
        if self.id == "always_ends":
            return max(0.0, m["stall_share"] - STALL_MAX)
        if self.id == "points_decide":
            return max(0.0, m["tiebreak_share"] - TIEBREAK_MAX)
        if self.id == "seat_balance":
            # an edge inside the sampling noise of this many games is no finding
            allowed = max(FIRST_SEAT_EDGE_MAX, m.get("first_seat_edge_ci95", 0.0))
            return max(0.0, abs(m["first_seat_edge"]) - allowed)
        if self.id == "box_time":
            return float(m["box_miss"])
        raise KeyError(self.id)


TARGETS = (
    Target(
        "always_ends",
        "games end by the rules, not by a stall ruling or a cap",
        f"<= {STALL_MAX:.0%} stalled",
    ),
    Target(
        "points_decide",
        "points decide the winner; the tie-break is rare",
        f"<= {TIEBREAK_MAX:.0%} by tie-break",
    ),
    Target(
        "seat_balance",
        "the first seat has no real edge",
        f"|first-seat win share - 1/N| <= {FIRST_SEAT_EDGE_MAX:.0%} (or within the 95% noise band)",
    ),
    Target(
        "box_time",
        "a game fits the playing time on the box",
        "estimated minutes overlap the box range",
    ),
)


def interval_verdict(target_id: str, m: dict[str, Any]) -> tuple[str, list[float] | None]:
    """A shared rate target judged with its 95% Wilson interval: `holds` when the whole
    interval meets the threshold, `fails` when none of it does, else `needs_data` (the
    games cannot tell). Box time has no interval here: its point verdict stands."""
    from cardlab.lab.stats import wilson

    n = int(m["games"])
    if target_id == "always_ends":
        lo, hi = wilson(m["stall_share"] * n, n)
        ok, bad = hi <= STALL_MAX, lo > STALL_MAX
    elif target_id == "points_decide":
        lo, hi = wilson(m["tiebreak_share"] * n, n)
        ok, bad = hi <= TIEBREAK_MAX, lo > TIEBREAK_MAX
    elif target_id == "seat_balance":
        lo, hi = wilson(m["first_seat_win_share"] * n, n)
        fair = m["first_seat_win_share"] - m["first_seat_edge"]
        ok = fair - FIRST_SEAT_EDGE_MAX <= lo and hi <= fair + FIRST_SEAT_EDGE_MAX
        bad = hi < fair - FIRST_SEAT_EDGE_MAX or lo > fair + FIRST_SEAT_EDGE_MAX
    else:
        return ("", None)
    verdict = "holds" if ok else "fails" if bad else "needs_data"
    return (verdict, [round(lo, 4), round(hi, 4)])


def verdicts(m: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target as a design claim with its verdict (`untestable` when no game ran),
    then the game's own targets (`evaluate.game_targets`). A rate target's verdict is
    judged on its 95% interval (`interval`, `interval_verdict`); `miss` stays the point
    figure the search minimises."""
    out: list[dict[str, Any]] = []
    for t in TARGETS:
        if not m.get("games"):
            out.append(
                {
                    "id": t.id,
                    "kind": "design",
                    "text": t.text,
                    "threshold": t.threshold,
                    "verdict": "untestable",
                    "miss": None,
                }
            )
            continue
        miss = t.miss(m)
        judged, ci = interval_verdict(t.id, m)
        entry = {
            "id": t.id,
            "kind": "design",
            "text": t.text,
            "threshold": t.threshold,
            "verdict": judged or ("holds" if miss == 0 else "fails"),
            "miss": round(miss, 4),
        }
        if ci is not None:
            entry["interval"] = ci
        out.append(entry)
    for g in m.get("game_targets", []):
        out.append(
            {
                "id": g["id"],
                "kind": "design",
                "text": g["text"],
                "threshold": g["threshold"],
                "value": g.get("value"),
                "verdict": "holds" if g["miss"] == 0 else "fails",
                "miss": round(float(g["miss"]), 4),
            }
        )
    return out


def misses(m: dict[str, Any]) -> float:
    """The first objective: the sum of the targets' misses (each 0..~1); a trial
    whose games crashed scores worst."""
    if not m.get("games") or m.get("errors"):
        return 10.0
    own = sum(float(g["miss"]) for g in m.get("game_targets", []))
    return round(sum(t.miss(m) for t in TARGETS) + own, 6)


def clears(m: dict[str, Any]) -> bool:
    return misses(m) == 0.0
