"""`cardlab report` and `cardlab gate`: write a game's report, or every game's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer

from cardlab.core import CardlabError
from cardlab.lab.commands import (
    BackendOpt,
    CardsOpt,
    OptionOpt,
    RayOpt,
    VariantOpt,
    WorkersOpt,
    fail,
)

LADDER_GAMES = 200
"""Games per ladder cell (neighbouring bots) in the skill section: the gate's standard."""
LADDER_ITERATIONS = 1000
"""ISMCTS iterations in the skill section."""
GATE_BUDGET = "10m"
"""`cardlab gate`'s default time budget (on the machine it runs on)."""


_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?")


def parse_budget(text: str | None) -> float | None:
    """`10m`, `90s`, `1h30m`, `600` (seconds) -> seconds; `none` -> None (no limit)."""
    if text is None or text.strip().lower() in ("none", "off", "unlimited"):
        return None
    match = _DURATION.fullmatch(text.strip().lower())
    parts = match.groups() if match else (None, None, None)
    seconds = sum(float(v) * k for v, k in zip(parts, (3600, 60, 1), strict=True) if v)
    if not seconds:
        raise CardlabError(
            f"--budget {text!r}: give a time like 10m, 90s, 1h30m or 600 (seconds), or none"
        )
    return seconds


def parse_compare(text: str | None) -> tuple[str, list[str]] | None:
    """`stall_end=true,false` -> ("stall_end", ["true", "false"]); `cards=A.toml,B.toml`
    compares card files the same way."""
    if text is None:
        return None
    name, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or len(items) < 2:
        raise CardlabError(f"--compare {text!r} must be name=value1,value2[,...]")
    return name.strip(), items


def write_report(game: str, out: Path, **settings: Any) -> dict[str, Any]:
    """Validate everything, play, and write report.html, report.json, summary.md
    (the arguments are `start_report`'s)."""
    _, report, old = start_report(game, out, **settings)
    save_report(out, report, old)
    return report


def save_report(out: Path, report: dict[str, Any], old: dict[str, Any] | None) -> None:
    from cardlab.lab import html, summary

    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=1, default=str))
    (out / "report.html").write_text(html.render(report))
    (out / "summary.md").write_text(summary.render(report, old))


def start_report(
    game: str,
    out: Path,
    players: int | None = None,
    games: int | None = None,
    agents: str | None = None,
    options: dict[str, str] | None = None,
    compare: tuple[str, list[str]] | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    side_games: int | None = None,
    ladder_games: int | None = None,
    ladder_iterations: int = LADDER_ITERATIONS,
    time_model: Path | None = None,
    baseline: Path | None = None,
    progress: bool = True,
    probe_games: int = 200,
    cards: str | None = None,
    ablation_games: int | None = None,
    variant: str | None = None,
    budget_s: float | None = None,
    play_skill: bool = True,
    kingmaking_games: int | None = None,
    sequential: int | None = None,
) -> tuple[Any, dict[str, Any], dict[str, Any] | None]:
    """Validate everything and play: (the LabContext, the report, the baseline report).

    `ladder_games` is per ladder cell (each pair of neighbouring bots). None plays the
    gate's standard (`LADDER_GAMES`) within `budget_s` (seconds for the whole report;
    None: no limit); an explicit number is played exactly, whatever the budget, so a
    budgeted run replays with `--ladder-games N`. The skill section says it cannot
    conclude below the standard. `play_skill=False` leaves it for `add_skill`."""
    from cardlab.lab.backends import default_workers
    from cardlab.lab.context import LabContext
    from cardlab.lab.report import build_report, default_agents, default_games
    from cardlab.lab.simulate import make_spec
    from cardlab.lab.timemodel import TimeModel

    old = _load_baseline(baseline)
    if games is not None and games < 1:
        raise CardlabError(f"--games must be at least 1, not {games}")
    if probe_games < 1:
        raise CardlabError(f"--probe-games must be at least 1, not {probe_games}")
    agents = agents or default_agents(game)
    spec = make_spec(game, players, agents, seed, games or 1, options, cards, variant)
    n_games = games if games is not None else default_games(spec.players)
    if compare is not None:  # check the option (or card file) and every value before playing
        for value in compare[1]:
            if compare[0] == "cards":
                from cardlab.lab.paired import arm_cards

                make_spec(game, spec.players, agents, seed, 1, options, arm_cards(value), variant)
            else:
                opts = {**(options or {}), compare[0]: value}
                make_spec(game, spec.players, agents, seed, 1, opts, cards, variant)
    if sequential is not None and compare is None:
        raise CardlabError("--sequential plays a --compare until it knows: give --compare too")
    if sequential is not None and sequential < 2:
        raise CardlabError(
            f"--sequential is a budget of paired games per arm, at least 2, not {sequential}"
        )
    ctx = LabContext(
        game=game,
        players=spec.players,
        agents=spec.agents,
        options=dict(options or {}),
        games=n_games,
        seed=seed,
        cards=spec.cards,
        variant=spec.variant,
        workers=workers or default_workers(),
        backend=backend,
        ray_address=ray_address,
        progress=progress,
        time_model=TimeModel.for_game(game, time_model),
        probe_games=probe_games,
        ablation_games=probe_games if ablation_games is None else ablation_games,
        out_dir=out,
        compare_budget=sequential,
    )
    if ladder_games is not None and ladder_games < 0:
        raise CardlabError(f"--ladder-games must be 0 (skip) or more, not {ladder_games}")
    if ladder_iterations < 1:
        raise CardlabError(f"--ladder-iterations must be at least 1, not {ladder_iterations}")
    if kingmaking_games is not None and kingmaking_games < 0:
        raise CardlabError(f"--kingmaking-games must be 0 (skip) or more, not {kingmaking_games}")
    report = build_report(
        ctx,
        compare,
        side_games or min(probe_games, n_games),
        LADDER_GAMES if ladder_games is None else ladder_games,
        ladder_iterations,
        skill_budget_s=budget_s if ladder_games is None else None,
        play_skill=play_skill,
        kingmaking_games=kingmaking_games,
    )
    if old is not None:  # the baseline's rules on this report's seeds: paired figures
        from cardlab.lab.paired import baseline_arm

        report["baseline_paired"] = baseline_arm(ctx, old)
    return ctx, report, old


