"""Build a game's report: play the configurations, compute metrics and claims.

`build_report` returns the JSON-ready dict written to report.json; the HTML
and the Markdown summary are rendered from that dict alone, so what a
designer reads is exactly what was measured."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from cardlab.lab import experience, metrics, strategy, world_class
from cardlab.lab.backends import RunResult
from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext
from cardlab.lab.impact import card_impact
from cardlab.lab.metrics import config_metrics, decides_simultaneously, side_metrics
from cardlab.lab.paired import compare_section
from cardlab.lab.simulate import lab_hooks
from cardlab.lab.skill import MIN_CELL_GAMES, MIN_ITERATIONS, skill
from cardlab.lab.stats import games_for_half_width
from cardlab.lab.timemodel import TimeModel, box_minutes
from cardlab.lab.verdicts import DESIGN, FAILS, HOLDS, INVARIANT, counts

if TYPE_CHECKING:
    from cardlab.lab.skill import Played

HALF_WIDTH = 0.03
"""Default games are enough for a +-3-point 95% interval on each seat's win rate."""


def default_games(players: int) -> int:
    """Games for +-3 points at a fair-share win rate (e.g. 801 at 4 players)."""
    return games_for_half_width(1 / players, HALF_WIDTH)


def default_agents(game: str) -> str:
    """The report's default seats: the game's personas (declared as `PERSONAS` in its
    claims module) mixed with greedy, so one bot's habit (greedy hoards in UPTIME)
    does not hide what the rules do; greedy and random for a game without personas."""
    personas = tuple(getattr(lab_hooks(game), "PERSONAS", ()) or ())
    return ",".join(dict.fromkeys((*personas, "greedy"))) if personas else "greedy,random"


def build_report(
    ctx: LabContext,
    compare: tuple[str, list[str]] | None = None,
    side_games: int = 200,
    ladder_games: int = 30,
    ladder_iterations: int = 200,
    claims_only: list[str] | None = None,
    skill_budget_s: float | None = None,
    play_skill: bool = True,
    kingmaking_games: int | None = None,
    experience_games: int | None = None,
) -> dict[str, Any]:
    """`experience_games`: games of each experience probe (choices, skill) at each player
    count (None: `experience.CHOICE_GAMES` and `SKILL_GAMES`, at most `--probe-games`;
    0 skips both); the skill probe's ISMCTS plays at most `ladder_iterations`.
    `kingmaking_games`: main-run games the strategy section replays for kingmaking
    (None: `strategy.KINGMAKING_GAMES`). `skill_budget_s`: seconds the whole report may take before the skill section stops
    (None: no limit). `play_skill=False` leaves the section for `add_skill` to play later,
    as the gate does once every game's cheaper sections are done."""
    start = time.perf_counter()
    cls = ctx.game_class
    model = ctx.time_model
    ctx.side_games = side_games  # a claim that cites the report's runs reads these
    main = ctx.run(label=f"{ctx.game} {ctx.players}p main")
    claims = evaluate(ctx, claims_only)
    sections = game_sections(ctx)
    counts = _player_count_runs(ctx, cls, side_games)
    # One set of histogram bins for every player count (the main run is one of them),
    # so the length histograms overlay, one series per count.
    edges = metrics.shared_edges([main.records, *(run.records for run in counts.values())], model)
    report: dict[str, Any] = {
        "game": ctx.game,
        "title": getattr(cls, "title", ctx.game),
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "settings": {
            "players": ctx.players,
            "games": ctx.games,
            "agents": list(ctx.agents),
            "options": main.spec.options_dict,
            "options_given": dict(ctx.options),
            "cards": main.spec.cards,
            "cards_sha256": main.spec.cards_sha256,
            "variant": main.spec.variant,
            "variant_sha256": main.spec.variant_sha256,
            "seed": ctx.seed,
            "report_dir": None if ctx.out_dir is None else str(ctx.out_dir),
            "workers": ctx.workers,
            "backend": ctx.backend,
            "side_games": side_games,
            "ladder_games": ladder_games,
            "ladder_iterations": ladder_iterations,
            # a game of simultaneous decisions: "turn position" is the resolution order
            "simultaneous": decides_simultaneously(ctx.info),
        },
        "claims": claims,
        "sections": sections,
        "box_minutes": box_minutes(ctx.info),
        "main": config_metrics(main.records, model, edges),
        "main_games_per_s": round(len(main.records) / main.elapsed_s, 2),
    }

    report["strategy"] = strategy.diagnostics(
        main.spec,
        main.records,
        simultaneous=report["settings"]["simultaneous"],
        kingmaking_games=strategy.KINGMAKING_GAMES
        if kingmaking_games is None
        else kingmaking_games,
    )
    report["player_counts"] = [
        {"players": n, **side_metrics(run.records, model, edges)} for n, run in counts.items()
    ]

    # what each seat lives through at every player count, against the reference bands
    report["experience"] = world_class.section(
        ctx,
        counts,
        min(experience.CHOICE_GAMES, ctx.probe_games)
        if experience_games is None
        else experience_games,
        # `--ladder-games 0` turns the skill section off: its probe too (not measured)
        0
        if ladder_games <= 0
        else min(experience.SKILL_GAMES, ctx.probe_games)
        if experience_games is None
        else experience_games,
        min(experience.SKILL_ITERATIONS, ladder_iterations),
    )
    if compare is not None:
        report["compare"] = _compare(ctx, compare, side_games, model)

    report["card_impact"] = card_impact(ctx, ctx.out_dir)
    report["skill"] = {"skipped": "not played yet"}
    report["games_played"] = ctx.games_played
    report["elapsed_s"] = round(time.perf_counter() - start, 2)
    if play_skill:
        budget = None if skill_budget_s is None else skill_budget_s - report["elapsed_s"]
        return add_skill(report, ctx, ladder_games, ladder_iterations, budget)
    report["headline"] = headline(report)
    return report


