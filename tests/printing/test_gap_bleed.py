"""A gap between cards and a bleed around each: every card gets its own cut lines,
the crop marks sit on them (outside the block and its bleed), the bleed carries the
card's ground colour and the rest of the gap stays white; bad values are refused
by name. And RUNWAY's two decks print two different backs."""

from __future__ import annotations

import pytest
from printcheck import px, render_page

from cardlab.art import game_art
from cardlab.art.svg import CARD_H, CARD_W
from cardlab.printing import print_game
from cardlab.printing.layout import CROP_GAP, CROP_LENGTH, LayoutError, SheetLayout
from cardlab.printing.paper import paper_named

GAP, BLEED = 3.0, 1.0


def test_with_a_gap_each_card_has_its_own_cut_lines_and_marks_follow_them() -> None:
    layout = SheetLayout(paper_named("a4"), gap=GAP, bleed=BLEED)
    b = layout.block
    assert b.w == pytest.approx(3 * CARD_W + 2 * GAP) and b.h == pytest.approx(3 * CARD_H + 2 * GAP)
    x0, y0 = b.x, b.y
    assert layout.cut_xs == pytest.approx(
        [
            x0,
            x0 + CARD_W,
            x0 + CARD_W + GAP,
            x0 + 2 * CARD_W + GAP,
            x0 + 2 * CARD_W + 2 * GAP,
            b.x + b.w,
        ]
    )
    assert layout.cut_ys[:3] == pytest.approx([y0, y0 + CARD_H, y0 + CARD_H + GAP])
    assert len(layout.cut_ys) == 6
    for i in range(9):  # every card edge is a cut line
        box = layout.slot(i)
        assert any(abs(box.x - x) < 1e-9 for x in layout.cut_xs)
        assert any(abs(box.x + box.w - x) < 1e-9 for x in layout.cut_xs)
        assert any(abs(box.y - y) < 1e-9 for y in layout.cut_ys)
    marks = layout.crop_marks()
    assert len(marks) == 2 * 6 + 2 * 6
    vertical = sorted(m.x1 for m in marks if m.x1 == m.x2)
    assert vertical == pytest.approx(sorted(layout.cut_xs * 2))
    for m in marks:  # outside the block and its bleed
        if m.x1 == m.x2:
            assert (
                max(m.y1, m.y2) <= b.y - BLEED - CROP_GAP + 1e-9
                or min(m.y1, m.y2) >= b.y + b.h + BLEED + CROP_GAP - 1e-9
            )
        else:
            assert (
                max(m.x1, m.x2) <= b.x - BLEED - CROP_GAP + 1e-9
                or min(m.x1, m.x2) >= b.x + b.w + BLEED + CROP_GAP - 1e-9
            )


def test_no_gap_keeps_shared_cut_lines() -> None:
    layout = SheetLayout(paper_named("a4"))
    assert len(layout.cut_xs) == 4 and len(layout.cut_ys) == 4


@pytest.mark.parametrize(
    ("gap", "bleed", "message"),
    [
        (0, 1, "a bleed of 1 mm needs a gap of at least 2 mm"),
        (-1, 0, "0 or more mm"),
        (20, 0, "does not fit 3 x 3 cards and their crop marks on A4"),
        (3, 1.6, "a bleed of 1.6 mm needs a gap of at least 3.2 mm"),
    ],
)
def test_bad_gap_or_bleed_is_refused_by_name(gap: float, bleed: float, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        SheetLayout(paper_named("a4"), gap=gap, bleed=bleed)


def test_letter_says_how_much_gap_fits() -> None:
    """Letter is 15.4 mm taller than three cards: crop marks and the page labels use it."""
    with pytest.raises(LayoutError, match=r"header and page number on Letter: at most 0\.2 mm"):
        SheetLayout(paper_named("letter"), gap=2)
    SheetLayout(paper_named("letter"), gap=0.2)
    with pytest.raises(LayoutError, match=r"crop marks on A4: at most 4\.5 mm"):
        SheetLayout(paper_named("a4"), gap=5)
    wide = SheetLayout(paper_named("a4"), gap=4.5)
    assert wide.side_mark_length == pytest.approx(2.0)
    assert min(min(m.x1, m.x2) for m in wide.crop_marks()) == pytest.approx(3.0)


def test_a_gap_and_bleed_pdf_draws_marks_at_the_cut_lines_and_the_bleed_in_card_colour(
    tmp_path,
) -> None:  # type: ignore[no-untyped-def]
    dpi = 300
    pdf = print_game("supercomputer", out=tmp_path / "gap.pdf", gap=GAP, bleed=BLEED)
    layout = SheetLayout(paper_named("a4"), gap=GAP, bleed=BLEED)
    b = layout.block
    back = render_page(pdf, 4, dpi, "supercomputer-a4-gap-bleed-backs")  # dark backs show the bleed
    grey = back.convert("L")

    def ink(x: float, y: float) -> int:
        return int(grey.getpixel((px(x, dpi), px(y, dpi))))  # type: ignore[arg-type]

    mark_y = b.y - BLEED - CROP_GAP - CROP_LENGTH / 2
    for x in layout.cut_xs:  # a mark on every true cut line, blank 0.6 mm either side
        assert ink(x, mark_y) < 100 and ink(x - 0.6, mark_y) > 200 and ink(x + 0.6, mark_y) > 200, x
    assert ink(b.x - BLEED / 2, b.y + 44) < 100, (
        "the bleed outside the first column is the back's colour"
    )
    mid_gap = b.x + CARD_W + GAP / 2
    assert ink(mid_gap, b.y + 44) > 200, "the middle of the gap, beyond both bleeds, stays white"
    assert ink(b.x + CARD_W + BLEED / 2, b.y + 44) < 100
    assert ink(b.x - BLEED - 0.5, b.y + 44) > 200, "nothing beyond the bleed"


def test_runway_prints_a_different_back_for_each_deck(tmp_path) -> None:  # type: ignore[no-untyped-def]
    art = game_art("runway")
    assert tuple(art.BACKS) == ("Capital", "Deal")
    capital, deal = (art.back_art(k) for k in art.BACKS)
    assert capital.body != deal.body and "CAPITAL" in capital.body and "DEAL" in deal.body
    with pytest.raises(ValueError, match="no 'Shock' back"):
        art.back_art("Shock")
    from cardlab.games import load_game

    faces = art.faces(load_game("runway").cards)
    by_back = {c: {f.back for f in faces if f.category == c} for c in {f.category for f in faces}}
    assert by_back == {
        "Capital": {"Capital"},
        "Deal": {"Deal"},
        "Shock": {"Deal"},
        "Sector": {"Deal"},
    }
    pdf = print_game("runway", out=tmp_path / "rw.pdf")
    layout = SheetLayout(paper_named("a4"))
    # face sheets 1-3 are Capital (27 cards), sheet 4 starts with 5 Capital then Deals;
    # its backs (page 10) hold both: sample a Capital back and a Deal back on it
    img = render_page(pdf, 10, 100, "runway-a4-two-backs")
    colour = {}
    for slot, name in ((0, "Capital"), (8, "Deal")):
        box = layout.back_slot(slot)
        colour[name] = img.convert("RGB").getpixel((px(box.x + 5, 100), px(box.y + 5, 100)))
    assert colour["Capital"] != colour["Deal"], colour
