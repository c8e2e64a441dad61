"""The card art: one SVG template set per game, shared by the print sheets and
the browser table.

Each game module offers `faces(game.cards) -> list[<Game>Face]` (plain records
built from the engine's validated card data), `card_art(face) -> CardArt` and
`card_svg(face) -> str` (a standalone SVG at 63 x 88 mm), `BACKS` (the deck
kinds, each with its own back) and `back_art(back) -> CardArt`. Nothing here
knows about paper or PDF."""

from __future__ import annotations

import importlib
from types import ModuleType

from cardlab.art.errors import CardTextOverflowError
from cardlab.art.face import Face
from cardlab.art.svg import CARD_H, CARD_W, CardArt
from cardlab.core.errors import CardlabError

__all__ = ["CARD_H", "CARD_W", "CardArt", "CardTextOverflowError", "Face", "game_art"]

_MODULES = {
    "uptime": "cardlab.art.uptime",
    "runway": "cardlab.art.runway",
    "supercomputer": "cardlab.art.supercomputer",
}


def game_art(name: str) -> ModuleType:
    """The art module of game `name`."""
    if name not in _MODULES:
        raise CardlabError(f"no card art for game {name!r}; games with art: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[name])
