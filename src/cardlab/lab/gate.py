"""`cardlab gate all`: every game's report, then one screen of verdicts.

Exit status 1 when any claim fails, so the gate can guard a rules change in CI;
a game whose engine is not ready is listed as such (its claims untestable)."""

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
                {"game": game, "id": c.id, "verdict": "untestable", "why": "engine not ready"}
                for c in claims_for(game)
            ]
            continue
        report = write_report(game, out / game, **report_args)
        for c in report["claims"]:
            ev = c["evidence"]
            why = ev.get("reason") or ev.get("rule") or ev.get("question") or ""
            rows.append(
                {
                    "game": game,
                    "id": c["id"],
                    "verdict": c["verdict"],
                    "why": why,
                    "report_s": round(time.perf_counter() - start, 1),
                }
            )
    return rows


def table(rows: list[dict[str, Any]], elapsed: float) -> str:
    marks = {"holds": "HOLDS", "fails": "FAILS", "untestable": "untestable"}
    lines = [f"{'claim':<40} {'verdict':<11} note"]
    for r in rows:
        note = str(r["why"])[:60]
        lines.append(f"{r['id']:<40} {marks[r['verdict']]:<11} {note}")
    counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in marks}
    lines.append(
        f"{counts['holds']} hold, {counts['fails']} fail, {counts['untestable']} untestable "
        f"in {elapsed:.0f} s"
    )
    return "\n".join(lines)


def all_games() -> list[str]:
    return games_with_claims()
