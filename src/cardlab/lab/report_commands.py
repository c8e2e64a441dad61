"""`cardlab report` and `cardlab gate`: write a game's report, or every game's."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from cardlab.core import CardlabError
from cardlab.core.options import parse_option_pairs
from cardlab.core.registry import list_games
from cardlab.lab.command_options import (
    BackendOpt,
    CardsOpt,
    OptionOpt,
    RayOpt,
    VariantOpt,
    WorkersOpt,
    fail,
)
from cardlab.lab.gate import all_games, gate_fails, run_gate, table
from cardlab.lab.reporting import (
    GATE_BUDGET,
    LADDER_GAMES,
    LADDER_ITERATIONS,
    parse_budget,
    parse_compare,
    write_report,
)


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
    names = all_games() if which == "all" else [which]
    if variant is not None and len(names) != 1:
        fail("--variant belongs to one game: give the game's name instead of `all`")
    if option and len(names) != 1:
        fail("-o belongs to one game's rules: give the game's name instead of `all`")
    try:
        options = parse_option_pairs(option or [])
    except CardlabError as exc:
        fail(exc)
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
