"""Print-and-play PDFs: 9-up sheets of poker-size cards with crop marks, back
sheets for duplex printing, a cover page and page numbers. The card drawings
come from cardlab.art; this package only lays them out on paper."""

from cardlab.printing.command import print_game
from cardlab.printing.paper import PAPERS, PaperError

__all__ = ["PAPERS", "PaperError", "print_game"]
