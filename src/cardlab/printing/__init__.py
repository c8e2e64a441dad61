"""Print-and-play PDFs: 9-up sheets of poker-size cards with crop marks, back
sheets for duplex printing, a cover page and page numbers. The card drawings
come from cardlab.art; this package only lays them out on paper.

Importing the package stays cheap (the CLI imports `commands` at start-up);
CairoSVG and pypdf load only when a PDF is made."""

from __future__ import annotations

from typing import Any

__all__ = ["print_game"]


def __getattr__(name: str) -> Any:
    # print_game lives in game_pdf, which loads CairoSVG and pypdf: import it on first use.
    if name == "print_game":
        from cardlab.printing.game_pdf import print_game

        return print_game
    raise AttributeError(name)
