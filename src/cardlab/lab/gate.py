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
from cardlab.lab.context import LabContext
from cardlab.lab.simulate import engine_ready


def run_gate(
    names: list[str], out: Path, budget_s: float | None = None, **report_args: Any
) -> list[dict[str, Any]]:
    """Every game's report: first each game's cheaper sections, then the skill sections,
    which share what is left of `budget_s` (None: no limit) in turn. A skill section's
    share is what is left divided by the games still to play, so time one leaves unused
    goes to the next; what is left after the last goes back to the sections the budget
    stopped short, which go on from the games they played (`skill.Played`). An
    explicit `ladder_games` is played exactly (no budget cut)."""
    from cardlab.lab.report import add_skill
    from cardlab.lab.report_commands import (
        LADDER_GAMES,
        LADDER_ITERATIONS,
        save_report,
        start_report,
    )
    from cardlab.lab.skill import Played

    start = time.perf_counter()
    ladder_games = report_args.pop("ladder_games", None)
    iterations = report_args.pop("ladder_iterations", None) or LADDER_ITERATIONS
    started = []
    rows: list[dict[str, Any]] = []
    for game in names:
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
        ctx, report, old = start_report(
            game,
            out / game,
            ladder_games=ladder_games,
            ladder_iterations=iterations,
            play_skill=False,
            **report_args,
        )
        save_report(out / game, report, old)  # readable while the skill sections play
        started.append((game, ctx, report, old))
    before_skill = time.perf_counter() - start
    games = LADDER_GAMES if ladder_games is None else ladder_games
    budget = budget_s if ladder_games is None else None
    played = {game: Played() for game, *_ in started}

    def left() -> float:
        return (budget or 0.0) - (time.perf_counter() - start)

    def play_skill(queue: list[tuple[str, LabContext, dict[str, Any], Any]]) -> None:
        for i, (game, ctx, report, old) in enumerate(queue):
            share = None if budget is None else left() / (len(queue) - i)
            add_skill(report, ctx, games, iterations, share, played[game])
            save_report(out / game, report, old)

    play_skill(started)
    while budget is not None:  # hand back what sections that finished early left unused
        short = [s for s in started if _stopped_short(s[2]["skill"])]
        if not short or left() < 1:
            break
        before = sum(len(r) for p in played.values() for r in p.seconds)
        play_skill(short)
        if sum(len(r) for p in played.values() for r in p.seconds) == before:
            break  # not one more game fits: the budget is spent
    for game, _, report, _ in started:
        rows += claim_rows(game, report)
        rows.append(
            {
                **skill_row(game, report["skill"]),
                "skill_s": report["skill"].get("wall_s", 0.0),
                "before_skill_s": round(before_skill, 1),
                "budget_s": budget_s if ladder_games is None else None,
            }
        )
    return rows


def _stopped_short(section: dict[str, Any]) -> bool:
    """A skill section that the budget stopped (or never let begin) below its games."""
    if section.get("concludes") or ("skipped" in section and "why_not" not in section):
        return False
    return bool(section.get("stopped_by_budget")) or "cells" not in section


def claim_rows(game: str, report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
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
                "report_s": report["elapsed_s"],
            }
        )
    return rows


def skill_row(game: str, section: dict[str, Any]) -> dict[str, Any]:
    """One gate line for a game's skill section: its verdict, or why there is none yet,
    how far it got (and how to replay exactly that) and what a verdict would cost."""
    row: dict[str, Any] = {"game": game, "id": f"{game}.skill", "kind": "skill"}
    if "cells" not in section:
        if "why_not" in section:  # the budget was gone before it began
            why = section["why_not"]
            if section.get("verdict_command"):
                why += f"; a verdict: `{section['verdict_command']}` (no game timed: no estimate)"
            return {**row, "verdict": "no_verdict", "why": why}
        return {**row, "verdict": "skipped", "why": section.get("skipped", "not played")}
    n = section["games_per_cell"]
    if section["concludes"]:
        why = "; ".join(c["sentence"] for c in section["cells"])
        return {**row, "verdict": "concludes", "why": f"{n} games/cell: {why}"}
    why = section["why_not"] + (f"; replay: {section['replay']}" if section["replay"] else "")
    estimate = section.get("verdict_command_s")
    if estimate:
        why += (
            f"; a verdict: `{section['verdict_command']}`, about "
            f"{_minutes(estimate[0])}-{_minutes(estimate[1])} min here"
        )
    return {**row, "verdict": "no_verdict", "why": why}


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f}" if seconds >= 600 else f"{seconds / 60:.1f}"


MARKS = {"holds": "HOLDS", "fails": "FAILS", "needs_data": "needs data", "untestable": "untestable"}
SKILL_MARKS = {"concludes": "concludes", "no_verdict": "no verdict", "skipped": "skipped"}


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
    skills = [r for r in rows if r.get("kind") == "skill"]
    if skills:
        lines.append(f"{'skill vs luck (not counted)':<40} {'verdict':<11} note")
        for r in skills:  # the reason first, then how to replay it and what a verdict costs
            first, *more = str(r["why"]).split("; ")
            lines.append(f"{r['id']:<40} {SKILL_MARKS[r['verdict']]:<11} {first}")
            lines += [f"{'':<4}{line}" for line in more]
    design = [r for r in rows if r.get("kind", "design") == "design"]
    counts = {v: sum(1 for r in design if r["verdict"] == v) for v in MARKS}
    broken = sum(1 for r in rows if r.get("kind") == "invariant" and r["verdict"] == "fails")
    lines.append(
        f"design claims: {counts['holds']} hold, {counts['fails']} fail, "
        f"{counts['needs_data']} need data, {counts['untestable']} untestable; "
        f"invariants broken: {broken}; {elapsed:.0f} s{_time_split(skills)}"
    )
    return "\n".join(lines)


def gate_fails(rows: list[dict[str, Any]]) -> bool:
    return any(r["verdict"] == "fails" for r in rows)


def all_games() -> list[str]:
    return games_with_claims()


def _time_split(skills: list[dict[str, Any]]) -> str:
    """Where the time went: the other sections (all games), the skill sections, the budget."""
    if not skills or "before_skill_s" not in skills[0]:
        return ""
    budget = skills[0].get("budget_s")
    return (
        f" (other sections {skills[0]['before_skill_s']:.0f} s, skill sections "
        f"{sum(r.get('skill_s', 0.0) for r in skills):.0f} s"
        + (f"; budget {budget:.0f} s" if budget is not None else "; no budget")
        + ")"
    )
