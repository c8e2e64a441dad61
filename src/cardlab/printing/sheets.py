"""Page SVGs: face sheets and back sheets, drawn in millimetres at the paper's
exact size so that the PDF prints cards at 63 x 88 mm at 100% scale."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cardlab.art.svg import CardArt, fmt, line, rect, text
from cardlab.art.textfit import fit_text
from cardlab.printing.layout import Box, SheetLayout
from cardlab.printing.paper import Paper

CROP_STROKE = 0.25
"""Crop mark line width, mm (about 0.7 pt: visible, thin enough to cut on)."""


def page_svg(paper: Paper, body: str) -> str:
    """A page document whose user unit is one millimetre."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{fmt(paper.width)}mm" height="{fmt(paper.height)}mm" '
        f'viewBox="0 0 {fmt(paper.width)} {fmt(paper.height)}">'
        f'<rect x="0" y="0" width="{fmt(paper.width)}" height="{fmt(paper.height)}" fill="#fff"/>'
        f"{body}</svg>"
    )


_FILL = re.compile(r'fill="([^"]+)"')


def background(art: CardArt) -> str:
    """The card's ground colour: the fill of its first shape (every card body starts
    with its outline, `art.svg.card_outline`); white when it has none."""
    m = _FILL.search(art.body)
    return m.group(1) if m and m.group(1) != "none" else "#fff"


def place(art: CardArt, box: Box, bleed: float = 0.0) -> str:
    """A card body moved to its slot; the card is drawn at 1:1 in mm. A bleed is a
    square of the card's ground colour `bleed` mm larger on every side, behind it."""
    under = ""
    if bleed > 0:
        under = rect(
            box.x - bleed,
            box.y - bleed,
            box.w + 2 * bleed,
            box.h + 2 * bleed,
            fill=background(art),
            stroke="none",
        )
    return f'{under}<g transform="translate({fmt(box.x)} {fmt(box.y)})">{art.body}</g>'


def crop_marks(layout: SheetLayout) -> str:
    return "".join(
        line(m.x1, m.y1, m.x2, m.y2, stroke="#000", width=CROP_STROKE) for m in layout.crop_marks()
    )


def margin_labels(layout: SheetLayout, header: str, page: int, pages: int) -> str:
    """The sheet's title in the top margin and its page number in the bottom margin."""
    fitted = fit_text(
        header,
        width=layout.label_width,
        height=4,
        max_size=2.8,
        min_size=1.6,
        card="(sheet header)",
        field="header",
        max_lines=1,
    )
    cx = layout.paper.width / 2
    return text(cx, layout.header_baseline, fitted.lines[0], fitted.size, anchor="middle") + text(
        cx, layout.footer_baseline, f"page {page} of {pages}", 2.8, anchor="middle"
    )


def face_sheet(
    layout: SheetLayout, arts: Sequence[CardArt], header: str, page: int, pages: int
) -> str:
    """Up to nine faces in slot order, crop marks and margin labels."""
    cards = "".join(place(art, layout.slot(i), layout.bleed) for i, art in enumerate(arts))
    return page_svg(
        layout.paper, cards + crop_marks(layout) + margin_labels(layout, header, page, pages)
    )


def back_sheet(
    layout: SheetLayout, backs: Sequence[CardArt | None], header: str, page: int, pages: int
) -> str:
    """Backs for face slots 0..8, each drawn in its column-mirrored slot."""
    cards = "".join(
        place(art, layout.back_slot(i), layout.bleed)
        for i, art in enumerate(backs)
        if art is not None
    )
    return page_svg(
        layout.paper, cards + crop_marks(layout) + margin_labels(layout, header, page, pages)
    )
