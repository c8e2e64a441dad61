"""UPTIME observation vector (fixed size for a player count and card set).

Built from ``observation(p)`` only. Cards are one-hot by id over the card
file's ids (C = 54 packaged); card names (for the known bottom of the Build
Deck and payments) over the distinct names. Seats are relative (slot 0 = the
observer). Counts are scaled to about [0, 1] and clipped.

Blocks, in order (n = players, K = distinct names, M = 4 materials):
  hand C | Build Row 4 x (card C, reserved by n) | supply discard C |
  build discard C | removed twists C | known Build Deck bottom K |
  per seat n x (tableau C, hand materials/26, patches/2, known materials M (/6),
  computers/4, milestone computers/5, contracts/6, draw-pass actions/30,
  turns/40, tower discount, points by source 5 (/20)) |
  auction 1 + C + n + 1 + n + n (present, contract, opener, high bid/24,
  high bidder, still to answer) | payment 1 + n + 1 + 1 + K (present, payer,
  for an auction, remaining/4, paid names) | decision kind 7 | phase 3 |
  round/40, supply shortage pending, end triggered, build deck/28, supply deck/26 |
  first seat n | seat whose turn n | current seat n | scores/40 n
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from cardlab.adapters.encoding._util import Writer, rel, rotate
from cardlab.core import Game
from cardlab.games.uptime.actions import DECISION_NAMES

DECISIONS = DECISION_NAMES  # the engine's own list, so the two cannot drift
PHASES = ("play", "final_round", "over")
SOURCES = ("computers", "network", "contracts", "leftovers", "total")


@cache
def _index(items: tuple[str, ...]) -> dict[str, int]:
    return {x: i for i, x in enumerate(items)}


def _tables(game: Game) -> tuple[dict[str, int], dict[str, int], list[str]]:
    ids = _index(tuple(game.cards.ids))
    names = _index(tuple(sorted(set(game.cards.name))))
    return ids, names, list(game.cards.material_names)


def _per_seat(c: int, m: int) -> int:
    return c + 2 + m + 6 + len(SOURCES)


def size(game: Game) -> int:
    n = game.num_players
    ids, names, mats = _tables(game)
    c, k, m = len(ids), len(names), len(mats)
    return (
        c + 4 * (c + n) + 3 * c + k + n * _per_seat(c, m)
        + (1 + c + n + 1 + 2 * n) + (1 + n + 2 + k) + 7 + 3 + 5 + 4 * n
    )  # fmt: skip


def _ids(w: Writer, ids: dict[str, int], cards: list[dict[str, Any]]) -> None:
    block = w.block(len(ids))
    for card in cards:
        block[ids[card["id"]]] = 1.0


def _names(w: Writer, names: dict[str, int], items: list[str]) -> None:
    block = w.block(len(names))
    for name in items:
        block[names[name]] += 1.0 / 4


def encode(obs: dict[str, Any], game: Game) -> np.ndarray:
    """The vector for one seat's UPTIME observation (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    ids, names, mats = _tables(game)
    w = Writer(size(game))
    _ids(w, ids, obs["hand"])
    for slot in obs["build_row"]:
        _ids(w, ids, [slot["card"]] if slot["card"] else [])
        w.one_hot(n, rel(slot["reserved_by"], me, n))
    for key in ("supply_discard", "build_discard", "removed_twists"):
        _ids(w, ids, obs[key])
    _names(w, names, obs["build_deck_bottom_known"])
    for seat in rotate(obs["players"], me):
        _ids(w, ids, seat["tableau"])
        w.scaled([seat["hand_materials"] / 26, seat["hand_patches"] / 2], 1)
        w.scaled([seat["known_materials"].get(m, 0) for m in mats], 6)
        w.scaled([seat["computers"] / 4, seat["milestone_computers"] / 5, seat["contracts"] / 6], 1)
        w.scaled([seat["draw_pass_actions"] / 30, seat["turns"] / 40, seat["tower_discount"]], 1)
        w.scaled([seat["points"][s] for s in SOURCES], 20)
    auction = obs["auction"]
    w.scaled([auction is not None], 1)
    _ids(w, ids, [auction["contract"]] if auction else [])
    w.one_hot(n, rel(auction["opener"], me, n) if auction else None)
    w.scaled([(auction["high_bid"] or 0) if auction else 0], 24)
    w.one_hot(n, rel(auction["high_bidder"], me, n) if auction else None)
    waiting = w.block(n)
    for s in auction["still_to_answer"] if auction else []:
        waiting[rel(s, me, n)] = 1.0
    pay = obs["payment"]
    w.scaled([pay is not None], 1)
    w.one_hot(n, rel(pay["payer"], me, n) if pay else None)
    w.scaled([pay is not None and pay["for"] == "auction", (pay["remaining"] if pay else 0) / 4], 1)
    _names(w, names, pay["paid"] if pay else [])
    w.one_hot(7, DECISIONS.index(obs["decision_kind"]))
    w.one_hot(3, PHASES.index(obs["phase"]))
    w.scaled(
        [obs["round"] / 40, obs["supply_shortage_pending"], obs["end_triggered"] is not None], 1
    )
    w.scaled([obs["build_deck_count"] / 28, obs["supply_deck_count"] / 26], 1)
    w.one_hot(n, rel(obs["first_player"], me, n))
    w.one_hot(n, rel(obs["turn_of"], me, n))
    w.one_hot(n, rel(obs["current_player"], me, n))
    w.scaled(rotate(obs["scores"], me), 40)
    return w.done()
