"""The `cardlab print` command, registered by cardlab.cli (see its _COMMAND_MODULES).

Heavy imports (CairoSVG, pypdf) happen inside the command so that other
commands start fast and work without the print extra installed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.core.errors import CardlabError


def register(app: typer.Typer) -> None:
    @app.command("print")
    def print_command(
        game: Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")],
        cards: Annotated[
            Path | None,
            typer.Option("--cards", help="A card data file instead of the packaged one."),
        ] = None,
        paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
        out: Annotated[
            Path | None, typer.Option("--out", help="PDF to write (default GAME-cards-PAPER.pdf).")
        ] = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="Rule option name=value (repeatable)."),
        ] = None,
        variant: Annotated[
            str | None,
            typer.Option(
                "--variant",
                help="Print a variant's cards: a .toml file or a packaged variant's name.",
            ),
        ] = None,
        interleaved: Annotated[
            bool,
            typer.Option(
                "--interleaved",
                help="Each face sheet followed by its backs, for printing the whole file "
                "two-sided (default: all face sheets, then the back sheets).",
            ),
        ] = False,
    ) -> None:
        """Write GAME's cards as a print-and-play PDF: 9-up sheets, crop marks, backs, cover."""
        from cardlab.core.options import parse_option_pairs
        from cardlab.printing import print_game

        try:
            path = print_game(
                game,
                cards=cards,
                paper=paper,
                out=out,
                options=parse_option_pairs(option or []),
                interleaved=interleaved,
                variant=variant,
            )
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        how = "print it all two-sided" if interleaved else "duplex"
        typer.echo(f"wrote {path} (print at 100% scale; {how}: flip on the long edge)")
