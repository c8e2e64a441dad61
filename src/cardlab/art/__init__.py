"""The card art: one SVG template set per game, shared by the print sheets and
the browser table.

A game's art lives in its own package (`<game>/art.py`, found through its
`GameInfo`); a game without one gets the plain face (`plain.PlainArt`).
Each art module offers `faces(game.cards) -> list[<Game>Face]` (plain records
built from the engine's validated card data), `card_art(face) -> CardArt` and
`card_svg(face) -> str` (a standalone SVG at 63 x 88 mm), `BACKS` (the deck
kinds, each with its own back) and `back_art(back) -> CardArt`. Nothing here
knows about paper or PDF."""

from __future__ import annotations

from types import ModuleType

from cardlab.art.errors import CardTextOverflowError
from cardlab.art.face import Face
from cardlab.art.plain import PlainArt
from cardlab.art.svg import CARD_H, CARD_W, CardArt

__all__ = ["CARD_H", "CARD_W", "CardArt", "CardTextOverflowError", "Face", "PlainArt", "game_art"]


def game_art(name: str) -> ModuleType | PlainArt:
    """The art module of game `name` (its `art.py`), or the plain face if it has none."""
    from cardlab.core.registry import game_info

    info = game_info(name)
    module = info.module("art")
    return module if module is not None else PlainArt(info.title, game=info.name)
