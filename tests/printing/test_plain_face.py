"""The plain face (a game without art.py) prints a playable card: every field the card
declares (numbers, text, true/false, icons named in the card data) is on it, at a
size legible at 9-up; a field it cannot show is refused naming game, card and field."""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel

from cardlab.art.plain import MIN_TEXT, PlainArt, PlainFaceError


class Card(BaseModel):
    id: str
    name: str
    value: int
    heads: int = 1
    icons: list[str] = []
    text: str = ""
    wild: bool = False


def _sizes(svg: str) -> list[float]:
    return [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]


def test_every_declared_field_is_on_the_face() -> None:
    art = PlainArt("Six", game="sixnimmt")
    card = Card(id="nm55", name="Bull", value=55, heads=7, icons=["star", "bull"],
                text="Take the row.", wild=True)  # fmt: skip
    (face,) = art.faces([card])
    svg = art.card_svg(face)
    for shown in (">Bull<", ">55<", ">heads<", ">7<", ">wild<", ">yes<", "Take the row.",
                  ">bull<", ">nm55<"):  # fmt: skip
        assert shown in svg, shown
    assert svg.count(">55<") == 3  # the rank in the middle and in two corners
    assert "<polygon" in svg and ">star<" not in svg  # a known icon is drawn, not named
    assert min(_sizes(svg)) >= MIN_TEXT  # legible on a printed card


def test_a_field_the_face_cannot_show_names_game_card_and_field() -> None:
    class Nested(BaseModel):
        id: str
        name: str
        cost: dict[str, int]

    with pytest.raises(PlainFaceError, match=r"game 'sixnimmt': card 'nm01': field 'cost'"):
        PlainArt("Six", game="sixnimmt").faces([Nested(id="nm01", name="X", cost={"a": 1})])


def test_text_too_long_for_the_face_names_game_card_and_field() -> None:
    art = PlainArt("Six", game="sixnimmt")
    (face,) = art.faces([Card(id="nm02", name="Long", value=1, text="word " * 400)])
    with pytest.raises(PlainFaceError, match=r"game 'sixnimmt': card 'nm02': field 'text'"):
        art.card_svg(face)


def test_a_standard_decks_suit_letter_is_drawn_as_its_suit() -> None:
    class Playing(BaseModel):
        id: str
        name: str
        suit: str
        rank: int

    art = PlainArt("Deck", game="deck")
    (face,) = art.faces([Playing(id="h12", name="Q♥", suit="h", rank=12)])
    svg = art.card_svg(face)
    assert '<path d="M' in svg and 'fill="#c22"' in svg and ">h<" not in svg  # a red heart
    assert svg.count(">12<") == 3
