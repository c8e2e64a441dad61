"""OH HELL resampling: redeal what a seat cannot see, keeping shown voids.

Unseen are the other seats' hands and the undealt stock (the turned-up trump card is
public). A seat that did not follow a suit gets none of it; the stock takes anything.
The pool is sorted before the seeded shuffle, so the redeal depends only on the
seat's infostate and the seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab_shelf.deal import redeal

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.state import OhHellState


def resample(state: OhHellState, player: int, seed: int) -> OhHellState:
    copy = state.clone()
    n = state.game.num_players
    others = [s for s in range(n) if s != player]
    pool = list(state.stock) + [c for s in others for c in state.hands[s]]
    sizes = {s: len(state.hands[s]) for s in others} | {n: len(state.stock)}
    suit, voids = state.game.suit, state.voids

    def allowed(card: int, seat: int) -> bool:
        return seat == n or suit[card] not in voids[seat]

    dealt = redeal(sorted(pool), sizes, random.Random(seed), allowed)
    for seat in others:
        copy.hands[seat] = dealt[seat]
    copy.stock = dealt[n]
    return copy
