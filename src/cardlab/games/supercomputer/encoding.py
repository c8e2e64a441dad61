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

import numpy as np

from cardlab.adapters.encoding import Writer, game_cache, rel, rotate, seat_names, sparse_vector
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


# -- the fast path: the same vector read off the state ------------------------------------
# `write` above is the reference (from the observation only); tests/adapters/test_encoding.py
# checks this gives the identical vector at every state of random games, every seat. Each
# value is computed as `write` computes it, so the floats match exactly.


class _Fast:
    """Block starts (read off the reference layout) and card slots, per game."""

    def __init__(self, game: Game) -> None:
        from cardlab.adapters.encoding import offsets

        at = offsets(game)
        parts, builds = _tables(game)
        t: Any = game.tables  # type: ignore[attr-defined]  # a SUPER COMPUTER game's card tables
        self.part = [parts[name] for name in t.part_names]
        self.build = [builds[name] for name in t.build_names]
        self.size = size(game)
        self.at = at
        seats = seat_names(game.num_players)
        self.seat = [
            tuple(
                at[f"{s}.{key}"]
                for key in (
                    "attached",
                    "scrap",
                    "placing",
                    "known_hand",
                    "known_hand_and_pick",
                    "builds_revealed",
                    "race_won",
                    "counts",
                )
            )
            for s in seats
        ]


@game_cache
def _fast(game: Game) -> _Fast:
    return _Fast(game)


def encode_state(state: Any, seat: int) -> np.ndarray:
    """`write(w, state.observation(seat), game)`'s vector, without the observation."""
    from cardlab.games.supercomputer.actions import cell_xy
    from cardlab.games.supercomputer.view import _set_aside, knows, pick_number

    s, game = state, state.game
    f = _fast(game)
    at, part, build = f.at, f.part, f.build
    n, me = game.num_players, seat
    idx: list[int] = []
    ext = idx.extend
    base = at["hand"]
    ext([base + part[k] for k in s.hands[me]])
    if s.pending_picks[me] >= 0:
        idx.append(at["pending_pick"] + part[s.pending_picks[me]])
    base = at["build_offer"]
    ext([base + build[b] for b in s.build_offers[me]])
    base = at["builds"]
    ext([base + build[b] for b in s.kept_builds[me]])
    base = at["returned_build"]
    ext([base + build[b] for b in s.returned_builds[me]])
    base = at["own_grid"]
    for c in s.computers[me]:
        x, y = cell_xy(c)
        x, y = x + REACH, y + REACH
        if 0 <= x < WINDOW and 0 <= y < WINDOW:
            idx.append(base + y * WINDOW + x)
    counts: list[tuple[int, list[float]]] = []
    for r in range(n):
        q = (me + r) % n
        attached, scrap, placing, known, known_pick, revealed, won, count = f.seat[r]
        ext([attached + part[k] for k in s.computers[q].values()])
        ext([scrap + part[k] for k in s.scrap_piles[q]])
        if s.to_place[q] >= 0:
            idx.append(placing + part[s.to_place[q]])
        if q != me and knows(s, me, q):
            if s.pending_picks[q] >= 0:
                ext([known_pick + part[k] for k in s.hands[q]])
                idx.append(known_pick + part[s.pending_picks[q]])
            else:
                ext([known + part[k] for k in s.hands[q]])
        ext([revealed + build[b] for b in s.revealed_builds[q]])
        ext([won + build[b] for b in s.race_won[q]])
        counts.append(
            (
                count,
                [
                    float(s.pending_picks[q] >= 0),
                    len(s.hands[q]) / 7,
                    (len(s.kept_builds[q]) + len(s.build_offers[q])) / 2,
                    s.four_way_attached[q] / 7,
                    s.scrapped_count[q] / 21,
                ],
            )
        )
    base = at["race"]
    ext([base + build[b] for b in s.race_builds])
    base = at["set_aside"]
    ext([base + part[k] for k in _set_aside(s)])
    phase = s.decision_kind()
    if phase in PHASES:
        idx.append(at["phase"] + PHASES.index(phase))
    if 0 <= s.round_index < 3:
        idx.append(at["round"] + s.round_index)
    if s.to_move is not None and s.to_move >= 0:
        idx.append(at["current_seat"] + (s.to_move - me) % n)
    val = [1.0] * len(idx)
    np_, nb = len(f.part), len(f.build)
    counts.append(
        (
            at["table"],
            [
                pick_number(s) / 7,
                float(game.pass_direction[s.round_index] != 1),
                len(s.part_deck) / np_,
                len(s.build_deck) / nb,
            ],
        )
    )
    counts.append((at["scores/100"], [s.points[(me + r) % n] / 100 for r in range(n)]))
    return sparse_vector(f.size, idx, val, counts)
