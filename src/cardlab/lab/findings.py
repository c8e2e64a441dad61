"""The report's headline: the most important findings in plain words, ranked.

Each finding is computed from report.json alone (so the HTML, the summary and any
reader agree), says what was measured in a sentence a designer can act on, links to
the section with the evidence (`anchor`) and, where one exists, names a game seed
that replays it. Severity orders them: a broken invariant, then failing design
claims (with what our rulings change), stalls, seat advantage, tie-breaks, turns that
do nothing, card effects, length and skill. Nothing here decides a verdict: it only
reads the verdicts and figures the report measured.
"""

from __future__ import annotations

from typing import Any

from cardlab.lab.replay import command

MAX_FINDINGS = 8


def _pct(x: float) -> str:
    return f"{x:.0%}" if abs(x) >= 0.1 else f"{x:.1%}"


def first_seed(evidence: Any) -> int | None:
    """The first replayable game seed named anywhere in a claim's evidence."""
    if isinstance(evidence, dict):
        for key, value in evidence.items():
            key = str(key)
            if "seed" in key and isinstance(value, list) and value and isinstance(value[0], int):
                return int(value[0])
            if "seed" in key and isinstance(value, int) and not isinstance(value, bool):
                return int(value)
        for value in evidence.values():
            found = first_seed(value)
            if found is not None:
                return found
    if isinstance(evidence, list):
        for value in evidence:
            found = first_seed(value)
            if found is not None:
                return found
    return None


def _finding(
    severity: int,
    title: str,
    text: str,
    anchor: str,
    seed: int | None = None,
    main_run: bool = True,
    replay: str | None = None,
) -> dict[str, Any]:
    """`main_run`: the seed replays with the report's own settings; otherwise it comes
    from a claim's probe, and `replay` is the claim's own `cardlab replay` command for it
    (by the probe's settings; None when no run of the report played that seed)."""
    return {
        "severity": severity,
        "title": title,
        "text": text,
        "anchor": anchor,
        "seed": seed,
        "main_run": main_run,
        "probe_replay": replay,
    }


def _claim_replay(c: dict[str, Any], seed: int | None) -> str | None:
    """The claim's replay command(s) for `seed` (claims.replay_of_cited_seed), joined
    with ` ; ` when the seed names a game in several arms of a paired probe."""
    cited = c.get("replay") or {}
    if seed is None or cited.get("seed") != seed or not cited.get("commands"):
        return None
    return " ; ".join(cited["commands"])


def claim_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for c in report.get("claims", []):
        anchor = f"claim-{c['id']}"
        ev = c.get("evidence", {})
        headline = ev.get("headline")
        seed = first_seed(ev)
        if c.get("kind") == "invariant":
            if c["verdict"] == "fails":
                out.append(
                    _finding(
                        110,
                        f"Engine check broken: {c['id']}",
                        headline or f"an invariant the engine should guarantee failed: {c['text']}",
                        anchor,
                        seed,
                        False,
                        _claim_replay(c, seed),
                    )
                )
            continue
        ruled = c.get("with_rulings")
        if c["verdict"] == "fails":
            text = headline or c.get("note") or ev.get("rule") or c["text"]
            out.append(
                _finding(
                    100, f"Fails: {c['id']}", text, anchor, seed, False, _claim_replay(c, seed)
                )
            )
        elif c["verdict"] == "needs_data":
            out.append(
                _finding(
                    35,
                    f"Cannot decide yet: {c['id']}",
                    headline
                    or ev.get("reason")
                    or "the evidence straddles the claim's threshold; "
                    + str(ev.get("decides_it", "more data decides it")),
                    anchor,
                    seed,
                    False,
                    _claim_replay(c, seed),
                )
            )
        elif c["verdict"] == "holds" and ruled:
            out.append(
                _finding(
                    60,
                    f"Holds only through our rulings: {c['id']}",
                    c.get("note", ""),
                    anchor,
                    seed,
                    False,
                    _claim_replay(c, seed),
                )
            )
    return out


