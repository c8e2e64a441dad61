"""Page planning: faces nine to a sheet; in the `separate` order one back sheet
per deck kind, and a matching back sheet for a face sheet that mixes decks."""

from __future__ import annotations

import pytest

from cardlab.art.face import Face
from cardlab.core.errors import CardDataError
from cardlab.printing.plan import plan_pages


def deck(back: str, n: int, start: int = 0) -> list[Face]:
    return [Face(f"x{start + i:02d}", f"{back} {i}", back, back) for i in range(n)]


def test_uptime_shape_six_face_sheets_and_a_mixed_back() -> None:
    faces = deck("Supply", 26) + deck("Build", 28, 26)
    plan = plan_pages(faces, ("Supply", "Build"), "separate")
    assert [len(s.faces) for s in plan.face_sheets] == [9] * 6
    assert [b.label for b in plan.back_sheets] == [
        "Supply backs",
        "Build backs",
        "mixed backs for face sheet 3",
    ]
    assert plan.page_count == 1 + 6 + 3
    # face pages 2..7; Supply backs page 8, Build backs page 9, mixed page 10
    assert [s.back_page for s in plan.face_sheets] == [8, 8, 10, 9, 9, 9]
    mixed = plan.back_sheets[2]
    assert mixed.backs == ("Supply",) * 8 + ("Build",)
    assert plan.back_sheets[0].face_sheets == (0, 1)
    assert plan.back_sheets[1].face_sheets == (3, 4, 5)


def test_faces_are_grouped_by_deck_in_back_order_and_none_is_lost() -> None:
    faces = deck("Build", 4) + deck("Part", 12, 4)
    plan = plan_pages(faces, ("Part", "Build"))
    packed = [f for s in plan.face_sheets for f in s.faces]
    assert sorted(f.id for f in packed) == sorted(f.id for f in faces)
    assert [f.back for f in packed] == ["Part"] * 12 + ["Build"] * 4
    assert plan.back_sheets[-1].backs == ("Part",) * 3 + ("Build",) * 4 + ("",) * 2


def test_one_back_for_all() -> None:
    plan = plan_pages(deck("Runway", 54), ("Runway",), "separate")
    assert plan.page_count == 8
    assert len(plan.back_sheets) == 1
    assert plan.back_sheets[0].face_sheets == tuple(range(6))


def test_interleaved_false_is_the_old_separate_order() -> None:
    plan = plan_pages(deck("Runway", 54), ("Runway",), interleaved=False)
    assert plan.order == "separate" and plan.page_count == 8


def test_an_unknown_order_is_refused_by_name() -> None:
    from cardlab.printing.plan import PrintOrderError

    with pytest.raises(PrintOrderError, match="unknown page order 'both'.*faces-only"):
        plan_pages(deck("Runway", 9), ("Runway",), "both")


def test_a_card_with_an_unknown_back_is_refused() -> None:
    with pytest.raises(CardDataError, match="no known back: Joker"):
        plan_pages(deck("Joker", 1), ("Supply", "Build"))
