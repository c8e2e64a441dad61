"""SUPER COMPUTER observation vector (fixed size for a player count and card
set), for the adapters.

Built from ``observation(p)`` only. Parts (P, 35 packaged) and builds (B, 14)
are one-hot by their index in the card files, found by name (slots are named
by the card). Seats are relative (``you``, ``seat+1``, ...). Positions of
attached parts are given for the observer's own computer (a 13 x 13 occupancy
window centred on the first part, slot ``(x,y)``), since that is where its
placements go; other computers are given as sets of parts.

Every block is named where it is written below; ``cardlab.adapters.encoding.layout(game)``
gives the block names and slices, ``feature_names(game)`` one name per slot.
The draft, build choice and placement are simultaneous in the rulebook; the
game declares them so (``DecisionKind.simultaneous``) for the parallel env.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cardlab.adapters.encoding import Writer, rel, rotate, seat_names
from cardlab.core import Game

PHASES = ("choose_build", "pick", "place", "over")
REACH = 6  # placements stay within -6..6 (seven parts a round)
WINDOW = 2 * REACH + 1
CELLS = tuple(f"({x - REACH},{y - REACH})" for y in range(WINDOW) for x in range(WINDOW))


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


def _set(w: Writer, name: str, index: dict[str, int], names: list[str]) -> None:
    block = w.block(name, index)
    for card in names:
        block[index[card]] = 1.0


def write(w: Writer, obs: dict[str, Any], game: Game) -> None:
    """Write one seat's SUPER COMPUTER observation into `w` (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    parts, builds = _tables(game)
    np_, nb = len(parts), len(builds)
    seats = seat_names(n)
    you = obs["you"]
    _set(w, "hand", parts, [c["name"] for c in you["hand"]])
    _set(w, "pending_pick", parts, [you["pending_pick"]["name"]] if you["pending_pick"] else [])
    for key in ("build_offer", "builds", "returned_build"):
        _set(w, key, builds, [c["name"] for c in you[key]])
    grid = w.block("own_grid", CELLS)
    for placed in obs["players"][me]["computer"]:
        x, y = placed["x"] + REACH, placed["y"] + REACH
        if 0 <= x < WINDOW and 0 <= y < WINDOW:
            grid[y * WINDOW + x] = 1.0
    for q, seat in enumerate(rotate(obs["players"], me)):
        s = seats[q]
        _set(w, f"{s}.attached", parts, [c["card"]["name"] for c in seat["computer"]])
        _set(w, f"{s}.scrap", parts, [c["name"] for c in seat["scrap"]])
        _set(w, f"{s}.placing", parts, [seat["placing"]["name"]] if seat["placing"] else [])
        _set(w, f"{s}.known_hand", parts, [c["name"] for c in seat.get("known_hand", [])])
        _set(w, f"{s}.known_hand_and_pick", parts, seat.get("known_hand_and_pick", []))
        _set(w, f"{s}.builds_revealed", builds, [c["name"] for c in seat["builds_revealed"]])
        _set(w, f"{s}.race_won", builds, [c["name"] for c in seat["race_won"]])
        w.scaled(
            f"{s}.counts",
            [
                seat["has_picked"],
                seat["hand_size"] / 7,
                seat["builds_held"] / 2,
                seat["four_way_attached"] / 7,
                seat["scrapped_total"] / 21,
            ],
            1,
            ("has_picked", "hand_size/7", "builds_held/2", "four_way_attached/7", "scrapped/21"),
        )
    _set(w, "race", builds, [c["name"] for c in obs["race"]])
    _set(w, "set_aside", parts, [c["name"] for c in obs["set_aside"]])
    w.one_hot("phase", PHASES, PHASES.index(obs["phase"]))
    w.one_hot("round", ("1", "2", "3"), obs["round"] - 1)
    w.scaled(
        "table",
        [
            obs["turn"] / 7,
            obs["passing"] == "right",
            obs["part_deck_size"] / np_,
            obs["build_deck_size"] / nb,
        ],
        1,
        ("turn/7", "passing_right", f"part_deck/{np_}", f"build_deck/{nb}"),
    )
    w.one_hot("current_seat", seats, rel(obs["current_player"], me, n))
    w.scaled("scores/100", rotate(obs["scores"], me), 100, seats)
