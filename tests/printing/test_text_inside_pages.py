"""No text on any printed page crosses the page edge.

Read from the PDF's own text layer (pdftotext -bbox-layout): every line of
every page of every game, on both papers and in both page orders, lies at
least PRINTER_MARGIN mm inside the page, where any home printer can print.
SUPER COMPUTER's A4 cover line "... 3 Network, 2 Cable)" used to run off the
right edge."""

from __future__ import annotations

import pytest
from printcheck import text_lines

from cardlab.games import list_games
from cardlab.printing import print_game
from cardlab.printing.paper import paper_named

PRINTER_MARGIN = 3.5
"""mm: home printers cannot print the outer 3 mm or so of a page."""


WIDEST = {"a4": (3.0, 1.5), "letter": (0.2, 0.0)}
"""The widest gap and bleed (mm) each paper takes: the labels move out with the block."""


@pytest.mark.parametrize("spacing", ["edge-to-edge", "widest-gap"])
@pytest.mark.parametrize("order", ["separate", "duplex"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", list_games())
def test_every_text_line_lies_inside_the_printable_page(game, paper, order, spacing, tmp_path):
    gap, bleed = WIDEST[paper] if spacing == "widest-gap" else (0.0, 0.0)
    pdf = print_game(
        game, paper=paper, out=tmp_path / "cards.pdf", order=order, gap=gap, bleed=bleed
    )
    size = paper_named(paper)
    lines = text_lines(pdf)
    assert lines, "the PDF has no text layer"
    outside = [
        f"page {t.page}: {t.text!r} at x {t.x0:.1f}-{t.x1:.1f}, y {t.y0:.1f}-{t.y1:.1f} mm"
        for t in lines
        if t.x0 < PRINTER_MARGIN
        or t.y0 < PRINTER_MARGIN
        or t.x1 > size.width - PRINTER_MARGIN
        or t.y1 > size.height - PRINTER_MARGIN
    ]
    assert not outside, outside


def test_the_supercomputer_a4_cover_keeps_its_long_contents_line_on_the_page(tmp_path):
    pdf = print_game("supercomputer", paper="a4", out=tmp_path / "sc.pdf")
    cover = " ".join(t.text for t in text_lines(pdf) if t.page == 1)
    assert "Part deck" in cover and "Cable)" in cover
