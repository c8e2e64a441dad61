"""One fixed-size observation vector per game, shared by every adapter.

Each game owns its encoding, as the module ``encoding`` of its package under the
one layout (``cardlab/games/<game>/encoding.py``, found through
``game_info(name).module("encoding")``), with

- ``size(game) -> int``: the vector length for that game's player count;
- ``write(w, obs, game)``: writes ``state.observation(p)`` into a `Writer` as
  named blocks of float32 values in [-1, 1]. The vector is computed from the
  observation *only*, so it can carry nothing the seat may not know: the
  engines test the observation to be unchanged by ``resample_from_infostate``.
- optionally ``encode_state(state, p) -> np.ndarray``: the same vector read
  straight off the engine's state, without building the observation dict (its
  public log and card views cost more than the vector). `write` stays the
  reference: tests/adapters/test_encoding.py checks the two give identical
  vectors at every state of random games, every seat, so the fast path can
  show nothing the observation does not.

This package holds what every game's encoding shares: the `Writer` (named
blocks, so the layout is read from the code, never written twice), seat
rotation, and the functions the adapters call: `encode_state`, `encode`,
`layout` (block name -> slice) and `feature_names` (one name per slot).

Why one module per game and not a generic encoder: the observation dicts differ
per game, and a learner needs stable, meaningful slots (card one-hots, counts),
not a hash of JSON.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from cardlab.adapters.encoding.writer import Block, Writer, rel, rotate, seat_names
from cardlab.core import Game, GameState
from cardlab.core.errors import CardlabError

LOW, HIGH = -1.0, 1.0
"""Bounds of every encoded value (the adapters' Box spaces use them)."""

__all__ = [
    "HIGH",
    "LOW",
    "Block",
    "Encoding",
    "Writer",
    "encode",
    "encode_state",
    "encoding_for",
    "feature_names",
    "game_cache",
    "layout",
    "offsets",
    "rel",
    "rotate",
    "seat_names",
]


@dataclass(frozen=True)
class Encoding:
    """A game's encoding module, as the adapters use it."""

    module: ModuleType

    def size(self, game: Game) -> int:
        return int(self.module.size(game))

    def encode(self, obs: dict[str, Any], game: Game) -> np.ndarray:
        w = Writer(self.size(game))
        self.module.write(w, obs, game)
        return w.done()

    def encode_state(self, state: GameState, player: int) -> np.ndarray:
        """`player`'s vector: the game's fast path when it has one, else via `encode`."""
        fast = getattr(self.module, "encode_state", None)
        if fast is not None:
            return fast(state, player)  # type: ignore[no-any-return]
        return self.encode(state.observation(player), state.game)

    def encode_reference(self, state: GameState, player: int) -> np.ndarray:
        """Always through the observation dict (`write`): what the fast path must equal."""
        return self.encode(state.observation(player), state.game)


@cache
def _encoding(name: str) -> Encoding:
    from cardlab.core.registry import game_info

    module = game_info(name).module("encoding")
    if module is None:
        raise CardlabError(
            f"game {name!r} has no observation encoding (an encoding.py in its package)"
        )
    return Encoding(module)


def encoding_for(game: Game) -> Encoding:
    """The encoding of `game`, from its package's ``encoding`` module."""
    return _encoding(game.name)


def has_encoding(name: str) -> bool:
    from cardlab.core.registry import game_info

    return game_info(name).module("encoding") is not None


def encode(obs: dict[str, Any], game: Game) -> np.ndarray:
    """The vector of one observation (`state.observation(p)`) of `game`."""
    return encoding_for(game).encode(obs, game)


def encode_state(state: GameState, player: int) -> np.ndarray:
    """The vector of `player`'s observation of `state` (the game's fast path if any)."""
    return encoding_for(state.game).encode_state(state, player)


T = TypeVar("T")


def sparse_vector(
    size: int,
    idx: list[int],
    val: list[float],
    scaled: list[tuple[int, list[float]]],
) -> np.ndarray:
    """The fast paths' vector: the set slots `idx` (values `val`) plus each block of
    `scaled` values from its base slot, every value clipped to [-1, 1] (the declared
    bounds), zeros elsewhere. One place so the games' fast paths clip alike."""
    for base, values in scaled:
        for i, v in enumerate(values):
            if v:
                idx.append(base + i)
                val.append(-1.0 if v < -1.0 else 1.0 if v > 1.0 else v)
    vec = np.zeros(size, np.float32)
    vec[idx] = val
    return vec


def game_cache(build: Callable[[Game], T]) -> Callable[[Game], T]:
    """`build(game)` once per Game object, held only while the game lives (a weak-keyed
    cache: a lab that makes many games, e.g. one per card file, does not keep them all)."""
    made: weakref.WeakKeyDictionary[Game, T] = weakref.WeakKeyDictionary()

    def get(game: Game) -> T:
        try:
            return made[game]
        except KeyError:
            out = made[game] = build(game)
            return out

    get.__doc__ = build.__doc__
    return get


def offsets(game: Game) -> dict[str, int]:
    """Block name -> its first slot: where a fast path writes each block, read off the
    reference encoder's layout so the two cannot place a block differently."""
    return {b.name: b.start for b in _blocks(game)}


def _blocks(game: Game) -> list[Block]:
    enc = encoding_for(game)
    w = Writer(enc.size(game), record=True)
    # the layout does not depend on what is observed: read it off any observation
    enc.module.write(w, game.new_initial_state(0).observation(0), game)
    w.done()
    assert w.blocks is not None
    names = [b.name for b in w.blocks]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise AssertionError(f"{game.name} encoding names two blocks alike: {dup}")
    return w.blocks


def layout(game: Game) -> dict[str, slice]:
    """Block name -> its slots in the vector, in vector order (`game`'s player count)."""
    return {b.name: b.slice for b in _blocks(game)}


def feature_names(game: Game) -> list[str]:
    """One name per slot of the vector, e.g. ``hand[up07]`` or ``reputation/40[seat+1]``."""
    return [name for b in _blocks(game) for name in b.feature_names()]


def blocks(game: Game) -> list[Block]:
    """The named blocks of the vector (name, start, width, slot names)."""
    return _blocks(game)
