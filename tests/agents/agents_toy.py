"""The agent tests' toy game is the `cardlab new-game` template ("lay one secret
card a round, the highest scores"), scaffolded into a temporary directory, with
its option `sabotage` on: hidden hands, hidden face-down cards, a hidden deck,
a decision out of turn (the round's winner picks a seat to lose a point) and
`resample_from_infostate`; `position` sets up hands whose best move is known.

Its cards are numbered as they score: card i (tc{i:02}) has value i, 0..15."""

from __future__ import annotations

import importlib
from typing import Any

from cardlab.core import Game, GameState
from cardlab.newgame import template_game

INFO = template_game("toybids", title="Toy Bids (agents' test toy)")
ToyGame = INFO.game_class()
_scenarios = importlib.import_module(f"{INFO.package}.scenarios")
_actions = importlib.import_module(f"{INFO.package}.actions")

TOP = 15
"""The highest card (and its value)."""


def toy(players: int, **options: Any) -> Game:
    """The template game with `sabotage` on (unless `options` say otherwise)."""
    return ToyGame(players, **({"sabotage": True} | options))


def position(players: int, hands: list[list[int]], points: list[int], **kw: Any) -> GameState:
    """`scenarios.position` on the toy: a hand-made position in the last round."""
    return _scenarios.position(toy(players), hands, points, **kw)


def sabotage_action(game: Game, seat: int) -> int:
    return int(_actions.sabotage_action(game.cards, seat))