def _load_baseline(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        baseline: dict[str, Any] = json.loads(path.read_text())
        return baseline
    except (OSError, json.JSONDecodeError) as exc:
        raise CardlabError(f"--baseline {path}: {exc}") from None


def report(
    game: Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")],
    players: Annotated[int | None, typer.Option(help="Player count of the main run.")] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Games (default: +-3-point intervals).")
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option(help="Agents per seat, comma separated (default: the game's personas mixed)."),
    ] = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    compare: Annotated[
        str | None,
        typer.Option(help="Compare a rule option's values (name=v1,v2) or card files (cards=A,B)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    out: Annotated[Path, typer.Option(help="Output directory.")] = Path("lab-report"),
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    side_games: Annotated[
        int | None, typer.Option(help="Games per player count / compared value.")
    ] = None,
    ladder_games: Annotated[
        int | None,
        typer.Option(
            help=f"Skill-ladder games per cell, played exactly (0: skip; default: "
            f"{LADDER_GAMES}, the standard, within --budget)."
        ),
    ] = None,
    ladder_iterations: Annotated[
        int, typer.Option(help="ISMCTS iterations in the ladder.")
    ] = LADDER_ITERATIONS,
    time_model: Annotated[
        Path | None, typer.Option(help="JSON time ranges per decision kind (cardlab calibrate).")
    ] = None,
    baseline: Annotated[Path | None, typer.Option(help="An older report.json for deltas.")] = None,
    probe_games: Annotated[int, typer.Option(help="Games per claim-probe configuration.")] = 200,
    ablation_games: Annotated[
        int | None,
        typer.Option(help="Games per card-impact experiment (default: --probe-games; 0: skip)."),
    ] = None,
    kingmaking_games: Annotated[
        int | None,
        typer.Option(help="Main-run games replayed for kingmaking (default: 20; 0: skip)."),
    ] = None,
    budget: Annotated[
        str,
        typer.Option(
            help="Time for the whole report (10m, 90s, 1h30m, none); the skill section "
            "stops when it runs out and says it cannot conclude."
        ),
    ] = "none",
    sequential: Annotated[
        int | None,
        typer.Option(
            help="With --compare: play looks of --side-games paired games per arm until "
            "the changed thing's own effect is resolved (an always-valid 95% confidence "
            "sequence excludes 0) or this many paired games per arm are spent."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
) -> None:
    """Write OUT/report.html, OUT/report.json and OUT/summary.md for GAME."""
    from cardlab.core.options import parse_option_pairs

    try:
        rep = write_report(
            game,
            out,
            players=players,
            games=games,
            agents=agents,
            options=parse_option_pairs(option or []),
            compare=parse_compare(compare),
            seed=seed,
            workers=workers,
            backend=backend,
            ray_address=ray_address,
            side_games=side_games,
            ladder_games=ladder_games,
            ladder_iterations=ladder_iterations,
            time_model=time_model,
            baseline=baseline,
            progress=not quiet,
            probe_games=probe_games,
            cards=cards,
            ablation_games=ablation_games,
            variant=variant,
            budget_s=parse_budget(budget),
            kingmaking_games=kingmaking_games,
            sequential=sequential,
        )
    except CardlabError as exc:
        fail(exc)
    verdicts = ", ".join(f"{c['id']}={c['verdict']}" for c in rep["claims"])
    typer.echo(f"{out}/report.html ({rep['games_played']} games, {rep['elapsed_s']} s): {verdicts}")


def gate(
    which: Annotated[str, typer.Argument(help="`all`, or one game name.")] = "all",
    out: Annotated[Path, typer.Option(help="Reports go to OUT/<game>/.")] = Path("lab-gate"),
    workers: WorkersOpt = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    games: Annotated[int | None, typer.Option("--games", "-n", help="Main-run games.")] = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    ladder_games: Annotated[
        int | None,
        typer.Option(
            help=f"Skill-ladder games per cell, played exactly (0: skip; default: "
            f"{LADDER_GAMES}, the standard, within --budget)."
        ),
    ] = None,
    ladder_iterations: Annotated[
        int, typer.Option(help="ISMCTS iterations in the ladder.")
    ] = LADDER_ITERATIONS,
    probe_games: Annotated[int, typer.Option(help="Games per claim-probe configuration.")] = 200,
    ablation_games: Annotated[
        int | None,
        typer.Option(help="Games per card-impact experiment (default: --probe-games; 0: skip)."),
    ] = None,
    budget: Annotated[
        str,
        typer.Option(
            help="Time for the whole gate (10m, 90s, 1h30m, none): the cheaper sections of "
            "every game first, then the skill sections share what is left."
        ),
    ] = GATE_BUDGET,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
) -> None:
    """Run every game's report and print one screen of claim verdicts.

    Within `--budget` (default 10 minutes on the machine it runs on), the skill sections
    play as many balanced blocks as fit; each says whether it concludes, and if not, how
    far it got, how to replay it (`--ladder-games N`) and what a verdict would cost."""
    import time

    from cardlab.lab.gate import all_games, gate_fails, run_gate, table

    names = all_games() if which == "all" else [which]
    if variant is not None and len(names) != 1:
        fail("--variant belongs to one game: give the game's name instead of `all`")
    if option and len(names) != 1:
        fail("-o belongs to one game's rules: give the game's name instead of `all`")
    from cardlab.core.options import parse_option_pairs

    try:
        options = parse_option_pairs(option or [])
    except CardlabError as exc:
        fail(exc)
    from cardlab.core.registry import list_games

    for name in names:  # a game without claims may be named (its report, no verdicts)
        if name not in list_games():
            fail(f"unknown game {name!r}; games: all, {', '.join(list_games())}")
    start = time.perf_counter()
    try:
        rows = run_gate(
            names,
            out,
            budget_s=parse_budget(budget),
            workers=workers,
            seed=seed,
            games=games,
            cards=cards,
            variant=variant,
            options=options or None,
            ladder_games=ladder_games,
            ladder_iterations=ladder_iterations,
            probe_games=probe_games,
            ablation_games=ablation_games,
            progress=not quiet,
        )
    except CardlabError as exc:
        fail(exc)
    typer.echo(table(rows, time.perf_counter() - start))
    for name in names:
        if not any(r["game"] == name and r.get("kind") in ("design", "invariant") for r in rows):
            typer.echo(
                f"{name}: declares no claims: the world-class verdict above judges its "
                f"experience alone; its report: {out / name}"
            )
    if gate_fails(rows):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(report)
    app.command()(gate)
