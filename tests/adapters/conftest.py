"""Shared cases for the adapter tests: every game that has an engine and an
encoding, at every player count, plus the toy game (tests/adapters/toy.py)."""

from __future__ import annotations

import importlib.util

import pytest

from cardlab.adapters import encoding
from cardlab.core import Game
from cardlab.games import game_class, list_games

from .toy import ToyGame, toy_encode, toy_size

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

encoding.register("toy", encoding.Encoding(toy_size, toy_encode, frozenset({"pick"})))


def _encoded_games() -> list[str]:
    return [g for g in list_games() if importlib.util.find_spec(f"cardlab.adapters.encoding.{g}")]


def cases() -> list[tuple[str, int]]:
    out = [("toy", n) for n in (2, 3, 4)]
    for name in _encoded_games():
        cls = game_class(name)
        out += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


def make(name: str, players: int) -> dict[str, str | int | Game]:
    """The adapters' game arguments: a registry name and count, or the toy Game object."""
    return {"game": ToyGame(players)} if name == "toy" else {"game": name, "players": players}


CASES = cases()
IDS = [f"{g}-{n}p" for g, n in CASES]