def play_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    title = report.get("title", report.get("game", "the game"))
    players = report["settings"]["players"]
    m = report["main"]
    out = []
    ends = m["ends"]
    games = ends.get("games") or max(1, sum(ends["reasons"].values()))
    rounds = m["length"]["rounds"].get("median", 0)
    for reason, n in ends["reasons"].items():
        # the share as metrics.ends computed it (the one number a claim citing the
        # report's runs gives too); older reports without it: the same division
        share = ends.get("shares", {}).get(reason, round(n / games, 4))
        if "stall" in reason.lower() and share >= 0.10:
            seeds = ends["seeds"].get(reason, [])
            found = _finding(
                95,
                f"{title} stalls",
                f"{_pct(share)} of {games} {players}-player games (the main run) end "
                f"by '{reason}' after about "
                f"{rounds:g} rounds (median).",
                "ends",
                seeds[0] if seeds else None,
            )
            found["figure"] = _figure(f"end_share:{reason}", share, players, games)
            out.append(found)
    o = m["outcome"]
    simultaneous = is_simultaneous(report)
    if o.get("games"):
        lo, hi = o["first_seat_advantage_ci95"]
        if lo > 0.03 or hi < -0.03:
            rate = o["win_rate_by_position"][0]
            if simultaneous:  # nobody moves first: say what position 1 is
                found = _finding(
                    75,
                    "The first-resolved seat is favoured",
                    f"Decisions are simultaneous, yet the seat the engine resolves first wins "
                    f"{_pct(rate)} of {o['games']} {players}-player games (the main run) against "
                    f"a fair {_pct(o['fair_share'])} (95% interval of the edge {lo:+.0%} to "
                    f"{hi:+.0%}): no player moves first at the table, so look for what the "
                    "resolution order decides (a tie, a shared pick).",
                    "outcome",
                )
            else:
                found = _finding(
                    80,
                    "Turn order decides",
                    f"The first player wins {_pct(rate)} of {o['games']} {players}-player games "
                    f"(the main run) against a fair {_pct(o['fair_share'])} (95% interval of the "
                    f"advantage {lo:+.0%} to {hi:+.0%}).",
                    "outcome",
                )
            found["figure"] = _figure("first_seat_win_rate", rate, players, o["games"])
            out.append(found)
        elif o.get("balance_reading") == "less even than a fair game":
            out.append(
                _finding(
                    70,
                    "Seats are uneven",
                    f"Balance {o['balance']:.3f} is below what a fair game reads at "
                    f"{o['games']} games (at least {o['fair_balance']['low']:.3f}).",
                    "outcome",
                )
            )
        tb = o.get("tiebreak_share", 0.0)
        if tb >= 0.25:
            levels = {k: v for k, v in o["tiebreak_levels"].items() if k != "not needed"}
            top = max(levels, key=lambda k: levels[k]) if levels else "?"
            seeds = o.get("tiebreak_seeds", {}).get(top, [])
            found = _finding(
                72,
                "Tie-breaks decide many games",
                f"{_pct(tb)} of {o['games']} {players}-player games (the main run) are "
                f"decided by a tie-break (most often '{top}'), not by points.",
                "outcome",
                seeds[0] if seeds else None,
            )
            found["figure"] = _figure("tiebreak_share", tb, players, o["games"])
            out.append(found)
    d = m["decisions"]
    noop = d.get("noop_turn_share", 0.0)
    if noop >= 0.20:
        kinds = d["by_kind"]
        worst = max(kinds, key=lambda k: kinds[k]["turns_begun"] * kinds[k].get("noop_share", 0))
        out.append(
            _finding(
                65,
                "Many turns do nothing",
                f"{_pct(noop)} of turns move no card and change no score or public count "
                f"(mostly turns that begin with a {worst.replace('_', ' ')} decision, "
                f"{_pct(kinds[worst]['noop_share'])} of which do nothing).",
                "turns",
                (d.get("noop_seeds") or [None])[0],
            )
        )
    personas = report.get("strategy", {}).get("personas", {})
    if personas.get("dominant"):
        out.append(_finding(68, "A dominant strategy", personas["sentence"] + ".", "strategy"))
    elif (personas.get("skill_gap") or {}).get("sentence"):
        # a stronger bot beating a weaker one says how much skill pays, not which
        # strategy the rules reward: reported as the gap, below the rules' findings
        gap = personas["skill_gap"]
        found = _finding(38, "Skill gap", gap["sentence"] + ".", "strategy")
        found["figure"] = _figure(
            "skill_gap", gap["gap"], players, report["strategy"].get("games", 0)
        )
        out.append(found)
    for a in report.get("card_impact", {}).get("ablations", []):
        if a.get("reading") == "clear effect":
            out.append(
                _finding(
                    50,
                    f"Card effect: {a['label']}",
                    a["sentence"],
                    "impact",
                )
            )
    out += skill_findings(report.get("skill", {}))
    return out


