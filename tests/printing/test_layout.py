"""Sheet geometry: card boxes and crop marks at exact millimetre positions."""

from __future__ import annotations

from dataclasses import astuple

import pytest

from cardlab.printing.layout import CROP_GAP, CROP_LENGTH, Segment, SheetLayout
from cardlab.printing.paper import PaperError, paper_named

# Block of 3 x 3 poker cards = 189 x 264 mm, centred.
# A4 210 x 297: margins (210 - 189) / 2 = 10.5 and (297 - 264) / 2 = 16.5.
# Letter 215.9 x 279.4: margins 13.45 and 7.7.
EXPECTED = {
    "a4": (10.5, 16.5),
    "letter": (13.45, 7.7),
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_boxes_are_poker_size_edge_to_edge_and_centred(paper: str) -> None:
    x0, y0 = EXPECTED[paper]
    layout = SheetLayout(paper_named(paper))
    for i in range(9):
        row, col = divmod(i, 3)
        box = layout.slot(i)
        assert astuple(box) == pytest.approx((x0 + 63 * col, y0 + 88 * row, 63, 88)), i
    assert layout.cut_xs == pytest.approx([x0, x0 + 63, x0 + 126, x0 + 189])
    assert layout.cut_ys == pytest.approx([y0, y0 + 88, y0 + 176, y0 + 264])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_continue_every_cut_line_outside_the_block(paper: str) -> None:
    x0, y0 = EXPECTED[paper]
    layout = SheetLayout(paper_named(paper))
    marks = layout.crop_marks()
    assert len(marks) == 16  # 4 vertical + 4 horizontal cut lines, a mark at each end
    for x in layout.cut_xs:
        top = Segment(x, y0 - CROP_GAP - CROP_LENGTH, x, y0 - CROP_GAP)
        bottom = Segment(x, y0 + 264 + CROP_GAP, x, y0 + 264 + CROP_GAP + CROP_LENGTH)
        assert any(astuple(m) == pytest.approx(astuple(top)) for m in marks)
        assert any(astuple(m) == pytest.approx(astuple(bottom)) for m in marks)
    for y in layout.cut_ys:
        left = Segment(x0 - CROP_GAP - CROP_LENGTH, y, x0 - CROP_GAP, y)
        right = Segment(x0 + 189 + CROP_GAP, y, x0 + 189 + CROP_GAP + CROP_LENGTH, y)
        assert any(astuple(m) == pytest.approx(astuple(left)) for m in marks)
        assert any(astuple(m) == pytest.approx(astuple(right)) for m in marks)
    page = paper_named(paper)
    for m in marks:  # on the paper, never on a card
        assert min(m.x1, m.x2) > 0 and max(m.x1, m.x2) < page.width
        assert min(m.y1, m.y2) > 0 and max(m.y1, m.y2) < page.height
        inside_x = x0 < (m.x1 + m.x2) / 2 < x0 + 189
        inside_y = y0 < (m.y1 + m.y2) / 2 < y0 + 264
        assert not (inside_x and inside_y)


def test_back_slots_mirror_columns_for_a_long_edge_flip() -> None:
    layout = SheetLayout(paper_named("a4"))
    page_w = 210.0
    for i in range(9):
        face, back = layout.slot(i), layout.back_slot(i)
        # Flipping on the long edge maps x to page_w - x: the back must cover the same paper.
        assert back.x == pytest.approx(page_w - (face.x + face.w))
        assert back.y == pytest.approx(face.y)
    assert layout.back_slot(0) == layout.slot(2)
    assert layout.back_slot(4) == layout.slot(4)


def test_unknown_paper_is_refused_with_the_choices() -> None:
    with pytest.raises(PaperError, match="unknown paper 'a3'.*a4, letter"):
        paper_named("a3")
    assert paper_named("LETTER").width == pytest.approx(215.9)


def test_slot_outside_the_sheet_is_an_error() -> None:
    with pytest.raises(ValueError, match="slot 9"):
        SheetLayout(paper_named("a4")).slot(9)
