"""What a trial is scored on: how far it misses the rulebook's promises, and
how big a change it is (a designer wants the smallest change that works).

The targets are the gate's design claims that a rules change can move, as
numbers: games end by the rules (not a stall ruling or a cap), points decide
the winner (not the tie-break), the first seat has no real edge, and the game
fits the box's playing time. They are declared in files a designer edits, not
here: `targets.toml` beside this module (every game) and a game package's own
`targets.toml` (e.g. UPTIME's share of seats ending at 0 points). Each target's
`miss` is 0 when it holds. A figure a game's trial gives no data for (a Draw counter in
a game without one) is `untestable` there: never a target that holds."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.core import CardlabError
from cardlab.lab.stats import wilson

RATE_FIGURES = (
    "stall_share",
    "tiebreak_share",
    "first_seat_edge",
    "zero_seat_share",
    "no_lead_change_share",
    "dead_draw_share",
)
"""Figures measured as rates (judged on a 95% Wilson interval)."""
DENOMINATORS = {"zero_seat_share": "seats", "dead_draw_share": "draw_games"}
"""What a rate counts over when not games: seats, or the games with a Draw counter."""
NO_DATA = {
    "dead_draw_share": "no game offered a Draw that says whether it takes anything "
    "(a move of kind draw with extra supply_empty)",
}
"""Why a figure absent from a trial's figures has no data (shown with `untestable`)."""
FIGURES = (*RATE_FIGURES, "box_minutes")
SHARED_FILE = Path(__file__).with_name("targets.toml")
"""The shared targets every game is tuned toward: a file the designer edits."""
GAME_FILE = "targets.toml"
"""A game's own targets: this file in its package, when there is one."""


@dataclass(frozen=True)
class Target:
    """One target from a targets file: a figure and its bound (`max`, `min`, or for
    the first seat's edge `within`; none for box time)."""

    id: str
    text: str
    figure: str
    max: float | None = None
    min: float | None = None
    within: float | None = None

    @property
    def threshold(self) -> str:
        if self.figure == "box_minutes":
            return "estimated minutes overlap the box range"
        if self.figure == "first_seat_edge":
            bound = 0.0 if self.within is None else self.within
            return f"|first-seat win share - 1/N| <= {bound:.0%} (or within the 95% noise band)"
        unit = {
            "stall_share": "stalled",
            "tiebreak_share": "by tie-break",
            "zero_seat_share": "of seats at 0 points",
            "no_lead_change_share": "of games without a lead change",
            "dead_draw_share": "of games with Draw taking nothing for a third of the game or more",
        }.get(self.figure, "")
        parts = []
        if self.max is not None:
            parts.append(f"<= {self.max:.0%}")
        if self.min is not None:
            parts.append(f">= {self.min:.0%}")
        return " and ".join(parts) + (f" {unit}" if unit else "")

    def miss(self, m: dict[str, Any]) -> float:
        """0 when the point figure meets the bound; else how far off (about 1: far)."""
        if self.figure == "box_minutes":
            return float(m["box_miss"])
        if self.figure == "first_seat_edge":
            # an edge inside the sampling noise of this many games is no finding
            allowed = float(max(self.within or 0.0, m.get("first_seat_edge_ci95", 0.0)))
            return max(0.0, abs(float(m["first_seat_edge"])) - allowed)
        if self.figure not in m:
            return 0.0  # no data: nothing for the search to lower (the verdict says untestable)
        value = float(m[self.figure])
        out = 0.0
        if self.max is not None:
            out += max(0.0, value - self.max)
        if self.min is not None:
            out += max(0.0, self.min - value)
        return out


