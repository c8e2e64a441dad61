"""RUNWAY observation vector (fixed size for a player count).

Built from ``observation(p)`` only. Seats are relative (slot 0 = the observer).
Capital cards are one-hot by (kind, number): 4 kinds x 8 numbers = 32 slots,
kinds in card-file order. Counts are scaled to about [0, 1] and clipped.

Blocks, in order (n = players):
  hand 32 | Bench 32 | discard 32 | known cards in each other hand (n-1) x 32 |
  pitched card per seat n x 32 | pitch role per seat n x 3 (match, cash, ride) |
  deal in play 1+4+3 | next deal 1+4+3 (present, sector one-hot, score/5,
  hype/3, shocks/6) | phase 3 | hype/10, hype bonus/2, deal deck/18, deals closed/12,
  draw pile/32, dumped/12 | current seat n | last seat n | pitch position per seat n x n |
  reputation/40 n | hand size/10 n | footholds per seat x sector/4 n x 4 |
  footholds left/8 n | sectors locked/4 n | rides paid/12 n | deals won per seat x sector/3 n x 4
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardlab.adapters.encoding._util import Writer, rel, rotate
from cardlab.core import Game

PHASES = ("pitch", "trade", "over")
ROLES = ("match", "cash", "ride")


def size(game: Game) -> int:
    n = game.num_players
    return 32 * 3 + 32 * (n - 1) + 32 * n + 3 * n + 16 + 3 + 6 + 2 * n + n * n + 5 * n + 8 * n


def _card(game: Game, view: dict[str, Any]) -> int:
    kinds = [k.name for k in game.cards.kinds]
    return kinds.index(view["kind"]) * 8 + view["number"] - 1


def _cards(w: Writer, game: Game, views: list[dict[str, Any]]) -> None:
    block = w.block(32)
    for v in views:
        block[_card(game, v)] = 1.0


def _deal(w: Writer, game: Game, deal: dict[str, Any] | None) -> None:
    w.scaled([deal is not None], 1)
    w.one_hot(4, list(game.cards.sectors).index(deal["sector"]) if deal else None)
    w.scaled(
        [deal["score"] / 5, deal["hype"] / 3, deal.get("shocks", 0) / 6] if deal else [0] * 3, 1
    )


def encode(obs: dict[str, Any], game: Game) -> np.ndarray:
    """The vector for one seat's RUNWAY observation (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    sectors = list(game.cards.sectors)
    w = Writer(size(game))
    _cards(w, game, obs["hand"])
    _cards(w, game, obs["bench"])
    _cards(w, game, obs["discard"])
    for q in range(1, n):
        _cards(w, game, obs["known_in_hands"].get(str((me + q) % n), []))
    pitched = {rel(p["seat"], me, n): p for p in obs["pitched"]}
    for q in range(n):
        _cards(w, game, [pitched[q]["card"]] if q in pitched else [])
    for q in range(n):
        w.one_hot(3, ROLES.index(pitched[q]["role"]) if q in pitched else None)
    _deal(w, game, obs["deal_in_play"])
    _deal(w, game, obs["next_deal"])
    w.one_hot(3, PHASES.index(obs["phase"]))
    w.scaled([obs["hype"] / 10, obs["hype_bonus"] / 2, obs["deal_deck_count"] / 18], 1)
    w.scaled([obs["deals_closed"] / 12, obs["draw_pile_count"] / 32, len(obs["dumped"]) / 12], 1)
    w.one_hot(n, rel(obs["current_player"], me, n))
    w.one_hot(n, rel(obs["last_seat"], me, n))
    order = [rel(s, me, n) for s in obs["pitch_order"]]
    for q in range(n):
        w.one_hot(n, order.index(q) if q in order else None)
    w.scaled(rotate(obs["reputation"], me), 40)
    w.scaled(rotate(obs["hand_sizes"], me), 10)
    for f in rotate(obs["footholds"], me):
        w.scaled([f[s] for s in sectors], 4)
    w.scaled(rotate(obs["footholds_left"], me), 8)
    w.scaled(rotate(obs["sectors_locked"], me), 4)
    w.scaled(rotate(obs["rides_paid"], me), 12)
    for won in rotate(obs["deals_won"], me):
        w.scaled([sum(d["sector"] == s for d in won) for s in sectors], 3)
    return w.done()
