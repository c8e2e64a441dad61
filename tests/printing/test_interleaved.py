"""The duplex page order (the default; `--interleaved` is its old name) for
printers that print a whole file two-sided: cover, a blank page, then each face
sheet immediately followed by its backs; and the faces-only / backs-only split."""

from __future__ import annotations

import pytest
from printcheck import text_lines
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


def test_the_default_order_is_duplex_and_interleaved_true_is_the_same():
    default = plan_pages(faces(13, 8), ["a", "b"])
    assert default.order == "duplex" and default.interleaved
    assert default == plan_pages(faces(13, 8), ["a", "b"], interleaved=True)
    assert [default.face_page(s) for s in default.face_sheets] == [3, 5, 7]


def test_faces_only_and_backs_only_split_the_two_sides_sheet_for_sheet():
    duplex = plan_pages(faces(13, 8), ["a", "b"])
    fronts = plan_pages(faces(13, 8), ["a", "b"], "faces-only")
    backs = plan_pages(faces(13, 8), ["a", "b"], "backs-only")
    assert fronts.page_count == 1 + 3 and fronts.printed_backs == ()
    assert [fronts.face_page(s) for s in fronts.face_sheets] == [2, 3, 4]
    assert backs.page_count == 3 and backs.printed_faces == () and not backs.has_cover
    assert [backs.back_page(i) for i in range(3)] == [1, 2, 3]
    # face sheet i's backs are page i + 1 of the backs-only file, slot for slot as in duplex
    assert [s.back_page for s in fronts.face_sheets] == [1, 2, 3]
    assert backs.back_sheets == duplex.back_sheets


@pytest.mark.parametrize("game", ["uptime"])
def test_an_interleaved_pdf_pairs_each_face_page_with_its_backs(game, tmp_path):
    pdf = print_game(game, out=tmp_path / "i.pdf")  # the default order
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


@pytest.mark.parametrize("game", ["runway"])
def test_faces_only_and_backs_only_pdfs_hold_one_side_each(game, tmp_path):
    fronts = print_game(game, out=tmp_path / "f.pdf", order="faces-only")
    backs = print_game(game, out=tmp_path / "b.pdf", order="backs-only")
    assert len(PdfReader(fronts).pages) == 1 + 6 and len(PdfReader(backs).pages) == 6
    front_text = [line.text for line in text_lines(fronts)]
    back_text = [line.text for line in text_lines(backs)]
    assert not any("backs for face sheet" in t for t in front_text)
    assert not any("face sheet" in t and " of 6 ·" in t and "back:" in t for t in back_text)
    for n in range(1, 7):
        assert any(
            f"face sheet {n} of 6 · back: page {n} of the backs-only file" in t for t in front_text
        )
        assert any(f"backs for face sheet {n} of 6" in t for t in back_text)


def test_the_cli_default_alternates_and_says_so(tmp_path):
    from typer.testing import CliRunner

    from cardlab.cli import app

    out = tmp_path / "rw.pdf"
    run = CliRunner().invoke(app, ["print", "runway", "--out", str(out)])
    assert run.exit_code == 0, run.output
    assert "print it all two-sided" in run.output
    old = CliRunner().invoke(
        app, ["print", "runway", "--interleaved", "--out", str(tmp_path / "i.pdf")]
    )
    assert old.exit_code == 0 and len(PdfReader(tmp_path / "i.pdf").pages) == len(
        PdfReader(out).pages
    )
    both = CliRunner().invoke(app, ["print", "runway", "--faces-only", "--backs-only"])
    assert both.exit_code == 2 and "exclude each other" in both.output