def game_sections(ctx: LabContext) -> list[dict[str, Any]]:
    """The game's own report sections: its claims module may declare
    `report_sections(ctx) -> list[dict]`, each `{id, title, what, tables: [{title,
    rows: [dict]}]}` (rows drawn as tables). A hook that raises gives a section that
    says so (never a missing report); each section records the seconds it took."""
    hook = getattr(lab_hooks(ctx.game), "report_sections", None)
    if hook is None:
        return []
    start = time.perf_counter()
    try:
        sections = [dict(s) for s in hook(ctx)]
    except Exception as exc:  # shown on the page, never hidden
        sections = [
            {
                "id": "game-section",
                "title": f"{ctx.game}'s own section",
                "what": f"not built: {type(exc).__name__}: {exc}",
                "tables": [],
            }
        ]
    for s in sections:
        s["elapsed_s"] = round(time.perf_counter() - start, 2)
    return sections


def _player_count_runs(ctx: LabContext, cls: Any, side_games: int) -> dict[int, RunResult]:
    out = {}
    for n in range(cls.min_players, cls.max_players + 1):
        ctx.side_games = side_games
        out[n] = ctx.run(label=f"{ctx.game} {n}p", players=n, games=ctx.report_games(n))
    return out


def _compare(
    ctx: LabContext, compare: tuple[str, list[str]], side_games: int, model: TimeModel
) -> dict[str, Any]:
    """Side by side on the same seeds: a rule option's values, or (`cards=A,B`) card
    files, read pair by pair with the changed thing's own effect as the primary test
    (`paired.compare_section`; sequential with `ctx.compare_budget`)."""
    return compare_section(ctx, compare, side_games, model)


def _skill(
    ctx: LabContext,
    games: int,
    iterations: int,
    budget_s: float | None = None,
    played: Played | None = None,
) -> dict[str, Any]:
    if games <= 0:
        return {"skipped": "ladder turned off (--ladder-games 0)"}
    if budget_s is not None and budget_s <= 0 and not (played and played.results):
        return {
            "skipped": "the time budget was spent before the skill section began",
            "concludes": False,
            "games_per_cell": 0,
            "why_not": "the time budget was spent before the skill section began",
        }

    # with games already played and no time left, the section is read from those games
    # (never a fresh skipped section that would throw them away)
    return skill(
        ctx,
        games,
        iterations,
        max(0.0, budget_s or 0.0) if budget_s is not None else None,
        played=played,
    )


