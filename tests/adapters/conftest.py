"""Shared cases for the adapter tests: every game that has an engine and an
encoding, at every player count, plus the toy game (tests/adapters/toy/),
registered in-process the way any game is found: through a `GameInfo`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardlab.adapters.encoding import has_encoding
from cardlab.core import Game
from cardlab.core.plugin import DecisionKind, GameInfo
from cardlab.games import game_class, list_games, register_game, unregister_game

from .toy import ToyGame

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

TOY = __name__.rsplit(".", 1)[0] + ".toy"
TOY_INFO = GameInfo(
    name=ToyGame.name,
    title="Toy",
    pitch="a tiny hidden-hand game for the adapter tests",
    game=f"{TOY}:ToyGame",
    package=TOY,
    min_players=2,
    max_players=4,
    default_players=2,
    decision_kinds=(
        DecisionKind("pick", (1.0, 2.0), simultaneous=True),
        DecisionKind("draw", (1.0, 2.0)),
    ),
)


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
        if name == ToyGame.name or not has_encoding(name):
            continue
        cls = game_class(name)
        out += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


def make(name: str, players: int) -> dict[str, str | int | Game]:
    """The adapters' game arguments: a registry name and count, or the toy Game object."""
    return {"game": ToyGame(players)} if name == "toy" else {"game": name, "players": players}


CASES = cases()
IDS = [f"{g}-{n}p" for g, n in CASES]
