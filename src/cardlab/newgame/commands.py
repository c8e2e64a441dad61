"""The `cardlab new-game` command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.core.errors import CardlabError


def new_game(
    name: Annotated[str, typer.Argument(help="The game's name: a lowercase Python package name.")],
    out: Annotated[Path, typer.Option("--out", help="A new directory for the game's project.")],
    title: Annotated[str | None, typer.Option(help="The title players see.")] = None,
) -> None:
    """Scaffold an installable, working template game to change into yours."""
    from cardlab.newgame import scaffold

    try:
        target = scaffold(name, out, title)
    except CardlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"Wrote {name} to {target}.\n"
        f"  cd {target} && pip install -e . && pytest   # cardlab finds it by its entry point\n"
        f"  cardlab play {name} --players 2"
    )


def register(app: typer.Typer) -> None:
    app.command("new-game")(new_game)
