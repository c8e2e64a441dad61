"""Print-and-play PDFs: 9-up sheets of poker-size cards with crop marks, back
sheets for duplex printing, a cover page and page numbers. The card drawings
come from cardlab.art; this package only lays them out on paper.

Importing the package stays cheap (the CLI imports `commands` at start-up);
CairoSVG and pypdf load only when a PDF is made."""

from __future__ import annotations

from pathlib import Path


def print_game(
    game_name: str,
    cards: str | Path | None = None,
    paper: str = "a4",
    out: str | Path | None = None,
) -> Path:
    """Write GAME's cards as a print-and-play PDF; see cardlab.printing.game_pdf."""
    from cardlab.printing.game_pdf import print_game as make

    return make(game_name, cards=cards, paper=paper, out=out)


__all__ = ["print_game"]
