"""Where cards and crop marks go on a 9-up sheet, in millimetres from the
page's top-left corner.

By default cards sit edge to edge in a 3 x 3 block centred on the page, so
every cut line is shared by neighbouring cards and a straight cut runs
through the whole block. With a `gap` the cards stand `gap` mm apart and each
card has its own two cut lines per axis; a `bleed` (at most half the gap)
extends each card's background that far past its cut lines, so a cut a little
off shows the card's own colour, not its neighbour's. Crop marks continue each
true cut line outside the block (and its bleed) only, so no mark is printed
on a card. Back sheets use the column-mirrored slot (slot
(row, col) backs onto (row, 2 - col)), which lines up when the sheet is
printed duplex flipping on the long edge; the block is centred, so mirrored
slots occupy exactly the same paper."""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.art.svg import CARD_H, CARD_W
from cardlab.core.errors import CardlabError
from cardlab.printing.paper import Paper

COLS = 3
ROWS = 3
PER_SHEET = COLS * ROWS
CROP_GAP = 1.0
"""Space between the card block and the start of a crop mark, mm."""
CROP_LENGTH = 4.0
"""Length of a crop mark, mm (fits Letter's 7.7 mm top and bottom margins)."""
UNPRINTABLE = 3.0
"""The outer strip of the paper a home printer cannot print, mm."""
MIN_SIDE_MARK = 2.0
"""The side crop marks shorten down to this (mm) to leave room for a gap on A4."""
EDGE_X = CROP_GAP + MIN_SIDE_MARK + UNPRINTABLE
"""The least margin beside the block and its bleed, mm: a crop mark of at least 2 mm
that ends 3 mm inside the paper."""
EDGE_Y = 7.5
"""The least margin above and below the block and its bleed, mm: the crop marks, and
the sheet header and page number kept 3.5 mm inside the paper (Letter has 7.7 mm, so
it takes a gap plus bleed of 0.2 mm at most; A4 9 mm)."""


class LayoutError(CardlabError):
    """A gap or bleed that does not fit the paper or overlaps the next card."""


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
    """The 3 x 3 poker-card grid for one paper size, `gap` mm between cards and
    `bleed` mm of background beyond each card's cut lines."""

    paper: Paper
    gap: float = 0.0
    bleed: float = 0.0

    def __post_init__(self) -> None:
        if self.gap < 0 or self.bleed < 0:
            raise LayoutError(
                f"gap and bleed must be 0 or more mm (gap {self.gap}, bleed {self.bleed})"
            )
        if 2 * self.bleed > self.gap + 1e-9:
            raise LayoutError(
                f"a bleed of {self.bleed:g} mm needs a gap of at least {2 * self.bleed:g} mm "
                f"(each card's bleed fills half the gap); the gap is {self.gap:g} mm"
            )
        for size, cards, count, need, what in (
            (self.paper.width, CARD_W, COLS, EDGE_X, "crop marks"),
            (self.paper.height, CARD_H, ROWS, EDGE_Y, "crop marks, header and page number"),
        ):
            room = size - count * cards - 2 * (need + self.bleed)
            if (count - 1) * self.gap > room + 1e-9:
                raise LayoutError(
                    f"a gap of {self.gap:g} mm with a bleed of {self.bleed:g} mm does not fit "
                    f"3 x 3 cards and their {what} on {self.paper.name}: "
                    f"at most {max(room, 0) / (count - 1):.1f} mm of gap with this bleed"
                )

    @property
    def block(self) -> Box:
        """The cards' cut area (without bleed), centred on the page."""
        w = COLS * CARD_W + (COLS - 1) * self.gap
        h = ROWS * CARD_H + (ROWS - 1) * self.gap
        return Box((self.paper.width - w) / 2, (self.paper.height - h) / 2, w, h)

    def slot(self, index: int) -> Box:
        """Card box of slot `index` (0..8, row by row from the top left) on a face sheet."""
        if not 0 <= index < PER_SHEET:
            raise ValueError(f"slot {index} is not on a {COLS}x{ROWS} sheet")
        row, col = divmod(index, COLS)
        return Box(
            self.block.x + col * (CARD_W + self.gap),
            self.block.y + row * (CARD_H + self.gap),
            CARD_W,
            CARD_H,
        )

    def back_slot(self, index: int) -> Box:
        """Where the back of face slot `index` goes on a back sheet (column mirrored)."""
        row, col = divmod(index, COLS)
        return self.slot(row * COLS + (COLS - 1 - col))

    @property
    def cut_xs(self) -> list[float]:
        """Every vertical cut line: shared by neighbours without a gap, two per card with one."""
        edges = [self.block.x + c * (CARD_W + self.gap) for c in range(COLS)]
        return _distinct([x for e in edges for x in (e, e + CARD_W)])

    @property
    def cut_ys(self) -> list[float]:
        edges = [self.block.y + r * (CARD_H + self.gap) for r in range(ROWS)]
        return _distinct([y for e in edges for y in (e, e + CARD_H)])

    def crop_marks(self) -> list[Segment]:
        """One mark beyond each end of every cut line, outside the card block and its bleed."""
        b = self.block
        out = self.bleed + CROP_GAP
        top, bottom = b.y - out, b.y + b.h + out
        left, right = b.x - out, b.x + b.w + out
        side = self.side_mark_length
        marks = []
        for x in self.cut_xs:
            marks.append(Segment(x, top - CROP_LENGTH, x, top))
            marks.append(Segment(x, bottom, x, bottom + CROP_LENGTH))
        for y in self.cut_ys:
            marks.append(Segment(left - side, y, left, y))
            marks.append(Segment(right, y, right + side, y))
        return marks

    @property
    def side_mark_length(self) -> float:
        """The left and right marks: CROP_LENGTH, shortened (to 2 mm at least) so they
        end outside the 3 mm a printer cannot print when a gap widens the block."""
        margin = self.block.x - self.bleed - CROP_GAP - UNPRINTABLE
        return min(CROP_LENGTH, margin)

    @property
    def header_baseline(self) -> float:
        """Baseline of the sheet's title line: just above the card block, between
        the crop marks, as far from the paper's edge as the margin allows (on
        Letter the margin is only 7.7 mm, and printers cannot print its outer 3 mm)."""
        return self.block.y - self.bleed - CROP_GAP - 0.3

    @property
    def footer_baseline(self) -> float:
        """Baseline of the page number: just below the card block, between the crop marks."""
        return self.block.y + self.block.h + self.bleed + CROP_GAP + 2.3

    @property
    def label_width(self) -> float:
        """Room for header and footer text: the middle card's width, between crop marks."""
        return CARD_W - 2 * CROP_GAP


def _distinct(values: list[float]) -> list[float]:
    """Sorted, with lines closer than a micrometre merged (shared cut lines)."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-6:
            out.append(v)
    return out
