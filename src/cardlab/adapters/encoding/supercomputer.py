"""SUPER COMPUTER observation vector (fixed size for a player count and card set).

Built from ``observation(p)`` only. Parts (P, 35 packaged) and builds (B, 14)
are one-hot by their index in the card files, found by name. Seats are
relative (slot 0 = the observer). Positions of attached parts are given for
the observer's own computer (a 13 x 13 occupancy window centred on the first
part), since that is where its placements go; other computers are given as
sets of parts.

Blocks, in order (n = players):
  your hand P | your pending pick P | build offer B | builds kept B | returned build B |
  own grid 169 | per seat n x (attached P, scrap P, placing P, known hand P,
  known hand+pick pool P, builds revealed B, builds won in the race B, has picked,
  hand size/7, builds held/2, four-way attached/7, scrapped/21) | race builds B |
  set aside P | phase 4 | round 3 | turn/7 | passing right | deck sizes/P, /B |
  current seat n | scores/100 n

This game's draft, build choice and placement are simultaneous in the rulebook;
the engine asks seats one after another, so ``SIMULTANEOUS`` names those
decision kinds for the parallel PettingZoo env.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from cardlab.adapters.encoding._util import Writer, rel, rotate
from cardlab.core import Game

SIMULTANEOUS = ("choose_build", "pick", "place")
PHASES = ("choose_build", "pick", "place", "over")
REACH = 6  # placements stay within -6..6 (seven parts a round)
WINDOW = 2 * REACH + 1


@cache
def _index(names: tuple[str, ...]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


def _tables(game: Game) -> tuple[dict[str, int], dict[str, int]]:
    parts = _index(tuple(p.name for p in game.cards.parts))
    builds = _index(tuple(b.name for b in game.cards.builds))
    return parts, builds


def _per_seat(p: int, b: int) -> int:
    return 5 * p + 2 * b + 5


def size(game: Game) -> int:
    n, p, b = game.num_players, len(game.cards.parts), len(game.cards.builds)
    return 2 * p + 3 * b + WINDOW * WINDOW + n * _per_seat(p, b) + b + p + 4 + 3 + 4 + n + n


def _set(w: Writer, width: int, index: dict[str, int], names: list[str]) -> None:
    block = w.block(width)
    for name in names:
        block[index[name]] = 1.0


def encode(obs: dict[str, Any], game: Game) -> np.ndarray:
    """The vector for one seat's SUPER COMPUTER observation (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    parts, builds = _tables(game)
    np_, nb = len(parts), len(builds)
    w = Writer(size(game))
    you = obs["you"]
    _set(w, np_, parts, [c["name"] for c in you["hand"]])
    _set(w, np_, parts, [you["pending_pick"]["name"]] if you["pending_pick"] else [])
    for key in ("build_offer", "builds", "returned_build"):
        _set(w, nb, builds, [c["name"] for c in you[key]])
    grid = w.block(WINDOW * WINDOW)
    for placed in obs["players"][me]["computer"]:
        x, y = placed["x"] + REACH, placed["y"] + REACH
        if 0 <= x < WINDOW and 0 <= y < WINDOW:
            grid[y * WINDOW + x] = 1.0
    for seat in rotate(obs["players"], me):
        _set(w, np_, parts, [c["card"]["name"] for c in seat["computer"]])
        _set(w, np_, parts, [c["name"] for c in seat["scrap"]])
        _set(w, np_, parts, [seat["placing"]["name"]] if seat["placing"] else [])
        _set(w, np_, parts, [c["name"] for c in seat.get("known_hand", [])])
        _set(w, np_, parts, seat.get("known_hand_and_pick", []))
        _set(w, nb, builds, [c["name"] for c in seat["builds_revealed"]])
        _set(w, nb, builds, [c["name"] for c in seat["race_won"]])
        w.scaled([seat["has_picked"], seat["hand_size"] / 7, seat["builds_held"] / 2], 1)
        w.scaled([seat["four_way_attached"] / 7, seat["scrapped_total"] / 21], 1)
    _set(w, nb, builds, [c["name"] for c in obs["race"]])
    _set(w, np_, parts, [c["name"] for c in obs["set_aside"]])
    w.one_hot(4, PHASES.index(obs["phase"]))
    w.one_hot(3, obs["round"] - 1)
    w.scaled([obs["turn"] / 7, obs["passing"] == "right"], 1)
    w.scaled([obs["part_deck_size"] / np_, obs["build_deck_size"] / nb], 1)
    w.one_hot(n, rel(obs["current_player"], me, n))
    w.scaled(rotate(obs["scores"], me), 100)
    return w.done()
