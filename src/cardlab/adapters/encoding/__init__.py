"""One fixed-size observation vector per game, shared by every adapter.

Each game has a module ``cardlab.adapters.encoding.<game>`` with

- ``size(game) -> int``: the vector length for that game's player count;
- ``encode(obs, game) -> np.ndarray``: float32 values in [-1, 1], computed from
  ``state.observation(p)`` *only*. The vector can therefore carry nothing the
  seat may not know: it is a function of the observation, which the engines
  test to be unchanged by ``resample_from_infostate``;
- ``SIMULTANEOUS``: decision kinds (``state.decision_kind()``) that the engine
  sequentialises but the rulebook plays simultaneously. The parallel
  PettingZoo env asks every seat of such a round at once.

Why one module per game and not a generic encoder: the observation dicts differ
per game, and a learner needs stable, meaningful slots (card one-hots, counts),
not a hash of JSON.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.core import Game, GameState
from cardlab.core.errors import CardlabError

LOW, HIGH = -1.0, 1.0
"""Bounds of every encoded value (the adapters' Box spaces use them)."""


@dataclass(frozen=True)
class Encoding:
    """How the adapters turn one game's observations into vectors."""

    size: Callable[[Game], int]
    encode: Callable[[dict[str, Any], Game], np.ndarray]
    simultaneous: frozenset[str] = frozenset()


_REGISTRY: dict[str, Encoding] = {}


def register(name: str, encoding: Encoding) -> None:
    """Add an encoding for a game that has no module here (tests, new games)."""
    _REGISTRY[name] = encoding


def encoding_for(game: Game) -> Encoding:
    """The encoding of `game`, imported from ``encoding/<game.name>.py`` once."""
    if game.name not in _REGISTRY:
        try:
            mod = importlib.import_module(f"{__name__}.{game.name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game.name}":
                raise
            raise CardlabError(f"no observation encoding for game {game.name!r}") from None
        _REGISTRY[game.name] = Encoding(
            mod.size, mod.encode, frozenset(getattr(mod, "SIMULTANEOUS", ()))
        )
    return _REGISTRY[game.name]


def encode_state(state: GameState, player: int) -> np.ndarray:
    """The vector of `player`'s observation of `state`, checked for size and bounds."""
    game = state.game
    enc = encoding_for(game)
    vec = np.asarray(enc.encode(state.observation(player), game), dtype=np.float32)
    if vec.shape != (enc.size(game),):
        raise AssertionError(f"{game.name} encoding has shape {vec.shape}, not ({enc.size(game)},)")
    return vec
