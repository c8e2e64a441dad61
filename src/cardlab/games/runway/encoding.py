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

import numpy as np

from cardlab.adapters.encoding import Writer, game_cache, rel, rotate, seat_names
from cardlab.core import Game
from cardlab.games.runway.actions import DEAL0, OVER, PHASE_NAMES, PITCH_ROLE, ROLE_NAMES
from cardlab.games.runway.scoring import hype_bonus

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


# -- the fast path: the same vector read off the state ------------------------------------
# `write` above is the reference (from the observation only); tests/adapters/test_encoding.py
# checks this gives the identical vector at every state of random games, every seat. Each
# value is computed as `write` computes it (the same divisions), so the floats match exactly.


class _Fast:
    """Where each block starts (read off the reference layout), per relative seat."""

    def __init__(self, game: Game) -> None:
        from cardlab.adapters.encoding import offsets

        at = offsets(game)
        n = game.num_players
        seats = seat_names(n)
        slots = _card_slots(game.cards.capital_names)
        self.slot = [slots[name] for name in game.cards.capital_names]
        self.size = size(game)
        self.at = at
        self.known = [at.get(f"{s}.known_in_hand", -1) for s in seats]
        self.pitched = [at[f"{s}.pitched"] for s in seats]
        self.role = [at[f"{s}.pitch_role"] for s in seats]
        self.position = [at[f"{s}.pitch_position"] for s in seats]
        self.footholds = [at[f"{s}.footholds/4"] for s in seats]
        self.won = [at[f"{s}.deals_won/3"] for s in seats]


@game_cache
def _fast(game: Game) -> _Fast:
    return _Fast(game)


def encode_state(state: Any, seat: int) -> np.ndarray:
    """`write(w, state.observation(seat), game)`'s vector, without the observation."""
    s, game = state, state.game
    cards = game.cards
    f = _fast(game)
    at, slot = f.at, f.slot
    n, me = game.num_players, seat
    idx: list[int] = []
    val: list[float] = []
    ones = idx.append

    # one-hots first (value 1), then the scaled values (value and slot)
    base = at["hand"]
    idx.extend([base + slot[x] for x in s.hands[me]])
    base = at["bench"]
    idx.extend([base + slot[x] for x in s.bench])
    base = at["discard"]
    idx.extend([base + slot[x] for x in s.discard])
    known = s.publicly_known
    for q in range(1, n):
        base = f.known[q]
        idx.extend([base + slot[x] for x in s.hands[(me + q) % n] if known[x]])
    sector = s.sector_in_play
    for q, x in s.pitched:
        r = (q - me) % n
        ones(f.pitched[r] + slot[x])
        ones(f.role[r] + _ROLE_SLOT[PITCH_ROLE[sector][x]])
    deals = []
    if s.deal_in_play >= 0:
        i = s.deal_in_play - DEAL0
        ones(at["deal_in_play.present"])
        ones(at["deal_in_play.sector"] + cards.deal_sector[i])
        deals.append((at["deal_in_play"], i, len(s.shocks_in_play)))
    if s.next_deal >= 0:
        i = s.next_deal - DEAL0
        ones(at["next_deal.present"])
        ones(at["next_deal.sector"] + cards.deal_sector[i])
        deals.append((at["next_deal"], i, len(s.next_shocks)))
    ones(at["phase"] + _PHASE_SLOT[s.phase])
    current = s.current_player()
    if current >= 0:
        ones(at["current_seat"] + (current - me) % n)
    if s.last_seat is not None and s.last_seat >= 0:
        ones(at["last_seat"] + (s.last_seat - me) % n)
    if s.phase != OVER:
        position = f.position
        for k, q in enumerate(s.pitch_order):
            ones(position[(q - me) % n] + k)
    val.extend([1.0] * len(idx))

    def scaled(base: int, values: list[float]) -> None:
        for i, v in enumerate(values):
            if v:
                idx.append(base + i)
                val.append(-1.0 if v < -1.0 else 1.0 if v > 1.0 else v)

    most = max(1, len(cards.shock_cards))
    for base, i, shocks in deals:
        scaled(base, [cards.deal_score[i] / 5, cards.deal_hype[i] / 3, shocks / most])
    deck = len(cards.deals) + len(cards.shock_cards)
    scaled(
        at["table"],
        [
            s.hype / 10,
            hype_bonus(s.hype) / 2,
            len(s.deal_deck) / deck,
            s.deals_closed / 12,
            len(s.draw_pile) / 32,
            len(s.dumped) / 12,
        ],
    )
    order = [(me + q) % n for q in range(n)]
    scaled(at["reputation/40"], [s.reputation[q] / 40 for q in order])
    scaled(at["hand_size/10"], [len(s.hands[q]) / 10 for q in order])
    scaled(at["footholds_left/8"], [s.footholds_left[q] / 8 for q in order])
    scaled(at["sectors_locked/4"], [s.sectors_locked[q] / 4 for q in order])
    scaled(at["rides_paid/12"], [s.rides_paid[q] / 12 for q in order])
    sector_of = cards.deal_sector
    for r, q in enumerate(order):
        scaled(f.footholds[r], [x / 4 for x in s.footholds[q]])
        counts = [0] * len(cards.sectors)
        for d in s.deals_won[q]:
            counts[sector_of[d - DEAL0]] += 1
        scaled(f.won[r], [c / 3 for c in counts])
    vec = np.zeros(f.size, np.float32)
    vec[idx] = val
    return vec


_ROLE_SLOT = [ROLES.index(name) for name in ROLE_NAMES]
_PHASE_SLOT = [PHASES.index(name) for name in PHASE_NAMES]
