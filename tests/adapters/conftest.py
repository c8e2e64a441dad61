"""Shared cases for the adapter tests: every game that has an engine and an
encoding, at every player count, plus the toy game: the `cardlab new-game`
template (its encoding.py included), scaffolded into a temporary directory and
registered in-process the way any game is found, through its `GameInfo`. Its
option `sabotage` is on: hidden hands and a hidden deck, a simultaneous
face-down pick (engine-sequentialised, decision kind "pick"), an extra decision
by one seat out of turn (the round's winner picks a seat to lose a point),
uneven decision counts per seat and points that move mid-game."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from cardlab.adapters.encoding import has_encoding
from cardlab.core import Game
from cardlab.games import game_class, list_games, register_game, unregister_game
from cardlab.newgame import template_game

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

TOY_INFO = template_game("toyadapt", title="Toy (adapter test toy)")
ToyGame = TOY_INFO.game_class()
toy_actions = importlib.import_module(f"{TOY_INFO.package}.actions")


def toy(players: int) -> Game:
    return ToyGame(players, sabotage=True)


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy is registered only while an adapter test runs: registered at
    collection, it would join every other folder's list of discovered games."""
    register_game(TOY_INFO)
    yield
    unregister_game(TOY_INFO.name)


def cases() -> list[tuple[str, int]]:
    out = [("toy", n) for n in (2, 3, 4)]
    for name in list_games():
        if name == TOY_INFO.name or not has_encoding(name):
            continue
        cls = game_class(name)
        out += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


def make(name: str, players: int) -> dict[str, str | int | Game]:
    """The adapters' game arguments: a registry name and count, or the toy Game object."""
    return {"game": toy(players)} if name == "toy" else {"game": name, "players": players}


CASES = cases()
IDS = [f"{g}-{n}p" for g, n in CASES]
