"""CRAZY EIGHTS resampling: redeal the other hands and the stock, keeping passes.

Unseen are the other seats' hands and the stock (the discard pile is public). A seat
that passed gets none of the cards it could have played when it passed; the stock
takes anything. The pool is sorted before the seeded shuffle, so the redeal depends
only on the seat's infostate and the seed. Every action is public (a draw names no card), so
the history is kept; the generator is a fresh one from the seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab_shelf.deal import redeal

if TYPE_CHECKING:
    from cardlab_shelf.crazyeights.state import CrazyEightsState


def resample(state: CrazyEightsState, player: int, seed: int) -> CrazyEightsState:
    copy = state.clone()
    n = state.game.num_players
    others = [s for s in range(n) if s != player]
    pool = list(state.stock) + [c for s in others for c in state.hands[s]]
    sizes = {s: len(state.hands[s]) for s in others} | {n: len(state.stock)}
    lacks = [set(x) for x in state.lacks]
    constrained = any(lacks[s] for s in others)

    def allowed(card: int, seat: int) -> bool:
        return seat == n or card not in lacks[seat]

    rng = random.Random(seed)
    dealt = redeal(sorted(pool), sizes, rng, allowed if constrained else None)
    for seat in others:
        copy.hands[seat] = dealt[seat]
    stock = dealt[n]
    rng.shuffle(stock)  # the stock's order is as unknown as its contents
    copy.stock = stock
    copy.rng = random.Random(rng.getrandbits(64))  # the game's would tell the next deals
    return copy
