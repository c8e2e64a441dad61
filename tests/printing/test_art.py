"""Card templates: standalone SVGs at poker size, every field on the face,
text fitted and never clipped (overflow names the card)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from cardlab.art import CardTextOverflowError, game_art
from cardlab.art.textfit import fit_text, text_width
from cardlab.core.errors import CardDataError
from cardlab.games.runway.art import CapitalStyle, RunwayFace
from cardlab.games.supercomputer.art import BuildFace, PartFace
from cardlab.games.uptime.art import UptimeFace

SVG = "{http://www.w3.org/2000/svg}"
SAMPLE_UPTIME = [
    UptimeFace(
        "up00", "Silicon", "Supply", "raw material", "raw material", "", "Pay with it.", "", (0,)
    ),
    UptimeFace(
        "up30",
        "CPU",
        "Build",
        "Component",
        "Component",
        "Silicon + Copper",
        "Loose: 0 points.",
        "",
        (0, 1),
    ),
    UptimeFace(
        "up26", "Tower", "Build", "Computer", "Computer", "3 Components", "Next Network -1.", "5"
    ),
]
SAMPLE_PART = PartFace(
    "sc07", "Mini Board", "Part", "Motherboard", type="Motherboard",
    edges=("green", "blue", "none", "black"), size="16 GB", green=(3, 4, 5), red=(-1, -2, -3), lt4=True,
)  # fmt: skip


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_card_svg_is_a_standalone_poker_size_document() -> None:
    svg = game_art("uptime").card_svg(SAMPLE_UPTIME[1])
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "63mm",
        "88mm",
        "0 0 63 88",
    )


def test_uptime_face_shows_name_kind_cost_ability_points() -> None:
    shown = texts(game_art("uptime").card_svg(SAMPLE_UPTIME[2]))
    for expected in (
        "Tower",
        "COMPUTER",
        "COST",
        "3 Components",
        "Next Network -1.",
        "5",
        "Build · up26",
    ):
        assert expected in shown


def test_supercomputer_part_shows_connector_letters_size_rounds_and_lt4() -> None:
    shown = texts(game_art("supercomputer").card_svg(SAMPLE_PART))
    assert {"G", "B", "K"} <= set(shown) and "16 GB" in shown and "<4" in shown
    assert {"R1", "R2", "R3", "+3", "+4", "+5", "-1", "-2", "-3"} <= set(shown)
    svg = game_art("supercomputer").card_svg(SAMPLE_PART)
    assert svg.count('fill="#2b9348" stroke="#000"') == 1  # the green connector tab


def test_supercomputer_build_shows_requirements_bonus_and_penalty() -> None:
    face = BuildFace("sb00", "Rig", "Build", "Build", requires=("1x CPU", "1x GPU 12-24 GB"),
                     bonus=(6, 8, 10), penalty=(-2, -3, -4))  # fmt: skip
    shown = texts(game_art("supercomputer").card_svg(face))
    assert {"1x CPU", "1x GPU 12-24 GB", "BONUS", "PENALTY", "+10", "-4"} <= set(shown)


def test_runway_capital_shows_number_name_kind_and_line_mark() -> None:
    style = CapitalStyle("talent", "Talent", "★", "yellow", "double")
    face = RunwayFace(
        "rw27",
        "Talent 4",
        "Runway",
        "Capital",
        style=style,
        number=4,
        text="Matches Marketplace only.",
    )
    shown = texts(game_art("runway").card_svg(face))
    assert "Talent 4" in shown and "TALENT · double line" in shown and shown.count("4") == 3


def test_fit_text_shrinks_before_it_gives_up() -> None:
    big = fit_text("word " * 10, width=40, height=30, max_size=4, min_size=2, card="c", field="f")
    small = fit_text("word " * 60, width=40, height=30, max_size=4, min_size=2, card="c", field="f")
    assert small.size < big.size == 4
    assert all(text_width(line, small.size) <= 40 for line in small.lines)
    assert small.height <= 30


def test_overflowing_ability_is_reported_by_card_name_not_clipped() -> None:
    face = UptimeFace(
        "up26", "Tower", "Build", "Computer", "Computer", "3", "very long rule " * 80, "5"
    )
    with pytest.raises(CardTextOverflowError, match=r"card 'Tower': ability text does not fit"):
        game_art("uptime").card_art(face)


def test_overlong_name_is_reported_and_is_card_data_error() -> None:
    face = UptimeFace("up00", "Silicon Wafer Of Extraordinary Purity", "Supply", "raw material",
                      "raw material", "", "", "")  # fmt: skip
    with pytest.raises(CardDataError, match="card 'Silicon Wafer Of Extraordinary Purity': name"):
        game_art("uptime").card_art(face)


def test_unknown_game_has_no_art() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_art("chess")


def test_a_game_without_art_gets_the_plain_face() -> None:
    from cardlab.art import PlainArt

    art = PlainArt("Toy")

    class Card:
        def __init__(self, id: str, name: str) -> None:
            self.id, self.name = id, name

    faces = art.faces([Card("t01", "One"), Card("t02", "Two")], {})
    assert [(f.id, f.name, f.back) for f in faces] == [
        ("t01", "One", "Card"),
        ("t02", "Two", "Card"),
    ]
    svg = art.card_svg(faces[0])
    assert svg.startswith("<svg") and "One" in svg and "t01" in svg
    assert "Toy" in art.back_art().svg()
