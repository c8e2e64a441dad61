"""The game registry. Each game is a package exposing `GAME` (its Game class)
and a `render` module with `render_text(state, seat)` and `render_final(state)`."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from cardlab.core import Game
from cardlab.core.errors import CardlabError

_PACKAGES = {
    "uptime": "cardlab.games.uptime",
    "runway": "cardlab.games.runway",
    "supercomputer": "cardlab.games.supercomputer",
}


class UnknownGameError(CardlabError):
    """A game name cardlab does not know."""


def list_games() -> list[str]:
    """Names of the games this installation provides."""
    return [name for name, mod in _PACKAGES.items() if importlib.util.find_spec(mod) is not None]


def game_module(name: str) -> ModuleType:
    if name not in list_games():
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(list_games())}")
    return importlib.import_module(_PACKAGES[name])


def game_class(name: str) -> type[Game]:
    cls: type[Game] = game_module(name).GAME
    return cls


def load_game(
    name: str, players: int | None = None, cards: str | Path | None = None, **options: Any
) -> Game:
    """Make a game: `load_game("uptime", players=4, patch_cost=0)`."""
    cls = game_class(name)
    if players is None:
        players = getattr(cls, "default_players", cls.min_players)
    return cls(players, cards=cards, **options)


def render_module(name: str) -> ModuleType:
    return importlib.import_module(_PACKAGES[name] + ".render")