def add_skill(
    report: dict[str, Any],
    ctx: LabContext,
    games: int,
    iterations: int,
    budget_s: float | None = None,
    played: Played | None = None,
) -> dict[str, Any]:
    """Play the skill section last (it is the costly one) and fold it into `report`.

    `budget_s`: seconds the section may spend (None: play all `games` per cell).
    `played`: the games an earlier call played for this report (`skill.Played`); the
    section goes on from them and replaces the earlier one, budgets and times added.
    Below the standard the section gets the command and the estimated time to reach a
    verdict (the report's other sections timed in this run, plus the skill estimate)."""
    start = time.perf_counter()
    earlier = report.get("skill") if played is not None and played.results else None
    section = _skill(ctx, games, iterations, budget_s, played)
    report["skill"] = section
    report["settings"]["ladder_games"] = section.get("games_per_cell", games)
    report["settings"]["ladder_iterations"] = iterations
    report["settings"]["skill_budget_s"] = (
        None if budget_s is None else section.get("budget_s", round(budget_s, 1))
    )
    counted = earlier.get("games_played", 0) if earlier else 0
    report["games_played"] = (
        report.get("games_played", 0) - counted + section.get("games_played", 0)
    )
    rest_s = report["elapsed_s"] - (earlier.get("wall_s", 0.0) if earlier else 0.0)
    report["elapsed_s"] = round(report["elapsed_s"] + time.perf_counter() - start, 2)
    if section.get("replay"):  # the flags that play exactly these games, as a command
        section["replay_command"] = report_command(ctx, report["settings"], section["replay"])
    if games > 0 and not section.get("concludes", True):
        section["verdict_command"] = verdict_command(ctx, report["settings"])
        estimate = section.get("to_conclude")
        if estimate:
            low, high = estimate["wall_s"]
            section["verdict_command_s"] = [round(rest_s + low), round(rest_s + high)]
    report["headline"] = headline(report)
    return report


def verdict_command(ctx: LabContext, settings: dict[str, Any]) -> str:
    """The command that plays this report with the skill section at the standard."""
    return report_command(
        ctx, settings, f"--ladder-games {MIN_CELL_GAMES} --ladder-iterations {MIN_ITERATIONS}"
    )


def report_command(ctx: LabContext, settings: dict[str, Any], skill_flags: str) -> str:
    """`cardlab report` with this report's settings (options, variant, cards, seed,
    seats, games) and the skill section's `skill_flags`: the whole command, so a skill
    section's "replay exactly these games" is a command, not a pair of flags."""
    parts = ["cardlab report", ctx.game, f"--players {ctx.players}"]
    parts += [
        f"-o {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in ctx.options.items()
    ]
    if settings.get("cards"):
        parts.append(f"--cards {settings['cards']}")
    if settings.get("variant"):
        parts.append(f"--variant {settings['variant']}")
    if ctx.seed:
        parts.append(f"--seed {ctx.seed}")
    usual = default_agents(ctx.game).split(",")
    if tuple(ctx.agents) != tuple(usual[i % len(usual)] for i in range(ctx.players)):
        parts.append(f"--agents {','.join(ctx.agents)}")
    if ctx.games != default_games(ctx.players):
        parts.append(f"--games {ctx.games}")
    if ctx.probe_games != 200:
        parts.append(f"--probe-games {ctx.probe_games}")
    if ctx.ablation_games != ctx.probe_games:
        parts.append(f"--ablation-games {ctx.ablation_games}")
    parts += [skill_flags, f"--workers {ctx.workers}"]
    return " ".join(parts)


def headline(report: dict[str, Any]) -> dict[str, float]:
    """Flat key figures, compared against a baseline report in summary.md."""
    m = report["main"]
    out = m["outcome"]
    figures = {
        "first_seat_advantage": out.get("first_seat_advantage", 0.0),
        "balance": out.get("balance", 0.0),
        "shared_wins_share": round(out.get("shared_wins", 0) / max(1, out.get("games", 0)), 4),
        "mean_decisions": m["length"]["decisions"]["mean"],
        "mean_turns": m["length"]["turns"]["mean"],
        "mean_rounds": m["length"]["rounds"]["mean"],
        "mean_minutes": m["length"]["minutes"]["mean"],
        "mean_branching": m["decisions"]["mean_branching"],
        "forced_share": m["decisions"]["forced_share"],
        "dead_turns_per_game": m["decisions"]["dead_turns_per_game"],
        "mean_lead_changes": m["tension"]["lead_changes"]["mean"],
        "mean_winner_deficit": m["tension"]["winner_largest_deficit"]["mean"],
        "errors": m["ends"]["error_count"],
        "noop_turn_share": m["decisions"]["noop_turn_share"],
        "tiebreak_share": out.get("tiebreak_share", 0.0),
        "mean_eval_lead_changes": m["tension"]["eval_lead_changes"]["mean"],
        "mean_decided_at": m["tension"]["decided_at"]["mean"],
        "claims_holding": counts(report["claims"], DESIGN)[HOLDS],
        "claims_failing": counts(report["claims"], DESIGN)[FAILS],
        "invariants_broken": counts(report["claims"], INVARIANT)[FAILS],
        "skill_games_per_cell": report.get("skill", {}).get("games_per_cell", 0),
        "skill_concludes": int(bool(report.get("skill", {}).get("concludes", False))),
    }
    for i, rate in enumerate(out.get("win_rate_by_position", [])):
        figures[f"win_rate_position_{i + 1}"] = rate
    return figures