def load_targets(path: Path) -> tuple[Target, ...]:
    """The `[[target]]` entries of a targets file, checked: a bad file names the file,
    the target and what is wrong."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CardlabError(f"{path}: not a readable targets file: {exc}") from None
    out = []
    for i, row in enumerate(data.get("target", [])):
        where = f"{path}: target[{i}] {row.get('id', '')!r}"
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise CardlabError(f"{where}: needs an id")
        if row.get("figure") not in FIGURES:
            raise CardlabError(f"{where}: figure must be one of {', '.join(FIGURES)}")
        bounds = {k: row[k] for k in ("max", "min", "within") if k in row}
        for k, v in bounds.items():
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
                raise CardlabError(f"{where}: {k} must be a share from 0 to 1, got {v!r}")
        if row["figure"] not in ("box_minutes",) and not bounds:
            raise CardlabError(f"{where}: give a bound (max, min or within)")
        out.append(Target(row["id"], str(row.get("text", row["id"])), row["figure"], **bounds))
    return tuple(out)


TARGETS = load_targets(SHARED_FILE)
"""The shared targets (`targets.toml` beside this module)."""
STALL_MAX = next(t.max for t in TARGETS if t.id == "always_ends") or 0.05
TIEBREAK_MAX = next(t.max for t in TARGETS if t.id == "points_decide") or 0.20
FIRST_SEAT_EDGE_MAX = next(t.within for t in TARGETS if t.id == "seat_balance") or 0.05


def game_file_targets(info: Any) -> tuple[Target, ...]:
    """A game's own targets from `targets.toml` in its package (none without one)."""
    try:
        path = Path(info.package_dir()) / GAME_FILE
    except Exception:
        return ()
    return load_targets(path) if path.is_file() else ()


def file_target_rows(targets: tuple[Target, ...], m: dict[str, Any]) -> list[dict[str, Any]]:
    """A game file's targets measured on one trial's figures: each with its value, miss
    and interval verdict, in the form `verdicts` reports."""
    out = []
    for t in targets:
        verdict, ci = _judge(t, m)
        row: dict[str, Any] = {
            "id": t.id,
            "text": t.text,
            "threshold": t.threshold,
            "value": round(float(m[t.figure]), 4) if t.figure in m else None,
            "miss": round(t.miss(m), 4),
            "verdict": verdict or ("holds" if t.miss(m) == 0 else "fails"),
        }
        if ci is not None:
            row["interval"] = ci
        if verdict == "untestable":
            row["why"] = no_data_why(t.figure)
        out.append(row)
    return out


def no_data_why(figure: str) -> str:
    return NO_DATA.get(figure, f"the trial's games give no {figure}")


def interval_verdict(target_id: str, m: dict[str, Any]) -> tuple[str, list[float] | None]:
    """A shared rate target judged with its 95% Wilson interval: `holds` when the whole
    interval meets the threshold, `fails` when none of it does, else `needs_data` (the
    games cannot tell), and `untestable` when the games give no data for its figure
    (more games would not tell). Box time has no interval here: its point verdict stands."""
    t = next((t for t in TARGETS if t.id == target_id), None)
    return ("", None) if t is None else _judge(t, m)


def _judge(t: Target, m: dict[str, Any]) -> tuple[str, list[float] | None]:

    if t.figure not in RATE_FIGURES:
        return ("", None)
    if t.figure == "first_seat_edge":
        n = int(m["games"])
        lo, hi = wilson(m["first_seat_win_share"] * n, n)
        fair = m["first_seat_win_share"] - m["first_seat_edge"]
        band = t.within or 0.0
        ok = fair - band <= lo and hi <= fair + band
        bad = hi < fair - band or lo > fair + band
    else:
        n = int(m.get(DENOMINATORS.get(t.figure, "games"), 0))
        if n <= 0 or t.figure not in m:
            return ("untestable", None)
        lo, hi = wilson(m[t.figure] * n, n)
        top = 1.0 if t.max is None else t.max
        bottom = 0.0 if t.min is None else t.min
        ok = bottom <= lo and hi <= top
        bad = hi < bottom or lo > top
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
        if judged == "untestable":
            entry["why"] = no_data_why(t.figure)
        out.append(entry)
    out += [{"kind": "design", **row} for row in m.get("file_targets", [])]
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
    own += sum(float(g["miss"]) for g in m.get("file_targets", []))
    return round(sum(t.miss(m) for t in TARGETS) + own, 6)


def clears(m: dict[str, Any]) -> bool:
    """Every target has data and holds: no miss, and no verdict `needs_data` (an
    interval that reaches the threshold) or `untestable`. A point figure inside the
    target whose interval straddles it is no clearance."""
    return misses(m) == 0.0 and all(c["verdict"] == "holds" for c in verdicts(m))


def unmet(m: dict[str, Any]) -> list[str]:
    """The targets that do not hold, each as `id (verdict)`: what stops `clears`."""
    return [f"{c['id']} ({c['verdict']})" for c in verdicts(m) if c["verdict"] != "holds"]
