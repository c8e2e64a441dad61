"""The interleaved page order for printers that print a whole file two-sided:
cover, a blank page, then each face sheet immediately followed by its backs."""

from __future__ import annotations

import pytest
from printcheck import engine_ready, text_lines
from pypdf import PdfReader

from cardlab.art import Face
from cardlab.printing import print_game
from cardlab.printing.plan import plan_pages


def faces(n_a: int, n_b: int) -> list[Face]:
    return [Face(f"a{i:02}", f"A{i}", "a", "x") for i in range(n_a)] + [
        Face(f"b{i:02}", f"B{i}", "b", "y") for i in range(n_b)
    ]


def test_each_face_sheet_is_followed_by_its_own_backs_slot_for_slot():
    plan = plan_pages(faces(13, 8), ["a", "b"], interleaved=True)
    assert plan.page_count == 2 + 2 * len(plan.face_sheets) == 8
    assert plan.blank_pages == (2,)
    for pos, sheet in enumerate(plan.face_sheets):
        face_page = plan.face_page(sheet)
        assert face_page % 2 == 1, "a face sheet starts a sheet of paper"
        assert sheet.back_page == face_page + 1 == plan.back_page(pos)
        back = plan.back_sheets[pos]
        assert back.face_sheets == (sheet.index,)
        assert back.backs[: len(sheet.faces)] == sheet.backs
        assert all(b == "" for b in back.backs[len(sheet.faces) :])
    pages = sorted(
        [1, *plan.blank_pages]
        + [plan.face_page(s) for s in plan.face_sheets]
        + [plan.back_page(i) for i in range(len(plan.back_sheets))]
    )
    assert pages == list(range(1, plan.page_count + 1))


def test_the_default_order_is_unchanged():
    plan = plan_pages(faces(13, 8), ["a", "b"])
    assert not plan.interleaved and plan.blank_pages == ()
    assert [plan.face_page(s) for s in plan.face_sheets] == [2, 3, 4]


@pytest.mark.parametrize("game", ["uptime"])
def test_an_interleaved_pdf_pairs_each_face_page_with_its_backs(game, tmp_path):
    if not engine_ready(game):
        pytest.skip(f"{game} engine has not landed yet")
    pdf = print_game(game, out=tmp_path / "i.pdf", interleaved=True)
    pages = len(PdfReader(pdf).pages)
    assert pages % 2 == 0
    headers = {}
    for line in text_lines(pdf):
        if "face sheet" in line.text or "backs for" in line.text:
            headers.setdefault(line.page, line.text)
    for page in range(3, pages + 1, 2):
        n = (page - 1) // 2
        assert f"face sheet {n} of" in headers[page], headers
        assert f"backs for face sheet {n}" in headers[page + 1], headers
