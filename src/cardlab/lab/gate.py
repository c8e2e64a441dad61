"""`cardlab gate all`: every game's report, then one screen of verdicts.

Design claims come first and are the gate's score; invariants (guaranteed by the
engine) are listed apart as a regression check. A claim whose verdict rests on one
of our rulings shows both ("FAILS as written, holds with U13"). Exit status 1 when
a design claim fails or an invariant breaks, so the gate can guard a rules change
in CI; a game whose engine is not ready is listed as such (its claims untestable)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardlab.lab.claims import claims_for, games_with_claims
from cardlab.lab.context import LabContext
from cardlab.lab.report import add_skill
from cardlab.lab.reporting import LADDER_GAMES, LADDER_ITERATIONS, save_report, start_report
from cardlab.lab.simulate import engine_ready
from cardlab.lab.skill import Played


def run_gate(
    names: list[str], out: Path, budget_s: float | None = None, **report_args: Any
) -> list[dict[str, Any]]:
    """Every game's report: first each game's cheaper sections, then the skill sections
    within what is left of `budget_s` (None: no limit; see `_skill_sections`). An
    explicit `ladder_games` is played exactly (no budget cut)."""
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
    budget = None if budget_s is None or ladder_games is not None else start + budget_s
    _skill_sections(started, games, iterations, budget, lambda g, r, o: save_report(out / g, r, o))
    for game, _, report, _ in started:
        rows += claim_rows(game, report)
        rows.append(experience_row(game, report))
        rows.append(
            {
                **skill_row(game, report["skill"]),
                "skill_s": report["skill"].get("wall_s", 0.0),
                "before_skill_s": round(before_skill, 1),
                # the budget as given, and whether it cut anything: an explicit
                # --ladder-games plays its games exactly, whatever the budget
                "budget_s": budget_s,
                "budget_used": budget_s is not None and ladder_games is None,
            }
        )
    return rows


PILOT = 0.2
"""The part of the skill sections' time their first rounds may take together: one
timed block of each cell at least, enough to price what each section still needs."""

Started = tuple[str, LabContext, dict[str, Any], Any]


def _skill_sections(
    started: list[Started],
    games: int,
    iterations: int,
    deadline: float | None,
    save: Callable[[str, dict[str, Any], Any], None],
) -> None:
    """Play the skill sections, by `deadline` (a `time.perf_counter` reading; None: in
    full). The budget buys as many verdicts as it can:

    1. every section plays a first round or more, timed (`PILOT` of the time, shared);
    2. then the sections still short, the cheapest to finish first (estimated from
       their timed games), each given what it needs when that fits in what is left,
       else an equal part of it: the costliest sections bear the cut;
    3. what is left after that goes back to any section still short.

    A section goes on from the games it played (`skill.Played`): no game is played
    twice, and a game never depends on when it was played, so the numbers are those of
    `--ladder-games N` with N the games per cell reached."""
    played = {game: Played() for game, *_ in started}

    def left() -> float:
        return (deadline or 0.0) - time.perf_counter()

    def play(queue: list[Started], share: Callable[[Started, int], float | None]) -> int:
        before = sum(len(r) for p in played.values() for r in p.seconds)
        for i, entry in enumerate(queue):
            game, ctx, report, old = entry
            add_skill(report, ctx, games, iterations, share(entry, len(queue) - i), played[game])
            save(game, report, old)
        return sum(len(r) for p in played.values() for r in p.seconds) - before

    def short() -> list[Started]:
        return [s for s in started if _stopped_short(s[2]["skill"])]

    if deadline is None:
        play(started, lambda entry, k: None)
        return
    pilot = left() * PILOT / max(1, len(started))
    play(started, lambda entry, k: pilot)
    queue = sorted(short(), key=lambda entry: _still_needs(entry[2]["skill"]))
    play(queue, lambda entry, k: _share(_still_needs(entry[2]["skill"]), left(), k))
    while short() and left() >= 1 and play(short(), lambda entry, k: left() / k):
        pass  # until every section concludes or not one more game fits


def _still_needs(section: dict[str, Any]) -> float:
    """The seconds a section still needs to reach the standard: the high end of its
    estimate from the games it timed, less the part already played (inf: no estimate)."""
    estimate = section.get("to_conclude")
    if not estimate:
        return math.inf
    if "left_wall_s" in estimate:  # the open cells' games still to play, at most
        return float(estimate["left_wall_s"][1])
    done = float(section.get("games_per_cell", 0)) / float(estimate["games_per_cell"])
    return float(estimate["wall_s"][1]) * max(0.0, 1.0 - done)


def _share(need: float, left: float, sections: int) -> float:
    """A section's share of what is left: what it needs (and a tenth more) when that fits,
    else an equal part among the `sections` still to play."""
    equal = left / sections
    return max(equal, min(left, need * 1.1)) if need <= left else equal


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


EXPERIENCE_MARKS = {"world_class": "WORLD-CLASS", "outside": "NOT world-class",
                    "needs_data": "no verdict"}  # fmt: skip


def experience_row(game: str, report: dict[str, Any]) -> dict[str, Any]:
    """The world-class verdict of a game's report: inside the reference band on every
    experience metric at every player count, or which metrics are outside, each with its
    evidence and a replayable game. A game without claims gets it too."""
    section = report.get("experience") or {}
    overall = section.get("overall") or {"verdict": "needs_data", "words": "not measured"}
    lines = []
    for judged in section.get("judged", []):
        for m in judged["metrics"]:
            if m["reading"] not in ("outside", "straddles", "not measured"):
                continue
            example = m.get("example") or {}
            replay = example.get("replay", "")
            lines.append(
                {
                    "players": judged["players"],
                    "metric": m["metric"],
                    "title": m["title"],
                    "reading": m["reading"],
                    "evidence": m["evidence"],
                    "example": example.get("why", ""),
                    "seed": example.get("seed"),
                    "replay": replay,
                }
            )
    why = overall["words"]
    if overall.get("fails_on"):
        why = f"fails on {', '.join(overall['fails_on'])}: {', '.join(overall['outside'])}"
    return {
        "game": game,
        "id": f"{game}.experience",
        "kind": "experience",
        "verdict": overall["verdict"],
        "why": why,
        "lines": lines,
        "bands": (section.get("bands") or {}).get("source", ""),
    }


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
    again = section.get("replay_command") or section["replay"]
    why = section["why_not"] + (f"; replay: {again}" if again else "")
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
    for r in (r for r in rows if r.get("kind") == "experience"):
        lines.append(f"{'world-class gate: ' + r['game']:<40} {EXPERIENCE_MARKS[r['verdict']]:<11} "
                     f"{r['why']}")  # fmt: skip
        for line in r["lines"]:
            if line["reading"] != "outside":
                continue
            lines.append(f"    {line['players']}p {line['title']}: {line['evidence']}")
            if line["replay"]:
                lines.append(f"        e.g. {line['example']}: {line['replay']}")
        unsettled = [
            f"{x['players']}p {x['title']}" for x in r["lines"] if x["reading"] != "outside"
        ]
        if unsettled:
            rest = f", and {len(unsettled) - 8} more" if len(unsettled) > 8 else ""
            lines.append(f"    not settled (straddles its band, or not measured): "
                         f"{', '.join(unsettled[:8])}{rest}")  # fmt: skip
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
        f"invariants broken: {broken}; {elapsed:.0f} s{_time_split(skills, elapsed)}"
    )
    return "\n".join(lines)


def gate_fails(rows: list[dict[str, Any]]) -> bool:
    return any(r["verdict"] == "fails" for r in rows)


def all_games() -> list[str]:
    return games_with_claims()


def _budget_words(budget: float | None, used: bool) -> str:
    """The budget the gate was given (`--budget`), and when an explicit
    `--ladder-games` made it moot, that it was not used."""
    if budget is None:
        return "; no budget (--budget none)"
    if not used:
        return f"; budget {budget:.0f} s given, not used: --ladder-games plays exactly"
    return f"; budget {budget:.0f} s"


def _time_split(skills: list[dict[str, Any]], elapsed: float | None = None) -> str:
    """Where the time went, every second of it: the other sections (all games), each skill
    section, and the rest (writing reports and pages between sections), the budget."""
    if not skills or "before_skill_s" not in skills[0]:
        return ""
    budget = skills[0].get("budget_s")
    before = float(skills[0]["before_skill_s"])
    skill_s = sum(float(r.get("skill_s", 0.0)) for r in skills)
    each = ", ".join(f"{r['game']} {float(r.get('skill_s', 0.0)):.0f} s" for r in skills)
    rest = (
        "" if elapsed is None else f", the rest (reports, pages) {elapsed - before - skill_s:.0f} s"
    )
    return (
        f" (other sections {before:.0f} s, skill sections {skill_s:.0f} s [{each}]{rest}"
        + _budget_words(budget, skills[0].get("budget_used", budget is not None))
        + ")"
    )
