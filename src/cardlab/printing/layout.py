"""Where cards and crop marks go on a 9-up sheet, in millimetres from the
page's top-left corner.

Cards sit edge to edge in a 3 x 3 block centred on the page, so every cut
line is shared by neighbouring cards and a straight cut runs through the
whole block. Crop marks continue each cut line outside the block only, so no
mark is printed on a card. Back sheets use the column-mirrored slot (slot
(row, col) backs onto (row, 2 - col)), which lines up when the sheet is
printed duplex flipping on the long edge; the block is centred, so mirrored
slots occupy exactly the same paper."""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.art.svg import CARD_H, CARD_W
from cardlab.printing.paper import Paper

COLS = 3
ROWS = 3
PER_SHEET = COLS * ROWS
CROP_GAP = 1.0
"""Space between the card block and the start of a crop mark, mm."""
CROP_LENGTH = 4.0
"""Length of a crop mark, mm (fits Letter's 7.7 mm top and bottom margins)."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class SheetLayout:
    """The 3 x 3 poker-card grid for one paper size."""

    paper: Paper

    @property
    def block(self) -> Box:
        w, h = COLS * CARD_W, ROWS * CARD_H
        return Box((self.paper.width - w) / 2, (self.paper.height - h) / 2, w, h)

    def slot(self, index: int) -> Box:
        """Card box of slot `index` (0..8, row by row from the top left) on a face sheet."""
        if not 0 <= index < PER_SHEET:
            raise ValueError(f"slot {index} is not on a {COLS}x{ROWS} sheet")
        row, col = divmod(index, COLS)
        return Box(self.block.x + col * CARD_W, self.block.y + row * CARD_H, CARD_W, CARD_H)

    def back_slot(self, index: int) -> Box:
        """Where the back of face slot `index` goes on a back sheet (column mirrored)."""
        row, col = divmod(index, COLS)
        return self.slot(row * COLS + (COLS - 1 - col))

    @property
    def cut_xs(self) -> list[float]:
        return [self.block.x + i * CARD_W for i in range(COLS + 1)]

    @property
    def cut_ys(self) -> list[float]:
        return [self.block.y + i * CARD_H for i in range(ROWS + 1)]

    def crop_marks(self) -> list[Segment]:
        """One mark beyond each end of every cut line, outside the card block."""
        b = self.block
        top, bottom = b.y - CROP_GAP, b.y + b.h + CROP_GAP
        left, right = b.x - CROP_GAP, b.x + b.w + CROP_GAP
        marks = []
        for x in self.cut_xs:
            marks.append(Segment(x, top - CROP_LENGTH, x, top))
            marks.append(Segment(x, bottom, x, bottom + CROP_LENGTH))
        for y in self.cut_ys:
            marks.append(Segment(left - CROP_LENGTH, y, left, y))
            marks.append(Segment(right, y, right + CROP_LENGTH, y))
        return marks

    @property
    def header_baseline(self) -> float:
        """Baseline of the sheet's title line: just above the card block, between
        the crop marks, as far from the paper's edge as the margin allows (on
        Letter the margin is only 7.7 mm, and printers cannot print its outer 3 mm)."""
        return self.block.y - CROP_GAP - 0.3

    @property
    def footer_baseline(self) -> float:
        """Baseline of the page number: just below the card block, between the crop marks."""
        return self.block.y + self.block.h + CROP_GAP + 2.3

    @property
    def label_width(self) -> float:
        """Room for header and footer text: the middle card's width, between crop marks."""
        return CARD_W - 2 * CROP_GAP
