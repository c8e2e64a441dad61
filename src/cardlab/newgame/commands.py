"""The `cardlab new-game` and `cardlab check` commands: make a game, prove it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.core.errors import CardlabError


def new_game(
    name: Annotated[str, typer.Argument(help="The game's name: a lowercase Python package name.")],
    out: Annotated[Path, typer.Option("--out", help="A new directory for the game's project.")],
    title: Annotated[str | None, typer.Option(help="The title players see.")] = None,
    score_direction: Annotated[
        str,
        typer.Option(
            help="Which end of the points wins: highest, or lowest (penalty points, as in "
            "Hearts); written into the game's GameInfo."
        ),
    ] = "highest",
    lowest_wins: Annotated[
        bool, typer.Option("--lowest-wins", help="Short for --score-direction lowest.")
    ] = False,
) -> None:
    """Scaffold an installable, working template game to change into yours."""
    from cardlab.newgame import cardlab_source, scaffold

    if lowest_wins and score_direction == "highest":  # the default, not said
        score_direction = "lowest"
    try:
        target = scaffold(name, out, title, score_direction)
    except CardlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"Wrote {name} to {target}. In a venv (README.md, 'Install'):\n"
        f"  pip install -e {cardlab_source()}   # cardlab first: it is on no package index\n"
        f"  cd {target} && pip install -e '.[test]' && pytest   # found by its entry point\n"
        f"  cardlab check {name} && cardlab play {name} --players 2"
    )


def check(
    game: Annotated[str, typer.Argument(help="An installed game's name (see `cardlab games`).")],
    games: Annotated[int, typer.Option(help="Random games per player count.")] = 3,
    seed: Annotated[int, typer.Option(help="First seed.")] = 0,
    explore: Annotated[
        float, typer.Option(help="Seconds per player count of the coverage-guided crash hunt.")
    ] = 1.0,
) -> None:
    """Run the conformance check (cardlab.testing.check_game) at every player count.

    A failure names the check that caught it and the seed and actions that
    reproduce it."""
    from cardlab.testing import ConformanceError, check_game

    try:
        report = check_game(game, games=games, seed=seed, explore_seconds=explore)
    except (CardlabError, ConformanceError) as exc:
        typer.echo(f"{game}: FAILS: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        f"{game}: passes at {', '.join(map(str, report.players))} players "
        f"({report.games_played} games, {report.decisions} decisions; explored "
        f"{report.explored_games} games, {report.explored_decisions} decisions; "
        f"{report.redeals.varied} of {report.redeals.eligible} redeals moved hidden cards; "
        f"bots' inputs identical over {report.redeals.bot_views} branches a seat cannot tell "
        f"apart and {report.redeals.bot_worlds} pairs of redealt worlds): "
        f"{', '.join(report.checked)}"
    )
    for part, why in report.skipped.items():
        typer.echo(f"  not checked: {part}: {why}")


def register(app: typer.Typer) -> None:
    app.command("new-game")(new_game)
    app.command("check")(check)
