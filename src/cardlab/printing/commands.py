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
                help="Accepted for old scripts: the default order already puts each face "
                "sheet's backs right after it, for printing the whole file two-sided.",
            ),
        ] = False,
        faces_only: Annotated[
            bool,
            typer.Option("--faces-only", help="Only the cover and the face sheets."),
        ] = False,
        backs_only: Annotated[
            bool,
            typer.Option(
                "--backs-only",
                help="Only the back sheets, one per face sheet in order, for the reverse "
                "of a --faces-only print.",
            ),
        ] = False,
        gap: Annotated[
            float, typer.Option("--gap", help="Space between cards, mm (default 0).")
        ] = 0.0,
        bleed: Annotated[
            float,
            typer.Option(
                "--bleed",
                help="Extend each card's background this far past its cut lines, mm "
                "(at most half the gap).",
            ),
        ] = 0.0,
    ) -> None:
        """Write GAME's cards as a print-and-play PDF: 9-up sheets, crop marks, backs, cover."""
        from cardlab.core.options import parse_option_pairs
        from cardlab.printing import print_game

        if faces_only and backs_only:
            typer.echo("error: --faces-only and --backs-only exclude each other", err=True)
            raise typer.Exit(2)
        order = "faces-only" if faces_only else "backs-only" if backs_only else "duplex"
        try:
            path = print_game(
                game,
                cards=cards,
                paper=paper,
                out=out,
                options=parse_option_pairs(option or []),
                order=order,
                variant=variant,
                gap=gap,
                bleed=bleed,
            )
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        how = {
            "duplex": "print it all two-sided, flipping on the long edge",
            "faces-only": "then print the --backs-only file on the reverse, long edge",
            "backs-only": "print it on the reverse of the --faces-only print, long edge",
        }[order]
        typer.echo(f"wrote {path} (print at 100% scale; {how})")
