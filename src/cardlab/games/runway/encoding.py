"""RUNWAY observation vector (fixed size for a player count), for the adapters.

Built from ``observation(p)`` only. Seats are relative (``you``, ``seat+1``, ...).
Capital cards are one-hot by card: 4 kinds x 8 cards = 32 slots, kinds in rule
order, each slot named by the card's printed name (``Cash 3``; the card file may
print other numbers, see cards.py). Counts are scaled to
about [0, 1] and clipped; each block's name says its divisor. Divisors that
depend on the card file (the Shock count: Shocks under a Deal, the Deal deck)
are read from it, so a variant with 0-12 Shocks keeps the same size and range.

Every block is named where it is written below; ``cardlab.adapters.encoding.layout(game)``
gives the block names and slices, ``feature_names(game)`` one name per slot.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cardlab.adapters.encoding import Writer, rel, rotate, seat_names
from cardlab.core import Game

PHASES = ("pitch", "trade", "over")
ROLES = ("match", "cash", "ride")


def size(game: Game) -> int:
    n = game.num_players
    return 32 * 3 + 32 * (n - 1) + 32 * n + 3 * n + 16 + 3 + 6 + 2 * n + n * n + 5 * n + 8 * n


@cache
def _card_slots(names: tuple[str, ...]) -> dict[str, int]:
    """``"Cash 3"`` -> its slot: the card's number (0-31, kinds in rule order), named
    by its printed name from the card file."""
    return {name: i for i, name in enumerate(names)}


def _cards(w: Writer, name: str, game: Game, views: list[dict[str, Any]]) -> None:
    slots = _card_slots(game.cards.capital_names)
    block = w.block(name, slots)
    for v in views:
        block[slots[v["name"]]] = 1.0


def _deal(w: Writer, name: str, game: Game, deal: dict[str, Any] | None) -> None:
    sectors = list(game.cards.sectors)
    w.scaled(f"{name}.present", [deal is not None], 1)
    w.one_hot(f"{name}.sector", sectors, sectors.index(deal["sector"]) if deal else None)
    most = max(1, len(game.cards.shock_cards))
    values = (
        [deal["score"] / 5, deal["hype"] / 3, deal.get("shocks", 0) / most] if deal else [0] * 3
    )
    w.scaled(name, values, 1, ("score/5", "hype/3", f"shocks/{most}"))


def write(w: Writer, obs: dict[str, Any], game: Game) -> None:
    """Write one seat's RUNWAY observation into `w` (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    sectors = list(game.cards.sectors)
    deck = len(game.cards.deals) + len(game.cards.shock_cards)
    seats = seat_names(n)
    _cards(w, "hand", game, obs["hand"])
    _cards(w, "bench", game, obs["bench"])
    _cards(w, "discard", game, obs["discard"])
    for q in range(1, n):
        _cards(
            w, f"{seats[q]}.known_in_hand", game, obs["known_in_hands"].get(str((me + q) % n), [])
        )
    pitched = {rel(p["seat"], me, n): p for p in obs["pitched"]}
    for q in range(n):
        _cards(w, f"{seats[q]}.pitched", game, [pitched[q]["card"]] if q in pitched else [])
    for q in range(n):
        role = ROLES.index(pitched[q]["role"]) if q in pitched else None
        w.one_hot(f"{seats[q]}.pitch_role", ROLES, role)
    _deal(w, "deal_in_play", game, obs["deal_in_play"])
    _deal(w, "next_deal", game, obs["next_deal"])
    w.one_hot("phase", PHASES, PHASES.index(obs["phase"]))
    w.scaled(
        "table",
        [
            obs["hype"] / 10,
            obs["hype_bonus"] / 2,
            obs["deal_deck_count"] / deck,
            obs["deals_closed"] / 12,
            obs["draw_pile_count"] / 32,
            len(obs["dumped"]) / 12,
        ],
        1,
        (
            "hype/10",
            "hype_bonus/2",
            f"deal_deck/{deck}",
            "deals_closed/12",
            "draw_pile/32",
            "dumped/12",
        ),
    )
    w.one_hot("current_seat", seats, rel(obs["current_player"], me, n))
    w.one_hot("last_seat", seats, rel(obs["last_seat"], me, n))
    order = [rel(s, me, n) for s in obs["pitch_order"]]
    for q in range(n):
        w.one_hot(f"{seats[q]}.pitch_position", n, order.index(q) if q in order else None)
    w.scaled("reputation/40", rotate(obs["reputation"], me), 40, seats)
    w.scaled("hand_size/10", rotate(obs["hand_sizes"], me), 10, seats)
    for q, f in enumerate(rotate(obs["footholds"], me)):
        w.scaled(f"{seats[q]}.footholds/4", [f[s] for s in sectors], 4, sectors)
    w.scaled("footholds_left/8", rotate(obs["footholds_left"], me), 8, seats)
    w.scaled("sectors_locked/4", rotate(obs["sectors_locked"], me), 4, seats)
    w.scaled("rides_paid/12", rotate(obs["rides_paid"], me), 12, seats)
    for q, won in enumerate(rotate(obs["deals_won"], me)):
        counts = [sum(d["sector"] == s for d in won) for s in sectors]
        w.scaled(f"{seats[q]}.deals_won/3", counts, 3, sectors)