def _cell_numbers(cell: dict[str, Any]) -> str:
    rows = " vs ".join(
        f"{r['agent']} {_pct(r['win_rate'])} ({_pct(r['wilson95'][0])}-{_pct(r['wilson95'][1])})"
        for r in reversed(cell["rows"])
    )
    return f"{rows}"


def skill_findings(section: dict[str, Any]) -> list[dict[str, Any]]:
    """What the skill section concluded, or plainly that it did not, with the numbers so
    far and the cost of a verdict. Always one finding at least when the section was
    meant to play (it is kept among the headline findings: see `headline_findings`)."""
    if "cells" not in section:
        if "why_not" in section:  # the budget was gone before it began
            text = f"Cannot conclude whether skill beats luck: {section['why_not']}."
            if section.get("verdict_command"):
                text += f" A verdict: {section['verdict_command']}."
            return [_finding(40, "Skill vs luck: no verdict", text, "skill")]
        return []
    if not section.get("concludes"):
        n = section["games_per_cell"]
        text = (
            f"Cannot conclude whether skill beats luck: {section['why_not']}. So far ({n} games "
            "per cell, win rates with 95% intervals): "
            + "; ".join(_cell_numbers(c) for c in section["cells"])
            + "."
        )
        low_high = section.get("verdict_command_s")
        if low_high:
            text += (
                f" A verdict takes about {_minutes(low_high[0])}-{_minutes(low_high[1])} "
                f"minutes on this machine: {section['verdict_command']}."
            )
        return [_finding(40, "Skill vs luck: no verdict", text, "skill")]
    sev = {"weaker_clearly_ahead": 55, "cannot_tell_apart": 45, "stronger_clearly_ahead": 30}
    return [
        _finding(
            sev[cell["reading"]],
            "Skill vs luck",
            f"{cell['sentence']}: {_cell_numbers(cell)} over {cell['games']} games.",
            "skill",
        )
        for cell in section["cells"]
        if cell["reading"] in sev
    ]


def _figure(fact: str, value: float, players: int, games: int) -> dict[str, Any]:
    """The number a finding states, with what it was measured on (one fact, one number:
    a test holds it equal to the same fact in a claim's evidence)."""
    return {"fact": fact, "value": value, "players": players, "games": games}


def is_simultaneous(report: dict[str, Any]) -> bool:
    """Whether the report's game decides simultaneously (then "turn position" is the
    engine's resolution order, not an order players feel at the table)."""
    s = report.get("settings", {})
    if "simultaneous" in s:
        return bool(s["simultaneous"])
    return bool(report.get("strategy", {}).get("seat_note"))


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f}" if seconds >= 600 else f"{seconds / 60:.1f}"


def headline_findings(report: dict[str, Any], limit: int = MAX_FINDINGS) -> list[dict[str, Any]]:
    found = claim_findings(report) + play_findings(report)
    found.sort(key=lambda f: -f["severity"])
    top = found[:limit]
    skill = [f for f in found if f["anchor"] == "skill"]
    if skill and not any(f["anchor"] == "skill" for f in top):
        top[-1] = skill[0]  # the page always says what the skill section concluded, or not

    where = report.get("settings", {}).get("report_dir") or "lab-report"
    return [
        {
            "rank": i + 1,
            **f,
            # the one replay command: the same bots, seats, options, variant and cards
            "replay": command(where, f["seed"])
            if f["seed"] is not None and f["main_run"]
            else f["probe_replay"],
        }
        for i, f in enumerate(top)
    ]
