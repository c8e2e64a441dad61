"""`cardlab gate all`: every game's report, then one screen of verdicts.

Design claims come first and are the gate's score; invariants (guaranteed by the
engine) are listed apart as a regression check. A claim whose verdict rests on one
of our rulings shows both ("FAILS as written, holds with U13"). Exit status 1 when
a design claim fails or an invariant breaks, so the gate can guard a rules change
in CI; a game whose engine is not ready is listed as such (its claims untestable)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cardlab.lab.claims import claims_for, games_with_claims
from cardlab.lab.simulate import engine_ready


def run_gate(names: list[str], out: Path, **report_args: Any) -> list[dict[str, Any]]:
    from cardlab.lab.report_commands import write_report

    rows = []
    for game in names:
        start = time.perf_counter()
        if not engine_ready(game):
            rows += [
                {
                    "game": game,
                    "id": c.id,
                    "kind": c.kind,
                    "verdict": "untestable",
                    "why": "engine not ready",
                }
                for c in claims_for(game)
            ]
            continue
        report = write_report(game, out / game, **report_args)
        for c in report["claims"]:
            ev = c["evidence"]
            why = ev.get("headline") or c.get("note") or ev.get("reason") or ev.get("rule") or ""
            ruled = c.get("with_rulings")
            rows.append(
                {
                    "game": game,
                    "id": c["id"],
                    "kind": c.get("kind", "design"),
                    "verdict": c["verdict"],
                    "with_rulings": None
                    if ruled is None
                    else f"{ruled['verdict']} with {', '.join(ruled['rulings'])}",
                    "why": why,
                    "report_s": round(time.perf_counter() - start, 1),
                }
            )
    return rows


MARKS = {"holds": "HOLDS", "fails": "FAILS", "needs_data": "needs data", "untestable": "untestable"}


def table(rows: list[dict[str, Any]], elapsed: float) -> str:
    """Design claims (the score), then invariants (regression checks), one line each."""
    lines = []
    for kind, title in (("design", "design claims"), ("invariant", "invariants (not counted)")):
        group = [r for r in rows if r.get("kind", "design") == kind]
        if not group:
            continue
        lines.append(f"{title:<40} {'verdict':<11} note")
        for r in group:
            mark = MARKS[r["verdict"]]
            if r.get("with_rulings"):
                mark += " as written"
            note = (f"[{r['with_rulings']}] " if r.get("with_rulings") else "") + str(r["why"])
            lines.append(f"{r['id']:<40} {mark:<11} {note[:70]}")
    design = [r for r in rows if r.get("kind", "design") == "design"]
    counts = {v: sum(1 for r in design if r["verdict"] == v) for v in MARKS}
    broken = sum(1 for r in rows if r.get("kind") == "invariant" and r["verdict"] == "fails")
    lines.append(
        f"design claims: {counts['holds']} hold, {counts['fails']} fail, "
        f"{counts['needs_data']} need data, {counts['untestable']} untestable; "
        f"invariants broken: {broken}; {elapsed:.0f} s"
    )
    return "\n".join(lines)


def gate_fails(rows: list[dict[str, Any]]) -> bool:
    return any(r["verdict"] == "fails" for r in rows)


def all_games() -> list[str]:
    return games_with_claims()
